// npm run bench:scale [-- --reports 150 --concurrency 24 --only file|sqld --worker-concurrency 2]
// One bounded load, two set-ups (issue 35; ARCHITECTURE "Budgets", scale-out):
//   file: one process on a database file, its worker inline (`npm start`'s default);
//   sqld: a libSQL server, 2 web processes (WORKER=off) behind a round-robin proxy and 2
//         `npm run worker` processes (tests/helpers/cluster.ts; README "Scaling out").
// Both serve /api with `npm start`'s script (--api-only: no site to build) and send mail to one
// local SMTP sink. `--reports` report requests (sample provider, each a new business) are sent
// `--concurrency` at a time. Prints, per set-up: reports per second (first submit sent → last
// report e-mail received by the sink), submit p50/p99, refusals (any answer but 202), the CPU of all
// its processes per report, and on sqld the statements and HTTP requests (round trips) per report,
// read from sqld's own counters (its admin API's /metrics), with the statements sent most.
// Budget: sqld ≥ 0.9× the file's reports/s, submit p99 ≤ 3× the file's, 0 refusals. Exit code 1
// when it is missed. `--profile`: each sqld set-up process also counts its own requests to the
// server (scripts/lib/hrana-profile.ts): round trips, statements, time waited and bytes per report,
// by kind. `--cpu-prof <dir>`: every node process writes a V8 CPU profile there when it stops.
// `--worker-concurrency`: the sqld set-up's workers' WORKER_CONCURRENCY (the product's default otherwise).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { CLUSTER_AUTH_SECRET, startCluster, startWeb, type Cluster, type Web } from '../tests/helpers/cluster.ts';
import { startSmtpServer } from '../tests/helpers/smtp.ts';

const { values: args } = parseArgs({
  options: {
    reports: { type: 'string', default: '150' },
    concurrency: { type: 'string', default: '24' },
    only: { type: 'string' },
    profile: { type: 'boolean', default: false },
    'cpu-prof': { type: 'string' },
    'worker-concurrency': { type: 'string' },
  },
});
const REPORTS = Math.min(2000, Number(args.reports));
const CONCURRENCY = Math.min(256, Number(args.concurrency));
const WARM_UP = 4;
/** With --cpu-prof: the settings that make a process write its CPU profile when it stops. */
const cpuProf = (name: string): Record<string, string> =>
  args['cpu-prof'] ? { NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${resolve(args['cpu-prof'])} --cpu-prof-name=${name.replace(/\W+/g, '-')}.cpuprofile` } : {};
/** Every request comes from 127.0.0.1: limits that never refuse the bench. */
// One address sends every request: no limit, and no proof of work (decision 0350), stands in the way.
const LIMITS = { INTAKE_RATE_LIMIT_PER_IP: '100000000', INTAKE_RATE_LIMIT_PER_EMAIL: '100000000', POW_AFTER_PER_NETWORK: '100000000', POW_AFTER_PER_DOMAIN: '100000000' };

interface Result {
  label: string;
  perSecond: number;
  p50: number;
  p99: number;
  refused: number;
  statuses: string;
  cpuMsPerReport: number;
  /** CPU per report of each kind of process. */
  cpuByRole: string;
  statementsPerReport?: number;
  requestsPerReport?: number;
  top?: string[];
  profile?: string[];
  unfinished: number;
}

type Kind = { requests: number; statements: number; ms: number; busy: number; slowest: number; bytesOut: number; bytesIn: number };
type Profile = Record<string, Record<string, Kind>>;

/** What hrana-profile.ts counted in each process between two snapshots, per report, largest wait first. */
function profileLines(before: Profile, after: Profile, reports: number): string[] {
  const lines: string[] = [];
  for (const role of ['web', 'worker']) {
    const total = new Map<string, Kind>();
    for (const [proc, kinds] of Object.entries(after)) {
      if (!proc.startsWith(role)) continue;
      for (const [kind, k] of Object.entries(kinds)) {
        const was = before[proc]?.[kind];
        const t = total.get(kind) ?? { requests: 0, statements: 0, ms: 0, busy: 0, slowest: 0, bytesOut: 0, bytesIn: 0 };
        t.bytesOut += k.bytesOut - (was?.bytesOut ?? 0);
        t.bytesIn += k.bytesIn - (was?.bytesIn ?? 0);
        t.requests += k.requests - (was?.requests ?? 0);
        t.statements += k.statements - (was?.statements ?? 0);
        t.ms += k.ms - (was?.ms ?? 0);
        t.busy += k.busy - (was?.busy ?? 0);
        t.slowest = Math.max(t.slowest, k.slowest);
        total.set(kind, t);
      }
    }
    const all = [...total.values()].reduce((a, k) => ({ requests: a.requests + k.requests, ms: a.ms + k.ms, busy: a.busy + k.busy, bytes: a.bytes + k.bytesOut + k.bytesIn }), { requests: 0, ms: 0, busy: 0, bytes: 0 });
    lines.push(`${role} processes: ${(all.requests / reports).toFixed(1)} round trips/report, ${(all.ms / reports).toFixed(0)} ms waited on the server/report, ${(all.bytes / reports / 1024).toFixed(0)} KB/report, ${all.busy} busy answers`);
    for (const [kind, k] of [...total].filter(([, k]) => k.requests > 0).sort((a, b) => b[1].ms - a[1].ms).slice(0, 12)) {
      lines.push(`  ${(k.requests / reports).toFixed(2).padStart(6)} trips ${(k.ms / reports).toFixed(1).padStart(7)} ms ${(k.ms / k.requests).toFixed(1).padStart(6)} ms each (slowest ${k.slowest.toFixed(0)}) ${((k.bytesOut + k.bytesIn) / reports / 1024).toFixed(0).padStart(4)} KB ${k.busy ? `busy ${k.busy} ` : ''}${kind}`);
    }
  }
  return lines;
}

let seq = 0;
function form(run: string) {
  const n = ++seq;
  return {
    fullName: 'Bench Owner',
    email: `scale-${run}-${n}@example.com`,
    company: `Scale Plumbing ${run} ${n}`,
    role: 'owner',
    website: `https://scale-${n}.example.com`,
    address: `${100 + (n % 900)} Congress Ave`,
    city: 'Austin',
    state: 'TX',
    zip: '78701',
  };
}

