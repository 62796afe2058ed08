// `npm run bench:preview [-- --burst 8 --rounds 3]`
// Whether one agency's burst of branding previews delays another agency's preview or anyone's
// report (decision 0250). In one process, as the web process runs them: the app, the inline
// worker and its render threads. Prints, alone and during agency A's burst of concurrent previews:
// agency B's preview time, and a report's time from enqueue to the e-mail in the outbox; and how
// A's burst was answered. A fresh database and outbox in a temporary folder; the sample provider.
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { eq } from 'drizzle-orm';
import { createApp } from '../api/app.ts';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { enqueue } from '../api/jobs/queue.ts';
import { runWorker } from '../api/jobs/run-worker.ts';
import { businesses, reportRequests } from '../db/schema/businesses.ts';
import { reports } from '../db/schema/reports.ts';
import { createUser } from '../tests/helpers/factories.ts';

const { values } = parseArgs({ options: { burst: { type: 'string', default: '8' }, rounds: { type: 'string', default: '3' } } });
const BURST = Math.max(1, Number(values.burst));
const ROUNDS = Math.max(1, Number(values.rounds));

const dataDir = mkdtempSync(join(tmpdir(), 'localrank-bench-preview-'));
const env = loadEnv({ ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', SMTP_URL: '', LOG_LEVEL: 'warn', NODE_ENV: 'test', WORKER: 'off', PLACES_PROVIDER: 'sample', PUBLIC_BASE_URL: 'http://127.0.0.1:3000' });
const ctx = await createContext(env, { migrate: true });
const app = createApp(ctx);
const stopWorker = runWorker(ctx, { inline: true });

const [a, b] = [await createUser(ctx, { role: 'consultant', tier: 'agency' }), await createUser(ctx, { role: 'consultant', tier: 'agency' })];
const form = (companyName: string) => ({ companyName, primaryColor: '#BE123C', secondaryColor: '#1E293B', accentColor: '#0EA5E9', contactEmail: 'team@agency.example' });
async function preview(cookie: string, name: string) {
  const t = performance.now();
  const res = await app.request('/api/branding-profiles/preview', { method: 'POST', headers: { 'content-type': 'application/json', cookie }, body: JSON.stringify(form(name)) });
  await res.arrayBuffer();
  return { ms: performance.now() - t, status: res.status };
}
let seq = 0;
async function report() {
  const i = seq++;
  const f = { fullName: 'Bench Mark', email: `bench${i}@example.com`, company: `Austin Dental ${i}`, website: `https://www.austindental${i}.example`, address: `${100 + i} Main St`, city: 'Austin', state: 'TX', zip: '78701' };
  const [biz] = await ctx.db.insert(businesses).values({ ...f, role: 'owner' }).returning();
  const [r] = await ctx.db.insert(reportRequests).values({ businessId: biz!.id, email: f.email, fingerprint: `bench-preview|${i}`, payload: f }).returning();
  const t = performance.now();
  await enqueue(ctx.db, { type: 'report.generate', payload: { requestId: r!.id, businessId: biz!.id } });
  for (;;) {
    const row = await ctx.db.query.reports.findFirst({ where: eq(reports.requestId, r!.id) });
    if (row?.emailSentAt) return performance.now() - t;
    await new Promise((res) => setTimeout(res, 20));
  }
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `median ${(median(xs) / 1000).toFixed(2)} s (${xs.map((x) => (x / 1000).toFixed(1)).join(', ')})`;

console.log(`bench:preview — burst of ${BURST} previews by agency A, ${ROUNDS} rounds, ${cpus().length} CPUs, Node ${process.version}\n`);
await preview(b.cookie, 'Warm-up');
await report();

const alone = { preview: [] as number[], report: [] as number[] };
const during = { preview: [] as number[], report: [] as number[] };
const answered = new Map<number, number>();
let burstMs: number[] = [];
for (let round = 0; round < ROUNDS; round++) {
  alone.preview.push((await preview(b.cookie, `B alone ${round}`)).ms);
  alone.report.push(await report());
  // A's burst, then B's preview and a report while it is in flight.
  const burst = Array.from({ length: BURST }, (_, i) => preview(a.cookie, `A burst ${round}.${i}`));
  await new Promise((res) => setTimeout(res, 50));
  const [theirs, rep] = await Promise.all([preview(b.cookie, `B during ${round}`), report()]);
  during.preview.push(theirs.ms);
  during.report.push(rep);
  const results = await Promise.all(burst);
  for (const r of results) answered.set(r.status, (answered.get(r.status) ?? 0) + 1);
  burstMs = burstMs.concat(results.map((r) => r.ms));
}
console.log('Agency B\'s preview:');
console.log(`  alone                     ${fmt(alone.preview)}`);
console.log(`  during A's burst          ${fmt(during.preview)}`);
console.log('A report, enqueue → e-mail in the outbox (inline worker):');
console.log(`  alone                     ${fmt(alone.report)}`);
console.log(`  during A's burst          ${fmt(during.report)}`);
console.log(`A's burst: ${[...answered].map(([s, n]) => `${n}× ${s}`).join(', ')}; slowest answer ${(Math.max(...burstMs) / 1000).toFixed(1)} s`);

await stopWorker();
ctx.db.$client.close();
rmSync(dataDir, { recursive: true, force: true });
process.exit(0);
