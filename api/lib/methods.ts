// Answers the node:http server gives itself. The HTTP methods the product answers. Others (TRACE, TRACK, CONNECT, WebDAV's…) get 405 at the
// node:http server: the web Request that Astro and Hono build from a node request throws on them.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Env } from '../env.ts';
import { errorAnswer } from './problem.ts';
import { securityHeaders } from './security-headers.ts';

export const ALLOWED_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const ALLOW = [...ALLOWED_METHODS].join(', ');

/** Answers 405 in the API's error shape, with the API's security headers. */
export function refuseMethod(env: Pick<Env, 'NODE_ENV'>, req: IncomingMessage, res: ServerResponse): void {
  const { contentType, body } = errorAnswer(req.url ?? '/', { code: 'method_not_allowed', message: `The method ${String(req.method).slice(0, 20)} is not allowed.` }, 405);
  for (const [name, value] of Object.entries(securityHeaders(env, 'api'))) res.setHeader(name, value);
  res.writeHead(405, { Allow: ALLOW, 'Content-Type': contentType, 'Content-Length': Buffer.byteLength(body), 'Cache-Control': 'no-store' });
  res.end(body);
}

/** Node's own refusals (headers too large, a malformed request line) in the API's error shape. */
export function answerClientError(error: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) return void socket.destroy();
  const tooLarge = error.code === 'HPE_HEADER_OVERFLOW';
  const status = tooLarge ? '431 Request Header Fields Too Large' : '400 Bad Request';
  // The request line, as far as node read it: its method and path.
  const [method, path = '/'] = String((error as { rawPacket?: Buffer }).rawPacket ?? '').slice(0, 2048).split(/[ \r\n]/, 2);
  const refusal = tooLarge
    ? { code: 'headers_too_large' as const, message: 'The request headers are too large.' }
    : { code: 'invalid_input' as const, message: 'The request could not be read.' };
  const { contentType, body } = errorAnswer(path, refusal, tooLarge ? 431 : 400);
  // An answer to HEAD has no body, or the client reads it as the start of a next answer.
  const head = method === 'HEAD';
  socket.end(`HTTP/1.1 ${status}\r\nContent-Type: ${contentType}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`);
}
