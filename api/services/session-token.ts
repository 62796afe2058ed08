// A cheap session check for hot read routes: the signed session cookie better-auth sets is
// verified here with one HMAC, and the session row is joined into the route's own SQL query, so
// a dashboard read costs one round trip instead of better-auth's getSession plus a user lookup.
// Sliding expiry is left to better-auth (every /api/auth/me call refreshes it). Decision 0061.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../context.ts';
import { secretOf, SESSION_COOKIE_NAMES as COOKIE_NAMES } from '../auth.ts';

function cookieValue(header: string | null | undefined): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const name = part.slice(0, i).trim();
    if (COOKIE_NAMES.includes(name)) return part.slice(i + 1).trim();
  }
  return null;
}

/** The session token from a correctly signed session cookie, or null. The caller still checks
 *  that the session exists and has not expired. */
export async function sessionTokenFrom(ctx: AppContext, cookieHeader: string | null | undefined): Promise<string | null> {
  const raw = cookieValue(cookieHeader);
  if (!raw) return null;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const dot = value.lastIndexOf('.');
  if (dot < 1) return null;
  const token = value.slice(0, dot);
  const signature = Buffer.from(value.slice(dot + 1), 'base64');
  const expected = createHmac('sha256', await secretOf(ctx)).update(token).digest();
  if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) return null;
  return token;
}
