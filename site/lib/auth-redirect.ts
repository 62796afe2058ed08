// Where login and sign-up lead (spec section 2): to /subscribe?plan={plan} when the query says
// redirect=subscribe and a plan exists (in the query, or remembered in session storage by the
// subscribe flow), else to /account. A protected page may also send the user back to itself with
// redirect=<same-site path> (decision 0010); anything else is ignored.
import { STORAGE_PREFIX } from './session.ts';

/** Session-storage key of the plan a signed-out visitor chose on /subscribe. */
export const PLAN_STORAGE_KEY = `${STORAGE_PREFIX}selectedPlan`;

/** A path on this site, never another origin ("//evil", "/\\evil", "https:…" are refused). */
export function isSameSitePath(value: string): boolean {
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return false;
  try {
    const base = 'https://localrank.invalid';
    return new URL(value, base).origin === base;
  } catch {
    return false;
  }
}

export function destinationAfterAuth(search: string, storedPlan: string | null): string {
  const query = new URLSearchParams(search);
  const redirect = query.get('redirect');
  const plan = query.get('plan') || storedPlan;
  if (redirect === 'subscribe') return plan ? `/subscribe?plan=${encodeURIComponent(plan)}` : '/account';
  if (redirect && isSameSitePath(redirect)) return redirect;
  return '/account';
}

/** The same redirect/plan query, carried from /login to /signup and back. */
export function carriedQuery(search: string): string {
  const from = new URLSearchParams(search);
  const to = new URLSearchParams();
  for (const key of ['redirect', 'plan']) {
    const value = from.get(key);
    if (value) to.set(key, value);
  }
  const text = to.toString();
  return text ? `?${text}` : '';
}

/** The login address a protected page sends a signed-out visitor to. */
export function loginFor(pathWithQuery: string): string {
  return `/login?redirect=${encodeURIComponent(pathWithQuery)}`;
}

export function readStoredPlan(): string | null {
  try {
    return sessionStorage.getItem(PLAN_STORAGE_KEY);
  } catch {
    return null;
  }
}
