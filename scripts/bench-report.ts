// `npm run bench:report [-- --reports 30 --concurrency 2 --renders 20]`
// Prints each stage's time, the PDF and PNG render times, the PDF's share of the report time, the latency from enqueue to the e-mail
// in the outbox, the CPU per report, and reports per second through the real worker at the given
// concurrency; the main thread's garbage collection per report, and the process's memory (RSS,
// every thread) after the N reports, and once the burst's render threads have ended and a full
// collection ran (what the process gives back). A fresh database and outbox in a temporary folder; the sample
// provider. Comparing two versions on a shared machine: run them in pairs, alternating.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { eq, inArray } from 'drizzle-orm';
import { createContext } from '../api/create-context.ts';
import { closeMailer } from '../api/email/mailer.ts';
import { loadEnv } from '../api/env.ts';
import { enqueue } from '../api/jobs/queue.ts';
import { productionDeps } from '../api/jobs/production.ts';
import { createRegistry } from '../api/jobs/registry.ts';
import { createWorker } from '../api/jobs/worker.ts';
import { reportLinks } from '../api/report/render/links.ts';
import type { Stage } from '../api/report/generate-job.ts';
import { renderPdf } from '../api/report/render/pdf.ts';
import { threadRenderer } from '../api/report/render/renderer.ts';
import { renderScoreCard } from '../api/report/render/score-card.ts';
import { runReportOnce } from '../api/report/run-once.ts';
import { estimateReportUsd } from '../api/report/budget.ts';
import { pricesFor } from '../api/lib/provider-prices.ts';
import { subjectSpend } from '../api/lib/provider-spend.ts';
import { TIERS } from '../common/constants.ts';
import { parseGridPlans } from '../common/visibility-bands.ts';
import type { ReportData } from '../api/report/model/types.ts';
import { businesses, reportRequests } from '../db/schema/businesses.ts';
import { jobs } from '../db/schema/operations.ts';
import { reports } from '../db/schema/reports.ts';

const { values } = parseArgs({ options: { reports: { type: 'string', default: '30' }, concurrency: { type: 'string', default: '2' }, renders: { type: 'string', default: '20' } } });
const N = Math.max(1, Number(values.reports));
const C = Math.max(1, Number(values.concurrency));
const R = Math.max(1, Number(values.renders));
const { analyse } = productionDeps;

const dataDir = mkdtempSync(join(tmpdir(), 'localrank-bench-'));
const env = loadEnv({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'warn', NODE_ENV: 'production', PLACES_PROVIDER: 'sample' });
const ctx = await createContext(env, { migrate: true });

// Garbage collection on the main thread, in ms, since the process started.
let gcMs = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ['gc'] });
/** GC entries reach the observer from the event loop: let them arrive before reading. */
const gcSoFar = async () => (await new Promise((r) => setImmediate(r)), gcMs);
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;
const memory = () => {
  const m = process.memoryUsage();
  return `RSS ${mb(m.rss)}, JS heap ${mb(m.heapUsed)}, external ${mb(m.external)}`;
};

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};
const line = (name: string, xs: number[]) => console.log(`  ${name.padEnd(32)} median ${pct(xs, 50).toFixed(1).padStart(7)} ms   p95 ${pct(xs, 95).toFixed(1).padStart(7)} ms   n=${xs.length}`);
const cities = [
  ['Austin', 'TX', '78701'],
  ['Denver', 'CO', '80202'],
  ['Portland', 'OR', '97204'],
  ['Columbus', 'OH', '43215'],
  ['Raleigh', 'NC', '27601'],
];
const trades = ['Dental', 'Plumbing', 'Bakery', 'Auto Repair', 'Yoga Studio', 'Law Office'];
const form = (i: number) => {
  const [city, state, zip] = cities[i % cities.length]!;
  const company = `${city} ${trades[i % trades.length]} ${i}`;
  return { fullName: 'Bench Mark', email: `bench${i}@example.com`, company, website: `https://www.${company.toLowerCase().replace(/[^a-z0-9]+/g, '')}.example`, address: `${100 + i} Main St`, city, state, zip };
};

console.log(`bench:report — ${N} reports, worker concurrency ${C}, ${cpus().length} CPUs, Node ${process.version}, outbox mail\n`);

