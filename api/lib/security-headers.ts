// The security headers of pages and API answers (scripts/start.ts applies them to pages).
import type { Env } from '../env.ts';

const PAGE_CSP = [
  "default-src 'self'",
  // Astro's island loader is an inline script; Stripe's card form is loaded from its own host.
  "script-src 'self' 'unsafe-inline' https://js.stripe.com",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self' https://api.stripe.com",
  'frame-src https://js.stripe.com https://hooks.stripe.com',
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
].join('; ');

/** API answers are data: nothing in them may run, load or be framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The sample provider's generated websites (decision 0041) show text chosen by whoever writes the
 * link. `sandbox` without `allow-scripts` or `allow-same-origin` gives them an opaque origin where
 * no script runs, so nothing on them can act with our origin's rights, even if escaping failed.
 */
export const SAMPLE_SITE_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function securityHeaders(env: Pick<Env, 'NODE_ENV'>, kind: 'page' | 'api' = 'page'): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': kind === 'page' ? PAGE_CSP : API_CSP,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
  if (env.NODE_ENV === 'production') headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  return headers;
}
