// Local visibility over time: every analysis keeps its grid's summary on the business's own
// metrics row (business_metrics.visibility, local_voice_share). Paid plans' scheduled re-analysis
// (REANALYSIS_INTERVAL_DAYS, weekly by default) makes it a weekly scan. Read here for the public
// API (paged, newest first) and compared scan to scan for the visibility.changed webhook, the
// Early Warning e-mail on a fall of Share of Local Voice and the Early Warning Monitor's list of
// those falls.
import { and, asc, desc, eq, isNotNull, lt } from 'drizzle-orm';
import { businesses, businessMetrics } from '../../db/schema/businesses.ts';
import type { AppContext } from '../context.ts';
import { candidates } from './plans/payers.ts';
import type { VisibilitySummary } from '../report/words/visibility.ts';
import { businessJsonForUser } from './dashboard.ts';
import { VISIBILITY_ALERT, type VisibilityAlertPayload } from './early-warning-mail.ts';
import { enqueue } from '../jobs/queue.ts';
import { emitEvent } from './webhooks/webhooks.ts';

export const VISIBILITY_PAGE = { default: 20, max: 100 } as const;
/** "Week over week": the scan compared with is at least this many days older (the weekly
 *  re-analysis), so two reports on one day never raise an alert. */
export const ALERT_MIN_DAYS = 6;

type Scan = { solv: number; at: Date };

/** A fall worth a warning: VISIBILITY_ALERT_DROP points or more from the previous measured scan,
 *  that scan ALERT_MIN_DAYS or more older. */
const isDrop = (ctx: AppContext, previous: Scan, latest: Scan) =>
  latest.at.getTime() - previous.at.getTime() >= ALERT_MIN_DAYS * 86_400_000 && previous.solv - latest.solv >= ctx.env.VISIBILITY_ALERT_DROP;

/** The Early Warning Monitor's local visibility: the latest measured Share of Local Voice and the
 *  falls (isDrop) of the last `days`, newest first. The caller checked access. */
export async function visibilityDrops(ctx: AppContext, businessId: string, now: number, days: number) {
  const scans = (await ctx.db
    .select({ solv: businessMetrics.localVoiceShare, at: businessMetrics.reportedAt })
    .from(businessMetrics)
    .where(and(eq(businessMetrics.businessId, businessId), eq(businessMetrics.isMainBusiness, true), isNotNull(businessMetrics.localVoiceShare)))
    .orderBy(asc(businessMetrics.reportedAt))) as Scan[];
  const since = now - days * 86_400_000;
  const drops = scans.flatMap((latest, i) =>
    i > 0 && latest.at.getTime() >= since && isDrop(ctx, scans[i - 1]!, latest)
      ? [{ solv: latest.solv, previousSolv: scans[i - 1]!.solv, at: latest.at.getTime(), previousAt: scans[i - 1]!.at.getTime() }]
      : [],
  );
  const latest = scans.at(-1);
  return { dropPoints: ctx.env.VISIBILITY_ALERT_DROP, latest: latest ? { solv: latest.solv, at: latest.at.getTime() } : null, drops: drops.reverse() };
}

/** The business's scans, newest first; `cursor` is the previous page's last reportedAt (ms).
 *  404 'Business not found' when the caller may not see it. */
export async function visibilityHistory({ ctx, userId, businessId, cursor, limit }: { ctx: AppContext; userId: string; businessId: string; cursor?: string; limit: number }) {
  await businessJsonForUser({ ctx, userId, businessId });
  const rows = await ctx.db
    .select({ runId: businessMetrics.runId, reportedAt: businessMetrics.reportedAt, visibility: businessMetrics.visibility })
    .from(businessMetrics)
    .where(and(eq(businessMetrics.businessId, businessId), eq(businessMetrics.isMainBusiness, true), isNotNull(businessMetrics.visibility), cursor ? lt(businessMetrics.reportedAt, new Date(Number(cursor))) : undefined))
    .orderBy(desc(businessMetrics.reportedAt))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  return {
    businessId,
    scans: page.map((r) => ({ ...(r.visibility as VisibilitySummary), runId: r.runId, reportedAt: r.reportedAt.getTime() })),
    nextCursor: rows.length > limit ? String(page[page.length - 1]!.reportedAt.getTime()) : null,
  };
}

/** After a run is stored: when its Share of Local Voice differs from the previous measured scan's,
 *  `visibility.changed` goes to the webhooks of every account that may see the business (those
 *  whose plan has the API; emitEvent checks). Once per run (the event key). */
export async function emitVisibilityChange(ctx: AppContext, businessId: string, runId: string, now = new Date()): Promise<number> {
  const [latest, previous] = await ctx.db
    .select({ runId: businessMetrics.runId, solv: businessMetrics.localVoiceShare, at: businessMetrics.reportedAt })
    .from(businessMetrics)
    .where(and(eq(businessMetrics.businessId, businessId), eq(businessMetrics.isMainBusiness, true), isNotNull(businessMetrics.localVoiceShare)))
    .orderBy(desc(businessMetrics.reportedAt))
    .limit(2);
  if (!latest || latest.runId !== runId || !previous || latest.solv === previous.solv) return 0;
  const data = {
    businessId,
    runId,
    localVoiceShare: latest.solv!,
    previousLocalVoiceShare: previous.solv!,
    change: Math.round((latest.solv! - previous.solv!) * 100) / 100,
    scannedAt: latest.at.toISOString(),
    previousScannedAt: previous.at.toISOString(),
  };
  const userIds = [...new Set((await candidates(ctx, businessId)).map((c) => c.userId))];
  let queued = 0;
  for (const userId of userIds) queued += await emitEvent(ctx, { userId, type: 'visibility.changed', eventKey: `visibility.changed:${runId}`, data, now });
  // Early Warning: a fall of VISIBILITY_ALERT_DROP points or more, week over week.
  if (isDrop(ctx, { solv: previous.solv!, at: previous.at }, { solv: latest.solv!, at: latest.at })) {
    const payload: VisibilityAlertPayload = { businessId, runId, solv: latest.solv!, previousSolv: previous.solv!, at: latest.at.toISOString(), previousAt: previous.at.toISOString() };
    await enqueue(ctx.db, { type: VISIBILITY_ALERT, payload: { ...payload }, key: `visibility-alert:${runId}` });
  }
  return queued;
}

/** Stores the owner's keywords (an empty list goes back to the category's defaults); the next
 *  analysis searches them first, as many as the plan's grid takes. The caller checked access. */
export async function setVisibilityKeywords(ctx: AppContext, businessId: string, keywords: string[]) {
  await ctx.db.update(businesses).set({ visibilityKeywords: keywords.length ? keywords : null }).where(eq(businesses.id, businessId));
  return { businessId, keywords };
}
