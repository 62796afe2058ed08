// The plans as Stripe knows them: one Product per self-serve plan, a monthly and an annual
// recurring Price each (lookup keys from common/constants.ts), the webhook endpoint and the
// customer portal's configuration. `setupBilling` creates or updates them and is safe to re-run.
import type Stripe from 'stripe';
import { BILLING_INTERVALS, periodPrice, priceLookupKey, PRODUCT_NAME, SELF_SERVE_PLANS, type BillingInterval, type SelfServePlan } from '../../../common/constants.ts';
import { PLAN_CATALOGUE } from '../../../common/plans.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { isMissing, STRIPE_API_VERSION, stripeFor } from './stripe.ts';

export const WEBHOOK_PATH = '/api/stripe/webhook';
/** The events the webhook acts on; any other type is acknowledged and ignored. */
export const WEBHOOK_EVENTS = [
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'customer.subscription.paused',
  'customer.subscription.resumed',
  'invoice.paid',
  'invoice.payment_failed',
] as const satisfies Stripe.WebhookEndpointCreateParams.EnabledEvent[];

const productId = (plan: SelfServePlan) => `localrank_${plan}`;
const stripeInterval = (interval: BillingInterval) => (interval === 'monthly' ? 'month' : 'year');
const PORTAL_MARKER = 'localrank';

const prices = new WeakMap<object, Map<string, Stripe.Price>>();

/** Forgets the process's prices: the next `priceFor` asks Stripe (another process may have changed them). */
export const forgetPrices = (ctx: Pick<AppContext, 'env'>) => prices.delete(ctx.env);

/** The active Price of a plan and interval, by lookup key (cached for the process). */
export async function priceFor(ctx: Pick<AppContext, 'env'>, plan: SelfServePlan, interval: BillingInterval): Promise<Stripe.Price> {
  const cache = prices.get(ctx.env) ?? new Map<string, Stripe.Price>();
  prices.set(ctx.env, cache);
  const key = priceLookupKey(plan, interval);
  const cached = cache.get(key);
  if (cached) return cached;
  const found = await stripeFor(ctx).prices.list({ lookup_keys: [key], active: true, limit: 1 });
  const price = found.data[0];
  if (!price) throw new AppError('not_configured', `The ${plan} ${interval} price is missing in Stripe: run \`npm run admin -- billing-setup\`.`);
  cache.set(key, price);
  return price;
}

export interface SetupLine {
  what: string;
  action: 'created' | 'updated' | 'unchanged' | 'skipped';
  detail?: string;
}

async function setupProduct(stripe: Stripe, plan: SelfServePlan): Promise<SetupLine> {
  const card = PLAN_CATALOGUE.find((p) => p.tier === plan)!;
  const fields = { name: `${PRODUCT_NAME} ${card.name}`, description: card.tagline, metadata: { tier: plan } };
  try {
    const product = await stripe.products.retrieve(productId(plan));
    if (product.name === fields.name && product.description === fields.description && product.active) return { what: `product ${product.id}`, action: 'unchanged' };
    await stripe.products.update(product.id, { ...fields, active: true });
    return { what: `product ${product.id}`, action: 'updated' };
  } catch (error) {
    if (!isMissing(error)) throw error;
    await stripe.products.create({ id: productId(plan), ...fields }, { idempotencyKey: `setup-product-${plan}` });
    return { what: `product ${productId(plan)}`, action: 'created' };
  }
}

async function setupPrice(stripe: Stripe, plan: SelfServePlan, interval: BillingInterval): Promise<SetupLine> {
  const key = priceLookupKey(plan, interval);
  const amount = periodPrice(plan, interval) * 100;
  const [current] = (await stripe.prices.list({ lookup_keys: [key], active: true, limit: 1 })).data;
  const product = typeof current?.product === 'string' ? current.product : current?.product.id;
  if (current && current.unit_amount === amount && current.currency === 'usd' && current.recurring?.interval === stripeInterval(interval) && product === productId(plan)) {
    return { what: `price ${key}`, action: 'unchanged', detail: current.id };
  }
  // Prices cannot change amount: a new Price takes the lookup key over from the old one.
  const created = await stripe.prices.create(
    {
      product: productId(plan),
      currency: 'usd',
      unit_amount: amount,
      recurring: { interval: stripeInterval(interval) },
      lookup_key: key,
      transfer_lookup_key: true,
      metadata: { tier: plan, interval },
    },
    // The key names the price it replaces too: a change reverted within Stripe's 24 hours of
    // idempotency then makes a new price instead of replaying the first one (now archived).
    { idempotencyKey: `setup-price-${key}-${amount}-${current?.id ?? 'first'}` },
  );
  if (current) await stripe.prices.update(current.id, { active: false });
  return { what: `price ${key}`, action: current ? 'updated' : 'created', detail: created.id };
}

