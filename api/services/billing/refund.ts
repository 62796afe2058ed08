// The 30-day money-back guarantee (spec section 9): `npm run admin -- refund <email>` refunds the
// latest payment of a subscription younger than 30 days and cancels it at once; an older one is
// refused with the reason. No partial refunds for unused periods, so nothing else is refunded.
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { POLICY } from '../../../common/constants.ts';
import { users } from '../../../db/schema/auth.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { isRefusal, stripeFor } from './stripe.ts';
import { syncSubscription } from './subscriptions.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
const dateText = (ms: number) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(ms);

export async function refundSubscription({ ctx, email, now = Date.now() }: { ctx: AppContext; email: string; now?: number }) {
  const stripe = stripeFor(ctx);
  const address = email.trim().toLowerCase();
  const user = await ctx.db.query.users.findFirst({ where: eq(users.email, address) });
  if (!user) throw new AppError('not_found', `No user with the e-mail '${address}'.`);
  if (!user.stripeSubscriptionId) throw new AppError('not_found', `${address} has no subscription to refund.`);
  const subscription = await stripe.subscriptions.retrieve(user.stripeSubscriptionId);
  const started = subscription.start_date * 1000;
  const days = Math.floor((now - started) / DAY_MS);
  if (now - started > POLICY.moneyBackDays * DAY_MS) {
    throw new AppError(
      'conflict',
      `Refused: the subscription started on ${dateText(started)}, ${days} days ago; the ${POLICY.moneyBackDays}-day money-back guarantee covers new subscriptions only, and there are no partial refunds for unused periods.`,
    );
  }
  const [invoice] = (await stripe.invoices.list({ subscription: subscription.id, status: 'paid', limit: 1 })).data;
  if (!invoice) throw new AppError('not_found', `The subscription ${subscription.id} has no paid invoice to refund.`);
  const [payment] = (await stripe.invoicePayments.list({ invoice: invoice.id, status: 'paid', limit: 1 })).data;
  const paymentIntent = payment?.payment.payment_intent;
  if (!paymentIntent) throw new AppError('not_found', `The invoice ${invoice.id} has no card payment to refund.`);
  const paymentIntentId = typeof paymentIntent === 'string' ? paymentIntent : paymentIntent.id;
  // Stripe's record says whether it was refunded already (an idempotent replay would not).
  const [earlier] = (await stripe.refunds.list({ payment_intent: paymentIntentId, limit: 1 })).data;
  if (earlier && earlier.status !== 'failed' && earlier.status !== 'canceled') {
    throw new AppError('conflict', `Already refunded: Stripe has refund ${earlier.id} of ${(earlier.amount / 100).toFixed(2)} ${earlier.currency.toUpperCase()} (${earlier.status}) made on ${dateText(earlier.created * 1000)}.`);
  }
  let refund: Stripe.Refund;
  try {
    refund = await stripe.refunds.create(
      { payment_intent: paymentIntentId, reason: 'requested_by_customer', metadata: { userId: user.id, subscriptionId: subscription.id } },
      { idempotencyKey: `refund-${invoice.id}` },
    );
  } catch (error) {
    // Stripe refused (refunded meanwhile, a charge too old to refund…): say what it says.
    if (isRefusal(error)) throw new AppError('conflict', `Stripe refused the refund: ${error.message}${error.code ? ` (${error.code})` : ''}`);
    throw error;
  }
  if (subscription.status !== 'canceled') await stripe.subscriptions.cancel(subscription.id, {}, { idempotencyKey: `refund-cancel-${subscription.id}` });
  await syncSubscription({ ctx, subscriptionId: subscription.id, now });
  return { email: address, amount: refund.amount / 100, currency: refund.currency, refundId: refund.id, subscriptionId: subscription.id, days };
}
