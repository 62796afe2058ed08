// The session hint: a non-httpOnly cookie that says only "this browser signed in". It carries no
// secret (the real session stays in better-auth's httpOnly cookie); the browser reads it to skip
// the session check entirely for visitors who never signed in, so marketing pages make no API call.
export const SESSION_HINT_COOKIE = 'localrank_session';
export const SESSION_HINT_VALUE = '1';

/** True when a `document.cookie` string carries the hint. */
export function hasSessionHint(cookieString: string): boolean {
  return cookieString.split(';').some((pair) => pair.trim() === `${SESSION_HINT_COOKIE}=${SESSION_HINT_VALUE}`);
}