async function setupWebhook(ctx: Pick<AppContext, 'env'>, stripe: Stripe): Promise<SetupLine> {
  const url = `${ctx.env.PUBLIC_BASE_URL}${WEBHOOK_PATH}`;
  const host = new URL(url).hostname;
  if (host === 'localhost' || host.startsWith('127.') || host === '[::1]') {
    return {
      what: 'webhook endpoint',
      action: 'skipped',
      detail: `Stripe cannot reach ${url}. Set PUBLIC_BASE_URL to the public address, or forward events with \`stripe listen --latest --forward-to ${url} --events ${WEBHOOK_EVENTS.join(',')}\` (\`--latest\`: events in Stripe's current API version, not the account's default; this server pins ${STRIPE_API_VERSION}) and set STRIPE_WEBHOOK_SECRET to the secret it prints.`,
    };
  }
  for await (const endpoint of stripe.webhookEndpoints.list({ limit: 100 })) {
    if (endpoint.url !== url) continue;
    const same = endpoint.enabled_events.length === WEBHOOK_EVENTS.length && WEBHOOK_EVENTS.every((e) => endpoint.enabled_events.includes(e));
    if (same && endpoint.status === 'enabled') return { what: `webhook endpoint ${url}`, action: 'unchanged', detail: endpoint.id };
    await stripe.webhookEndpoints.update(endpoint.id, { enabled_events: [...WEBHOOK_EVENTS], disabled: false });
    return { what: `webhook endpoint ${url}`, action: 'updated', detail: endpoint.id };
  }
  const created = await stripe.webhookEndpoints.create({ url, enabled_events: [...WEBHOOK_EVENTS], api_version: STRIPE_API_VERSION, description: `${PRODUCT_NAME} billing` });
  return { what: `webhook endpoint ${url}`, action: 'created', detail: `set STRIPE_WEBHOOK_SECRET=${created.secret}` };
}

function portalFeatures(priceIds: Record<SelfServePlan, string[]>): Stripe.BillingPortal.ConfigurationCreateParams.Features {
  return {
    payment_method_update: { enabled: true },
    invoice_history: { enabled: true },
    subscription_cancel: { enabled: true, mode: 'at_period_end' },
    subscription_update: {
      enabled: true,
      default_allowed_updates: ['price'],
      proration_behavior: 'create_prorations',
      products: SELF_SERVE_PLANS.map((plan) => ({ product: productId(plan), prices: priceIds[plan] })),
    },
  };
}

/** The portal configuration billing-setup made (marked in its metadata), or null. */
export async function portalConfiguration(stripe: Stripe): Promise<Stripe.BillingPortal.Configuration | null> {
  for await (const config of stripe.billingPortal.configurations.list({ active: true, limit: 100 })) {
    if (config.metadata?.[PORTAL_MARKER] === 'billing-setup') return config;
  }
  return null;
}

async function setupPortal(ctx: Pick<AppContext, 'env'>, stripe: Stripe, priceIds: Record<SelfServePlan, string[]>): Promise<SetupLine> {
  const params = {
    business_profile: { headline: `${PRODUCT_NAME}: your plan, card and invoices` },
    default_return_url: `${ctx.env.PUBLIC_BASE_URL}/account`,
    features: portalFeatures(priceIds),
    metadata: { [PORTAL_MARKER]: 'billing-setup' },
  };
  const existing = await portalConfiguration(stripe);
  if (existing) {
    await stripe.billingPortal.configurations.update(existing.id, params);
    return { what: 'customer portal configuration', action: 'updated', detail: existing.id };
  }
  const created = await stripe.billingPortal.configurations.create(params);
  return { what: 'customer portal configuration', action: 'created', detail: created.id };
}

/** `npm run admin -- billing-setup`: products, prices, webhook endpoint and portal, idempotently. */
export async function setupBilling({ ctx }: { ctx: Pick<AppContext, 'env'> }): Promise<SetupLine[]> {
  const stripe = stripeFor(ctx);
  const lines: SetupLine[] = [];
  const priceIds = { pro: [], enterprise: [] } as Record<SelfServePlan, string[]>;
  for (const plan of SELF_SERVE_PLANS) {
    lines.push(await setupProduct(stripe, plan));
    for (const interval of BILLING_INTERVALS) {
      const line = await setupPrice(stripe, plan, interval);
      priceIds[plan].push(line.detail!);
      lines.push(line);
    }
  }
  forgetPrices(ctx);
  lines.push(await setupWebhook(ctx, stripe));
  lines.push(await setupPortal(ctx, stripe, priceIds));
  return lines;
}
