// npm run bench:webhook [-- --events 2000 --concurrency 8 --users 200]
// POST /api/stripe/webhook as Stripe sends it: signed `customer.subscription.updated` events for
// paid subscriptions, each handled in full (signature check on the raw body, event-id ledger,
// the subscription read again from a local Stripe API double over HTTP, the plan written), on a
// fresh database. Prints events handled per second and the latency percentiles, then the same
// for replays (duplicates the ledger turns away).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createApp } from '../api/app.ts';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { setupBilling } from '../api/services/billing/catalogue.ts';
import { STRIPE_API_VERSION } from '../api/services/billing/stripe.ts';
import { createSubscription } from '../api/services/billing/subscriptions.ts';
import { createUser } from '../tests/helpers/factories.ts';
import { GOOD_CARD, startStripeDouble } from '../tests/helpers/stripe-double/server.ts';

const { values: args } = parseArgs({ options: { events: { type: 'string', default: '2000' }, concurrency: { type: 'string', default: '8' }, users: { type: 'string', default: '200' } } });
const EVENTS = Number(args.events);
const CONCURRENCY = Number(args.concurrency);
const USERS = Number(args.users);

async function run(app: ReturnType<typeof createApp>, label: string, events: Array<{ payload: string; signature: string }>) {
  const latencies: number[] = [];
  let next = 0;
  let failed = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < events.length) {
        const event = events[next++]!;
        const t0 = performance.now();
        const res = await app.request('/api/stripe/webhook', { method: 'POST', headers: { 'content-type': 'application/json', 'stripe-signature': event.signature }, body: event.payload });
        await res.arrayBuffer();
        if (res.status !== 200) failed++;
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1);
  console.log(`${label.padEnd(22)} ${String(events.length).padStart(6)} events  ${(events.length / seconds).toFixed(0).padStart(6)} events/s  p50 ${p(0.5)} ms  p90 ${p(0.9)} ms  p99 ${p(0.99)} ms  max ${latencies.at(-1)!.toFixed(1)} ms${failed ? `  ${failed} FAILED` : ''}`);
}

const stripe = await startStripeDouble();
const dataDir = mkdtempSync(join(tmpdir(), 'localrank-bench-webhook-'));
// Everything after the double starts is inside try … finally: it stops on every path.
let ctx: Awaited<ReturnType<typeof createContext>> | undefined;
try {
  const env = loadEnv({ ...stripe.env(), DATA_DIR: dataDir, LOG_LEVEL: 'error', WORKER: 'off', SIGNUP_RATE_LIMIT_PER_IP: '1000000', SUBSCRIBE_RATE_LIMIT_PER_USER: '1000000' });
  ctx = await createContext(env, { migrate: true });
  const app = createApp(ctx);
  await setupBilling({ ctx });

  process.stdout.write(`seeding ${USERS} paid subscriptions… `);
  const subscriptions: string[] = [];
  for (let i = 0; i < USERS; i++) {
    const user = await createUser(ctx, { email: `bench-${i}@example.com` });
    await createSubscription({ ctx, userId: user.userId, input: { planType: i % 2 ? 'pro' : 'enterprise', interval: i % 3 ? 'monthly' : 'annual' } });
    const sub = [...stripe.subscriptions.values()].at(-1)!;
    await stripe.charge(String(sub.latest_invoice), GOOD_CARD);
    subscriptions.push(sub.id);
  }
  console.log('done');

  const signedEvents = (count: number, ids: () => string) =>
    Array.from({ length: count }, (_, i) => {
      const sub = stripe.subscriptions.get(subscriptions[i % subscriptions.length]!)!;
      const payload = JSON.stringify({ id: ids(), object: 'event', api_version: STRIPE_API_VERSION, created: stripe.now, data: { object: sub }, livemode: false, pending_webhooks: 1, request: { id: null, idempotency_key: null }, type: 'customer.subscription.updated' });
      return { payload, signature: stripe.sign(payload) };
    });

  let seq = 0;
  const fresh = signedEvents(EVENTS, () => `evt_bench_${++seq}`);
  console.log(`webhook bench: concurrency ${CONCURRENCY}, Stripe API double over loopback HTTP, libSQL file database`);
  await run(app, 'new events (handled)', fresh);
  await run(app, 'replays (ledger)', fresh.slice(0, Math.min(EVENTS, 1000)));
} finally {
  ctx?.db.$client.close();
  await stripe.close();
  rmSync(dataDir, { recursive: true, force: true });
}
