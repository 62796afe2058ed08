// A Markdown table's body cells carry their column's name (site/lib/stacked-tables.ts), which
// /privacy/data shows before each value when a phone reads a row as a card.
import { describe, expect, it } from 'vitest';
import { labelledCells } from '../../site/lib/stacked-tables.ts';

describe('labelledCells', () => {
  it('gives each body cell its column header\'s text, entities and markup as text', () => {
    const html = '<h2>X</h2><table><thead><tr><th>who</th><th align="left">what <em>happens</em> &amp; why</th></tr></thead><tbody><tr><td>A</td><td align="left">b</td></tr><tr><td>C</td><td>d "q"</td></tr></tbody></table>';
    expect(labelledCells(html)).toBe(
      '<h2>X</h2><table><thead><tr><th>who</th><th align="left">what <em>happens</em> &amp; why</th></tr></thead><tbody><tr><td data-label="who">A</td><td data-label="what happens &amp; why" align="left">b</td></tr><tr><td data-label="who">C</td><td data-label="what happens &amp; why">d "q"</td></tr></tbody></table>',
    );
  });

  it('labels each table with its own headers and leaves a table without a header row alone', () => {
    const a = '<table><thead><tr><th>a</th></tr></thead><tbody><tr><td>1</td></tr></tbody></table>';
    const b = '<table><thead><tr><th>b</th></tr></thead><tbody><tr><td>2</td></tr></tbody></table>';
    expect(labelledCells(a + b)).toBe(a.replace('<td>', '<td data-label="a">') + b.replace('<td>', '<td data-label="b">'));
    const bare = '<table><tbody><tr><td>1</td></tr></tbody></table>';
    expect(labelledCells(bare)).toBe(bare);
  });
});
