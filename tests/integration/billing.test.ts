// Billing against a local double of the Stripe API: set-up, create-subscription, the webhook
// (signatures, replays, out-of-order events), the lifecycle (renewal failure → grace → suspension
// → recovery, cancel at period end, plan and interval change), the portal and refunds.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { setupBilling } from '../../api/services/billing/catalogue.ts';
import { refundSubscription } from '../../api/services/billing/refund.ts';
import { createStripe, STRIPE_API_VERSION } from '../../api/services/billing/stripe.ts';
import { GRACE_END_JOB, PAYMENT_FAILED_JOB, syncSubscription } from '../../api/services/billing/subscriptions.ts';
import { can } from '../../api/services/plans/entitlements.ts';
import type { Logger } from '../../api/log.ts';
import { users } from '../../db/schema/auth.ts';
import { stripeEvents } from '../../db/schema/billing.ts';
import { consultants } from '../../db/schema/consultants.ts';
import { jobs } from '../../db/schema/operations.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { startSmtpServer } from '../helpers/smtp.ts';
import { DECLINED_CARD, GOOD_CARD, startStripeDouble, type StripeDouble } from '../helpers/stripe-double/server.ts';

let t: TestContext;
let stripe: StripeDouble;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const warnings: string[] = [];
const logged: string[] = [];

