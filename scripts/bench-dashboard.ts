// npm run bench:dashboard [-- --rate 500 --seconds 10 --users 200 --consultant]
// Load on GET /api/business/{id} against a real server (`scripts/start.ts`, fresh database, worker
// off), next to GET /api/health on the same server for comparison. The database is seeded with
// `--users` pro owners, each with a business analysed weekly for 13 weeks (10 places per run), and
// every request reads a different owner's dashboard with that owner's session. With
// `--consultant`, the readers are agency consultants and each business is one of their clients
// (no owner account): the access check goes through the clients table instead.
// Then at a fixed rate and at saturation (scripts/lib/http-load.ts).
// Budget (ARCHITECTURE): p99 ≤ 15 ms at 500 requests/s on 2 cores.
import { parseArgs } from 'node:util';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { addClient, seedBusiness } from '../tests/helpers/dashboard-seed.ts';
import { createUser } from '../tests/helpers/factories.ts';
import { startBenchServer } from './lib/bench-server.ts';
import { httpLoad, ms, pct } from './lib/http-load.ts';

const { values: args } = parseArgs({
  options: {
    rate: { type: 'string', default: '500' },
    seconds: { type: 'string', default: '10' },
    users: { type: 'string', default: '200' },
    consultant: { type: 'boolean', default: false },
  },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const USERS = Number(args.users);
const server = await startBenchServer({ WORKER: 'off', AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123' });
const { port, env } = server;
// Everything after the server's start is inside try … finally: a failed seed or run stops it too.
try {

  // Seed through the server's own database (it has migrated it by now).
  const ctx = await createContext(loadEnv({ ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
  const targets: Array<{ path: string; cookie: string }> = [];
  const seedStart = performance.now();
  for (let i = 0; i < USERS; i++) {
    const owner = args.consultant ? await createUser(ctx, { role: 'consultant', tier: 'agency' }) : await createUser(ctx, { tier: 'pro' });
    const { business } = await seedBusiness(ctx, {
      userId: args.consultant ? null : owner.userId,
      company: `Bench Dental ${i}`,
      snapshots: Array.from({ length: 13 }, (_, w) => ({ daysAgo: (12 - w) * 7, seed: i * 100 + w })),
    });
    if (args.consultant) await addClient(ctx, owner.viewer.consultant!.id, business.id);
    targets.push({ path: `/api/business/${business.id}`, cookie: owner.cookie });
  }
  ctx.db.$client.close();
  console.log(`seeded ${USERS} ${args.consultant ? "agency consultants' clients" : 'pro owners'} × 13 weekly runs × 10 places in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

  const load = httpLoad({ port, pid: server.pid, rate: RATE, seconds: SECONDS, labelWidth: 34 });
  let seq = 0;
  const dashboard = () => {
    const target = targets[seq++ % targets.length]!;
    return load.get('dashboard', target.path, { cookie: target.cookie });
  };
  const health = () => load.get('health', '/api/health');

  try {
    console.log(load.loadAverage());
    const bytes = await dashboard();
    console.log(`dashboard answer: ${(bytes / 1024).toFixed(1)} KB (10 places, 13 snapshots)`);
    // Warm-up: JIT, connection pool, SQLite page cache.
    await Promise.all(Array.from({ length: 8 }, async () => {
      for (let i = 0; i < 100; i++) await (i % 2 ? dashboard() : health());
    }));
    load.statuses.clear();
    const { sorted } = await load.fixedRate('GET /api/business/{id}', dashboard);
    await load.fixedRate('GET /api/health', health);
    await load.saturation('GET /api/business/{id}', dashboard);
    await load.saturation('GET /api/health', health);
    load.printStatuses();
    const p99 = pct(sorted, 99);
    console.log(`budget p99 ≤ 15 ms at 500 req/s: ${p99 <= 15 && RATE >= 500 ? 'met' : 'NOT met'} (p99 ${ms(p99)} at ${RATE}/s)`);
  } finally {
    load.close();
  }
} finally {
  await server.stop();
}
