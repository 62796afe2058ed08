// Where a line may end inside code set in running text (issue 47): after a slash, a dot or an
// underscore, as in `/api/v1/businesses/{id}/history` or `report_requests.email`. Browsers end
// lines at none of them, so such code either pushed the page sideways on a phone or, with
// `overflow-wrap: anywhere`, broke inside a word ("reports:r|ead"). A `<wbr>` after each
// separator lets the line end there and nowhere inside a word (CSS `overflow-wrap: break-word`
// stays the last resort for a word longer than the line).

const SEPARATOR = /([/._])(?=[^/._<\s])/g;

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** `text` as HTML, with a line break opportunity after each separator. */
export function breakableCode(text: string): string {
  return escape(text).replace(SEPARATOR, '$1<wbr>');
}

/** `html` with a line break opportunity after each separator inside its `<code>` elements. */
export function breakableCodeIn(html: string): string {
  return html.replace(/(<code\b[^>]*>)([^<]*)(<\/code>)/g, (_m, open: string, inner: string, close: string) => open + inner.replace(SEPARATOR, '$1<wbr>') + close);
}
