// What the node server sends around the answers themselves: the security headers on every static
// file (images, bundles, robots.txt), not only on pages; and `Connection: close` after a body it
// refused (413), whose rest it does not read.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BODY_BYTES } from '../../api/app.ts';
import { securityHeaders } from '../../api/lib/security-headers.ts';
import { staticFiles } from '../../api/lib/static-files.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

const dir = mkdtempSync(join(tmpdir(), 'http-edges-'));
let t: TestContext;
let server: Server;
let port = 0;
beforeAll(async () => {
  t = await createTestContext();
  mkdirSync(join(dir, 'og'), { recursive: true });
  mkdirSync(join(dir, '_astro'), { recursive: true });
  writeFileSync(join(dir, 'og/home.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
  writeFileSync(join(dir, '_astro/page.abc.js'), 'void 0');
  writeFileSync(join(dir, 'robots.txt'), 'User-agent: *');
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
  // As api/server.ts composes them.
  const pageHeaders = Object.entries(securityHeaders({ NODE_ENV: 'test' }));
  const serve = staticFiles(dir, () => pageHeaders);
  const api = getRequestListener(t.app.fetch);
  server = createServer((req, res) => (serve(req, res) ? undefined : api(req, res)));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
});
afterAll(async () => {
  server.close();
  rmSync(dir, { recursive: true, force: true });
  await t.close();
});

describe('static files', () => {
  it('carry the security headers whatever their type', async () => {
    for (const path of ['/og/home.png', '/_astro/page.abc.js', '/robots.txt', '/']) {
      const res = await fetch(`http://127.0.0.1:${port}${path}`);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(res.headers.get('content-security-policy'), path).toContain("default-src 'self'");
    }
  });
});

describe('a refused body', () => {
  it('is answered 413 with Connection: close, and the connection is closed', async () => {
    const body = JSON.stringify({ padding: 'x'.repeat(MAX_BODY_BYTES + 1024) });
    const answer = await new Promise<{ text: string; closed: boolean }>((done) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(`POST /api/submit-request HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n`);
        socket.write(body);
      });
      let text = '';
      socket.on('data', (chunk) => (text += chunk));
      socket.on('error', () => undefined);
      socket.on('close', () => done({ text, closed: true }));
    });
    expect(answer.text).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer.text).toMatch(/\r\nconnection: close\r\n/i);
    expect(answer.closed).toBe(true);
  });
});
