// npm run bench:api [-- --rate 500 --seconds 10 --users 200]
// Load on the public API's GET /api/v1/businesses/{id} with a Bearer key against a real server
// (`scripts/start.ts`, fresh database, worker off), beside the same read through the session route
// GET /api/business/{id}. The database is seeded with `--users` enterprise owners, each with an API
// key and a business analysed weekly for 13 weeks (10 places per run); every request reads a
// different owner's business with that owner's key (or session). Then the key verification and the
// rate-limit count are timed alone, in-process on the same database, and given as a share of the
// server's CPU per API request.
// 1. Fixed rate (open loop): latency counts from the scheduled send time (no coordinated omission).
// 2. Saturation (closed loop, 32 in flight): the most requests per second it sustains.
// Budget (ARCHITECTURE): p99 ≤ 15 ms at 500 requests/s on 2 cores.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { createContext } from '../api/context.ts';
import { loadEnv } from '../api/env.ts';
import { createApiKey, meterApiCall, verifyApiKey } from '../api/services/api-keys.ts';
import { seedBusiness } from '../tests/helpers/dashboard-seed.ts';
import { createUser } from '../tests/helpers/factories.ts';
import { startBenchServer } from './lib/bench-server.ts';

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

// Seed through the server's own database (it has migrated it by now).
const ctx = await createContext(loadEnv({ ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
const targets: Array<{ api: string; session: string; cookie: string; key: string }> = [];
const seedStart = performance.now();
for (let i = 0; i < USERS; i++) {
  const owner = await createUser(ctx, { tier: 'enterprise' });
  const { business } = await seedBusiness(ctx, {
    userId: owner.userId,
    company: `Bench Dental ${i}`,
    snapshots: Array.from({ length: 13 }, (_, w) => ({ daysAgo: (12 - w) * 7, seed: i * 100 + w })),
  });
  const { key } = await createApiKey({ ctx, userId: owner.userId, plan: { subscriptionTier: 'enterprise', subscriptionStatus: 'active' }, input: { name: 'Bench', scopes: ['businesses:read'] } });
  targets.push({ api: `/api/v1/businesses/${business.id}`, session: `/api/business/${business.id}`, cookie: owner.cookie, key });
}
ctx.db.$client.close();
console.log(`seeded ${USERS} enterprise owners with a key each × 13 weekly runs × 10 places in ${((performance.now() - seedStart) / 1000).toFixed(1)} s`);

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const statuses = new Map<string, number>();
let seq = 0;
type Kind = 'api' | 'session';
const LABEL: Record<Kind, string> = { api: 'GET /api/v1/businesses/{id} (key)', session: 'GET /api/business/{id} (session)' };
function get(kind: Kind): Promise<number> {
  const t = targets[seq++ % targets.length]!;
  const target = kind === 'api' ? { path: t.api, headers: { authorization: `Bearer ${t.key}` } } : { path: t.session, headers: { cookie: t.cookie } };
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: target.path, agent, headers: target.headers }, (res) => {
      const key = `${kind} ${res.statusCode}`;
      statuses.set(key, (statuses.get(key) ?? 0) + 1);
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => done(bytes));
    });
    req.on('error', fail);
    req.end();
  });
}

// The server's CPU time (user + system, ms) from /proc: a figure that holds when other processes
// share the cores, unlike latency. Null where /proc is missing.
function serverCpuMs(): number | null {
  try {
    const fields = readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, in 1/100 s ticks
  } catch {
    return null;
  }
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (v: number) => `${v.toFixed(2)} ms`;
function report(label: string, latencies: number[], elapsedMs: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `${label.padEnd(44)} ${String(sorted.length).padStart(6)} req in ${(elapsedMs / 1000).toFixed(1)} s = ${((sorted.length / elapsedMs) * 1000).toFixed(0).padStart(5)} req/s · ` +
      `p50 ${ms(pct(sorted, 50))} · p90 ${ms(pct(sorted, 90))} · p99 ${ms(pct(sorted, 99))} · max ${ms(sorted[sorted.length - 1]!)}`,
  );
  return sorted;
}

async function fixedRate(kind: Kind) {
  const total = RATE * SECONDS;
  const cpu0 = serverCpuMs();
  const latencies: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: total }, (_, i) => {
      const due = t0 + (i * 1000) / RATE;
      return new Promise<void>((done, fail) => {
        setTimeout(() => {
          // From the scheduled time, or from the send when a timer fired early.
          const from = Math.min(due, performance.now());
          get(kind).then(() => (latencies.push(performance.now() - from), done()), fail);
        }, Math.max(0, due - performance.now()));
      });
    }),
  );
  const sorted = report(`${LABEL[kind]} at ${RATE}/s`, latencies, performance.now() - t0);
  const cpu1 = serverCpuMs();
  const cpuPerRequest = cpu0 !== null && cpu1 !== null ? (cpu1 - cpu0) / total : null;
  if (cpuPerRequest !== null) console.log(`${''.padEnd(44)} server CPU ${cpuPerRequest.toFixed(3)} ms per request (${(((cpu1! - cpu0!) / (SECONDS * 1000)) * 100).toFixed(0)}% of one core)`);
  return { sorted, cpuPerRequest };
}

async function saturation(kind: Kind) {
  const latencies: number[] = [];
  const t0 = performance.now();
  const until = t0 + 5000;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        await get(kind);
        latencies.push(performance.now() - start);
      }
    }),
  );
  report(`${LABEL[kind]}, 32 in flight`, latencies, performance.now() - t0);
}

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
      meterApiCall(local, caller);
      meter += performance.now() - b;
      verify += b - a;
    }
    return { verify: verify / runs, meter: meter / runs };
  } finally {
    local.db.$client.close();
  }
}

try {
  console.log(`load average before the run: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (other processes on these cores inflate latency; CPU per request does not depend on them)`);
  const bytes = await get('api');
  console.log(`API answer: ${(bytes / 1024).toFixed(1)} KB (10 places)`);
  // Warm-up: JIT, connection pool, SQLite page cache.
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let i = 0; i < 100; i++) await get(i % 2 ? 'api' : 'session');
  }));
  statuses.clear();
  const api = await fixedRate('api');
  await fixedRate('session');
  await saturation('api');
  await saturation('session');
  console.log(`statuses: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`);
  const key = await keyVerificationMs();
  const perKey = key.verify + key.meter;
  console.log(`key verification ${ms(key.verify)} + per-key rate-limit count ${ms(key.meter)} per request, in-process (wall time)` +
    (api.cpuPerRequest ? ` = ${((perKey / api.cpuPerRequest) * 100).toFixed(0)}% of the server's CPU per API request (${ms(api.cpuPerRequest)})` : ''));
  const p99 = pct(api.sorted, 99);
  console.log(`budget p99 ≤ 15 ms at 500 req/s: ${p99 <= 15 && RATE >= 500 ? 'met' : 'NOT met'} (p99 ${ms(p99)} at ${RATE}/s)`);
} finally {
  agent.destroy();
  await server.stop();
}
