// npm run bench:submit [-- --rate 200 --seconds 10 --worker]
// Load on POST /api/submit-request against a real server (`scripts/start.ts`, fresh database,
// job worker off unless --worker), every request a different business so none is a duplicate.
// 1. Fixed rate (open loop): requests are sent on a schedule, and latency counts from the
//    scheduled time, so a stalled server cannot hide its queueing (no coordinated omission).
// 2. Saturation (closed loop, 32 in flight): the most requests per second it sustains.
// Budget (docs: ARCHITECTURE): p99 ≤ 25 ms at 200 requests/s on 2 cores.
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startBenchServer } from './lib/bench-server.ts';

const { values: args } = parseArgs({
  options: { rate: { type: 'string', default: '200' }, seconds: { type: 'string', default: '10' }, worker: { type: 'boolean', default: false } },
});
const RATE = Number(args.rate);
const SECONDS = Number(args.seconds);
const server = await startBenchServer({
  WORKER: args.worker ? 'inline' : 'off',
  INTAKE_RATE_LIMIT_PER_IP: '100000000',
  INTAKE_RATE_LIMIT_PER_EMAIL: '100000000',
  POW_AFTER_PER_NETWORK: '100000000',
  POW_AFTER_PER_DOMAIN: '100000000',
});
const { port } = server;

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
let seq = 0;
function body(): string {
  const n = ++seq;
  return JSON.stringify({
    fullName: 'Bench Owner',
    email: `bench-${n}@example.com`,
    company: `Bench Plumbing ${n}`,
    role: 'owner',
    website: `https://bench-${n}.example.com`,
    address: `${100 + (n % 900)} Congress Ave`,
    city: 'Austin',
    state: 'TX',
    zip: '78701',
    consent: n % 2 === 0,
  });
}

const statuses = new Map<number, number>();
function post(): Promise<void> {
  const payload = body();
  return new Promise((done, fail) => {
    const req = request(
      { host: '127.0.0.1', port, path: '/api/submit-request', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        statuses.set(res.statusCode!, (statuses.get(res.statusCode!) ?? 0) + 1);
        res.resume();
        res.on('end', done);
      },
    );
    req.on('error', fail);
    req.end(payload);
  });
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
const ms = (v: number) => `${v.toFixed(2)} ms`;
function report(label: string, latencies: number[], elapsedMs: number) {
  const sorted = [...latencies].sort((a, b) => a - b);
  console.log(
    `${label}: ${sorted.length} requests in ${(elapsedMs / 1000).toFixed(1)} s = ${((sorted.length / elapsedMs) * 1000).toFixed(0)} req/s · ` +
      `p50 ${ms(pct(sorted, 50))} · p90 ${ms(pct(sorted, 90))} · p99 ${ms(pct(sorted, 99))} · max ${ms(sorted[sorted.length - 1]!)}`,
  );
  return sorted;
}

try {
  // Warm-up: JIT, connection pool, SQLite page cache.
  await Promise.all(Array.from({ length: 8 }, async () => {
    for (let i = 0; i < 40; i++) await post();
  }));
  statuses.clear();

  // 1. Fixed rate.
  const total = RATE * SECONDS;
  const fixed: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: total }, (_, i) => {
      const due = t0 + (i * 1000) / RATE;
      return new Promise<void>((done, fail) => {
        setTimeout(() => post().then(() => (fixed.push(performance.now() - due), done()), fail), Math.max(0, due - performance.now()));
      });
    }),
  );
  const fixedSorted = report(`fixed rate ${RATE}/s`, fixed, performance.now() - t0);

  // 2. Saturation.
  const closed: number[] = [];
  const t1 = performance.now();
  const until = t1 + 5000;
  await Promise.all(
    Array.from({ length: 32 }, async () => {
      while (performance.now() < until) {
        const start = performance.now();
        await post();
        closed.push(performance.now() - start);
      }
    }),
  );
  report('saturation, 32 in flight', closed, performance.now() - t1);

  // Figures from a machine already busy with other work say little: print how busy it was.
  console.log(`machine: ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min)`);
  console.log(`statuses: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}`);
  console.log(`worker: ${args.worker ? 'inline (reports generated meanwhile)' : 'off (intake only)'} · budget p99 ≤ 25 ms at 200 req/s: ${pct(fixedSorted, 99) <= 25 && RATE >= 200 ? 'met' : 'NOT met'}`);
} finally {
  agent.destroy();
  await server.stop();
}
