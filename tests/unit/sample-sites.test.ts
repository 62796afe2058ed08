import { describe, expect, it } from 'vitest';
import { jsonForScript, sampleSiteResponse, encodeSiteId, type SiteProfile } from '../../api/report/analysis/sample-sites.ts';

describe('sample sites', () => {
  it('JSON inside a script block cannot close it, and still parses to the same value', () => {
    const value = { name: '</script><script>alert(1)</script> & <!-- \u2028\u2029' };
    const text = jsonForScript(value);
    expect(text).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(text)).toEqual(value);
  });

  it('answers with a sandbox policy, so nothing on a generated page runs with our origin', async () => {
    const profile: SiteProfile = { n: 'Barton Creek Dental', a: '4120 Mill Rd, Austin, TX 78704', p: '(512) 555-0134', c: 'dentist', q: 7 };
    const res = sampleSiteResponse(`${encodeSiteId(profile)}/`);
    expect(res.status).toBe(200);
    const csp = res.headers.get('content-security-policy')!;
    expect(csp.split('; ')[0]).toBe('sandbox');
    expect(csp).not.toContain('allow-scripts');
    expect(csp).not.toContain('script-src');
  });

  it('a profile with a NUL, a lone surrogate or a control character is not a site (404); an emoji is text like any other', () => {
    const base: SiteProfile = { n: 'Barton Creek Dental', a: '4120 Mill Rd, Austin, TX 78704', p: '(512) 555-0134', c: 'dentist', q: 7 };
    for (const field of ['n', 'a', 'p', 'c'] as const) {
      for (const bad of ['a\u0000b', '\ud800', 'x\udfff', 'line\nbreak']) {
        const res = sampleSiteResponse(`${encodeSiteId({ ...base, [field]: bad })}/`);
        expect(res.status, `${field}=${JSON.stringify(bad)}`).toBe(404);
      }
    }
    for (const page of ['', 'contact']) expect(sampleSiteResponse(`${encodeSiteId({ ...base, n: 'Smile 😀 Dental', a: '1 Main St 😀, Austin, TX 78701' })}/${page}`).status).toBe(200);
  });
});
