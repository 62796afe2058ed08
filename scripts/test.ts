// `npm test`: every test, in tiers (docs/testing.md):
//   check        types, lint, import rules, the OpenAPI document, unit tests that render nothing
//                (`npm run check`: the edit-test loop, a few minutes)
//   render       the renderers and the widget build, once
//   integration  the Hono app, worker and processes on a database file, then the files whose
//                subject is SQL again on one libSQL server (sqld), a fresh database per file
//   browser      a fresh build, then the Playwright tests against the built server
// A step starts once the steps it needs have passed, so a failure stops what comes after it. Ends
// with each step's wall time, the ten slowest files of each runner and the summary line. `node scripts/test.ts check` runs the first tier only.
import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { machineBusySeconds, readPlaywright, readVitest, slowest, type Counts, type RunnerReport } from './lib/test-timings.ts';
import { buildEntries } from '../tests/helpers/entries.ts';

process.env.ASTRO_TELEMETRY_DISABLED = '1';
process.env.CI ??= '1';
// Every node process of the run (vitest's workers, the CLIs, workers and web processes the tests
// start, the browser tests' server) keeps V8's compiled code of the modules it loads here: the
// processes the integration tests start (from bundles, decision 0291) start the sooner.
process.env.NODE_COMPILE_CACHE ??= join(tmpdir(), 'localrank-node-compile-cache');

type Command = { label: string; command: string; args: string[]; env?: Record<string, string | undefined>; refuse?: RegExp; report?: () => RunnerReport };

const vitest = (label: string, project: string, extra: string[] = [], env?: Command['env']): Command => {
  const out = `test-results/vitest-${label.replace(/\W+/g, '-')}.json`;
  return { label, command: 'vitest', args: ['run', '--project', project, ...extra, '--reporter=default', '--reporter=json', `--outputFile=${out}`], env, report: () => readVitest(out) };
};

// The sqld pass (TEST_DATABASE=sqld): every statement the file pass sent is prepared on a libSQL
// server (sqld-statements: a statement only a file accepts fails there, whichever file sent it),
// and the files whose subject is the database as a server holds it run again on one of their own:
// constraints and migrations, the queue and leases, several processes on one database, a write
// held past the mail server's answer, erasure in the server's files, the export and purge that walk
// every table, the dashboards' reads and the operator's command against the server. The rest run
// once, on a file: their subject is something else (an API's answers, mail, rendering, a
// provider's data) and their SQL is in the check. The files that always start a server of their
// own (database-server, scale-out, provider-budget-cluster) run on it in the file pass.
const onTheServer = [
  'schema', 'data-integrity', 'migration-one-place', 'migration-opt-outs',
  'lease', 'worker', 'worker-lanes', 'schedule', 'submit-to-inbox', 'report-job', 'report-sent-record',
  'intake-dedupe', 'one-business-one-place', 'rate-limit', 'api-rate-limit-processes', 'billing-processes', 'two-machines-files',
  'data-erasure', 'erasure-on-server', 'account-data',
  'dashboard', 'portfolio', 'visibility-history',
  'admin-cli',
];

/** A tier's steps. Each starts once the steps it comes `after` (of the tiers being run) have
 *  passed: the static checks at once, then the unit and render tests, then the two integration
 *  passes at once, then the site's build and the browser tests. */
type Step = Command & { after?: string[] };
const STATIC = ['types', 'lint', 'dependencies', 'OpenAPI lint'];
const CHECKED = [...STATIC, 'unit', 'render'];
const tiers: Record<string, Step[]> = {
  check: [
    // astro check type-checks every file of tsconfig.json, .ts as well as .astro (a separate
    // `tsc --noEmit` checked the same files again).
    { label: 'types', command: 'astro', args: ['check', '--minimumSeverity', 'warning'] },
    { label: 'lint', command: 'eslint', args: ['.', '--max-warnings', '0'] },
    // No import cycle (type-only imports included) and the layers of api/README.md.
    { label: 'dependencies', command: 'depcruise', args: ['--config', '.dependency-cruiser.mjs', 'api', 'common', 'db', 'widget-sdk/src'] },
    // The public API's generated OpenAPI document, linted with Redocly's recommended rules (offline).
    { label: 'OpenAPI lint', command: 'node', args: ['scripts/openapi-lint.ts'] },
    // After them: beside them it only made the four slower (the static checks keep both cores busy).
    { ...vitest('unit', 'unit'), after: STATIC },
  ],
  render: [{ ...vitest('render', 'render'), after: ['unit'] }],
  // The two passes at once: each alone left about a third of a core idle while its tests waited on
  // the processes, servers and timers they start. The statement check reads what the file pass
  // recorded, so it runs after both.
  integration: [
    { ...vitest('integration', 'integration'), after: CHECKED },
    { ...vitest('integration on sqld', 'integration', onTheServer.map((name) => `tests/integration/${name}.test.ts`), { TEST_DATABASE: 'sqld' }), after: CHECKED },
    { ...vitest('statements on sqld', 'integration', ['tests/integration/sqld-statements.test.ts'], { TEST_DATABASE: 'sqld' }), after: ['integration', 'integration on sqld'] },
  ],
  browser: [
    // Built for the address the browser tests' server uses, so that server does not build again.
    // A server module reaching a browser bundle is a bug at its import, never a warning to live with.
    // After the integration tier: its web processes serve the site from dist/ (scale-out's answered
    // 502 while a build beside it replaced the folder).
    { label: 'build', command: 'astro', args: ['build'], env: { PUBLIC_BASE_URL: `http://127.0.0.1:${process.env.E2E_PORT ?? 43210}` }, refuse: /externalized for browser compatibility/, after: [...CHECKED, 'statements on sqld'] },
    { label: 'end-to-end', command: 'playwright', args: ['test'], report: () => readPlaywright('test-results/e2e.json'), after: ['build'] },
  ],
};

