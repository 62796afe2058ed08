// Set-Cookie values for the session hint (common/session-hint.ts). It lives as long as a session
// can (30 days) and is cleared on logout and whenever the session check finds no session, so a
// stale hint costs at most one /api/auth/me call.
import { SESSION_HINT_COOKIE, SESSION_HINT_VALUE } from '../../common/session-hint.ts';
import type { Env } from '../env.ts';

export const SESSION_HINT_MAX_AGE_S = 60 * 60 * 24 * 30;

const attributes = (env: Env) => `Path=/; SameSite=Lax${env.NODE_ENV === 'production' ? '; Secure' : ''}`;

export function setSessionHint(env: Env): string {
  return `${SESSION_HINT_COOKIE}=${SESSION_HINT_VALUE}; Max-Age=${SESSION_HINT_MAX_AGE_S}; ${attributes(env)}`;
}

export function clearSessionHint(env: Env): string {
  return `${SESSION_HINT_COOKIE}=; Max-Age=0; ${attributes(env)}`;
}
