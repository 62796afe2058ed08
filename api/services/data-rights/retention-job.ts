// The daily purge: one `data.retention-purge` job per UTC day (keyed by the day, so ticks of
// several processes queue it once). It erases free reports no account holds once their latest
// request is FREE_REPORT_RETENTION_MONTHS old, closed accounts whose grace period has ended, and
// export archives whose link has expired; and it releases report domain claims left unverified
// for 7 days (decision 0213), e-mailing their agencies.
import type { AppContext } from '../../context.ts';
import type { JobDefinition } from '../../jobs/types.ts';
import { enqueue } from '../../jobs/queue.ts';
import { purgeClosedAccounts } from './account-closure.ts';
import { purgeExpiredFreeReports } from './erasure.ts';
import { purgeExpiredExports } from './export.ts';
import { releaseExpiredClaims } from '../report-domains/domains.ts';

export const RETENTION_PURGE = 'data.retention-purge';

export const retentionPurgeKey = (now: Date) => `${RETENTION_PURGE}:${now.toISOString().slice(0, 10)}`;

/** Queues today's purge unless it is queued already; true when this call queued it. */
export async function scheduleRetentionPurge(ctx: AppContext, now = new Date()): Promise<boolean> {
  return (await enqueue(ctx.db, { type: RETENTION_PURGE, payload: {}, key: retentionPurgeKey(now) })) !== null;
}

export interface RetentionPurgeSummary {
  freeReports: Awaited<ReturnType<typeof purgeExpiredFreeReports>>;
  closedAccounts: number;
  expiredExports: number;
  expiredDomainClaims: number;
}

/** The whole daily purge, as the job and `npm run admin -- purge-expired` run it. */
export async function runRetentionPurge(ctx: AppContext, now = new Date()): Promise<RetentionPurgeSummary> {
  const freeReports = await purgeExpiredFreeReports(ctx, now);
  const closedAccounts = await purgeClosedAccounts(ctx, now);
  const expiredExports = await purgeExpiredExports(ctx, now);
  const expiredDomainClaims = await releaseExpiredClaims(ctx, now);
  return { freeReports, closedAccounts, expiredExports, expiredDomainClaims };
}

export const retentionPurgeJob: JobDefinition = {
  async run(ctx) {
    await runRetentionPurge(ctx);
  },
};