// 1. Stages, one report at a time (inline rendering, so each stage is timed on its own).
const stages: Record<Stage, number[]> = { analyse: [], persist: [], renderPng: [], renderPdf: [], deliver: [] };
const whole: number[] = [];
const cpuEach: number[] = [];
const costEach: number[] = [];
let sample: ReportData | undefined;
const warm = Math.min(3, N);
let gcStages = 0;
for (let i = 0; i < warm + Math.min(N, 10); i++) {
  const t = performance.now();
  const c = process.cpuUsage();
  const gc0 = await gcSoFar();
  const result = await runReportOnce(ctx, form(1000 + i), { analyse, onStage: (s, ms) => i >= warm && stages[s].push(ms) });
  if (i >= warm) costEach.push((await subjectSpend(ctx.db, pricesFor(env), result.requestId)).usd);
  if (i >= warm) {
    whole.push(performance.now() - t);
    const used = process.cpuUsage(c);
    cpuEach.push((used.user + used.system) / 1000);
    gcStages += (await gcSoFar()) - gc0;
  }
  sample = result.data;
}
console.log('Stages (one report at a time, after warm-up, rendering on the main thread):');
for (const [stage, xs] of Object.entries(stages)) if (xs.length) line(stage, xs);
line('whole report (store → e-mail)', whole);
line('CPU per report', cpuEach);
console.log(`  Provider cost per report          $${(costEach.reduce((a, b) => a + b, 0) / costEach.length).toFixed(2)} (this run's ${env.PLACES_PROVIDER} provider, from the call ledger)`);
for (const provider of ['google', 'yelp'] as const) {
  const at = loadEnv({ ...process.env, PLACES_PROVIDER: provider, GOOGLE_PLACES_KEY: 'k', YELP_API_KEY: 'k', GEOCODER_KEY: 'k' });
  console.log(`  at list prices with ${provider.padEnd(6)}      ${TIERS.map((tier) => `${tier} $${estimateReportUsd(at, pricesFor(at), tier).toFixed(2)}`).join(' · ')} (grid ${TIERS.map((t) => parseGridPlans(at.VISIBILITY_GRID)![t]).map((g) => `${g.size}x${g.size}x${g.keywords}`).join('/')}, with the geocoder)`);
}
console.log(`  GC per report (main thread)       ${(gcStages / cpuEach.length).toFixed(1)} ms`);
const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
console.log(`  PDF share of the report time      ${((sum(stages.renderPdf) / sum(whole)) * 100).toFixed(1)}% (PDF ${(sum(stages.renderPdf) / stages.renderPdf.length).toFixed(1)} ms of ${(sum(whole) / whole.length).toFixed(1)} ms on average)`);

// 2. Rendering alone, on the main thread.
const png: number[] = [];
const pdf: number[] = [];
let pdfBytes = 0;
const renderCpu = process.cpuUsage();
for (let i = 0; i < R; i++) {
  let t = performance.now();
  await renderScoreCard(sample!);
  png.push(performance.now() - t);
  t = performance.now();
  pdfBytes = (await renderPdf(sample!, reportLinks(ctx))).length;
  pdf.push(performance.now() - t);
}
console.log(`\nRendering (${R} each, main thread):`);
line('PNG score card 1200x630', png);
line(`PDF (${Math.round(pdfBytes / 1024)} KB)`, pdf);
const rendered = process.cpuUsage(renderCpu);
console.log(`  CPU per PNG + PDF                 ${((rendered.user + rendered.system) / 1000 / R).toFixed(1)} ms`);
console.log(`  memory after the renders          ${memory()}`);

