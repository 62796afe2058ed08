import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/** The caller's IP: the socket's, or the first X-Forwarded-For hop when behind a trusted proxy. */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',')[0]?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // in-process requests (tests) have no socket
  }
}

export const userAgent = (c: Context) => c.req.header('user-agent')?.slice(0, 500) ?? null;