async function postEvent(payload: string, signature?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature) headers['stripe-signature'] = signature;
  const res = await t.app.request('/api/stripe/webhook', { method: 'POST', headers, body: payload });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  stripe = await startStripeDouble({
    deliver: async (payload, signature) => {
      const res = await postEvent(payload, signature);
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}: ${JSON.stringify(res.body)}`);
    },
  });
  t = await createTestContext({ ...stripe.env(), SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://app.example.com', SUBSCRIBE_RATE_LIMIT_PER_USER: '8' });
  const log = t.ctx.log;
  t.ctx.log = {
    ...log,
    warn: (message: string, fields?: Record<string, unknown>) => void warnings.push(`${message} ${JSON.stringify(fields ?? {})}`),
    error: (message: string, fields?: Record<string, unknown>) => void logged.push(`${message} ${JSON.stringify(fields ?? {})}`),
    info: (message: string, fields?: Record<string, unknown>) => void logged.push(`${message} ${JSON.stringify(fields ?? {})}`),
  } as Logger;
  await setupBilling({ ctx: t.ctx });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await stripe.close();
  await smtp.close();
});

const userRow = async (id: string) => (await t.ctx.db.query.users.findFirst({ where: eq(users.id, id) }))!;

/** Signs up, starts a subscription and pays it with a card; returns the user and subscription. */
async function subscribe(plan: 'pro' | 'enterprise', interval: 'monthly' | 'annual', options: { role?: 'client' | 'consultant' } = {}) {
  const user = await createUser(t.ctx, { role: options.role });
  const res = await call(t.app, 'POST', '/api/create-subscription', { planType: plan, interval }, user.cookie);
  expect(res.status).toBe(200);
  const subscriptionId = (await userRow(user.userId)).stripeSubscriptionId!;
  const invoice = String(stripe.subscriptions.get(subscriptionId)!.latest_invoice);
  expect(await stripe.charge(invoice, GOOD_CARD)).toEqual({ ok: true });
  return { ...user, subscriptionId, clientSecret: res.body.clientSecret as string };
}

describe('billing-setup', () => {
  it('creates one product per plan and its monthly and annual prices, then changes nothing on a second run', async () => {
    const prices = [...stripe.prices.values()].map((p) => [p.lookup_key, p.unit_amount, p.recurring?.interval, p.product]);
    expect(prices.sort()).toEqual([
      ['localrank_enterprise_annual', 104400, 'year', 'localrank_enterprise'],
      ['localrank_enterprise_monthly', 10900, 'month', 'localrank_enterprise'],
      ['localrank_pro_annual', 46800, 'year', 'localrank_pro'],
      ['localrank_pro_monthly', 4900, 'month', 'localrank_pro'],
    ]);
    const endpoint = [...stripe.webhookEndpoints.values()];
    expect(endpoint).toHaveLength(1);
    expect(endpoint[0]).toMatchObject({ url: 'https://app.example.com/api/stripe/webhook', api_version: STRIPE_API_VERSION });
    const again = await setupBilling({ ctx: t.ctx });
    expect(again.filter((l) => l.what.startsWith('price') || l.what.startsWith('product') || l.what.startsWith('webhook')).map((l) => l.action)).toEqual(Array(7).fill('unchanged'));
    expect(stripe.prices.size).toBe(4);
    expect(stripe.webhookEndpoints.size).toBe(1);
  });
});

describe('POST /api/create-subscription', () => {
  it('answers { clientSecret, message } with the invoice confirmation secret, and changes no plan before payment', async () => {
    const user = await createUser(t.ctx);
    const res = await call(t.app, 'POST', '/api/create-subscription', { planType: 'pro', interval: 'annual' }, user.cookie);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['clientSecret', 'message']);
    expect(res.body.clientSecret).toMatch(/^pi_\w+_secret_\w+$/);
    const row = await userRow(user.userId);
    expect(row.stripeCustomerId).toMatch(/^cus_/);
    expect(stripe.subscriptions.get(row.stripeSubscriptionId!)).toMatchObject({ status: 'incomplete', customer: row.stripeCustomerId });
    expect(stripe.subscriptions.get(row.stripeSubscriptionId!)!.items.data[0]!.price.lookup_key).toBe('localrank_pro_annual');
    expect(row.subscriptionTier).toBe('free');
    const create = stripe.requests.find((r) => r.path === '/v1/subscriptions' && r.method === 'POST' && r.params.customer === row.stripeCustomerId)!;
    expect(create.params).toMatchObject({ payment_behavior: 'default_incomplete', expand: ['latest_invoice.confirmation_secret'] });
    expect(create.idempotencyKey).toContain(user.userId);
  });

  it('makes one customer and one subscription from a double click, and reuses the unpaid one afterwards', async () => {
    const user = await createUser(t.ctx);
    const body = { planType: 'enterprise', interval: 'monthly' };
    const [a, b] = await Promise.all([call(t.app, 'POST', '/api/create-subscription', body, user.cookie), call(t.app, 'POST', '/api/create-subscription', body, user.cookie)]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.clientSecret).toBe(b.body.clientSecret);
    const row = await userRow(user.userId);
    const theirs = () => [...stripe.subscriptions.values()].filter((s) => s.customer === row.stripeCustomerId);
    expect(theirs()).toHaveLength(1);
    expect([...stripe.customers.values()].filter((c) => c.metadata.userId === user.userId)).toHaveLength(1);
    const reload = await call(t.app, 'POST', '/api/create-subscription', body, user.cookie);
    expect(reload.body.clientSecret).toBe(a.body.clientSecret);
    // Another interval replaces the unpaid start rather than adding a second subscription.
    const annual = await call(t.app, 'POST', '/api/create-subscription', { planType: 'enterprise', interval: 'annual' }, user.cookie);
    expect(annual.body.clientSecret).not.toBe(a.body.clientSecret);
    expect(theirs().map((s) => s.status).sort()).toEqual(['incomplete', 'incomplete_expired']);
  });

  it('two tabs starting different plans at once: one subscription left, no 500 (issue 39)', async () => {
    for (let run = 0; run < 5; run++) {
      const user = await createUser(t.ctx);
      // An unpaid start from earlier, then two tabs, each another plan or interval, at once.
      expect((await call(t.app, 'POST', '/api/create-subscription', { planType: 'pro', interval: 'monthly' }, user.cookie)).status).toBe(200);
      const [a, b] = await Promise.all([
        call(t.app, 'POST', '/api/create-subscription', { planType: 'enterprise', interval: 'monthly' }, user.cookie),
        call(t.app, 'POST', '/api/create-subscription', { planType: 'pro', interval: 'annual' }, user.cookie),
      ]);
      expect([a.status, b.status], JSON.stringify([a.body, b.body])).toEqual([200, 200]);
      const row = await userRow(user.userId);
      const open = [...stripe.subscriptions.values()].filter((s) => s.customer === row.stripeCustomerId && s.status === 'incomplete');
      expect(open.map((s) => s.id)).toEqual([row.stripeSubscriptionId]);
    }
  });

  it('refuses agency with "contact sales", a tier from the browser, signed-out callers, and a second live subscription', async () => {
    const user = await createUser(t.ctx);
    const agency = await call(t.app, 'POST', '/api/create-subscription', { planType: 'agency' }, user.cookie);
    expect(agency.status).toBe(400);
    expect(agency.body.message).toContain('contact sales');
    const smuggled = await call(t.app, 'POST', '/api/create-subscription', { planType: 'pro', subscriptionTier: 'agency' }, user.cookie);
    expect(smuggled.status).toBe(400);
    expect(smuggled.body.fields).toHaveProperty('subscriptionTier');
    const bad = await call(t.app, 'POST', '/api/create-subscription', { planType: 'gold' }, user.cookie);
    expect(bad.body.fields.planType).toBe('Plan must be pro, enterprise or agency');
    expect((await call(t.app, 'POST', '/api/create-subscription', { planType: 'pro' })).status).toBe(401);
    const paid = await subscribe('pro', 'monthly');
    const second = await call(t.app, 'POST', '/api/create-subscription', { planType: 'enterprise' }, paid.cookie);
    expect(second.status).toBe(409);
    expect(second.body.message).toContain('Billing Settings');
  });

  it('is rate-limited per user', async () => {
    const user = await createUser(t.ctx);
    const statuses: number[] = [];
    for (let i = 0; i < 9; i++) statuses.push((await call(t.app, 'POST', '/api/create-subscription', { planType: 'pro' }, user.cookie)).status);
    expect(statuses.slice(0, 8)).toEqual(Array(8).fill(200));
    expect(statuses[8]).toBe(429);
  });
});

describe('POST /api/stripe/webhook', () => {
  it('a paid subscription becomes the plan of the user and of their consultant profile', async () => {
    const paid = await subscribe('pro', 'annual', { role: 'consultant' });
    const row = await userRow(paid.userId);
    expect(row).toMatchObject({ subscriptionTier: 'pro', subscriptionStatus: 'active', billingInterval: 'annual', cancelAtPeriodEnd: false });
    expect(row.currentPeriodEnd!.getTime()).toBe(stripe.subscriptions.get(paid.subscriptionId)!.items.data[0]!.current_period_end * 1000);
    const consultant = await t.ctx.db.query.consultants.findFirst({ where: eq(consultants.userId, paid.userId) });
    expect(consultant).toMatchObject({ subscriptionTier: 'pro', subscriptionStatus: 'active' });
    const card = await call(t.app, 'GET', '/api/billing/subscription', undefined, paid.cookie);
    expect(card.body).toMatchObject({ tier: 'pro', status: 'active', interval: 'annual', cancelAtPeriodEnd: false, hasBillingAccount: true });
  });

  it('does nothing for a replayed event, and reads the subscription again for a late, out-of-order one', async () => {
    const paid = await subscribe('pro', 'monthly');
    const created = stripe.events.find((e) => e.type === 'customer.subscription.created' && (e.data.object as { id: string }).id === paid.subscriptionId)!;
    // The creation event (status incomplete in its payload) arrives again after the payment.
    const payload = JSON.stringify(created);
    const replay = await postEvent(payload, stripe.sign(payload));
    expect(replay).toEqual({ status: 200, body: { received: true, duplicate: true } });
    const late = JSON.stringify({ ...created, id: 'evt_late_copy' });
    expect((await postEvent(late, stripe.sign(late))).status).toBe(200);
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'pro', subscriptionStatus: 'active' });
  });

  it('refuses a missing signature, a wrong one and a stale one with 400, and logs each', async () => {
    const paid = await subscribe('pro', 'monthly');
    const event = stripe.events.at(-1)!;
    const forged = JSON.stringify({ ...event, id: 'evt_forged' });
    warnings.length = 0;
    expect((await postEvent(forged)).status).toBe(400);
    expect((await postEvent(forged, stripe.sign(forged, undefined, 'whsec_not_ours'))).status).toBe(400);
    expect((await postEvent(forged, stripe.sign(forged, Math.floor(Date.now() / 1000) - 600))).status).toBe(400);
    // A signature over other bytes (the body re-serialised) does not pass either.
    expect((await postEvent(`${forged} `, stripe.sign(forged))).status).toBe(400);
    expect(warnings.filter((w) => w.startsWith('stripe webhook refused'))).toHaveLength(4);
    expect(warnings[0]).toContain('no Stripe-Signature header');
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'pro' });
  });

  it('takes a signed event larger than the 64 KB body limit of other routes (an invoice with many lines)', async () => {
    const lines = Array.from({ length: 400 }, (_, i) => ({ id: `il_${i}`, object: 'line_item', description: `Line ${i} `.padEnd(200, '.') }));
    const payload = JSON.stringify({ ...stripe.events[0], id: 'evt_big_invoice', type: 'invoice.created', data: { object: { id: 'in_big', object: 'invoice', lines: { object: 'list', data: lines } } } });
    expect(payload.length).toBeGreaterThan(64 * 1024);
    expect(await postEvent(payload, stripe.sign(payload))).toEqual({ status: 200, body: { received: true, ignored: 'invoice.created' } });
  });

  it('acknowledges event types it does not act on', async () => {
    const payload = JSON.stringify({ ...stripe.events[0], id: 'evt_other_type', type: 'customer.created', data: { object: { id: 'cus_x' } } });
    expect(await postEvent(payload, stripe.sign(payload))).toEqual({ status: 200, body: { received: true, ignored: 'customer.created' } });
  });
});

describe('lifecycle', () => {
  it('a failed renewal e-mails a link to fix the card, keeps access for the grace period, then suspends; paying restores', async () => {
    const paid = await subscribe('enterprise', 'monthly');
    const worker = createWorker(t.ctx, { registry: testRegistry({}) });
    await stripe.endPeriod(paid.subscriptionId, { fail: true });
    let row = await userRow(paid.userId);
    expect(row.subscriptionStatus).toBe('past_due');
    expect(row.billingGraceUntil!.getTime() - Date.now()).toBeGreaterThan(6.9 * 24 * 3600 * 1000);
    expect(can(row, 'earlyWarning')).toBe(true);

    smtp.received.length = 0;
    const mailJob = (await t.ctx.db.select().from(jobs).where(eq(jobs.type, PAYMENT_FAILED_JOB))).find((j) => (j.payload as { userId: string }).userId === paid.userId)!;
    expect(mailJob).toBeDefined();
    while (await worker.runNext());
    const mail = smtp.received.find((m) => m.envelope.to.includes(paid.email))!;
    expect(mail.parsed.subject).toBe('Your LocalRank payment failed: please update your card');
    expect(mail.parsed.text).toContain('https://app.example.com/account#billing');
    expect(mail.parsed.text).toContain('stay on until');

    // The grace period ends (its job comes due) with the invoice still unpaid.
    const grace = (await t.ctx.db.select().from(jobs).where(eq(jobs.type, GRACE_END_JOB))).find((j) => (j.payload as { subscriptionId: string }).subscriptionId === paid.subscriptionId)!;
    expect(grace.runAt.getTime()).toBe(row.billingGraceUntil!.getTime());
    await t.ctx.db.update(users).set({ billingGraceUntil: new Date(Date.now() - 1000) }).where(eq(users.id, paid.userId));
    await t.ctx.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.id, grace.id));
    while (await worker.runNext());
    row = await userRow(paid.userId);
    expect(row.subscriptionStatus).toBe('suspended');
    expect(can(row, 'dashboard')).toBe(false);
    expect((await call(t.app, 'GET', '/api/my-business', undefined, paid.cookie)).status).toBe(403);

    await stripe.retryWithCard(paid.subscriptionId, GOOD_CARD);
    row = await userRow(paid.userId);
    expect(row).toMatchObject({ subscriptionTier: 'enterprise', subscriptionStatus: 'active', billingGraceUntil: null });
    expect(can(row, 'earlyWarning')).toBe(true);
  });

  it('cancelling at period end keeps the plan until the period ends, then the account is free', async () => {
    const paid = await subscribe('pro', 'monthly');
    await stripe.update(paid.subscriptionId, { cancelAtPeriodEnd: true });
    let row = await userRow(paid.userId);
    expect(row).toMatchObject({ subscriptionTier: 'pro', subscriptionStatus: 'active', cancelAtPeriodEnd: true });
    expect(can(row, 'dashboard')).toBe(true);
    await stripe.endPeriod(paid.subscriptionId);
    row = await userRow(paid.userId);
    expect(row).toMatchObject({ subscriptionTier: 'free', subscriptionStatus: 'active', cancelAtPeriodEnd: false, currentPeriodEnd: null });
  });

  it('a plan or interval change in the portal becomes the plan', async () => {
    const paid = await subscribe('pro', 'monthly');
    const enterpriseAnnual = [...stripe.prices.values()].find((p) => p.lookup_key === 'localrank_enterprise_annual')!;
    await stripe.update(paid.subscriptionId, { price: enterpriseAnnual.id });
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'enterprise', billingInterval: 'annual' });
    const proMonthly = [...stripe.prices.values()].find((p) => p.lookup_key === 'localrank_pro_monthly')!;
    await stripe.update(paid.subscriptionId, { price: proMonthly.id });
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'pro', billingInterval: 'monthly' });
  });

  it('a declined first payment leaves the account free and sends no renewal e-mail', async () => {
    const user = await createUser(t.ctx);
    await call(t.app, 'POST', '/api/create-subscription', { planType: 'pro' }, user.cookie);
    const row = await userRow(user.userId);
    const result = await stripe.charge(String(stripe.subscriptions.get(row.stripeSubscriptionId!)!.latest_invoice), DECLINED_CARD);
    expect(result.ok).toBe(false);
    expect(await userRow(user.userId)).toMatchObject({ subscriptionTier: 'free', subscriptionStatus: 'active' });
    const mails = (await t.ctx.db.select().from(jobs).where(eq(jobs.type, PAYMENT_FAILED_JOB))).filter((j) => (j.payload as { userId: string }).userId === user.userId);
    expect(mails).toHaveLength(0);
  });

  it('an old subscription ending does not take the plan of its replacement away', async () => {
    const user = await createUser(t.ctx);
    await call(t.app, 'POST', '/api/create-subscription', { planType: 'enterprise' }, user.cookie);
    const abandoned = (await userRow(user.userId)).stripeSubscriptionId!;
    await call(t.app, 'POST', '/api/create-subscription', { planType: 'pro', interval: 'annual' }, user.cookie);
    const current = (await userRow(user.userId)).stripeSubscriptionId!;
    await stripe.charge(String(stripe.subscriptions.get(current)!.latest_invoice), GOOD_CARD);
    expect(stripe.subscriptions.get(abandoned)!.status).toBe('incomplete_expired');
    const result = await syncSubscription({ ctx: t.ctx, subscriptionId: abandoned });
    expect(result.applied).toBe(false);
    expect(await userRow(user.userId)).toMatchObject({ subscriptionTier: 'pro', stripeSubscriptionId: current });
  });
});

describe('POST /api/billing/portal', () => {
  it("opens a portal session for the caller's own customer only", async () => {
    const a = await subscribe('pro', 'monthly');
    const b = await subscribe('pro', 'monthly');
    const bCustomer = (await userRow(b.userId)).stripeCustomerId;
    // Whatever the body says, the customer is the caller's.
    const res = await call(t.app, 'POST', '/api/billing/portal', { customer: bCustomer }, a.cookie);
    expect(res.status).toBe(200);
    const session = stripe.portalSessions.get(String(res.body.url).split('/portal/')[1]!)!;
    expect(session.customer).toBe((await userRow(a.userId)).stripeCustomerId);
    expect(session.return_url).toBe('https://app.example.com/account');
    expect((await call(t.app, 'POST', '/api/billing/portal', undefined)).status).toBe(401);
    const never = await createUser(t.ctx);
    expect((await call(t.app, 'POST', '/api/billing/portal', undefined, never.cookie)).status).toBe(404);
  });
});

describe('refund', () => {
  it('refunds the latest payment of a subscription younger than 30 days and cancels it', async () => {
    const paid = await subscribe('pro', 'annual');
    const result = await refundSubscription({ ctx: t.ctx, email: paid.email });
    expect(result).toMatchObject({ amount: 468, currency: 'usd', subscriptionId: paid.subscriptionId });
    expect(stripe.subscriptions.get(paid.subscriptionId)!.status).toBe('canceled');
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'free' });
  });

  it('refuses one older than 30 days, saying why', async () => {
    const paid = await subscribe('pro', 'monthly');
    const started = stripe.subscriptions.get(paid.subscriptionId)!.start_date * 1000;
    await expect(refundSubscription({ ctx: t.ctx, email: paid.email, now: started + 31 * 24 * 3600 * 1000 })).rejects.toThrow(/31 days ago; the 30-day money-back guarantee/);
    expect(stripe.refunds.size).toBe(1);
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'pro' });
  });
});

describe('converging to Stripe', () => {
  const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  /** Another process (the admin command on another machine) talking to the same Stripe account. */
  const otherProcess = () => createStripe(t.ctx.env);
  const signed = (event: object) => {
    const payload = JSON.stringify(event);
    return postEvent(payload, stripe.sign(payload));
  };

  it('two deliveries at once: the read that started last is the plan, however slow the first one', async () => {
    const paid = await subscribe('pro', 'monthly');
    let readDone!: () => void;
    const read = new Promise<void>((resolve) => (readDone = resolve));
    stripe.beforeAnswer = async (method, path) => {
      if (method !== 'GET' || path !== `/v1/subscriptions/${paid.subscriptionId}`) return;
      stripe.beforeAnswer = undefined;
      readDone();
      await sleep(300);
    };
    const slow = syncSubscription({ ctx: t.ctx, subscriptionId: paid.subscriptionId });
    await read;
    // Stripe cancels it while the first answer (still active) is on its way.
    Object.assign(stripe.subscriptions.get(paid.subscriptionId)!, { status: 'canceled', ended_at: stripe.now, canceled_at: stripe.now });
    await syncSubscription({ ctx: t.ctx, subscriptionId: paid.subscriptionId });
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'free' });
    expect(await slow).toMatchObject({ applied: false, reason: 'a fresher read was applied' });
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'free' });
  });

  it('a price changed by billing-setup in another process: Stripe refuses the cached one and the current one is used', async () => {
    await subscribe('pro', 'monthly');
    const old = [...stripe.prices.values()].find((p) => p.lookup_key === 'localrank_pro_monthly' && p.active)!;
    const admin = otherProcess();
    const current = await admin.prices.create({ product: 'localrank_pro', currency: 'usd', unit_amount: 5900, recurring: { interval: 'month' }, lookup_key: 'localrank_pro_monthly', transfer_lookup_key: true });
    await admin.prices.update(old.id, { active: false });
    const user = await createUser(t.ctx);
    const res = await call(t.app, 'POST', '/api/create-subscription', { planType: 'pro', interval: 'monthly' }, user.cookie);
    expect(res.status).toBe(200);
    const subscriptionId = (await userRow(user.userId)).stripeSubscriptionId!;
    expect(stripe.subscriptions.get(subscriptionId)!.items.data[0]!.price.id).toBe(current.id);
    // billing-setup puts the catalogue's amount back (a new price again, never a replayed one).
    await setupBilling({ ctx: t.ctx });
    expect([...stripe.prices.values()].filter((p) => p.lookup_key === 'localrank_pro_monthly' && p.active).map((p) => p.unit_amount)).toEqual([4900]);
  });

  it('billing-setup reverting a price change within a day makes a new price instead of replaying the archived one', async () => {
    const first = [...stripe.prices.values()].find((p) => p.lookup_key === 'localrank_enterprise_monthly' && p.active)!;
    // A release with another amount ran billing-setup; this one goes back to the catalogue's.
    const admin = otherProcess();
    await admin.prices.create({ product: 'localrank_enterprise', currency: 'usd', unit_amount: 12900, recurring: { interval: 'month' }, lookup_key: 'localrank_enterprise_monthly', transfer_lookup_key: true });
    await admin.prices.update(first.id, { active: false });
    const lines = await setupBilling({ ctx: t.ctx });
    expect(lines.find((l) => l.what === 'price localrank_enterprise_monthly')).toMatchObject({ action: 'updated' });
    const active = [...stripe.prices.values()].filter((p) => p.lookup_key === 'localrank_enterprise_monthly' && p.active);
    expect(active.map((p) => p.unit_amount)).toEqual([10900]);
    expect(active[0]!.id).not.toBe(first.id);
  });

  it('a customer Stripe no longer knows (keys switched, test data deleted): sync, portal and a new subscription work, not 500', async () => {
    const paid = await subscribe('pro', 'monthly');
    const lost = (await userRow(paid.userId)).stripeCustomerId!;
    stripe.customers.delete(lost);
    stripe.subscriptions.delete(paid.subscriptionId);
    const sync = await call(t.app, 'POST', '/api/billing/sync', undefined, paid.cookie);
    expect(sync.status).toBe(200);
    expect(sync.body).toMatchObject({ tier: 'free', status: 'active' });
    const portal = await call(t.app, 'POST', '/api/billing/portal', undefined, paid.cookie);
    expect(portal.status).toBe(200);
    const customer = (await userRow(paid.userId)).stripeCustomerId!;
    expect(customer).not.toBe(lost);
    expect(stripe.customers.get(customer)!.metadata.userId).toBe(paid.userId);
    const again = await call(t.app, 'POST', '/api/create-subscription', { planType: 'pro', interval: 'monthly' }, paid.cookie);
    expect(again.status).toBe(200);
    expect(stripe.subscriptions.get((await userRow(paid.userId)).stripeSubscriptionId!)!.customer).toBe(customer);
    expect(warnings.some((w) => w.startsWith('stripe customer missing'))).toBe(true);
  });

  it('an event over 1 MB is read by id from Stripe and the subscription read again; a forged one is refused', async () => {
    const paid = await subscribe('pro', 'monthly');
    const sub = stripe.subscriptions.get(paid.subscriptionId)!;
    Object.assign(sub, { status: 'canceled', ended_at: stripe.now, canceled_at: stripe.now });
    const event = { ...stripe.events.at(-1)!, id: 'evt_oversized', type: 'customer.subscription.deleted', data: { object: { ...structuredClone(sub), padding: 'x'.repeat(1.2 * 1024 * 1024) } } };
    stripe.events.push(event as never);
    const payload = JSON.stringify(event);
    const forged = await postEvent(payload, stripe.sign(payload, undefined, 'whsec_not_ours'));
    expect(forged.status).toBe(400);
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'pro' });
    expect(await postEvent(payload, stripe.sign(payload))).toEqual({ status: 200, body: { received: true } });
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'free' });
    expect(stripe.requests.some((r) => r.path === '/v1/events/evt_oversized')).toBe(true);
  });

  it('an oversized event Stripe says does not exist (404) is acknowledged with a log line; a Stripe outage while re-reading it answers 5xx', async () => {
    const paid = await subscribe('pro', 'monthly');
    const sub = stripe.subscriptions.get(paid.subscriptionId)!;
    const oversized = (id: string) => JSON.stringify({ ...stripe.events.at(-1)!, id, type: 'customer.subscription.deleted', data: { object: { ...structuredClone(sub), padding: 'x'.repeat(1.2 * 1024 * 1024) } } });
    // Signed with our secret, but not an event Stripe can give back (deleted, or another account's).
    logged.length = 0;
    const gone = oversized('evt_gone_at_stripe');
    expect(await postEvent(gone, stripe.sign(gone))).toEqual({ status: 200, body: { received: true, ignored: 'event not found at Stripe' } });
    expect(logged.some((l) => l.startsWith('stripe event acknowledged unread: Stripe says it does not exist') && l.includes('evt_gone_at_stripe'))).toBe(true);
    expect(await t.ctx.db.query.stripeEvents.findFirst({ where: eq(stripeEvents.id, 'evt_gone_at_stripe') })).toBeUndefined();
    // Stripe failing on its side: not acknowledged, so Stripe sends it again later.
    const kept = oversized('evt_read_later');
    stripe.events.push(JSON.parse(kept) as never);
    stripe.failWith = (method, path) => (path === '/v1/events/evt_read_later' ? { status: 500, error: { type: 'api_error', message: 'An unknown error occurred' } } : undefined);
    try {
      expect((await postEvent(kept, stripe.sign(kept))).status).toBeGreaterThanOrEqual(500);
    } finally {
      stripe.failWith = undefined;
    }
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'pro' });
    // Stripe's retry, once it answers again, is applied.
    Object.assign(sub, { status: 'canceled', ended_at: stripe.now, canceled_at: stripe.now });
    expect(await postEvent(kept, stripe.sign(kept))).toEqual({ status: 200, body: { received: true } });
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'free' });
  });

  it('an invoice event of an older API version (no parent) is read by id: the failed-renewal e-mail is queued', async () => {
    const paid = await subscribe('pro', 'monthly');
    const deliver = stripe.deliver;
    stripe.deliver = undefined;
    try {
      await stripe.endPeriod(paid.subscriptionId, { fail: true });
    } finally {
      stripe.deliver = deliver;
    }
    const failed = stripe.events.findLast((e) => e.type === 'invoice.payment_failed')!;
    const { parent: _parent, ...invoice } = failed.data.object as unknown as Record<string, unknown>;
    const res = await signed({ ...failed, id: 'evt_old_version_invoice', api_version: '2024-06-20', data: { object: { ...invoice, subscription: paid.subscriptionId } } });
    expect(res).toEqual({ status: 200, body: { received: true } });
    expect(await userRow(paid.userId)).toMatchObject({ subscriptionTier: 'pro', subscriptionStatus: 'past_due' });
    const queued = await t.ctx.db.query.jobs.findMany({ where: eq(jobs.type, PAYMENT_FAILED_JOB) });
    expect(queued.some((j) => (j.payload as { invoiceId: string }).invoiceId === invoice.id)).toBe(true);
    expect(logged.some((l) => l.startsWith('stripe event read by id') && l.includes('2024-06-20'))).toBe(true);
  });

  it('an event this code cannot read in any version is refused with a log line saying so', async () => {
    logged.length = 0;
    const thin = { id: 'evt_thin_1', object: 'v2.core.event', type: 'v1.billing.meter.error_report_triggered', created: '2026-11-01T00:00:00.000Z', related_object: { id: 'mtr_1', type: 'billing.meter' } };
    const res = await signed(thin);
    expect(res.status).toBe(400);
    expect(logged.some((l) => l.startsWith('stripe event refused: API version undefined cannot be read by this server') && l.includes('a v2.core.event, not a snapshot event'))).toBe(true);
  });

  it('an event for a subscription Stripe does not know is acknowledged and logged, not 500', async () => {
    warnings.length = 0;
    const res = await signed({ ...stripe.events[0], id: 'evt_unknown_subscription', type: 'customer.subscription.updated', data: { object: { ...(stripe.events[0]!.data.object as object), id: 'sub_unknown', object: 'subscription' } } });
    expect(res).toEqual({ status: 200, body: { received: true, ignored: 'unknown subscription' } });
    expect(warnings.some((w) => w.startsWith('stripe subscription unknown to Stripe') && w.includes('sub_unknown'))).toBe(true);
  });

  it('a signature timestamp more than 5 minutes in the future is refused; within 5 minutes it is taken', async () => {
    const event = { ...stripe.events[0], id: 'evt_future', type: 'customer.created', data: { object: { id: 'cus_x', object: 'customer' } } };
    const payload = JSON.stringify(event);
    const now = Math.floor(Date.now() / 1000);
    expect((await postEvent(payload, stripe.sign(payload, now + 10 * 60))).status).toBe(400);
    expect((await postEvent(payload, stripe.sign(payload, now + 4 * 60))).status).toBe(200);
  });

  it('billing-setup without a public address prints `stripe listen --latest`', async () => {
    const lines = await setupBilling({ ctx: { env: { ...t.ctx.env, PUBLIC_BASE_URL: 'http://127.0.0.1:4321' } } });
    expect(lines.find((l) => l.what === 'webhook endpoint')!.detail).toContain('stripe listen --latest --forward-to http://127.0.0.1:4321/api/stripe/webhook');
  });

  it('a second refund says what Stripe says, the same day and after the idempotency key expired; so does a charge too old', async () => {
    const paid = await subscribe('pro', 'monthly');
    await refundSubscription({ ctx: t.ctx, email: paid.email });
    await expect(refundSubscription({ ctx: t.ctx, email: paid.email })).rejects.toThrow(/^Already refunded: Stripe has refund re_\w+ of 49\.00 USD \(succeeded\)/);
    stripe.forgetIdempotencyKeys();
    await expect(refundSubscription({ ctx: t.ctx, email: paid.email })).rejects.toThrow(/^Already refunded/);
    const other = await subscribe('pro', 'monthly');
    const invoice = stripe.invoices.get(String(stripe.subscriptions.get(other.subscriptionId)!.latest_invoice))!;
    const pi = String(invoice.confirmation_secret!.client_secret).split('_secret_')[0]!;
    stripe.paymentIntents.get(pi)!.created = stripe.now - 200 * 24 * 3600;
    await expect(refundSubscription({ ctx: t.ctx, email: other.email })).rejects.toThrow(`Stripe refused the refund: Charge for ${pi} is too old to be refunded. (charge_expired_for_refund)`);
  });
});

describe('without Stripe keys', () => {
  it('says plainly that billing is not configured', async () => {
    const plain = await createTestContext();
    try {
      expect((await call(plain.app, 'GET', '/api/billing/config')).body).toEqual({ configured: false, publishableKey: null });
      const user = await createUser(plain.ctx);
      const res = await call(plain.app, 'POST', '/api/create-subscription', { planType: 'pro' }, user.cookie);
      // Not a server failure: the feature is not set up here, and the message says so.
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 'not_configured', message: 'Billing is not configured on this server: plans are set by the operator.' });
      expect((await call(plain.app, 'POST', '/api/stripe/webhook', '{}')).status).toBe(404);
    } finally {
      await plain.close();
    }
  });
});
