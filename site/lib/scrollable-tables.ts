// A Markdown document's tables (docs/methodology.md, docs/privacy-data.md, …) each go into a box
// that scrolls the table sideways on a narrow screen, never the page:
// `<div class="table-scroll" role="region" tabindex="0" aria-label="…">`. A box that scrolls must
// be reachable from the keyboard and named (axe scrollable-region-focusable, WCAG 2.1.1); the name
// is the heading the table sits under ("Online Reviews", or "Online Reviews, table 2" for the
// second under the same heading). Applied to the HTML the Markdown compiles to, in which tables do
// not nest and headings hold no table.

const TAG = /<h([1-6])\b[^>]*>([\s\S]*?)<\/h\1>|<table\b[^>]*>[\s\S]*?<\/table>/g;

export const textOf = (html: string) =>
  html
    .replace(/<[^>]*>/g, '')
    .replace(/&(?:#(\d+)|#x([\da-f]+)|(amp|lt|gt|quot|#39|apos));/gi, (entity, dec: string, hex: string, named: string) =>
      dec ? String.fromCodePoint(Number(dec)) : hex ? String.fromCodePoint(parseInt(hex, 16)) : ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[named.toLowerCase()] ?? entity,
    )
    .replace(/\s+/g, ' ')
    .trim();

export const attribute = (text: string) => text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

export function scrollableTables(html: string): string {
  let heading = '';
  const perHeading = new Map<string, number>();
  return html.replace(TAG, (match: string, level: string | undefined, inner: string | undefined) => {
    if (level) {
      heading = textOf(inner ?? '');
      return match;
    }
    const n = (perHeading.get(heading) ?? 0) + 1;
    perHeading.set(heading, n);
    const base = heading || 'Table';
    const label = n > 1 ? `${base}, table ${n}` : base;
    return `<div class="table-scroll" role="region" tabindex="0" aria-label="${attribute(label)}">${match}</div>`;
  });
}
