// `npm run bench:analyse [-- --runs 5]`: time per analysis stage and in total for a sample-provider
// report (Austin dentist), in-process (the sample websites are read through the safe fetcher's
// in-process path). Prints figures; asserts nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { analyseBusiness, type AnalyseStage } from '../api/report/analyse.ts';
import { sampleSiteUrl } from '../api/report/analysis/sample-sites.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '5' } } });
const runs = Math.max(1, Number(values.runs) || 5);
const dataDir = mkdtempSync(join(tmpdir(), 'localrank-bench-analyse-'));
const env = loadEnv({ ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'silent', PLACES_PROVIDER: 'sample', GEOCODER_KEY: '' });
// Migrated: the analysis reads the business's earlier runs (review velocity between reports).
const ctx = await createContext(env, { migrate: true });

const input = (i: number) => ({
  businessId: `bench-${i}`,
  fullName: 'Bench Mark',
  email: 'bench@example.com',
  company: i % 2 ? 'Congress Avenue Dental' : 'Riverside Plumbing Co',
  // The business's own site is a sample site too, so all ten websites are really read.
  website: sampleSiteUrl(env.PUBLIC_BASE_URL, { n: i % 2 ? 'Congress Avenue Dental' : 'Riverside Plumbing Co', a: '100 Congress Ave, Austin, TX 78701', p: '(512) 555-0100', c: i % 2 ? 'dentist' : 'plumber', q: 1000 + i }),
  address: '100 Congress Ave',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
});

const stages = new Map<AnalyseStage, number[]>();
const totals: number[] = [];
const cpus: number[] = [];
let points = 0;
let competitors = 0;
for (let i = 0; i < runs + 1; i++) {
  const timing = new Map<AnalyseStage, number>();
  const started = performance.now();
  const cpu = process.cpuUsage();
  const data = await analyseBusiness(ctx, input(i), { onStage: (s, ms) => timing.set(s, ms) });
  const total = performance.now() - started;
  const used = process.cpuUsage(cpu);
  if (i === 0) continue; // warm-up (module and JIT start-up)
  totals.push(total);
  cpus.push((used.user + used.system) / 1000);
  for (const [s, ms] of timing) stages.set(s, [...(stages.get(s) ?? []), ms]);
  points = data.business.dataPoints.length;
  competitors = data.competitors.length;
}
const fmt = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return `median ${s[Math.floor(s.length / 2)]!.toFixed(1)} ms  max ${s[s.length - 1]!.toFixed(1)} ms`;
};
console.log(`bench:analyse  ${runs} sample reports (after one warm-up), ${competitors} competitors, ${points} data points each`);
for (const [s, xs] of stages) console.log(`  ${s.padEnd(10)} ${fmt(xs)}`);
console.log(`  ${'total'.padEnd(10)} ${fmt(totals)}`);
console.log(`  ${'CPU'.padEnd(10)} ${fmt(cpus)}`);

// Throughput: reports analysed at once, as the worker does with WORKER_CONCURRENCY.
const concurrency = env.WORKER_CONCURRENCY;
const batch = runs * 2;
const t0 = performance.now();
let nextIndex = 0;
await Promise.all(Array.from({ length: concurrency }, async () => {
  while (nextIndex < batch) await analyseBusiness(ctx, input(100 + nextIndex++));
}));
const seconds = (performance.now() - t0) / 1000;
console.log(`  throughput ${(batch / seconds).toFixed(1)} analyses/s (${batch} at concurrency ${concurrency})`);
ctx.db.$client.close();
rmSync(dataDir, { recursive: true, force: true });
