// Subscriptions: start one (create-subscription), keep the user's plan in step with Stripe
// (`syncSubscription`, called by the webhook, the grace-period job, the refund and the page after
// payment), and open the customer portal. The tier always comes from Stripe's own record of the
// subscription, never from the browser.
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { OPERATOR, planFromLookupKey, type SubscriptionStatus, type Tier } from '../../../common/constants.ts';
import type { CreateSubscriptionInput } from '../../../common/schemas/billing.ts';
import { users } from '../../../db/schema/auth.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import { applyPlan } from '../plans.ts';
import { consumeRateLimit } from '../rate-limit.ts';
import { portalConfiguration, priceFor } from './catalogue.ts';
import { stripeFor } from './stripe.ts';

export const CONTACT_SALES_MESSAGE = `Agency plans are priced for each agency: please contact sales (${OPERATOR.salesEmail}).`;
export const GRACE_END_JOB = 'billing.grace-end';
export const PAYMENT_FAILED_JOB = 'billing.payment-failed';
const DAY_MS = 24 * 60 * 60 * 1000;
/** Subscriptions that hold a plan (paid, or unpaid within Stripe's retries). */
const LIVE = new Set<Stripe.Subscription.Status>(['active', 'trialing', 'past_due', 'unpaid', 'paused']);

type UserRow = typeof users.$inferSelect;

async function userById(ctx: Pick<AppContext, 'db'>, userId: string): Promise<UserRow> {
  const user = await ctx.db.query.users.findFirst({ where: eq(users.id, userId) });
  if (!user) throw new AppError('unauthenticated', 'Not authenticated');
  return user;
}

async function customerFor(ctx: AppContext, stripe: Stripe, user: UserRow): Promise<string> {
  if (user.stripeCustomerId) return user.stripeCustomerId;
  // The key makes two simultaneous first purchases (a double click) one customer.
  const customer = await stripe.customers.create({ email: user.email, metadata: { userId: user.id } }, { idempotencyKey: `customer-${user.id}` });
  await ctx.db.update(users).set({ stripeCustomerId: customer.id }).where(eq(users.id, user.id));
  return customer.id;
}

function clientSecretOf(subscription: Stripe.Subscription): string {
  const invoice = subscription.latest_invoice;
  const secret = invoice && typeof invoice === 'object' ? invoice.confirmation_secret?.client_secret : null;
  if (!secret) throw new AppError('internal', 'Stripe returned a subscription without a payment to confirm.');
  return secret;
}

const priceIdOf = (subscription: Stripe.Subscription) => subscription.items.data[0]?.price.id;

/** POST /api/create-subscription: `{ clientSecret, message }` for the Payment Element. */
export async function createSubscription({ ctx, userId, input }: { ctx: AppContext; userId: string; input: CreateSubscriptionInput }) {
  if (input.planType === 'agency') throw new AppError('invalid_input', CONTACT_SALES_MESSAGE, { fields: { planType: CONTACT_SALES_MESSAGE } });
  const stripe = stripeFor(ctx);
  await consumeRateLimit({
    ctx,
    input: { key: `subscribe:user:${userId}`, limit: ctx.env.SUBSCRIBE_RATE_LIMIT_PER_USER, windowMs: 60 * 60 * 1000, message: 'Too many payment attempts. Please try again in an hour.' },
  });
  const user = await userById(ctx, userId);
  const price = await priceFor(ctx, input.planType, input.interval);
  const customer = await customerFor(ctx, stripe, user);

  if (user.stripeSubscriptionId) {
    const current = await stripe.subscriptions.retrieve(user.stripeSubscriptionId);
    if (LIVE.has(current.status)) {
      throw new AppError('conflict', 'You already have a subscription. Change your plan or interval from Billing Settings on your account page.');
    }
  }
  // An unpaid start for the same price is reused (a reload, a second tab); one for another plan
  // or interval is cancelled so the customer never ends up with two.
  const incomplete = await stripe.subscriptions.list({ customer, status: 'incomplete', expand: ['data.latest_invoice.confirmation_secret'], limit: 10 });
  for (const subscription of incomplete.data) {
    if (priceIdOf(subscription) === price.id) {
      await ctx.db.update(users).set({ stripeSubscriptionId: subscription.id }).where(eq(users.id, userId));
      return { clientSecret: clientSecretOf(subscription), message: 'Subscription awaiting payment' };
    }
    await stripe.subscriptions.cancel(subscription.id, {}, { idempotencyKey: `cancel-incomplete-${subscription.id}` });
  }
  const subscription = await stripe.subscriptions.create(
    {
      customer,
      items: [{ price: price.id }],
      payment_behavior: 'default_incomplete',
      payment_settings: { save_default_payment_method: 'on_subscription' },
      expand: ['latest_invoice.confirmation_secret'],
      metadata: { userId },
    },
    // Same user, price and previous subscription: the same key, so a double click makes one.
    { idempotencyKey: `subscription-${userId}-${price.id}-${user.stripeSubscriptionId ?? 'first'}` },
  );
  await ctx.db.update(users).set({ stripeSubscriptionId: subscription.id }).where(eq(users.id, userId));
  return { clientSecret: clientSecretOf(subscription), message: 'Subscription created' };
}

export interface PlanFromStripe {
  tier: Tier;
  status: SubscriptionStatus;
}