// 3. Throughput through the real queue and worker.
const ids: string[] = [];
const requestIds: string[] = [];
for (let i = 0; i < N; i++) {
  const f = form(i);
  const [b] = await ctx.db.insert(businesses).values({ ...f, role: 'owner' }).returning();
  const [r] = await ctx.db.insert(reportRequests).values({ businessId: b!.id, email: f.email, fingerprint: `bench|${i}`, payload: f }).returning();
  requestIds.push(r!.id);
  ids.push((await enqueue(ctx.db, { type: 'report.generate', payload: { requestId: r!.id, businessId: b!.id }, key: `bench:${r!.id}` }))!);
}
// Threads idle for 10 s end (production waits RENDER_THREAD_IDLE_MS): none ends during the burst,
// and the bench sees what is given back after it.
const renderer = threadRenderer(Math.min(C, Math.max(1, cpus().length)), { idleMs: 10_000 });
const worker = createWorker(ctx, { registry: createRegistry({ analyse, renderer }), concurrency: C, pollMs: 20 });
const cpu0 = process.cpuUsage();
const t0 = performance.now();
await ctx.db.update(jobs).set({ runAt: new Date() }).where(inArray(jobs.id, ids));
worker.start();
for (;;) {
  const open = await ctx.db.select({ id: jobs.id }).from(jobs).where(inArray(jobs.status, ['queued', 'running']));
  if (open.length === 0) break;
  await new Promise((r) => setTimeout(r, 25));
}
const seconds = (performance.now() - t0) / 1000;
const cpu = process.cpuUsage(cpu0);
await worker.stop();
const after = memory();
while (renderer.threads() > 0) await new Promise((r) => setTimeout(r, 100));
setFlagsFromString('--expose-gc');
(runInNewContext('gc') as () => void)();
const idleMemory = memory();
await renderer.close();
const failed = await ctx.db.select({ id: jobs.id, error: jobs.lastError }).from(jobs).where(eq(jobs.status, 'failed'));
const rows = await ctx.db.select({ created: reports.createdAt, sent: reports.emailSentAt, requestId: reports.requestId }).from(reports).where(inArray(reports.requestId, requestIds));
const jobRows = await ctx.db.select({ created: jobs.createdAt, payload: jobs.payload }).from(jobs).where(inArray(jobs.id, ids));
const queuedAt = new Map(jobRows.map((j) => [(j.payload as { requestId: string }).requestId, j.created.getTime()]));
const started = t0 + performance.timeOrigin;
const latency = rows.filter((r) => r.sent).map((r) => r.sent!.getTime() - Math.max(queuedAt.get(r.requestId!)!, started));
console.log(`\nThroughput (${N} queued jobs, worker concurrency ${C}, ${Math.min(C, cpus().length)} render thread(s)):`);
console.log(`  ${rows.filter((r) => r.sent).length}/${N} e-mailed in ${seconds.toFixed(2)} s = ${(N / seconds).toFixed(2)} reports/s${failed.length ? `, ${failed.length} failed (${failed[0]!.error})` : ''}`);
line('start → e-mail (backlog)', latency);
console.log(`  process CPU per report (all threads) ${((cpu.user + cpu.system) / 1000 / N).toFixed(1)} ms`);
console.log(`  memory after ${N} reports         ${after} (render threads included in RSS)`);
console.log(`  threads ended (10 s idle), full GC ${idleMemory}`);

// 4. One report at a time through an idle worker: what a visitor waits for.
const idleRenderer = threadRenderer(1);
const idle = createWorker(ctx, { registry: createRegistry({ analyse, renderer: idleRenderer }) });
idle.start();
const single: number[] = [];
for (let i = 0; i < 5; i++) {
  const f = form(5000 + i);
  const [b] = await ctx.db.insert(businesses).values({ ...f, role: 'owner' }).returning();
  const [r] = await ctx.db.insert(reportRequests).values({ businessId: b!.id, email: f.email, fingerprint: `bench-idle|${i}`, payload: f }).returning();
  const t = Date.now();
  await enqueue(ctx.db, { type: 'report.generate', payload: { requestId: r!.id, businessId: b!.id } });
  for (;;) {
    const row = await ctx.db.query.reports.findFirst({ where: eq(reports.requestId, r!.id) });
    if (row?.emailSentAt) {
      single.push(Date.now() - t);
      break;
    }
    await new Promise((res) => setTimeout(res, 10));
  }
}
await idle.stop();
await idleRenderer.close();
console.log('\nOne report through an idle worker (poll 250 ms, render thread):');
line('enqueue → e-mail in outbox', single);

closeMailer(ctx);
ctx.db.$client.close();
rmSync(dataDir, { recursive: true, force: true });
