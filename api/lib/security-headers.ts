// The security headers of pages and API answers (scripts/start.ts applies them to pages).
import type { Env } from '../env.ts';

// Stripe.js and its Payment Element, on the payment page only, with exactly the origins Stripe's
// security guide lists for them (script, frames, API calls).
const STRIPE = {
  script: 'https://js.stripe.com https://*.js.stripe.com',
  frame: 'https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com',
  connect: 'https://api.stripe.com',
};

function pageCsp(payment: boolean): string {
  return [
    "default-src 'self'",
    // Astro's island loader is an inline script.
    `script-src 'self' 'unsafe-inline'${payment ? ` ${STRIPE.script}` : ''}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    `connect-src 'self'${payment ? ` ${STRIPE.connect}` : ''}`,
    payment ? `frame-src ${STRIPE.frame}` : "frame-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join('; ');
}

/** The pages that load Stripe.js (the subscribe flow's payment form). */
export const isPaymentPage = (url: string) => /^\/subscribe\/?(\?|$)/.test(url);

/** API answers are data: nothing in them may run, load or be framed. */
export const API_CSP = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * The sample provider's generated websites (decision 0041) show text chosen by whoever writes the
 * link. `sandbox` without `allow-scripts` or `allow-same-origin` gives them an opaque origin where
 * no script runs, so nothing on them can act with our origin's rights, even if escaping failed.
 */
export const SAMPLE_SITE_CSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

export function securityHeaders(env: Pick<Env, 'NODE_ENV'>, kind: 'page' | 'payment' | 'api' = 'page'): Record<string, string> {
  const headers: Record<string, string> = {
    'Content-Security-Policy': kind === 'api' ? API_CSP : pageCsp(kind === 'payment'),
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
  if (env.NODE_ENV === 'production') headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  return headers;
}