/** What a subscription in a given Stripe state grants, before the grace period is applied. */
export function planOf(subscription: Stripe.Subscription): PlanFromStripe {
  const plan = planFromLookupKey(subscription.items.data[0]?.price.lookup_key)?.plan ?? 'free';
  switch (subscription.status) {
    case 'active':
      return { tier: plan, status: 'active' };
    case 'trialing':
      return { tier: plan, status: 'trialing' };
    case 'past_due':
      return { tier: plan, status: 'past_due' };
    case 'unpaid':
    case 'paused':
      return { tier: plan, status: 'suspended' };
    default:
      // canceled, incomplete, incomplete_expired: no paid plan.
      return { tier: 'free', status: 'active' };
  }
}

async function userForSubscription(ctx: AppContext, subscription: Stripe.Subscription): Promise<UserRow | undefined> {
  const customer = typeof subscription.customer === 'string' ? subscription.customer : subscription.customer.id;
  return ctx.db.query.users.findFirst({ where: eq(users.stripeCustomerId, customer) });
}

/**
 * Brings the user's plan in step with the subscription as Stripe has it now (re-read: events
 * arrive late, twice or out of order, so their payload's state is never used). The one place
 * billing changes a plan.
 */
export async function syncSubscription({ ctx, subscriptionId, now = Date.now() }: { ctx: AppContext; subscriptionId: string; now?: number }) {
  const subscription = await stripeFor(ctx).subscriptions.retrieve(subscriptionId);
  const user = await userForSubscription(ctx, subscription);
  if (!user) {
    ctx.log.warn('stripe subscription without a user', { subscriptionId });
    return { applied: false as const, reason: 'no user for this customer' };
  }
  // An old subscription (an abandoned start, a replaced plan) does not overwrite the current one.
  if (user.stripeSubscriptionId && user.stripeSubscriptionId !== subscription.id && !LIVE.has(subscription.status)) {
    return { applied: false as const, reason: 'not the current subscription' };
  }
  const { tier } = planOf(subscription);
  let { status } = planOf(subscription);
  let graceUntil: Date | null = null;
  if (status === 'past_due') {
    graceUntil = user.billingGraceUntil ?? new Date(now + ctx.env.BILLING_GRACE_DAYS * DAY_MS);
    if (graceUntil.getTime() <= now) status = 'suspended';
    else await enqueue(ctx.db, { type: GRACE_END_JOB, payload: { subscriptionId: subscription.id }, key: `${GRACE_END_JOB}:${subscription.id}:${graceUntil.getTime()}`, runAt: graceUntil });
  } else if (status === 'suspended') {
    graceUntil = user.billingGraceUntil;
  }
  const item = subscription.items.data[0];
  const ended = tier === 'free';
  const interval = ended ? null : (planFromLookupKey(item?.price.lookup_key)?.interval ?? null);
  await applyPlan({
    ctx,
    userId: user.id,
    plan: { subscriptionTier: tier, subscriptionStatus: status },
    billing: {
      stripeSubscriptionId: subscription.id,
      billingInterval: interval,
      currentPeriodEnd: ended || !item ? null : new Date(item.current_period_end * 1000),
      cancelAtPeriodEnd: !ended && (subscription.cancel_at_period_end || subscription.cancel_at !== null),
      billingGraceUntil: graceUntil,
    },
  });
  if (tier !== user.subscriptionTier || status !== user.subscriptionStatus) {
    ctx.log.info('plan changed by billing', { userId: user.id, from: `${user.subscriptionTier}/${user.subscriptionStatus}`, to: `${tier}/${status}`, subscriptionId });
  }
  return { applied: true as const, userId: user.id, tier, status, graceUntil };
}

/** After paying, the page asks for its own subscription to be read again (the webhook may lag). */
export async function syncOwnSubscription({ ctx, userId }: { ctx: AppContext; userId: string }) {
  stripeFor(ctx);
  await consumeRateLimit({ ctx, input: { key: `billing-sync:user:${userId}`, limit: 60, windowMs: 60 * 60 * 1000, message: 'Too many requests. Please try again later.' } });
  const user = await userById(ctx, userId);
  if (user.stripeSubscriptionId) await syncSubscription({ ctx, subscriptionId: user.stripeSubscriptionId });
  return subscriptionSummary(await userById(ctx, userId));
}

/** The subscription card's facts, from the user's row. */
export function subscriptionSummary(user: UserRow) {
  return {
    tier: user.subscriptionTier,
    status: user.subscriptionStatus,
    interval: user.billingInterval,
    currentPeriodEnd: user.currentPeriodEnd?.toISOString() ?? null,
    cancelAtPeriodEnd: user.cancelAtPeriodEnd,
    graceUntil: user.billingGraceUntil?.toISOString() ?? null,
    hasBillingAccount: Boolean(user.stripeCustomerId),
  };
}

export async function getSubscription({ ctx, userId }: { ctx: AppContext; userId: string }) {
  return subscriptionSummary(await userById(ctx, userId));
}

/** POST /api/billing/portal: a portal session for the caller's own customer, never another's. */
export async function openPortal({ ctx, userId }: { ctx: AppContext; userId: string }) {
  const stripe = stripeFor(ctx);
  const user = await userById(ctx, userId);
  if (!user.stripeCustomerId) throw new AppError('not_found', 'No billing account yet: choose a plan first.');
  const configuration = await portalConfiguration(stripe);
  const session = await stripe.billingPortal.sessions.create({
    customer: user.stripeCustomerId,
    return_url: `${ctx.env.PUBLIC_BASE_URL}/account`,
    ...(configuration ? { configuration: configuration.id } : {}),
  });
  return { url: session.url };
}
