// npm run bench:api [-- --rate 500 --seconds 10 --users 200]
// Load on the public API's GET /api/v1/businesses/{id} with a Bearer key against a real server
// (`scripts/start.ts`, fresh database, worker off), beside the same read through the session route
// GET /api/business/{id}. The database is seeded with `--users` enterprise owners, each with an API
// key and a business analysed weekly for 13 weeks (10 places per run); every request reads a
// different owner's business with that owner's key (or session). Then the key verification and the
// rate-limit count are timed alone, in-process on the same database, and given as a share of the
// server's CPU per API request.
// The reads run at a fixed rate and at saturation (scripts/lib/http-load.ts), first with 200
// owners and then, seeded further on the same server, with `--users` (so `--users 2000` prints the
// CPU per request at 200 and at 2,000 accounts: the key route's cost should not grow with them).
// Budget (ARCHITECTURE): p99 ≤ 15 ms at 500 requests/s on 2 cores.
import { parseArgs } from 'node:util';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { createApiKey, meterApiCall, verifyApiKey } from '../api/services/api-keys.ts';
import { seedBusiness } from '../tests/helpers/dashboard-seed.ts';
import { createUser } from '../tests/helpers/factories.ts';
import { startBenchServer } from './lib/bench-server.ts';
import { httpLoad, ms, pct } from './lib/http-load.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '500' },
    seconds: { type: 'string', default: '10' },
    users: { type: 'string', default: '200' },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const USERS = Number(args.users);
// The per-key limit is lifted: the benchmark measures the read, not the refusal.
const server = await startBenchServer({ WORKER: 'off', AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123', API_RATE_LIMIT_ENTERPRISE: '1000000000' });
const { port, env } = server;

// Everything after the server's start is inside try … finally: a failed seed or run stops it too.
try {
  // Seed through the server's own database (it has migrated it by now).
  const ctx = await createContext(loadEnv({ ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
  const targets: Array<{ api: string; session: string; cookie: string; key: string }> = [];
  const SIZES = USERS > 200 ? [200, USERS] : [USERS];
  async function seedUpTo(count: number) {
    const seedStart = performance.now();
    const from = targets.length;
    for (let i = from; i < count; i++) {
      const owner = await createUser(ctx, { tier: 'enterprise' });
      const { business } = await seedBusiness(ctx, {
        userId: owner.userId,
        company: `Bench Dental ${i}`,
        snapshots: Array.from({ length: 13 }, (_, w) => ({ daysAgo: (12 - w) * 7, seed: i * 100 + w })),
      });
      const { key } = await createApiKey({ ctx, userId: owner.userId, plan: { subscriptionTier: 'enterprise', subscriptionStatus: 'active' }, role: 'client', input: { name: 'Bench', scopes: ['businesses:read'] } });
      targets.push({ api: `/api/v1/businesses/${business.id}`, session: `/api/business/${business.id}`, cookie: owner.cookie, key });
    }
    console.log(`seeded ${count - from} more enterprise owners (${count} in all) with a key each × 13 weekly runs × 10 places in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);
  }

  const load = httpLoad({ port, pid: server.pid, rate: RATE, seconds: SECONDS });
  let seq = 0;
  type Kind = 'api' | 'session';
  const LABEL: Record<Kind, string> = { api: 'GET /api/v1/businesses/{id} (key)', session: 'GET /api/business/{id} (session)' };
  const read = (kind: Kind) => () => {
    const t = targets[seq++ % targets.length]!;
    return kind === 'api' ? load.get(kind, t.api, { authorization: `Bearer ${t.key}` }) : load.get(kind, t.session, { cookie: t.cookie });
  };

  /** Mean time of the key check (hash + one indexed read) and of the per-key count (one upsert), in-process. */
  async function keyVerificationMs(runs = 2000) {
    const local = await createContext(loadEnv({ ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
    try {
      let verify = 0;
      let meter = 0;
      for (let i = 0; i < runs; i++) {
        const t = targets[i % targets.length]!;
        const a = performance.now();
        const caller = await verifyApiKey(local, `Bearer ${t.key}`);
        const b = performance.now();
        await meterApiCall(local, caller);
        meter += performance.now() - b;
        verify += b - a;
      }
      return { verify: verify / runs, meter: meter / runs };
    } finally {
      local.db.$client.close();
    }
  }

  try {
    const cpu: string[] = [];
    let api!: Awaited<ReturnType<typeof load.fixedRate>>;
    for (const size of SIZES) {
      await seedUpTo(size);
      console.log(`--- ${size} accounts, ${size} keys in use ---`);
      console.log(load.loadAverage());
      const bytes = await read('api')();
      console.log(`API answer: ${(bytes / 1024).toFixed(1)} KB (10 places)`);
      // Warm-up: JIT, connection pool, SQLite page cache.
      await Promise.all(Array.from({ length: 8 }, async () => {
        for (let i = 0; i < 100; i++) await read(i % 2 ? 'api' : 'session')();
      }));
      load.statuses.clear();
      api = await load.fixedRate(LABEL.api, read('api'));
      const session = await load.fixedRate(LABEL.session, read('session'));
      await load.saturation(LABEL.api, read('api'));
      await load.saturation(LABEL.session, read('session'));
      load.printStatuses();
      const cpuText = (r: typeof api) => (r.cpuPerRequest ? ms(r.cpuPerRequest) : 'not measured');
      cpu.push(`${size} accounts: key route ${cpuText(api)} CPU per request, session route ${cpuText(session)}; key route p99 ${ms(pct(api.sorted, 99))} at ${RATE}/s`);
    }
    ctx.db.$client.close();
    console.log(['CPU per request by number of accounts:', ...cpu.map((line) => `  ${line}`)].join('\n'));
    const key = await keyVerificationMs();
    const perKey = key.verify + key.meter;
    console.log(`key verification ${ms(key.verify)} + per-key rate-limit count ${ms(key.meter)} per request, in-process (wall time)` +
      (api.cpuPerRequest ? ` = ${((perKey / api.cpuPerRequest) * 100).toFixed(0)}% of the server's CPU per API request (${ms(api.cpuPerRequest)})` : ''));
    const p99 = pct(api.sorted, 99);
    console.log(`budget p99 ≤ 15 ms at 500 req/s: ${p99 <= 15 && RATE >= 500 ? 'met' : 'NOT met'} (p99 ${ms(p99)} at ${RATE}/s)`);
  } finally {
    load.close();
  }
} finally {
  await server.stop();
}
