// Code in running text may end a line after a slash, a dot or an underscore, never inside a word
// (site/lib/code-breaks.ts): `/api/v1/businesses/{id}/history` pushed /docs/api sideways at 320 px.
import { describe, expect, it } from 'vitest';
import { breakableCode, breakableCodeIn } from '../../site/lib/code-breaks.ts';

describe('code break opportunities', () => {
  it('escapes the text and adds <wbr> after each separator followed by more code', () => {
    expect(breakableCode('/api/v1/businesses/{businessId}/history')).toBe('/<wbr>api/<wbr>v1/<wbr>businesses/<wbr>{businessId}/<wbr>history');
    expect(breakableCode('report_requests.email <x> & "y"')).toBe('report_<wbr>requests.<wbr>email &lt;x&gt; &amp; &quot;y&quot;');
    expect(breakableCode('reports:read')).toBe('reports:read');
    expect(breakableCode('trailing/')).toBe('trailing/');
  });

  it('changes only what is inside <code> elements', () => {
    const html = '<p>See a/b.c and <code>data/outbox/x.eml</code> or <code class="k">a_b</code>.</p>';
    expect(breakableCodeIn(html)).toBe('<p>See a/b.c and <code>data/<wbr>outbox/<wbr>x.<wbr>eml</code> or <code class="k">a_<wbr>b</code>.</p>');
  });
});
