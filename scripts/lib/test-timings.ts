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

/** CPU seconds (user and system) of this process's children that have ended, from /proc (Linux;
 *  null elsewhere). Read when a step's process is reaped, the growth since the previous reading is
 *  that step's CPU with everything it started: a figure a busy machine does not inflate the way it
 *  does wall time. USER_HZ is 100 on every Linux build Node supports. */
export function childrenCpuSeconds(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the name: state is field 3, so cutime and cstime (16 and 17) are at 13 and 14 here.
    return (Number(fields[13]) + Number(fields[14])) / 100;
  } catch {
    return null;
  }
}
