// How the widget's files are served (decisions 0119, 0205): the loader and the widget at stable
// addresses, cached five minutes, both loadable by other origins' pages.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { staticFiles } from '../../api/lib/static-files.ts';

const dir = mkdtempSync(join(tmpdir(), 'widget-serving-'));
let server: Server;
let base = '';
beforeAll(async () => {
  mkdirSync(join(dir, 'widget/v1'), { recursive: true });
  mkdirSync(join(dir, '_astro'), { recursive: true });
  writeFileSync(join(dir, 'widget/v1/loader.js'), 'void 0');
  writeFileSync(join(dir, 'widget/v1/widget.js'), 'void 1');
  writeFileSync(join(dir, '_astro/page.abc.js'), 'void 2');
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *');
  const serve = staticFiles(dir, () => []);
  server = createServer((req, res) => (serve(req, res) ? undefined : res.writeHead(404).end()));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
});

it('serves the widget and the loader for five minutes, both cross-origin', async () => {
  const widget = await fetch(`${base}/widget/v1/widget.js`);
  expect(widget.headers.get('cache-control')).toBe('public, max-age=300');
  expect(widget.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  expect(widget.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  const loader = await fetch(`${base}/widget/v1/loader.js`);
  expect(loader.headers.get('cache-control')).toBe('public, max-age=300');
  expect(loader.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
  expect(loader.headers.get('x-content-type-options')).toBe('nosniff');
  // Other files keep their rules and no cross-origin resource policy of the widget's.
  expect((await fetch(`${base}/_astro/page.abc.js`)).headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  const robots = await fetch(`${base}/robots.txt`);
  expect(robots.headers.get('cache-control')).toBe('public, max-age=0');
  expect(robots.headers.get('cross-origin-resource-policy')).toBeNull();
});

it('precompresses the widget loader although it is under 1 KB, and serves it brotli-encoded', async () => {
  const { precompress } = await import('../../api/lib/static-files.ts');
  const { request } = await import('node:http');
  const small = mkdtempSync(join(tmpdir(), 'widget-precompress-'));
  try {
    mkdirSync(join(small, 'widget/v1'), { recursive: true });
    writeFileSync(join(small, 'widget/v1/loader.js'), '(function(){var a=1;})();'.repeat(10));
    writeFileSync(join(small, 'other.js'), 'void 0;'.repeat(10));
    precompress(small);
    const serve = staticFiles(small, () => []);
    const local = createServer((req, res) => (serve(req, res) ? undefined : res.writeHead(404).end()));
    await new Promise<void>((done) => local.listen(0, '127.0.0.1', done));
    const port = (local.address() as { port: number }).port;
    const encodingOf = (path: string) =>
      new Promise<string | undefined>((done, fail) => {
        request({ host: '127.0.0.1', port, path, headers: { 'accept-encoding': 'br, gzip' } }, (res) => (res.resume(), done(res.headers['content-encoding'])))
          .on('error', fail)
          .end();
      });
    expect(await encodingOf('/widget/v1/loader.js')).toBe('br');
    // Other small files stay as they are (not worth compressing).
    expect(await encodingOf('/other.js')).toBeUndefined();
    local.close();
  } finally {
    rmSync(small, { recursive: true, force: true });
  }
});
