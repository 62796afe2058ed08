// The daily retention purge: one `data.retention-purge` job per UTC day (keyed by the day, so
// ticks of several processes queue it once), erasing free reports no account holds once their
// latest request is FREE_REPORT_RETENTION_MONTHS old.
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../jobs/registry.ts';
import { enqueue } from '../../jobs/queue.ts';
import { purgeExpiredFreeReports } from './erasure.ts';

export const RETENTION_PURGE = 'data.retention-purge';

export const retentionPurgeKey = (now: Date) => `${RETENTION_PURGE}:${now.toISOString().slice(0, 10)}`;

/** Queues today's purge unless it is queued already; true when this call queued it. */
export async function scheduleRetentionPurge(ctx: AppContext, now = new Date()): Promise<boolean> {
  return (await enqueue(ctx.db, { type: RETENTION_PURGE, payload: {}, key: retentionPurgeKey(now) })) !== null;
}

export const retentionPurgeJob: JobDefinition = {
  async run(ctx) {
    await purgeExpiredFreeReports(ctx);
  },
};
