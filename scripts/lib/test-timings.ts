// What a test run's reports say about time: the counts `npm test` sums, and the slowest files of
// each runner (vitest's JSON: a file's start and end; Playwright's: the sum of its tests' attempts,
// which ran in several workers at once, so a file's figure is its cost, not a stretch of the run).
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

export type Counts = { passed: number; failed: number; skipped: number };
export type FileTime = { file: string; seconds: number };
export type RunnerReport = { counts: Counts; files: FileTime[] };

const EMPTY: RunnerReport = { counts: { passed: 0, failed: 0, skipped: 0 }, files: [] };

export function readVitest(path: string): RunnerReport {
  if (!existsSync(path)) return EMPTY;
  const report = JSON.parse(readFileSync(path, 'utf8'));
  const files = (report.testResults ?? []).map((r: { name: string; startTime: number; endTime: number }) => ({
    file: relative(process.cwd(), r.name),
    seconds: Math.max(0, r.endTime - r.startTime) / 1000,
  }));
  return {
    counts: { passed: report.numPassedTests ?? 0, failed: report.numFailedTests ?? 0, skipped: (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0) },
    files,
  };
}

type PwSuite = { file?: string; suites?: PwSuite[]; specs?: Array<{ tests: Array<{ results: Array<{ duration: number }> }> }> };

function suiteMs(suite: PwSuite): number {
  const own = (suite.specs ?? []).flatMap((s) => s.tests.flatMap((t) => t.results.map((r) => r.duration))).reduce((a, b) => a + b, 0);
  return own + (suite.suites ?? []).reduce((sum, s) => sum + suiteMs(s), 0);
}

export function readPlaywright(path: string): RunnerReport {
  if (!existsSync(path)) return EMPTY;
  const { stats, suites } = JSON.parse(readFileSync(path, 'utf8'));
  return {
    counts: { passed: (stats?.expected ?? 0) + (stats?.flaky ?? 0), failed: stats?.unexpected ?? 0, skipped: stats?.skipped ?? 0 },
    files: (suites ?? []).map((s: PwSuite) => ({ file: `tests/e2e/${s.file}`, seconds: suiteMs(s) / 1000 })),
  };
}

export const slowest = (files: FileTime[], n = 10) => [...files].sort((a, b) => b.seconds - a.seconds).slice(0, n);

/** Seconds of CPU the whole machine has spent busy, all cores together, from /proc/stat (Linux;
 *  null elsewhere). Its growth over a step is what the step cost on a machine that runs nothing
 *  else, as CI's does: the CPU of this process's children alone missed most of the browser tier,
 *  whose browsers' helper processes their launcher never reaps (887 s counted for a tier that kept
 *  both cores busy for 1,610 s). USER_HZ is 100 on every Linux build Node supports. */
export function machineBusySeconds(): number | null {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
    return (user! + nice! + system! + irq! + softirq! + steal!) / 100;
  } catch {
    return null;
  }
}
