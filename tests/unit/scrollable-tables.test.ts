// Markdown tables in a named box that scrolls them (site/lib/scrollable-tables.ts): every table is
// wrapped once, named after the heading it sits under, numbered when one heading has several.
import { describe, expect, it } from 'vitest';
import { scrollableTables } from '../../site/lib/scrollable-tables.ts';

const table = (cell: string) => `<table><thead><tr><th>A</th></tr></thead><tbody><tr><td>${cell}</td></tr></tbody></table>`;

describe('scrollableTables', () => {
  it('wraps each table in a focusable region named after the heading above it', () => {
    const html = `<h1>Doc</h1><p>x</p>${table('1')}<h2 id="r">Online <em>reviews</em> &amp; more</h2>${table('2')}<p>y</p>${table('3')}<h3>Next &quot;one&quot;</h3>${table('4')}`;
    const out = scrollableTables(html);
    const boxes = [...out.matchAll(/<div class="table-scroll" role="region" tabindex="0" aria-label="([^"]*)">(<table>[\s\S]*?<\/table>)<\/div>/g)];
    expect(boxes.map((m) => m[1])).toEqual(['Doc', 'Online reviews &amp; more', 'Online reviews &amp; more, table 2', 'Next &quot;one&quot;']);
    expect(boxes.map((m) => m[2])).toEqual([table('1'), table('2'), table('3'), table('4')]);
    expect(out.match(/<table>/g)).toHaveLength(4);
    expect(out.replace(/<div class="table-scroll"[^>]*>|<\/div>/g, '')).toBe(html);
  });

  it('names a table before any heading "Table" and leaves a document without tables alone', () => {
    expect(scrollableTables(table('x'))).toContain('aria-label="Table"');
    expect(scrollableTables('<h2>A</h2><p>b</p>')).toBe('<h2>A</h2><p>b</p>');
  });
});
