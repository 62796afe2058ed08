// A Markdown document's wide tables read on a phone as one card a row (issue 47: /privacy/data's
// tables were 493-729 px wide in a 280 px box, rows 559-798 px tall): every body cell carries its
// column's name in `data-label`, which the page's narrow-screen CSS shows before the value. Applied
// to the HTML the Markdown compiles to, where tables do not nest and every table has a header row.
import { attribute, textOf } from './scrollable-tables.ts';

const TABLE = /<table\b[^>]*>[\s\S]*?<\/table>/g;
const HEAD = /<thead\b[^>]*>([\s\S]*?)<\/thead>/;
const HEAD_CELL = /<th\b[^>]*>([\s\S]*?)<\/th>/g;
const ROW = /<tr\b[^>]*>[\s\S]*?<\/tr>/g;
const CELL = /<td\b([^>]*)>/g;

export function labelledCells(html: string): string {
  return html.replace(TABLE, (table: string) => {
    const head = HEAD.exec(table);
    if (!head) return table;
    const labels = [...head[1]!.matchAll(HEAD_CELL)].map((m) => textOf(m[1]!));
    const bodyStart = table.indexOf('</thead>');
    const body = table.slice(bodyStart).replace(ROW, (row: string) => {
      let i = 0;
      return row.replace(CELL, (cell: string, attrs: string) => {
        const label = labels[i++];
        return label && !/\bdata-label=/.test(attrs) ? `<td data-label="${attribute(label)}"${attrs}>` : cell;
      });
    });
    return table.slice(0, bodyStart) + body;
  });
}
