// The API's routes, one table for the tests that walk them all: tests/integration/bad-input.test.ts
// (garbage ids and bodies, signed out and in, with each route's rules) and the fuzz suite
// (tests/helpers/fuzz.ts). Both check the table against the app's own route list, so a new route
// fails them until it is added here.
import { STRIPE_WEBHOOK_MAX_BYTES } from '../../api/routes/billing.ts';
import { PREVIEW_MAX_BYTES } from '../../api/routes/branding.ts';
import { LOGO_MAX_BYTES } from '../../common/schemas/branding.ts';

export type Access = 'public' | 'signed-in';
export interface RouteRule {
  access: Access;
  /** Validates a JSON body: every bad body is a 400 (413 when too large). */
  json?: boolean;
  /** Also takes a plain HTML form post (the contact form before its script loads): a bad one is
   *  a 400 page, not the API's JSON shape. */
  form?: boolean;
  /** Answers like a website (the sample sites), not in the API's JSON shape. */
  website?: boolean;
  /** Ends the session it is called with. */
  endsSession?: boolean;
  /** Has a larger body limit of its own (an uploaded image, Stripe's events). */
  limit?: { bytes: number; type: string };
}

/** The session API's routes (cookie or none), with what each expects. */
export const ROUTES: Record<string, RouteRule> = {
  'GET /api/health': { access: 'public' },
  'GET /api/auth/me': { access: 'signed-in' },
  'POST /api/auth/signup': { access: 'public', json: true },
  'POST /api/auth/login': { access: 'public', json: true },
  'POST /api/auth/logout': { access: 'public', endsSession: true },
  'POST /api/auth/forgot-password': { access: 'public', json: true },
  'POST /api/auth/reset-password': { access: 'public', json: true },
  'POST /api/auth/change-password': { access: 'signed-in', json: true },
  'POST /api/auth/change-email': { access: 'signed-in', json: true },
  'POST /api/auth/verification-email': { access: 'signed-in' },
  'GET /api/auth/security': { access: 'signed-in' },
  // Ends the other sessions only: the shared one it is called with stays.
  'POST /api/auth/sessions/revoke-others': { access: 'signed-in' },
  'POST /api/submit-request': { access: 'public', json: true },
  // The signed link's token is the proof of access (whoever holds it got it by e-mail).
  'GET /api/reports/:token/report.pdf': { access: 'public' },
  'GET /api/reports/:token/score-card.png': { access: 'public' },
  'POST /api/reports/:token/save': { access: 'signed-in' },
  'POST /api/unsubscribe': { access: 'public' },
  'GET /api/sample-sites/:rest{.+}': { access: 'public', website: true },
  'GET /api/my-business': { access: 'signed-in' },
  'GET /api/my-businesses': { access: 'signed-in' },
  'GET /api/portfolio': { access: 'signed-in' },
  'GET /api/business/:businessId': { access: 'signed-in' },
  'GET /api/business/:businessId/ai-visibility': { access: 'signed-in' },
  'GET /api/business/:businessId/review-alerts': { access: 'signed-in' },
  // Validates its body only once the business is known to be the viewer's (404 here first);
  // tests/integration/early-warning.test.ts covers its 400s.
  'PUT /api/business/:businessId/alert-threshold': { access: 'signed-in' },
  // The connected Google Business Profile (issue 48); tests/integration/google-profile.test.ts covers the answers.
  'GET /api/business/:businessId/google-profile': { access: 'signed-in' },
  'DELETE /api/business/:businessId/google-profile': { access: 'signed-in' },
  'GET /api/business/:businessId/google-profile/metrics': { access: 'signed-in' },
  // The business is checked before the body is read (a stranger learns nothing from a 400), as the threshold's.
  'PUT /api/business/:businessId/google-profile/reviews/:reviewId/reply': { access: 'signed-in' },
  'DELETE /api/business/:businessId/google-profile/reviews/:reviewId/reply': { access: 'signed-in' },
  'PUT /api/business/:businessId/visibility-keywords': { access: 'signed-in' },
  // tests/integration/own-brand.test.ts covers its 400s.
  'PUT /api/business/:businessId/rank-settings': { access: 'signed-in' },
  'POST /api/contact': { access: 'public', json: true, form: true },
  'GET /api/clients': { access: 'signed-in' },
  'POST /api/clients': { access: 'signed-in', json: true },
  'GET /api/clients/:clientId': { access: 'signed-in' },
  // Like the alert threshold: the id is checked before the body (404 here first); the body's 400s
  // are covered in tests/integration/clients.test.ts.
  'PATCH /api/clients/:clientId': { access: 'signed-in' },
  'GET /api/clients/:clientId/deletion': { access: 'signed-in' },
  'DELETE /api/clients/:clientId': { access: 'signed-in' },
  'POST /api/clients/:clientId/send': { access: 'signed-in' },
  // Draws the unsaved form (nothing stored); a logo comes inside the JSON as a data URL.
  'GET /api/branding-profiles': { access: 'signed-in' },
  'POST /api/branding-profiles': { access: 'signed-in', json: true },
  'GET /api/branding-profiles/:profileId': { access: 'signed-in' },
  'PUT /api/branding-profiles/:profileId': { access: 'signed-in' },
  'DELETE /api/branding-profiles/:profileId': { access: 'signed-in' },
  'PUT /api/branding-profiles/:profileId/logo': { access: 'signed-in', limit: { bytes: LOGO_MAX_BYTES, type: 'image/png' } },
  'DELETE /api/branding-profiles/:profileId/logo': { access: 'signed-in' },
  'PUT /api/branding-profiles/:profileId/domain': { access: 'signed-in' },
  'POST /api/branding-profiles/:profileId/domain/verify': { access: 'signed-in' },
  'DELETE /api/branding-profiles/:profileId/domain': { access: 'signed-in' },
  'GET /api/branding/mail-server': { access: 'signed-in' },
  'PUT /api/branding/mail-server': { access: 'signed-in', json: true },
  'DELETE /api/branding/mail-server': { access: 'signed-in' },
  'POST /api/branding/mail-server/test': { access: 'signed-in' },
  'GET /api/tls/ask': { access: 'public' },
  // Logos appear in e-mails and white-label pages: public by their unguessable, hashed name.
  'GET /api/branding/logos/:file': { access: 'public' },
  'GET /api/billing/config': { access: 'public' },
  'POST /api/create-subscription': { access: 'signed-in', json: true },
  'GET /api/billing/subscription': { access: 'signed-in' },
  'POST /api/billing/sync': { access: 'signed-in' },
  // The customer is always the caller's own; the body is never read.
  'POST /api/billing/portal': { access: 'signed-in' },
  // Stripe's signature on the raw body is the proof (400 without it); the body is not JSON-validated.
  'POST /api/stripe/webhook': { access: 'public', limit: { bytes: STRIPE_WEBHOOK_MAX_BYTES, type: 'application/json' } },
  // Carries the unsaved logo: a limit of its own.
  'POST /api/branding-profiles/preview': { access: 'signed-in', json: true, limit: { bytes: PREVIEW_MAX_BYTES, type: 'application/json' } },
  'GET /api/account/data': { access: 'signed-in' },
  'POST /api/account/data/export': { access: 'signed-in' },
  'POST /api/account/delete': { access: 'signed-in', json: true },
  // The signed link's token (in the query) is the proof of access.
  'GET /api/data-exports/download': { access: 'public' },
  'GET /api/widget/keys': { access: 'signed-in' },
  'POST /api/widget/keys': { access: 'signed-in', json: true },
  // The key is checked before the body (404 here first); widget.test.ts covers the 400s.
  'PUT /api/widget/keys/:keyId': { access: 'signed-in' },
  'POST /api/widget/keys/:keyId/rotate': { access: 'signed-in' },
  'POST /api/widget/keys/:keyId/revoke': { access: 'signed-in' },
  'GET /api/widget/keys/:keyId/score-card': { access: 'signed-in' },
  'GET /api/widget/leads': { access: 'signed-in' },
  'GET /api/widget/leads.csv': { access: 'signed-in' },
  'POST /api/widget/leads/:leadId/convert': { access: 'signed-in' },
  // Called by the widget from other sites: the publishable key and the Origin are checked first
  // (403 'not enabled'); the lead's 400s are covered in widget.test.ts.
  'GET /api/widget/v1/:publishableKey/config': { access: 'public' },
  'POST /api/widget/v1/:publishableKey/leads': { access: 'public' },
  'GET /api/widget/v1/:publishableKey/leads/:leadId': { access: 'public' },
  'GET /api/widget/v1/:publishableKey/score-card': { access: 'public' },
  'GET /api/api-keys': { access: 'signed-in' },
  'POST /api/api-keys': { access: 'signed-in', json: true },
  // The key is checked before the body (404 here first); tests/integration/api-keys.test.ts covers its 400s.
  'POST /api/api-keys/:apiKeyId/roll': { access: 'signed-in' },
  'DELETE /api/api-keys/:apiKeyId': { access: 'signed-in' },
  'GET /api/webhooks': { access: 'signed-in' },
  'GET /api/webhooks/:endpointId/deliveries': { access: 'signed-in' },
  // Takes no body.
  'POST /api/webhooks/:endpointId/deliveries/:deliveryId/resend': { access: 'signed-in' },
  'POST /api/webhooks': { access: 'signed-in', json: true },
  // Take no body.
  'POST /api/webhooks/:endpointId/test': { access: 'signed-in' },
  'DELETE /api/webhooks/:endpointId': { access: 'signed-in' },
};

