// Your data with billing configured (a local double of the Stripe API): the export lists the
// invoices' dates and amounts and never card data; deleting the account cancels the subscription.
import { eq } from 'drizzle-orm';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { lightRenderer } from '../helpers/light-renderer.ts';
import { setupBilling } from '../../api/services/billing/catalogue.ts';
import { exportEntries } from '../../api/services/data-rights/export.ts';
import { users } from '../../db/schema/auth.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { GOOD_CARD, startStripeDouble, type StripeDouble } from '../helpers/stripe-double/server.ts';

let t: TestContext;
let stripe: StripeDouble;

beforeAll(async () => {
  stripe = await startStripeDouble({
    deliver: async (payload, signature) => {
      const res = await t.app.request('/api/stripe/webhook', { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': signature }, body: payload });
      if (res.status !== 200) throw new Error(`webhook answered ${res.status}`);
    },
  });
  t = await createTestContext({ ...stripe.env(), PUBLIC_BASE_URL: 'https://app.example.com' });
  await setupBilling({ ctx: t.ctx });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await stripe.close();
});

describe('your data with billing', () => {
  it('exports invoices without card data, and deleting the account cancels the paid subscription', async () => {
    const user = await createUser(t.ctx);
    expect((await call(t.app, 'POST', '/api/create-subscription', { planType: 'pro', interval: 'monthly' }, user.cookie)).status).toBe(200);
    const subscriptionId = (await t.ctx.db.query.users.findFirst({ where: eq(users.id, user.userId) }))!.stripeSubscriptionId!;
    expect(await stripe.charge(String(stripe.subscriptions.get(subscriptionId)!.latest_invoice), GOOD_CARD)).toEqual({ ok: true });

    const zip = unzipSync(zipSync(await exportEntries(t.ctx, user.userId, () => lightRenderer())));
    const invoices = JSON.parse(strFromU8(zip['invoices.json']!)) as Record<string, unknown>[];
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({ amountPaid: 49, currency: 'usd', status: 'paid' });
    expect(Object.keys(invoices[0]!).sort()).toEqual(['amountDue', 'amountPaid', 'currency', 'date', 'number', 'status']);
    expect(JSON.parse(strFromU8(zip['profile.json']!))[0]).toMatchObject({ subscription_tier: 'pro', subscription_status: 'active' });
    // The README says card details are never exported; no data file holds any.
    const data = Object.entries(zip).filter(([name]) => name !== 'README.txt').map(([, b]) => strFromU8(b, true)).join('\n');
    expect(data).not.toMatch(/payment_method|card|4242/i);

    const closed = await call(t.app, 'POST', '/api/account/delete', { password: user.password, confirmEmail: user.email }, user.cookie);
    expect(closed.status).toBe(200);
    expect(stripe.subscriptions.get(subscriptionId)!.status).toBe('canceled');
    const row = (await t.ctx.db.query.users.findFirst({ where: eq(users.id, user.userId) }))!;
    expect(row.closedAt).not.toBeNull();
    expect(row.subscriptionTier).toBe('free');
  });
});