function post(agent: Agent, base: URL, body: object): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((done) => {
    const req = request(
      { host: base.hostname, port: base.port, path: '/api/submit-request', method: 'POST', agent, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } },
      (res) => {
        res.resume();
        res.on('end', () => done(res.statusCode ?? 0));
      },
    );
    req.setTimeout(30_000, () => req.destroy(new Error('no answer in 30 s')));
    req.on('error', () => done(0));
    req.end(payload);
  });
}

/** CPU time (user + system) of a process so far, in ms, from /proc (Linux). */
function cpuMs(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/** sqld's counters: statements run and HTTP requests answered. */
async function sqldCounters(adminUrl: string) {
  const text = await (await fetch(`${adminUrl}/metrics`)).text();
  const sum = (name: string) =>
    text
      .split('\n')
      .filter((line) => line.startsWith(`${name} `) || line.startsWith(`${name}{`))
      .filter((line) => !line.startsWith(`${name}{namespace`))
      .reduce((total, line) => total + Number(line.slice(line.lastIndexOf(' ') + 1)), 0);
  const stats = (await (await fetch(`${adminUrl}/v1/namespaces/default/stats`)).json()) as { queries?: { id: string; stats: Array<{ query: string; count: number; elapsed_ms: number }> } | null };
  return { statements: sum('libsql_server_query_count'), requests: sum('libsql_server_user_http_response'), queries: stats.queries ?? null };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;

/** Sends the load to `base` and waits for every accepted report's e-mail at `smtp`. */
async function load(label: string, run: string, base: string, smtp: Awaited<ReturnType<typeof startSmtpServer>>, pids: () => Array<{ role: string; pid: number | undefined }>, adminUrl?: string, profile?: () => Promise<Profile>): Promise<Result> {
  const url = new URL(base);
  const agent = new Agent({ keepAlive: true, maxSockets: CONCURRENCY });
  const mailedTo = new Set<string>();
  const seen = () => {
    for (const mail of smtp.received) for (const to of mail.envelope.to) mailedTo.add(to);
  };
  const waitForMail = async (addresses: string[], ms: number) => {
    const deadline = Date.now() + ms;
    for (;;) {
      seen();
      if (addresses.every((a) => mailedTo.has(a))) return Date.now();
      if (Date.now() > deadline) return null;
      await new Promise((r) => setTimeout(r, 20));
    }
  };
  try {
    // Warm-up: code loaded and compiled, render threads started, connections open.
    const warm = Array.from({ length: WARM_UP }, () => form(`${run}-warm`));
    await Promise.all(warm.map((f) => post(agent, url, f)));
    if (!(await waitForMail(warm.map((f) => f.email), 120_000))) throw new Error(`${label}: the warm-up reports were not e-mailed in 2 minutes`);
    await new Promise((r) => setTimeout(r, 500));

    const before = { cpu: pids().map((p) => cpuMs(p.pid)), sqld: adminUrl ? await sqldCounters(adminUrl) : null, profile: await profile?.() };
    const forms = Array.from({ length: REPORTS }, () => form(run));
    const latencies: number[] = [];
    const statuses = new Map<number, number>();
    const accepted: string[] = [];
    let next = 0;
    const t0 = Date.now();
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async () => {
        while (next < forms.length) {
          const f = forms[next++]!;
          const started = performance.now();
          const status = await post(agent, url, f);
          latencies.push(performance.now() - started);
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
          if (status === 202) accepted.push(f.email);
        }
      }),
    );
    const lastMail = await waitForMail(accepted, 10 * 60_000);
    seen();
    const unfinished = accepted.filter((a) => !mailedTo.has(a)).length;
    const elapsed = ((lastMail ?? Date.now()) - t0) / 1000;
    const after = { cpu: pids().map((p) => cpuMs(p.pid)), sqld: adminUrl ? await sqldCounters(adminUrl) : null, profile: await profile?.() };
    const sorted = latencies.sort((a, b) => a - b);
    const reports = Math.max(1, accepted.length - unfinished);
    const result: Result = {
      label,
      perSecond: reports / elapsed,
      p50: pct(sorted, 50),
      p99: pct(sorted, 99),
      refused: REPORTS - accepted.length,
      statuses: [...statuses].map(([s, n]) => `${s || 'error'}×${n}`).join(', '),
      cpuMsPerReport: after.cpu.reduce((sum, v, i) => sum + v - (before.cpu[i] ?? 0), 0) / reports,
      cpuByRole: [...pids().reduce((roles, p, i) => roles.set(p.role, (roles.get(p.role) ?? 0) + (after.cpu[i] ?? 0) - (before.cpu[i] ?? 0)), new Map<string, number>())]
        .map(([role, ms]) => `${role} ${(ms / reports).toFixed(0)} ms`)
        .join(', '),
      unfinished,
    };
    if (before.sqld && after.sqld) {
      result.statementsPerReport = (after.sqld.statements - before.sqld.statements) / reports;
      result.requestsPerReport = (after.sqld.requests - before.sqld.requests) / reports;
      // The statements sent most (sqld's per-statement counts; since its last reset when it reset meanwhile).
      const earlier = new Map(before.sqld.queries?.id === after.sqld.queries?.id ? (before.sqld.queries?.stats ?? []).map((q) => [q.query, q] as const) : []);
      result.top = (after.sqld.queries?.stats ?? [])
        .map((q) => ({ query: q.query, count: q.count - (earlier.get(q.query)?.count ?? 0), ms: q.elapsed_ms - (earlier.get(q.query)?.elapsed_ms ?? 0) }))
        .filter((q) => q.count > 0)
        .sort((a, b) => b.count - a.count)
        .slice(0, 12)
        .map((q) => `${(q.count / reports).toFixed(2).padStart(6)}/report ${(q.ms / reports).toFixed(2).padStart(6)} ms/report  ${q.query.replace(/\s+/g, ' ').slice(0, 150)}`);
    }
    if (before.profile && after.profile) result.profile = profileLines(before.profile, after.profile, reports);
    return result;
  } finally {
    agent.destroy();
  }
}

