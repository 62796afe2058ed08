// npm run bench:load [-- --connections 200 --seconds 60 --accept 60]
// A mixed load on a fresh `npm start` server (loopback only, job worker inline as by default):
// `--connections` clients, each sending its next request as soon as the last one is answered, for
// `--seconds`, over pre-rendered and server-rendered pages, GET /api/auth/me with a session, the
// dashboard read (GET /api/business/{id}) and report submissions (POST /api/submit-request, each
// a new business). Prints requests/s, p50/p99 per kind and the answers by status; then waits for
// every accepted (202) request's job and checks each ended done. Submissions beyond the per-IP
// intake limit (`--accept`, every client is 127.0.0.1) get the designed 429. Exits 1 on any other
// error, any connection error or timeout, or an accepted request whose job did not finish.
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { inArray } from 'drizzle-orm';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { jobs } from '../db/schema/operations.ts';
import { seedBusiness } from '../tests/helpers/dashboard-seed.ts';
import { createUser } from '../tests/helpers/factories.ts';
import { builtSiteUrl } from './lib/built-site-url.ts';
import { startBenchServer } from './lib/bench-server.ts';

const { values: args } = parseArgs({
  options: {
    connections: { type: 'string', default: '200' },
    seconds: { type: 'string', default: '60' },
    accept: { type: 'string', default: '60' },
    owners: { type: 'string', default: '20' },
  },
});
const CONNECTIONS = Math.min(1000, Number(args.connections));
const SECONDS = Math.min(600, Number(args.seconds));
const TIMEOUT_MS = 10_000;

const server = await startBenchServer({
  ...builtSiteUrl(),
  AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123',
  INTAKE_RATE_LIMIT_PER_IP: args.accept,
  INTAKE_RATE_LIMIT_PER_EMAIL: '1000',
  // The bench's visitors all come from one address: past the rate limit, not asked for a proof of work (decision 0350).
  POW_AFTER_PER_NETWORK: '100000000',
  POW_AFTER_PER_DOMAIN: '100000000',
});
const { port, env } = server;
let ctx: Awaited<ReturnType<typeof createContext>> | undefined;

