// Billing: Stripe's publishable key for the payment page, starting a subscription, the customer
// portal, the subscription card's facts, and Stripe's webhook (raw body, signature checked).
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { createSubscriptionSchema } from '../../common/schemas/billing.ts';
import type { AppContext } from '../context.ts';
import { unauthenticated } from '../errors.ts';
import { clientIp } from '../lib/client-info.ts';
import { validate } from '../lib/validate.ts';
import { getViewer } from '../services/accounts.ts';
import { billingConfigured } from '../services/billing/stripe.ts';
import { createSubscription, getSubscription, openPortal, syncOwnSubscription } from '../services/billing/subscriptions.ts';
import { handleStripeWebhook } from '../services/billing/webhook.ts';

export { STRIPE_WEBHOOK_MAX_BYTES } from '../services/billing/webhook.ts';
export const STRIPE_WEBHOOK_ROUTE = '/api/stripe/webhook';

export function billingRoutes(ctx: AppContext) {
  const userId = async (headers: Headers) => {
    const viewer = await getViewer({ ctx, headers });
    if (!viewer) throw unauthenticated();
    return viewer.user.id;
  };
  // Signed-out callers get 401 before their body is looked at.
  const signedIn = createMiddleware<{ Variables: { userId: string } }>(async (c, next) => {
    c.set('userId', await userId(c.req.raw.headers));
    await next();
  });
  return new Hono()
    .get('/billing/config', (c) => {
      const configured = billingConfigured(ctx.env);
      return c.json({ configured, publishableKey: configured ? ctx.env.STRIPE_PUBLISHABLE_KEY : null });
    })
    .post('/create-subscription', signedIn, validate('json', createSubscriptionSchema), async (c) => {
      const result = await createSubscription({ ctx, userId: c.get('userId'), input: c.req.valid('json') });
      c.header('Cache-Control', 'no-store');
      return c.json(result);
    })
    .get('/billing/subscription', async (c) => {
      const result = await getSubscription({ ctx, userId: await userId(c.req.raw.headers) });
      c.header('Cache-Control', 'no-store');
      return c.json(result);
    })
    .post('/billing/sync', async (c) => {
      const result = await syncOwnSubscription({ ctx, userId: await userId(c.req.raw.headers) });
      c.header('Cache-Control', 'no-store');
      return c.json(result);
    })
    .post('/billing/portal', async (c) => {
      const result = await openPortal({ ctx, userId: await userId(c.req.raw.headers) });
      c.header('Cache-Control', 'no-store');
      return c.json(result);
    })
    .post('/stripe/webhook', async (c) => {
      // The signature covers the exact bytes Stripe sent: the stream is read as it came (an
      // invoice with many lines passes the API's 64 KB; one over 1 MB is read by id).
      const result = await handleStripeWebhook({ ctx, body: c.req.raw.body, declaredBytes: Number(c.req.header('content-length') ?? 0), signature: c.req.header('stripe-signature'), ip: clientIp(c, ctx.env.TRUST_PROXY) });
      return c.json(result);
    });
}
