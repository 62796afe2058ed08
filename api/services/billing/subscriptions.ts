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
import { withLease } from '../../lib/lease.ts';
import { applyPlan } from '../plans/plans.ts';
import { consumeRateLimit } from '../rate-limit.ts';
import { forgetPrices, portalConfiguration, priceFor } from './catalogue.ts';
import { isMissing, isRefusal, stripeFor } from './stripe.ts';

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

/**
 * The user's Stripe customer, made when missing. One Stripe no longer knows (the keys switched
 * from test to live, test data deleted) is forgotten with its subscription and made again.
 */
async function customerFor(ctx: AppContext, stripe: Stripe, user: UserRow): Promise<string> {
  let lost: string | null = null;
  if (user.stripeCustomerId) {
    try {
      const known = await stripe.customers.retrieve(user.stripeCustomerId);
      if (!known.deleted) return known.id;
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
    lost = user.stripeCustomerId;
    ctx.log.warn('stripe customer missing: making a new one', { userId: user.id, customerId: lost });
    await ctx.db.update(users).set({ stripeCustomerId: null, stripeSubscriptionId: null }).where(eq(users.id, user.id));
    user.stripeSubscriptionId = null;
  }
  // The key makes two simultaneous first purchases (a double click) one customer; it names the
  // lost customer so a re-creation is not a replay of the first creation.
  const customer = await stripe.customers.create({ email: user.email, metadata: { userId: user.id } }, { idempotencyKey: `customer-${user.id}${lost ? `-after-${lost}` : ''}` });
  await ctx.db.update(users).set({ stripeCustomerId: customer.id }).where(eq(users.id, user.id));
  user.stripeCustomerId = customer.id;
  return customer.id;
}

function clientSecretOf(subscription: Stripe.Subscription): string {
  const invoice = subscription.latest_invoice;
  const secret = invoice && typeof invoice === 'object' ? invoice.confirmation_secret?.client_secret : null;
  if (!secret) throw new AppError('internal', 'Stripe returned a subscription without a payment to confirm.');
  return secret;
}

const priceIdOf = (subscription: Stripe.Subscription) => subscription.items.data[0]?.price.id;

const ENDED = new Set<Stripe.Subscription.Status>(['canceled', 'incomplete_expired']);

/**
 * Cancels an unpaid start; one another request (a second tab, another process) cancelled first is
 * done, not a failure: Stripe keeps no idempotency key for a DELETE and answers a second cancel
 * with an error ("A canceled subscription can only update its cancellation_details…").
 */
async function cancelUnpaid(stripe: Stripe, id: string): Promise<void> {
  try {
    await stripe.subscriptions.cancel(id, {}, { idempotencyKey: `cancel-incomplete-${id}` });
  } catch (error) {
    if (!isRefusal(error) && !isMissing(error)) throw error;
    const now = await stripe.subscriptions.retrieve(id).catch((e: unknown) => (isMissing(e) ? null : Promise.reject(e)));
    if (now && !ENDED.has(now.status)) throw error;
  }
}

/** Starts of one user, one at a time in this process (two tabs): each sees what the other left. */
const starting = new Map<string, Promise<unknown>>();
function oneAtATime<T>(userId: string, work: () => Promise<T>): Promise<T> {
  const previous = starting.get(userId) ?? Promise.resolve();
  const next = previous.then(work, work);
  const tail = next.catch(() => undefined);
  starting.set(userId, tail);
  void tail.then(() => {
    if (starting.get(userId) === tail) starting.delete(userId);
  });
  return next;
}

export const START_BUSY_MESSAGE = 'Another payment for your account is being set up. Please try again in a moment.';

/**
 * One start per user at a time on every process sharing the database (decision 0221): the lease
 * `subscribe:{userId}`, taken after this process's own queue, so each start lists the unpaid starts
 * the one before it left, whichever machine ran it.
 */
function oneAtATimeEverywhere<T>(ctx: AppContext, userId: string, work: () => Promise<T>): Promise<T> {
  return oneAtATime(userId, () => withLease(ctx, `subscribe:${userId}`, work, { busy: () => new AppError('conflict', START_BUSY_MESSAGE, { retryAfterSeconds: 2 }) }));
}

/** POST /api/create-subscription: `{ clientSecret, message }` for the Payment Element. */
export function createSubscription({ ctx, userId, input }: { ctx: AppContext; userId: string; input: CreateSubscriptionInput }) {
  const { planType } = input;
  if (planType === 'agency') return Promise.reject(new AppError('invalid_input', CONTACT_SALES_MESSAGE, { fields: { planType: CONTACT_SALES_MESSAGE } }));
  return oneAtATimeEverywhere(ctx, userId, () => startSubscription({ ctx, userId, input: { ...input, planType } }));
}

type SelfServeInput = CreateSubscriptionInput & { planType: Exclude<CreateSubscriptionInput['planType'], 'agency'> };

async function startSubscription({ ctx, userId, input }: { ctx: AppContext; userId: string; input: SelfServeInput }) {
  const stripe = stripeFor(ctx);
  await consumeRateLimit({
    ctx,
    input: { key: `subscribe:user:${userId}`, limit: ctx.env.SUBSCRIBE_RATE_LIMIT_PER_USER, windowMs: 60 * 60 * 1000, message: 'Too many payment attempts. Please try again in an hour.' },
  });
  const user = await userById(ctx, userId);
  const customer = await customerFor(ctx, stripe, user);
  let price = await priceFor(ctx, input.planType, input.interval);

  const current = user.stripeSubscriptionId ? await retrieveSubscription(ctx, user.stripeSubscriptionId) : null;
  if (current) {
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
    await cancelUnpaid(stripe, subscription.id);
  }
  const create = (priceId: string) =>
    stripe.subscriptions.create(
      {
        customer,
        items: [{ price: priceId }],
        payment_behavior: 'default_incomplete',
        payment_settings: { save_default_payment_method: 'on_subscription' },
        expand: ['latest_invoice.confirmation_secret'],
        metadata: { userId },
      },
      // Same customer, price and previous subscription: the same key, so a double click makes one
      // (a customer made again after Stripe lost the first gets keys of its own).
      { idempotencyKey: `subscription-${userId}-${customer}-${priceId}-${user.stripeSubscriptionId ?? 'first'}` },
    );
  let subscription: Stripe.Subscription;
  try {
    subscription = await create(price.id);
  } catch (error) {
    // The cached price was archived since (billing-setup changed an amount, in another process):
    // ask Stripe for the current one and try once more with it.
    if (!isRefusal(error)) throw error;
    forgetPrices(ctx);
    const fresh = await priceFor(ctx, input.planType, input.interval);
    if (fresh.id === price.id) throw error;
    ctx.log.info('stripe refused a cached price: using the current one', { refused: price.id, current: fresh.id, reason: error.message });
    price = fresh;
    subscription = await create(price.id);
  }
  await ctx.db.update(users).set({ stripeSubscriptionId: subscription.id }).where(eq(users.id, userId));
  // Another process may have started another plan at the same moment: of the unpaid starts, the
  // newest stays (by creation time, then id), so both requests leave the same one.
  const others = await stripe.subscriptions.list({ customer, status: 'incomplete', limit: 10 });
  const newer = (a: Stripe.Subscription, b: Stripe.Subscription) => a.created > b.created || (a.created === b.created && a.id > b.id);
  for (const other of others.data) if (other.id !== subscription.id && newer(subscription, other)) await cancelUnpaid(stripe, other.id);
  // Ours lost to a newer one: the account names the one that stays (both requests write the same).
  const newest = others.data.reduce((a, b) => (newer(b, a) ? b : a), subscription);
  if (newest.id !== subscription.id) await ctx.db.update(users).set({ stripeSubscriptionId: newest.id }).where(eq(users.id, userId));
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

/** A subscription as Stripe has it now, or null when Stripe does not know it (other keys, deleted test data). */
async function retrieveSubscription(ctx: AppContext, subscriptionId: string): Promise<Stripe.Subscription | null> {
  try {
    return await stripeFor(ctx).subscriptions.retrieve(subscriptionId);
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
}

/**
 * Brings the user's plan in step with the subscription as Stripe has it now (re-read: events
 * arrive late, twice or out of order, so their payload's state is never used). The one place
 * billing changes a plan. Reads are ordered by when they started: of two at once, the one that
 * started last wins, however slow (applyPlan's `readAt`).
 */
export async function syncSubscription({ ctx, subscriptionId, now = Date.now() }: { ctx: AppContext; subscriptionId: string; now?: number }) {
  const readAt = new Date();
  const subscription = await retrieveSubscription(ctx, subscriptionId);
  if (!subscription) {
    ctx.log.warn('stripe subscription unknown to Stripe: nothing applied', { subscriptionId });
    return { applied: false as const, reason: 'unknown subscription', userId: null };
  }
  const user = await userForSubscription(ctx, subscription);
  if (!user) {
    ctx.log.warn('stripe subscription without a user', { subscriptionId });
    return { applied: false as const, reason: 'no user for this customer', userId: null };
  }
  // An old subscription (an abandoned start, a replaced plan) does not overwrite the current one.
  if (user.stripeSubscriptionId && user.stripeSubscriptionId !== subscription.id && !LIVE.has(subscription.status)) {
    return { applied: false as const, reason: 'not the current subscription', userId: null };
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
  const { applied } = await applyPlan(ctx, { userId: user.id, readAt, plan: { subscriptionTier: tier, subscriptionStatus: status }, billing: {
      stripeSubscriptionId: subscription.id,
      billingInterval: interval,
      currentPeriodEnd: ended || !item ? null : new Date(item.current_period_end * 1000),
      cancelAtPeriodEnd: !ended && (subscription.cancel_at_period_end || subscription.cancel_at !== null),
      billingGraceUntil: graceUntil,
    } });
  if (!applied) {
    ctx.log.info('stripe read overtaken by a fresher one: not applied', { userId: user.id, subscriptionId, status: subscription.status });
    return { applied: false as const, reason: 'a fresher read was applied', userId: user.id };
  }
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
  if (user.stripeSubscriptionId) {
    const result = await syncSubscription({ ctx, subscriptionId: user.stripeSubscriptionId });
    // Stripe does not know the subscription (the keys switched from test to live): it pays for
    // no plan. Forget it; the user can subscribe again.
    if (!result.applied && result.reason === 'unknown subscription') {
      ctx.log.warn('the user\'s stripe subscription is unknown to Stripe: plan ended', { userId, subscriptionId: user.stripeSubscriptionId });
      await applyPlan(ctx, { userId, readAt: new Date(), plan: { subscriptionTier: 'free', subscriptionStatus: 'active' }, billing: { stripeSubscriptionId: null, billingInterval: null, currentPeriodEnd: null, cancelAtPeriodEnd: false, billingGraceUntil: null } });
    }
  }
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
  const customer = await customerFor(ctx, stripe, user);
  const configuration = await portalConfiguration(stripe);
  const session = await stripe.billingPortal.sessions.create({
    customer,
    return_url: `${ctx.env.PUBLIC_BASE_URL}/account`,
    ...(configuration ? { configuration: configuration.id } : {}),
  });
  return { url: session.url };
}