try {
  ctx = await createContext(loadEnv({ ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
  const owners: Array<{ cookie: string; businessId: string }> = [];
  for (let i = 0; i < Number(args.owners); i++) {
    const owner = await createUser(ctx, { tier: 'pro' });
    const { business } = await seedBusiness(ctx, {
      userId: owner.userId,
      company: `Load Dental ${i}`,
      snapshots: Array.from({ length: 13 }, (_, w) => ({ daysAgo: (12 - w) * 7, seed: i * 100 + w })),
    });
    owners.push({ cookie: owner.cookie, businessId: business.id });
  }

  type Kind = 'page' | 'ssr page' | 'auth/me' | 'dashboard' | 'submit';
  const PAGES = ['/', '/faq', '/help-center', '/contact', '/privacy', '/terms', '/login', '/signup'];
  let seq = 0;
  function next(): { kind: Kind; method: string; path: string; headers: Record<string, string>; body?: string } {
    const n = ++seq;
    const owner = owners[n % owners.length]!;
    const roll = n % 20;
    if (roll < 7) return { kind: 'page', method: 'GET', path: PAGES[n % PAGES.length]!, headers: { 'accept-encoding': 'br, gzip' } };
    if (roll < 9) return { kind: 'ssr page', method: 'GET', path: `/dashboard/${owner.businessId}`, headers: { 'accept-encoding': 'br, gzip', cookie: owner.cookie } };
    if (roll < 13) return { kind: 'auth/me', method: 'GET', path: '/api/auth/me', headers: { cookie: owner.cookie } };
    if (roll < 18) return { kind: 'dashboard', method: 'GET', path: `/api/business/${owner.businessId}`, headers: { cookie: owner.cookie, 'accept-encoding': 'br, gzip' } };
    const body = JSON.stringify({
      fullName: 'Load Owner',
      email: `load-${n}@example.com`,
      company: `Load Plumbing ${n}`,
      role: 'owner',
      website: `https://load-${n}.example.com`,
      address: `${100 + (n % 900)} Congress Ave`,
      city: 'Austin',
      state: 'TX',
      zip: '78701',
    });
    return { kind: 'submit', method: 'POST', path: '/api/submit-request', headers: { 'content-type': 'application/json' }, body };
  }

  const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const latencies = new Map<Kind, number[]>();
  const statuses = new Map<string, number>();
  const accepted: string[] = [];
  let failures = 0;
  const failureLines: string[] = [];
  const send = (r: ReturnType<typeof next>) =>
    new Promise<void>((done) => {
      const started = performance.now();
      const headers: Record<string, string | number> = { ...r.headers };
      if (r.body) headers['content-length'] = Buffer.byteLength(r.body);
      const req = request({ host: '127.0.0.1', port, path: r.path, method: r.method, agent, headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => r.kind === 'submit' && chunks.push(c));
        res.on('end', () => {
          const key = `${r.kind} ${res.statusCode}`;
          statuses.set(key, (statuses.get(key) ?? 0) + 1);
          (latencies.get(r.kind) ?? latencies.set(r.kind, []).get(r.kind)!).push(performance.now() - started);
          if (r.kind === 'submit' && res.statusCode === 202) accepted.push((JSON.parse(Buffer.concat(chunks).toString()) as { requestId: string }).requestId);
          done();
        });
      });
      req.setTimeout(TIMEOUT_MS, () => req.destroy(new Error(`no answer within ${TIMEOUT_MS} ms`)));
      req.on('error', (e) => {
        failures++;
        if (failureLines.length < 10) failureLines.push(`${r.method} ${r.path}: ${e.message}`);
        statuses.set(`${r.kind} error`, (statuses.get(`${r.kind} error`) ?? 0) + 1);
        done();
      });
      req.end(r.body);
    });

  console.log(`load: ${CONNECTIONS} connections for ${SECONDS} s on http://127.0.0.1:${port} (inline worker, intake limit ${args.accept}/h per IP)`);
  const t0 = performance.now();
  const until = t0 + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: CONNECTIONS }, async () => {
      while (performance.now() < until) await send(next());
    }),
  );
  const elapsed = (performance.now() - t0) / 1000;
  agent.destroy();

  const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
  const all = [...latencies.values()].flat().sort((a, b) => a - b);
  console.log(`total: ${all.length} answers in ${elapsed.toFixed(1)} s = ${(all.length / elapsed).toFixed(0)} req/s · p50 ${pct(all, 50).toFixed(1)} ms · p99 ${pct(all, 99).toFixed(1)} ms · max ${all.at(-1)?.toFixed(0)} ms`);
  for (const [kind, values] of latencies) {
    const sorted = values.sort((a, b) => a - b);
    console.log(`  ${kind.padEnd(9)} ${String(sorted.length).padStart(7)} · ${(sorted.length / elapsed).toFixed(0).padStart(5)} req/s · p50 ${pct(sorted, 50).toFixed(1)} ms · p99 ${pct(sorted, 99).toFixed(1)} ms`);
  }
  console.log(`statuses: ${[...statuses].sort().map(([s, n]) => `${s}×${n}`).join(', ')}`);
  const designed = (key: string) => / (200|202)$/.test(key) || key === 'submit 429';
  const errors = [...statuses].filter(([key]) => !designed(key)).reduce((sum, [, n]) => sum + n, 0);
  console.log(`errors other than the designed 429s: ${errors}${failureLines.length ? `\n  ${failureLines.join('\n  ')}` : ''}`);

  // Every accepted request must end in a finished job.
  const drainStart = performance.now();
  let rows: Array<{ status: string }> = [];
  for (;;) {
    rows = accepted.length ? await ctx.db.select({ status: jobs.status }).from(jobs).where(inArray(jobs.key, accepted.map((id) => `report.generate:${id}`))) : [];
    const open = rows.filter((r) => r.status === 'queued' || r.status === 'running').length;
    if (open === 0 && rows.length === accepted.length) break;
    if (performance.now() - drainStart > 15 * 60_000) break;
    await new Promise((r) => setTimeout(r, 2000));
  }
  const done = rows.filter((r) => r.status === 'done').length;
  console.log(`accepted (202): ${accepted.length} · jobs done: ${done} · failed: ${rows.filter((r) => r.status === 'failed').length} · missing or unfinished: ${accepted.length - done} · drained in ${((performance.now() - drainStart) / 1000).toFixed(0)} s after the load`);
  console.log(`machine: ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min)`);
  process.exitCode = errors || failures || done !== accepted.length ? 1 : 0;
} finally {
  ctx?.db.$client.close();
  await server.stop();
}
