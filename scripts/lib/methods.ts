// The HTTP methods the product answers. Others (TRACE, TRACK, CONNECT, WebDAV's…) get 405 at the
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