async function fileRun(): Promise<Result> {
  const smtp = await startSmtpServer();
  let web: Web | undefined;
  try {
    web = await startWeb('file', {
      DATA_DIR: mkdtempSync(join(tmpdir(), 'localrank-bench-file-')),
      NODE_ENV: 'production',
      PLACES_PROVIDER: 'sample',
      LOG_LEVEL: 'warn',
      AUTH_SECRET: CLUSTER_AUTH_SECRET,
      SMTP_URL: smtp.url,
      WORKER: 'inline',
      ...LIMITS,
      ...cpuProf('file'),
    });
    const w = web;
    try {
      return await load('one process, file (inline worker)', 'file', w.url, smtp, () => [{ role: 'web + inline worker', pid: w.child.pid }]);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n--- ${w.name}:\n${w.output() || '(nothing)'}`, { cause: error });
    }
  } finally {
    await web?.stop();
    await smtp.close();
  }
}

async function sqldRun(): Promise<Result> {
  let cluster: Cluster | undefined;
  const profileDir = args.profile ? mkdtempSync(join(tmpdir(), 'localrank-bench-profile-')) : '';
  const profileFile = (name: string) => join(profileDir, `${name.replace(/\W+/g, '-')}.json`);
  try {
    // The processes migrate nothing at once: the database is migrated first, by one of them.
    cluster = await startCluster(async (env) => {
      const ctx = await createContext(loadEnv({ ...env, LOG_LEVEL: 'silent' }), { migrate: true });
      ctx.db.$client.close();
    }, {
      adminApi: true,
      env: { ...LIMITS, ...(args['worker-concurrency'] ? { WORKER_CONCURRENCY: args['worker-concurrency'] } : {}) },
      envOf: (name): Record<string, string> => {
        const prof = cpuProf(`sqld-${name}`);
        if (!args.profile) return prof;
        return { NODE_OPTIONS: `--import ${resolve(import.meta.dirname, 'lib/hrana-profile.ts')} ${prof.NODE_OPTIONS ?? ''}`.trim(), HRANA_PROFILE_FILE: profileFile(name) };
      },
    });
    const c = cluster;
    const procs = () => [...c.webs, ...c.workers];
    const profile = args.profile
      ? async () => {
          for (const p of procs()) rmSync(profileFile(p.name), { force: true });
          for (const p of procs()) p.child.kill('SIGUSR2');
          const deadline = Date.now() + 10_000;
          while (!procs().every((p) => existsSync(profileFile(p.name))) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
          await new Promise((r) => setTimeout(r, 100));
          return Object.fromEntries(procs().map((p) => [p.name, existsSync(profileFile(p.name)) ? (JSON.parse(readFileSync(profileFile(p.name), 'utf8')) as Record<string, Kind>) : {}]));
        }
      : undefined;
    try {
      return await load('sqld, 2 web + 2 workers', 'sqld', c.proxy.url, c.smtp, () => [{ role: 'sqld', pid: c.sqld.process.pid }, ...c.webs.map((w) => ({ role: 'web', pid: w.child.pid })), ...c.workers.map((w) => ({ role: 'workers', pid: w.child.pid }))], c.adminUrl, profile);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${procs().map((p) => `--- ${p.name}:\n${p.output() || '(nothing)'}`).join('\n')}`, { cause: error });
    }
  } finally {
    await cluster?.stop();
    if (profileDir) rmSync(profileDir, { recursive: true, force: true });
  }
}