/** The public API's routes (an API key; tests/integration/api-v1.test.ts checks their answers against the document). */
export const V1_ROUTES = [
  'GET /api/v1/openapi.json',
  'POST /api/v1/reports',
  'GET /api/v1/reports/:reportId',
  'GET /api/v1/businesses',
  'GET /api/v1/businesses/:businessId',
  'GET /api/v1/businesses/:businessId/history',
  'GET /api/v1/businesses/:businessId/alerts',
  'GET /api/v1/businesses/:businessId/visibility',
  'GET /api/v1/businesses/:businessId/ai-visibility',
  'PUT /api/v1/businesses/:businessId/settings',
  'GET /api/v1/businesses/:businessId/alert-threshold',
  'PUT /api/v1/businesses/:businessId/alert-threshold',
  'GET /api/v1/businesses/:businessId/reviews',
  'PUT /api/v1/businesses/:businessId/reviews/:reviewId/reply',
  'DELETE /api/v1/businesses/:businessId/reviews/:reviewId/reply',
  'GET /api/v1/businesses/:businessId/profile-metrics',
  'GET /api/v1/clients',
  'POST /api/v1/clients',
  'GET /api/v1/clients/:clientId',
  'PATCH /api/v1/clients/:clientId',
  'POST /api/v1/webhooks',
  'GET /api/v1/webhooks',
  'DELETE /api/v1/webhooks/:endpointId',
  'POST /api/v1/webhooks/:endpointId/rotate-secret',
  'POST /api/v1/webhooks/:endpointId/test',
  'GET /api/v1/webhooks/:endpointId/deliveries',
  'POST /api/v1/webhooks/:endpointId/deliveries/:deliveryId/resend',
];
