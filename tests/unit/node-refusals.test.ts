// What the node server answers itself, before Astro or the API sees a request (api/lib/methods.ts):
// the same error shapes as the API, problem details under /api/v1/.
import { createServer, request, type Server } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ALLOWED_METHODS, answerClientError, refuseMethod } from '../../api/lib/methods.ts';

let server: Server;
let port = 0;
beforeAll(async () => {
  server = createServer((req, res) => (ALLOWED_METHODS.has(req.method ?? '') ? res.end('ok') : refuseMethod({ NODE_ENV: 'test' }, req, res)));
  server.on('clientError', answerClientError);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as { port: number }).port;
});
afterAll(() => server.close());

function send(method: string, path: string, headers: Record<string, string> = {}): Promise<{ status: number; type: string; body: Record<string, unknown> }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode!, type: String(res.headers['content-type']), body: JSON.parse(text) }));
    });
    req.on('error', fail);
    req.end();
  });
}

it('refuses a method no handler speaks with 405: problem details on the public API, { code, message } elsewhere', async () => {
  const v1 = await send('TRACE', '/api/v1/businesses');
  expect(v1).toMatchObject({ status: 405, type: 'application/problem+json', body: { status: 405, code: 'method_not_allowed', type: '/docs/api#error-method_not_allowed' } });
  const api = await send('TRACE', '/api/auth/me');
  expect(api).toMatchObject({ status: 405, type: 'application/json; charset=UTF-8', body: { code: 'method_not_allowed', message: 'The method TRACE is not allowed.' } });
});

it('answers headers over 16 KB with 431 in the shape of the path asked for', async () => {
  const big = { 'x-padding': 'a'.repeat(20_000) };
  expect(await send('GET', '/api/v1/reports/x', big)).toMatchObject({ status: 431, type: 'application/problem+json', body: { status: 431, code: 'headers_too_large', detail: 'The request headers are too large.' } });
  expect(await send('GET', '/api/auth/me', big)).toMatchObject({ status: 431, body: { code: 'headers_too_large', message: 'The request headers are too large.' } });
});

it('answers an unreadable request line with 400, and a HEAD with no body', async () => {
  const raw = (text: string) =>
    new Promise<string>((done) => {
      const socket = connect(port, '127.0.0.1', () => socket.end(text));
      let answer = '';
      socket.on('data', (chunk) => (answer += chunk));
      socket.on('close', () => done(answer));
    });
  const garbled = await raw('GET /api/v1/x HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n');
  expect(garbled).toMatch(/^HTTP\/1\.1 400 Bad Request\r\nContent-Type: application\/problem\+json/);
  expect(garbled).toContain('"code":"invalid_input"');
  const head = await raw('HEAD /api/x HTTP/1.1\r\nHost: a\r\nContent-Length: x\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
  expect(head.endsWith('\r\n\r\n')).toBe(true);
});
