import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The caller's IP: the socket's, or behind a trusted proxy the last X-Forwarded-For hop, the one
 * that proxy added. Earlier hops come from the client, who can write anything there (decision 0075).
 */
export function clientIp(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  try {
    return getConnInfo(c).remote.address ?? 'unknown';
  } catch {
    return 'unknown'; // in-process requests (tests) have no socket
  }
}

export const userAgent = (c: Context) => c.req.header('user-agent')?.slice(0, 500) ?? null;