type Outcome = { label: string; ok: boolean; seconds: number; cpu: number | null; report?: RunnerReport };

/** The machine's busy CPU since `from` (a reading of machineBusySeconds). */
function cpuSince(from: number | null): number | null {
  const now = machineBusySeconds();
  return now === null || from === null ? null : now - from;
}

/** Runs one command. Alone, its output streams; beside others, it is held and printed whole when
 *  it ends, so two steps' lines never interleave. */
function run(step: Command, alone: boolean): Promise<Outcome> {
  const started = Date.now();
  const busyAtStart = machineBusySeconds();
  const hold = !alone || step.refuse !== undefined;
  console.log(`\n▶ ${step.label}: ${step.command} ${step.args.join(' ')}`);
  return new Promise((done) => {
    const child = spawn(step.command, step.args, { stdio: hold ? ['inherit', 'pipe', 'pipe'] : 'inherit', env: { ...process.env, ...step.env } });
    let output = '';
    child.stdout?.on('data', (chunk) => (output += chunk));
    child.stderr?.on('data', (chunk) => (output += chunk));
    child.on('close', (code) => {
      if (hold) process.stdout.write(output.length ? `\n── ${step.label} ──\n${output}` : '');
      const refused = step.refuse ? output.split('\n').filter((line) => step.refuse!.test(line)) : [];
      for (const line of refused) console.log(`✗ not allowed in ${step.label}: ${line.trim()}`);
      const ok = code === 0 && refused.length === 0;
      const seconds = (Date.now() - started) / 1000;
      const cpu = cpuSince(busyAtStart);
      console.log(`${ok ? '✓' : '✗'} ${step.label} (${seconds.toFixed(1)} s${cpu === null ? '' : `, ${cpu.toFixed(0)} s of CPU`})`);
      done({ label: step.label, ok, seconds, cpu, report: step.report?.() });
    });
  });
}

function summarise(outcomes: Outcome[], wall: number, cpuTotal: number | null) {
  const total: Counts = { passed: 0, failed: 0, skipped: 0 };
  const cpuText = (cpu: number | null) => (cpu === null ? '' : `${cpu.toFixed(0).padStart(7)} s CPU`);
  console.log("\nSteps (wall time; the machine's busy CPU meanwhile, all cores together; steps that ran at once share theirs):");
  for (const o of outcomes) console.log(`  ${o.ok ? '✓' : '✗'} ${o.label.padEnd(26)} ${o.seconds.toFixed(1).padStart(7)} s ${cpuText(o.cpu)}`);
  console.log(`  ${'whole run'.padEnd(28)} ${wall.toFixed(1).padStart(7)} s ${cpuText(cpuTotal)}`);
  for (const o of outcomes) {
    if (!o.report) continue;
    total.passed += o.report.counts.passed;
    total.failed += o.report.counts.failed;
    total.skipped += o.report.counts.skipped;
    if (!o.report.files.length) continue;
    console.log(`\nSlowest files, ${o.label}:`);
    for (const f of slowest(o.report.files)) console.log(`  ${f.seconds.toFixed(1).padStart(7)} s  ${f.file}`);
  }
  mkdirSync('test-results', { recursive: true });
  writeFileSync('test-results/timings.json', JSON.stringify({ wall, steps: outcomes.map(({ label, ok, seconds, cpu, report }) => ({ label, ok, seconds, cpu, slowest: report ? slowest(report.files) : [] })) }, null, 2));
  // The plain closing line CI reads.
  console.log(`\n${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
}

const wanted = process.argv.slice(2);
const unknown = wanted.filter((t) => !(t in tiers));
if (unknown.length) {
  console.error(`Unknown tier ${unknown.join(', ')}: one of ${Object.keys(tiers).join(', ')}`);
  process.exit(2);
}
rmSync('test-results', { recursive: true, force: true });
const started = Date.now();
const busyAtStart = machineBusySeconds();
const chosen = (wanted.length ? wanted : Object.keys(tiers)).flatMap((tier) => tiers[tier]!);
const labels = new Set(chosen.map((step) => step.label));
const needs = (step: Step) => (step.after ?? []).filter((label) => labels.has(label));
// Both integration passes start their processes from one build of their bundles.
let bundles: Promise<void> | undefined;
const outcomes: Outcome[] = [];
const scheduled = new Map<string, Promise<Outcome | undefined>>();
/** `step`'s outcome, run once every step it needs has passed; undefined when one did not. */
function outcomeOf(step: Step): Promise<Outcome | undefined> {
  let outcome = scheduled.get(step.label);
  if (!outcome) {
    outcome = (async () => {
      const before = await Promise.all(needs(step).map((label) => outcomeOf(chosen.find((s) => s.label === label)!)));
      if (before.some((o) => !o?.ok)) return undefined;
      if (step.command === 'vitest' && step.args.includes('integration')) await (bundles ??= buildEntries());
      // Its output streams when nothing else runs beside it: every step not yet ended waits for it.
      const alone = chosen.every((other) => other === step || outcomes.some((o) => o.label === other.label) || needs(other).includes(step.label));
      const result = await run(step, alone);
      outcomes.push(result);
      return result;
    })();
    scheduled.set(step.label, outcome);
  }
  return outcome;
}
const ended = await Promise.all(chosen.map(outcomeOf));
const ok = ended.every((o) => o?.ok);
outcomes.sort((a, b) => chosen.findIndex((s) => s.label === a.label) - chosen.findIndex((s) => s.label === b.label));
summarise(outcomes, (Date.now() - started) / 1000, cpuSince(busyAtStart));
process.exit(ok ? 0 : 1);
