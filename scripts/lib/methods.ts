// Answers the node:http server gives itself. The HTTP methods the product answers. Others (TRACE, TRACK, CONNECT, WebDAV's…) get 405 at the
// node:http server: the web Request that Astro and Hono build from a node request throws on them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Env } from '../../api/env.ts';
import { securityHeaders } from '../../api/lib/security-headers.ts';

export const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ALLOW = [...ALLOWED_METHODS].join(', ');

/** Answers 405 in the API's error shape, with the API's security headers. */
export function refuseMethod(env: Pick<Env, 'NODE_ENV'>, req: IncomingMessage, res: ServerResponse): void {
  const body = JSON.stringify({ code: 'method_not_allowed', message: `The method ${String(req.method).slice(0, 20)} is not allowed.` });
  for (const [name, value] of Object.entries(securityHeaders(env, 'api'))) res.setHeader(name, value);
  res.writeHead(405, { Allow: ALLOW, 'Content-Type': 'application/json; charset=UTF-8', 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
  res.end(body);
}

/** Node's own refusals (headers too large, a malformed request line) in the API's error shape. */
export function answerClientError(error: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) return void socket.destroy();
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  const body = JSON.stringify({ code: tooLarge ? 'headers_too_large' : 'invalid_input', message: tooLarge ? 'The request headers are too large.' : 'The request could not be read.' });
  // An answer to HEAD has no body, or the client reads it as the start of a next answer.
  const head = /^HEAD /.test(String((error as { rawPacket?: Buffer }).rawPacket ?? '').slice(0, 5));
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=UTF-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`);
}
