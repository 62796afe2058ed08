// The security headers of pages and API answers (api/server.ts applies them to pages).
//
// A page's Content-Security-Policy is written by Astro's `security.csp` (astro.config.mjs) from
// the directives below: it knows every inline script it emits (the island loader, the hydration
// directives, the small component scripts it inlines) and allows exactly those by their SHA-256
// hash, so `script-src` has no 'unsafe-inline' (decision 0105). Server-rendered pages get it as a
// header from Astro; pre-rendered pages from the build's dist/_headers.json (api/server.ts).
import type { Env } from '../env.ts';

/** Stripe.js and its Payment Element, with exactly the origins Stripe's security guide lists. */
export const STRIPE_CSP = {
  script: ['https://js.stripe.com', 'https://*.js.stripe.com'],
  frame: ['https://js.stripe.com', 'https://*.js.stripe.com', 'https://hooks.stripe.com'],
  connect: ['https://api.stripe.com'],
};

/** Every directive of a page's policy but script-src and style-src, which Astro writes. */
export const PAGE_DIRECTIVES: Array<`${'default' | 'img' | 'font' | 'connect' | 'frame' | 'object'}-src ${string}` | `${'frame-ancestors' | 'base-uri' | 'form-action'} ${string}`> = [
  "default-src 'self'",
  "img-src 'self' data: blob: https:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "object-src 'none'",
];
/** Scripts: our own origin, plus the hashes Astro adds for the inline scripts it emits. */
export const PAGE_SCRIPT_SOURCES = ["'self'"];
/**
 * Styles: the build inlines each page's CSS and islands render `style` attributes (score bars), so
 * styles stay inline-capable. Scripts are what an injection would need, and they are not.
 */
export const PAGE_STYLE_SOURCES = ["'self'", "'unsafe-inline'"];

/**
 * The policy of a page Astro did not write one for (an endpoint's HTML answer, a file the build
 * did not list): the same directives, and no inline script at all.
 */
export const PAGE_FALLBACK_CSP = [...PAGE_DIRECTIVES, `script-src ${PAGE_SCRIPT_SOURCES.join(' ')}`, `style-src ${PAGE_STYLE_SOURCES.join(' ')}`].join('; ');

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
    'Content-Security-Policy': kind === 'api' ? API_CSP : PAGE_FALLBACK_CSP,
    'X-Frame-Options': 'DENY',
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'strict-origin-when-cross-origin',
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=()',
    'Cross-Origin-Opener-Policy': 'same-origin',
  };
  if (env.NODE_ENV === 'production') headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
  return headers;
}
