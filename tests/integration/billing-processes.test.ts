// Two tabs starting different plans at once, each request landing on another machine (issue 39):
// two web processes (`npm start`'s script, --api-only, WORKER=off, one AUTH_SECRET, a DATA_DIR
// each) on one database (a file, or sqld on the sqld pass) and one Stripe (the double). Each
// round: an unpaid start from earlier, then two other plans at once, one through each process.
// Never a 500, and exactly one unpaid subscription left, the one the account names. Before the
// per-user lease in the database (decision 0221), the processes' own queues let both list the
// same starts: each kept its own when it had not yet seen the other's, and two stayed open.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { setupBilling } from '../../api/services/billing/catalogue.ts';
import { users } from '../../db/schema/auth.ts';
import { CLUSTER_AUTH_SECRET, startWeb, type Web } from '../helpers/cluster.ts';
import { createTestContext, databaseEnv, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { startStripeDouble, type StripeDouble } from '../helpers/stripe-double/server.ts';

const ROUNDS = 8;
let t: TestContext;
let stripe: StripeDouble;
let webs: Web[] = [];

beforeAll(async () => {
  stripe = await startStripeDouble();
  const settings = { ...stripe.env(), AUTH_SECRET: CLUSTER_AUTH_SECRET, PUBLIC_BASE_URL: 'http://127.0.0.1:9', SUBSCRIBE_RATE_LIMIT_PER_USER: '100' };
  t = await createTestContext(settings);
  await setupBilling({ ctx: t.ctx });
  const env = (name: string) => ({ ...settings, NODE_ENV: 'test', LOG_LEVEL: 'warn', WORKER: 'off', DATABASE_URL: databaseEnv(t).DATABASE_URL, DATA_DIR: `${t.dataDir}-${name}` });
  webs = await Promise.all(['a', 'b'].map((name) => startWeb(`web ${name}`, env(name))));
}, 180_000);

afterAll(async () => {
  await Promise.all(webs.map((w) => w.stop()));
  await t?.close();
  await stripe?.close();
}, 60_000);

async function start(web: Web, cookie: string, planType: string, interval: string) {
  const res = await fetch(`${web.url}/api/create-subscription`, { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify({ planType, interval }) });
  return { status: res.status, body: await res.text() };
}

describe('create-subscription on two processes over one database', () => {
  it('two plans started at once, one through each process: never a 500, one unpaid subscription, the one the account names', async () => {
    onTestFailed(() => {
      for (const w of webs) console.error(`--- ${w.name}:\n${w.output() || '(nothing)'}`);
    });
    const [a, b] = webs as [Web, Web];
    for (let round = 0; round < ROUNDS; round++) {
      const user = await createUser(t.ctx);
      expect((await start(round % 2 ? a : b, user.cookie, 'pro', 'monthly')).status).toBe(200);
      const answers = await Promise.all([start(a, user.cookie, 'enterprise', 'monthly'), start(b, user.cookie, 'pro', 'annual')]);
      expect(answers.map((r) => r.status), `round ${round}: ${JSON.stringify(answers)}`).toEqual([200, 200]);
      const row = (await t.ctx.db.query.users.findFirst({ where: eq(users.id, user.userId) }))!;
      const open = [...stripe.subscriptions.values()].filter((s) => s.customer === row.stripeCustomerId && s.status === 'incomplete');
      expect(open.map((s) => s.id), `round ${round}`).toEqual([row.stripeSubscriptionId]);
    }
  }, 120_000);
});
