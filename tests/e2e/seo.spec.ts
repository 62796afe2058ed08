import { STATUS_CODES, request as httpRequest } from 'node:http';
import { PAGE_DIRECTIVES, securityHeaders } from '../../api/lib/security-headers.ts';
import { EXPECTS_CSP_REFUSAL, expect, test } from './fixtures.ts';

const PAGES = ['/', '/faq', '/help-center', '/methodology', '/contact', '/privacy', '/terms'];

for (const path of PAGES) {
  test(`${path}: title, description, canonical and Open Graph tags`, async ({ page, request, baseURL }) => {
    await page.goto(path);
    await expect(page).toHaveTitle(/ \| LocalRank$|LocalRank/);
    const meta = (selector: string) => page.locator(selector).getAttribute('content');
    expect((await meta('meta[name="description"]'))!.length).toBeGreaterThan(50);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    // The build names the address the server runs under (npm start rebuilds when it changes).
    expect(canonical).toBe(`${baseURL}${path}`);
    expect(await meta('meta[property="og:title"]')).toBe(await page.title());
    expect(await meta('meta[property="og:url"]')).toBe(canonical);
    const image = await meta('meta[property="og:image"]');
    const imageResponse = await request.get(new URL(image!).pathname);
    expect(imageResponse.status()).toBe(200);
    expect(imageResponse.headers()['content-type']).toBe('image/png');
    const png = await imageResponse.body();
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(png.readUInt32BE(16)).toBe(1200);
    expect(png.readUInt32BE(20)).toBe(630);
    await expect(page.locator('link[rel="icon"]')).toHaveAttribute('href', '/favicon.svg');
  });
}

test('robots.txt points at the sitemap and keeps private screens out', async ({ request }) => {
  const res = await request.get('/robots.txt');
  expect(res.status()).toBe(200);
  const text = await res.text();
  expect(text).toContain('User-agent: *');
  expect(text).toContain('Disallow: /api/');
  expect(text).toContain('Disallow: /dashboard');
  expect(text).toMatch(/^Sitemap: https?:\/\/.+\/sitemap\.xml$/m);
});

test('sitemap.xml lists the public pages', async ({ request }) => {
  const res = await request.get('/sitemap.xml');
  expect(res.status()).toBe(200);
  expect(res.headers()['content-type']).toContain('xml');
  const locs = [...(await res.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname);
  expect(locs).toEqual(['/', '/faq', '/help-center', '/methodology', '/docs/api', '/contact', '/privacy', '/privacy/data', '/terms']);
});

test('the favicon is served', async ({ request }) => {
  const res = await request.get('/favicon.svg');
  expect(res.status()).toBe(200);
});

test('pages are sent compressed when the browser accepts it, and plain when it does not', async ({ request }) => {
  const gzip = await request.get('/help-center', { headers: { 'Accept-Encoding': 'gzip' } });
  expect(gzip.headers()['content-encoding']).toBe('gzip');
  expect(gzip.headers()['vary']).toMatch(/Accept-Encoding/i);
  expect(await gzip.text()).toContain('How can we help?');
  const br = await request.get('/faq', { headers: { 'Accept-Encoding': 'br' } });
  expect(br.headers()['content-encoding']).toBe('br');
  const plain = await request.get('/faq', { headers: { 'Accept-Encoding': 'identity' } });
  expect(plain.headers()['content-encoding']).toBeUndefined();
});

test('pre-rendered pages and bundles are sent as compressed at build time: a fixed length and an ETag per encoding', async ({ request }) => {
  const br = await request.get('/faq', { headers: { 'Accept-Encoding': 'gzip, br' } });
  expect(br.headers()['content-encoding']).toBe('br');
  // Compressed per request, the answer would be chunked without a length.
  expect(Number(br.headers()['content-length'])).toBeGreaterThan(1000);
  expect(br.headers()['etag']).toMatch(/-br"$/);
  const again = await request.get('/faq', { headers: { 'Accept-Encoding': 'br', 'If-None-Match': br.headers()['etag']! } });
  expect(again.status()).toBe(304);
  const gzip = await request.get('/faq', { headers: { 'Accept-Encoding': 'gzip' } });
  expect(gzip.headers()['etag']).toMatch(/-gzip"$/);
  expect(await gzip.text()).toContain('Frequently');
});

test('TRACE and other methods no handler speaks answer 405 with Allow, on server-rendered pages, pre-rendered pages and the API', async ({ baseURL }) => {
  for (const [method, path] of [['TRACE', '/report/abc'], ['TRACE', '/'], ['TRACE', '/dashboard/x'], ['TRACE', '/unsubscribe?token=x'], ['TRACE', '/api/health'], ['PROPFIND', '/faq']]) {
    const { status, allow, body } = await new Promise<{ status: number; allow: string; body: string }>((resolve, reject) => {
      const req = httpRequest(`${baseURL}${path}`, { method }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c));
        res.on('end', () => resolve({ status: res.statusCode!, allow: String(res.headers.allow), body: text }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(status, `${method} ${path}`).toBe(405);
    expect(allow).toContain('GET');
    expect(JSON.parse(body).code).toBe('method_not_allowed');
  }
});

/** A policy's directives by name. */
const directives = (csp: string) =>
  new Map(
    csp
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter(([name]) => name)
      .map(([name, ...values]) => [name!, values]),
  );

test('pages, pre-rendered or not, and the 404 carry the security headers, and admit inline scripts only by their hashes', async ({ request }) => {
  for (const path of ['/', '/privacy', '/account', '/dashboard', '/dashboard/someone-else', '/report/unknown', '/unsubscribe?token=x', '/no-such-page']) {
    const res = await request.get(path);
    // The reason phrase follows the status (site/middleware.ts): never "404 OK".
    expect(res.statusText(), path).toBe(STATUS_CODES[res.status()]);
    const headers = res.headers();
    for (const [name, value] of Object.entries(securityHeaders({ NODE_ENV: 'test' }))) {
      if (name !== 'Content-Security-Policy') expect(headers[name.toLowerCase()], `${path} ${name}`).toBe(value);
    }
    const csp = directives(headers['content-security-policy']!);
    for (const directive of PAGE_DIRECTIVES) {
      const [name, ...values] = directive.split(' ');
      expect(csp.get(name!), `${path} ${name}`).toEqual(values);
    }
    const scripts = csp.get('script-src')!;
    expect(scripts.filter((source) => !source.startsWith("'sha256-")), path).toEqual(["'self'"]);
    expect(scripts.length, `${path}: the hashes of the inline scripts Astro emits`).toBeGreaterThan(1);
  }
});

test('a script written into a page at run time does not run: the policy has no unsafe-inline', { annotation: EXPECTS_CSP_REFUSAL }, async ({ page }) => {
  for (const path of ['/', '/dashboard', '/report/unknown']) {
    await page.goto(path);
    const ran = await page.evaluate(() => {
      const script = document.createElement('script');
      script.textContent = 'window.injected = true';
      document.body.append(script);
      return 'injected' in window;
    });
    expect(ran, path).toBe(false);
  }
});
