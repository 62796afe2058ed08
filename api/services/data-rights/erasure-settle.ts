// What follows an erasure on a libSQL server. sqld keeps every page image it writes in its
// replication log (`wallog`) until the log is compacted, which --max-log-duration makes happen that
// long after the last compaction, but only on a write; each compacted log becomes a snapshot file,
// and the snapshots are merged (one image per page, the latest) only once there are more than 32 of
// them or they hold twice the database's pages. A server no one writes to never gets there, and
// keeps the images of erased rows from before the erasure. So an erasure on a server queues
// ERASURE_SETTLE_TICKS small writes, each a compaction apart: past the 33 compactions after which
// sqld has merged its snapshots over the erasure, whatever else is written. One sequence per
// interval: erasures close together share it. Decision 0209.
import type { AppContext } from '../../context.ts';
import { RetryLaterError } from '../../jobs/errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { JobDefinition } from '../../jobs/types.ts';

export const ERASURE_SETTLE = 'data.erasure-settle';
/** sqld merges its snapshots when a 33rd is added (and not while a merge runs): 40 leave room. */
export const ERASURE_SETTLE_TICKS = 40;

/** Far enough apart that sqld compacts its log between two ticks (it looks once a second). */
export const settleIntervalMs = (ctx: AppContext) => (ctx.env.DATABASE_LOG_DURATION_S + 2) * 1000;

/** Queues the ticks after an erasure, unless a sequence started in the same interval. */
export async function enqueueErasureSettle(ctx: AppContext, now = new Date()): Promise<void> {
  const interval = settleIntervalMs(ctx);
  await enqueue(ctx.db, {
    type: ERASURE_SETTLE,
    payload: {},
    key: `${ERASURE_SETTLE}:${Math.floor(now.getTime() / interval)}`,
    runAt: new Date(now.getTime() + interval),
  });
}

/** One tick: the saved count is the write; the job comes back an interval later until the last. */
export const erasureSettleJob: JobDefinition = {
  async run(ctx, job, { saveProgress }) {
    const ticks = Number(job.progress.ticks ?? 0) + 1;
    await saveProgress({ ticks });
    if (ticks < ERASURE_SETTLE_TICKS) throw new RetryLaterError(`the database server is compacting past an erasure (${ticks}/${ERASURE_SETTLE_TICKS})`, settleIntervalMs(ctx));
  },
};
