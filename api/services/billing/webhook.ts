// POST /api/stripe/webhook: the signature is checked on the raw body, each event id is recorded
// once (a replay does nothing), and the subscription it concerns is read again from Stripe and
// applied by `syncSubscription`. Types we do not act on are acknowledged (2xx) and ignored.
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { stripeEvents } from '../../../db/schema/billing.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import { stripeFor } from './stripe.ts';
import { PAYMENT_FAILED_JOB, syncSubscription } from './subscriptions.ts';

/** The subscription an event concerns, or null for events we do not act on. */
function subscriptionOf(event: Stripe.Event): string | null {
  if (event.type.startsWith('customer.subscription.')) return (event.data.object as Stripe.Subscription).id;
  if (event.type === 'invoice.paid' || event.type === 'invoice.payment_failed') {
    const subscription = (event.data.object as Stripe.Invoice).parent?.subscription_details?.subscription;
    return subscription ? (typeof subscription === 'string' ? subscription : subscription.id) : null;
  }
  return null;
}

async function verify(ctx: AppContext, rawBody: string, signature: string | undefined, meta: { ip: string }): Promise<Stripe.Event> {
  const secret = ctx.env.STRIPE_WEBHOOK_SECRET;
  const stripe = stripeFor(ctx);
  if (!secret) {
    ctx.log.error('stripe webhook refused: STRIPE_WEBHOOK_SECRET is not set', meta);
    throw new AppError('not_configured', 'The webhook signing secret is not configured.');
  }
  if (!signature) {
    ctx.log.warn('stripe webhook refused: no Stripe-Signature header', meta);
    throw new AppError('invalid_input', 'Missing Stripe-Signature header.');
  }
  try {
    return await stripe.webhooks.constructEventAsync(rawBody, signature, secret);
  } catch (error) {
    ctx.log.warn('stripe webhook refused: bad signature', { ...meta, reason: (error as Error).message });
    throw new AppError('invalid_input', 'Invalid webhook signature.');
  }
}

export async function handleStripeWebhook({ ctx, rawBody, signature, ip }: { ctx: AppContext; rawBody: string; signature: string | undefined; ip: string }) {
  const event = await verify(ctx, rawBody, signature, { ip });
  const recorded = await ctx.db.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().returning({ id: stripeEvents.id });
  if (!recorded.length) return { received: true, duplicate: true };
  const subscriptionId = subscriptionOf(event);
  if (!subscriptionId) {
    await ctx.db.update(stripeEvents).set({ processedAt: new Date() }).where(eq(stripeEvents.id, event.id));
    return { received: true, ignored: event.type };
  }
  try {
    const result = await syncSubscription({ ctx, subscriptionId });
    const invoice = event.data.object as Stripe.Invoice;
    // A renewal that failed (not a first payment refused on the payment page, which says so there).
    if (event.type === 'invoice.payment_failed' && result.applied && invoice.billing_reason !== 'subscription_create') {
      // One e-mail per failed attempt of an invoice, whatever the number of deliveries.
      await enqueue(ctx.db, { type: PAYMENT_FAILED_JOB, payload: { userId: result.userId, invoiceId: invoice.id }, key: `${PAYMENT_FAILED_JOB}:${invoice.id}:${invoice.attempt_count}` });
    }
    await ctx.db.update(stripeEvents).set({ processedAt: new Date() }).where(eq(stripeEvents.id, event.id));
    return { received: true };
  } catch (error) {
    // Not processed: forget the id so Stripe's retry of this event is handled.
    await ctx.db.delete(stripeEvents).where(eq(stripeEvents.id, event.id));
    throw error;
  }
}
