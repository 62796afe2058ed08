// One rule for every request that changes something with the session cookie (decision 0240): it
// must come from our own pages. SameSite=Lax keeps the cookie off cross-site posts, but not off a
// sibling subdomain's or another port's, and a post without a body needs no preflight.
import type { MiddlewareHandler } from 'hono';
import { SESSION_COOKIE_NAMES } from '../auth.ts';
import { AppError } from '../errors.ts';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export const FOREIGN_ORIGIN_MESSAGE = 'This request can only be sent from our own pages.';

const hasSessionCookie = (header: string | undefined) =>
  !!header && header.split(';').some((part) => SESSION_COOKIE_NAMES.includes(part.slice(0, part.indexOf('=')).trim()));

/**
 * Whether a request with these headers comes from the site at `ownOrigin`. The Origin decides
 * (`null`, from a sandboxed frame or a redirect across sites, is foreign); without one,
 * Sec-Fetch-Site. With neither, the sender is no browser (every browser sends Origin on a
 * cross-site post): a client holding the cookie itself is not the attack this rule stops.
 */
export function fromOwnSite(ownOrigin: string, origin: string | undefined, fetchSite: string | undefined): boolean {
  if (origin !== undefined) return origin === ownOrigin;
  if (fetchSite !== undefined) return fetchSite === 'same-origin';
  return true;
}

/** Whether `origin` is one of ours other than PUBLIC_BASE_URL's for a request that came to `host`
 *  (an agency's verified report domain, its pages posting to itself). */
export type AlsoOurs = (origin: string, host: string | undefined) => Promise<boolean>;

/** Refuses (403) a changing request that carries the session cookie from another site. Routes
 *  that authenticate otherwise (`exempt`: API keys, the widget's publishable keys, Stripe's
 *  signature) are left to their own checks. */
export function sameOriginWrites(publicBaseUrl: string, exempt: (path: string) => boolean, alsoOurs: AlsoOurs = async () => false): MiddlewareHandler {
  const ownOrigin = new URL(publicBaseUrl).origin;
  return async (c, next) => {
    if (SAFE_METHODS.has(c.req.method) || exempt(c.req.path) || !hasSessionCookie(c.req.header('cookie'))) return next();
    const origin = c.req.header('origin');
    if (fromOwnSite(ownOrigin, origin, c.req.header('sec-fetch-site')) || (origin && (await alsoOurs(origin, c.req.header('host'))))) return next();
    throw new AppError('forbidden', FOREIGN_ORIGIN_MESSAGE);
  };
}
