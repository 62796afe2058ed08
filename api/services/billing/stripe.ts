// The one Stripe client of a process. The API version is pinned here, to the version of the
// `stripe` package we pin, so an SDK upgrade is a deliberate change (its types only describe it).
import Stripe from 'stripe';
import type { AppContext } from '../../context.ts';
import type { Env } from '../../env.ts';
import { AppError } from '../../errors.ts';

export const STRIPE_API_VERSION = '2026-10-28.endive' satisfies Stripe.LatestApiVersion;

export const NOT_CONFIGURED_MESSAGE = 'Billing is not configured on this server: plans are set by the operator.';

export type BillingEnv = Pick<Env, 'STRIPE_SECRET_KEY' | 'STRIPE_PUBLISHABLE_KEY' | 'STRIPE_WEBHOOK_SECRET' | 'STRIPE_API_URL'>;

export const billingConfigured = (env: BillingEnv) => Boolean(env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY);

const clients = new WeakMap<object, Stripe>();

export function createStripe(env: BillingEnv): Stripe {
  if (!env.STRIPE_SECRET_KEY) throw new AppError('not_configured', NOT_CONFIGURED_MESSAGE);
  const api = new URL(env.STRIPE_API_URL);
  return new Stripe(env.STRIPE_SECRET_KEY, {
    apiVersion: STRIPE_API_VERSION,
    host: api.hostname,
    port: api.port || (api.protocol === 'https:' ? 443 : 80),
    protocol: api.protocol === 'https:' ? 'https' : 'http',
    // Writes carry our own idempotency keys; the SDK retries with the same key.
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
    appInfo: { name: 'LocalRank' },
  });
}

/** The process's Stripe client; 503 not_configured without keys. */
export function stripeFor(ctx: Pick<AppContext, 'env'>): Stripe {
  let client = clients.get(ctx.env);
  if (!client) {
    client = createStripe(ctx.env);
    clients.set(ctx.env, client);
  }
  return client;
}

/** Stripe's "no such object" answer (404, or 400 `resource_missing` when a parameter names it). */
export const isMissing = (error: unknown) => error instanceof Stripe.errors.StripeInvalidRequestError && (error.statusCode === 404 || error.code === 'resource_missing');

/** Stripe refused a request it understood (a refund already made, an inactive price…): its own words. */
export const isRefusal = (error: unknown): error is Stripe.errors.StripeInvalidRequestError => error instanceof Stripe.errors.StripeInvalidRequestError;