if (args['worker-concurrency']) console.log(`sqld set-up: WORKER_CONCURRENCY=${args['worker-concurrency']} in each worker`);
const results: Result[] = [];
for (const [name, run] of [['file', fileRun], ['sqld', sqldRun]] as const) {
  if (args.only && args.only !== name) continue;
  try {
    const result = await run();
    console.log(`${result.label}: ${result.perSecond.toFixed(2)} reports/s, submit p50 ${result.p50.toFixed(1)} ms, p99 ${result.p99.toFixed(1)} ms`);
    results.push(result);
  } catch (error) {
    console.error(`${name}: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}

const cell = (v: number | undefined, digits = 1) => (v === undefined || Number.isNaN(v) ? '–' : v.toFixed(digits));
console.log(`\n${REPORTS} report requests, ${CONCURRENCY} at a time, sample provider (after ${WARM_UP} to warm up)\n`);
const head = ['set-up', 'reports/s', 'submit p50 ms', 'submit p99 ms', 'refused', 'CPU ms/report', 'statements/report', 'round trips/report'];
const rows = results.map((r) => [r.label, cell(r.perSecond, 2), cell(r.p50), cell(r.p99), String(r.refused), cell(r.cpuMsPerReport, 0), cell(r.statementsPerReport), cell(r.requestsPerReport)]);
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
console.log(`| ${head.map((h, i) => h.padEnd(widths[i]!)).join(' | ')} |`);
console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
for (const row of rows) console.log(`| ${row.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join(' | ')} |`);
for (const r of results) {
  console.log(`\n${r.label}: answers ${r.statuses} · CPU per report: ${r.cpuByRole}${r.unfinished ? ` · ${r.unfinished} accepted reports not e-mailed within 10 minutes` : ''}`);
  if (r.top?.length) console.log(`statements sent most (sqld's counts):\n  ${r.top.join('\n  ')}`);
  if (r.profile?.length) console.log(`requests to the server, as each process saw them (--profile):\n  ${r.profile.join('\n  ')}`);
}
console.log(`\nmachine: ${availableParallelism()} cores, load average ${loadavg().map((l) => l.toFixed(1)).join(' / ')} (1 / 5 / 15 min)`);

const [file, sqld] = [results.find((r) => r.label.startsWith('one')), results.find((r) => r.label.startsWith('sqld'))];
if (file && sqld) {
  const checks = [
    [`sqld reports/s ≥ 0.9 × the file's (${(0.9 * file.perSecond).toFixed(2)})`, sqld.perSecond >= 0.9 * file.perSecond],
    [`sqld submit p99 ≤ 3 × the file's (${(3 * file.p99).toFixed(1)} ms)`, sqld.p99 <= 3 * file.p99],
    [`0 refusals at ${CONCURRENCY} concurrent submits`, sqld.refused === 0 && file.refused === 0],
  ] as const;
  for (const [what, ok] of checks) console.log(`budget: ${what}: ${ok ? 'met' : 'NOT met'}`);
  if (!checks.every(([, ok]) => ok) || file.unfinished || sqld.unfinished) process.exitCode = 1;
}
