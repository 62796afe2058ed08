// npm run bench:dashboard [-- --rate 500 --seconds 10 --users 200 --consultant]
// Load on GET /api/business/{id} against a real server (`scripts/start.ts`, fresh database, worker
// off), next to GET /api/health on the same server for comparison. The database is seeded with
// `--users` pro owners, each with a business analysed weekly for 13 weeks (10 places per run), and
// every request reads a different owner's dashboard with that owner's session. With
// `--consultant`, the readers are agency consultants and each business is one of their clients
// (no owner account): the access check goes through the clients table instead.
// 1. Fixed rate (open loop): latency counts from the scheduled send time (no coordinated omission).
// 2. Saturation (closed loop, 32 in flight): the most requests per second it sustains.
// Budget (ARCHITECTURE): p99 ≤ 15 ms at 500 requests/s on 2 cores.
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { parseArgs } from 'node:util';
import { createContext } from '../api/context.ts';
import { loadEnv } from '../api/env.ts';
import { addClient, seedBusiness } from '../tests/helpers/dashboard-seed.ts';
import { createUser } from '../tests/helpers/factories.ts';
import { startBenchServer } from './lib/bench-server.ts';

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

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
const statuses = new Map<string, number>();
let seq = 0;
function get(kind: 'dashboard' | 'health'): Promise<number> {
  const target = kind === 'health' ? { path: '/api/health', cookie: '' } : targets[seq++ % targets.length]!;
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path: target.path, agent, headers: target.cookie ? { cookie: target.cookie } : {} }, (res) => {
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
    `${label.padEnd(34)} ${String(sorted.length).padStart(6)} req in ${(elapsedMs / 1000).toFixed(1)} s = ${((sorted.length / elapsedMs) * 1000).toFixed(0).padStart(5)} req/s · ` +
      `p50 ${ms(pct(sorted, 50))} · p90 ${ms(pct(sorted, 90))} · p99 ${ms(pct(sorted, 99))} · max ${ms(sorted[sorted.length - 1]!)}`,
  );
  return sorted;
}

async function fixedRate(kind: 'dashboard' | 'health') {
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
  const sorted = report(`GET ${kind === 'health' ? '/api/health' : '/api/business/{id}'} at ${RATE}/s`, latencies, performance.now() - t0);
  const cpu1 = serverCpuMs();
  if (cpu0 !== null && cpu1 !== null) console.log(`${''.padEnd(34)} server CPU ${((cpu1 - cpu0) / total).toFixed(3)} ms per request (${(((cpu1 - cpu0) / (SECONDS * 1000)) * 100).toFixed(0)}% of one core)`);
  return sorted;
}

async function saturation(kind: 'dashboard' | 'health') {
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
  report(`GET ${kind === 'health' ? '/api/health' : '/api/business/{id}'}, 32 in flight`, latencies, performance.now() - t0);
}

try {
  console.log(`load average before the run: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (other processes on these cores inflate latency; CPU per request does not depend on them)`);
  const bytes = await get('dashboard');
  console.log(`dashboard answer: ${(bytes / 1024).toFixed(1)} KB (10 places, 13 snapshots)`);
  // Warm-up: JIT, connection pool, SQLite page cache.
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let i = 0; i < 100; i++) await get(i % 2 ? 'dashboard' : 'health');
  }));
  statuses.clear();
  const dashboard = await fixedRate('dashboard');
  await fixedRate('health');
  await saturation('dashboard');
  await saturation('health');
  console.log(`statuses: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`);
  const p99 = pct(dashboard, 99);
  console.log(`budget p99 ≤ 15 ms at 500 req/s: ${p99 <= 15 && RATE >= 500 ? 'met' : 'NOT met'} (p99 ${ms(p99)} at ${RATE}/s)`);
} finally {
  agent.destroy();
  await server.stop();
}
