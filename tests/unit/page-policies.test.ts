// Pre-rendered pages carry the policy the build wrote for them (dist/_headers.json, decision 0133),
// found by the page's path however the request spells it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { pagePath, readPagePolicies } from '../../api/lib/static-files.ts';

it('names a page by its clean path, with or without a slash, a query or index.html', () => {
  for (const url of ['/faq', '/faq/', '/faq?x=1', '/faq/#top', '/faq/index.html', '/faq//']) expect(pagePath(url), url).toBe('/faq');
  for (const url of ['/', '/?error=subscription-failed', '/index.html', '//']) expect(pagePath(url), url).toBe('/');
  expect(pagePath('/privacy/data/')).toBe('/privacy/data');
});

it("reads each page's Content-Security-Policy from the build's headers file", () => {
  const dir = mkdtempSync(join(tmpdir(), 'page-policies-'));
  try {
    const entry = (pathname: string, value: string) => ({ pathname, headers: [{ key: 'Content-Security-Policy', value }] });
    writeFileSync(join(dir, '_headers.json'), JSON.stringify([entry('/', "script-src 'self' 'sha256-a'"), entry('/faq/', "script-src 'self' 'sha256-b'"), { pathname: '/x', headers: [] }]));
    const policies = readPagePolicies(dir);
    expect(policies.get('/')).toBe("script-src 'self' 'sha256-a'");
    expect(policies.get(pagePath('/faq?q=1'))).toBe("script-src 'self' 'sha256-b'");
    expect(policies.has('/x')).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
