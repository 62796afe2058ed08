// Each process's sweep of its cached report files (decision 0208). An erasure removes the files
// on the machine that runs it; every other machine has refused its copies since (./store.ts serves
// one only for a report row that still names the brand it shows), and removes them here: folders
// whose report row is gone, or whose stamp names another brand than the row. One query per batch
// of folders. Run by every web process and every worker, at start, every REPORT_FILES_SWEEP_MS,
// and within ERASURE_POLL_MS of an erasure anywhere: the erasure counts itself in the database's
// `signals`, which each process reads (decision 0242).
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { inArray } from 'drizzle-orm';
import { reports } from '../../../db/schema/reports.ts';
import type { AppContext } from '../../context.ts';
import { errorText } from '../../log.ts';
import { brandStamp, reportFiles, reportFilesRoot } from './store.ts';

export const REPORT_FILES_SWEEP_MS = 10 * 60 * 1000;
/** How often each process reads the erasures' count: well within the minute an erasure may take. */
export const ERASURE_POLL_MS = 15 * 1000;
const SIGNAL = 'report-files';

/** The statement an erasure adds to its own batch: the count every process watches goes up. */
export const countErasure = () => ({ sql: 'INSERT INTO signals (name, generation) VALUES (?, 1) ON CONFLICT(name) DO UPDATE SET generation = generation + 1', args: [SIGNAL] });

async function erasures(ctx: AppContext): Promise<number> {
  const { rows } = await ctx.db.$client.execute({ sql: 'SELECT generation FROM signals WHERE name = ?', args: [SIGNAL] });
  return rows[0] ? Number(rows[0].generation) : 0;
}
/** A folder without its stamp may be being written (the stamp goes last), or is from before
 *  stamps: removed only once it is this old. */
export const UNSTAMPED_GRACE_MS = 60 * 60 * 1000;
const BATCH = 500;

function stampOf(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return null;
  }
}

function modifiedAt(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

/** Removes this process's stale report folders; returns how many it looked at and removed. */
export async function sweepReportFiles(ctx: AppContext, now = Date.now()): Promise<{ folders: number; removed: number }> {
  let names: string[];
  try {
    names = readdirSync(reportFilesRoot(ctx), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => e.name);
  } catch {
    return { folders: 0, removed: 0 };
  }
  let removed = 0;
  for (let i = 0; i < names.length; i += BATCH) {
    const part = names.slice(i, i + BATCH);
    const rows = await ctx.db.select({ id: reports.id, consultantId: reports.consultantId, brandingProfileId: reports.brandingProfileId }).from(reports).where(inArray(reports.id, part));
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const name of part) {
      const row = byId.get(name);
      const files = reportFiles(ctx, name);
      const stamp = stampOf(files.brand);
      const stale = !row || (stamp === null ? now - modifiedAt(files.dir) > UNSTAMPED_GRACE_MS : stamp !== brandStamp(row));
      if (!stale) continue;
      rmSync(files.dir, { recursive: true, force: true });
      removed++;
    }
  }
  if (removed) ctx.log.info('stale report files removed', { folders: names.length, removed });
  return { folders: names.length, removed };
}

/** Sweeps now, every `everyMs`, and when the erasures' count (read every `pollMs`) has changed;
 *  returns the function that stops it (waiting for a running sweep). */
export function startReportFilesSweep(ctx: AppContext, options: { everyMs?: number; pollMs?: number } = {}): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  let seen: number | null = null;
  const sweep = () => {
    if (stopped) return;
    running = running.then(() => sweepReportFiles(ctx)).catch((error: unknown) => ctx.log.error('report files sweep failed', { error: errorText(error) }));
  };
  // The count is read before the sweep it may start, so an erasure during a sweep starts another.
  const watch = () => {
    running = running
      .then(() => erasures(ctx))
      .then((count) => {
        const changed = seen !== null && count !== seen;
        seen = count;
        if (changed) sweep();
      })
      // The database unreachable for a moment: the next read tells.
      .catch(() => undefined);
  };
  watch();
  sweep();
  const timer = setInterval(sweep, options.everyMs ?? REPORT_FILES_SWEEP_MS);
  const poll = setInterval(watch, options.pollMs ?? ERASURE_POLL_MS);
  timer.unref();
  poll.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    clearInterval(poll);
    await running;
  };
}
