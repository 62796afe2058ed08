// Scheduled work for paid plans, as a tick that enqueues jobs keyed by period, so a tick that runs
// twice (two processes, a restart) enqueues once:
// - `business.reanalyse` every REANALYSIS_INTERVAL_DAYS (weekly by default; at most once per period
//   of that length, and only once the latest snapshot is that old): a fresh analysis adds a
//   business_metrics snapshot, which is what fills the dashboard's 90-day trends;
// - `reviews.check` every REVIEW_CHECK_INTERVAL_MINUTES for Early Warning plans (api/services/review-check.ts);
// - `report.monthly` on the first of each month (or the first tick after it, within
//   MONTHLY_CATCH_UP_DAYS when the service was down): the latest report by e-mail with its PDF.
// Who qualifies is decided by api/services/plans/entitlements.ts (`trends`, `monthlyReports`): a
// business's re-analysis by the plan of whoever pays for it (its owner, else the consultant whose
// client it is: api/services/plans/payers.ts), the monthly report by its recipient's, a client's
// reports by its consultant's. Decisions 0063 and 0214.
import type { AppContext } from '../context.ts';
import { errorText } from '../log.ts';
import { can } from '../services/plans/entitlements.ts';
import { candidates, payersByBusiness } from '../services/plans/payers.ts';
import { scheduleWidgetLeads } from '../services/widget-lead-mail.ts';
import { CLIENT_REPORT, clientReportKey, clientReportPeriod, type ClientReportPayload } from '../services/client-report-schedule.ts';
import { enqueue } from './queue.ts';
import type { MonthlyReportPayload, ReanalysePayload } from './types.ts';
import { scheduleRetentionPurge } from '../services/data-rights/retention-job.ts';
import { scheduleReviewChecks } from '../services/review-check.ts';
import { scheduleProfilePolls } from '../services/google-profile/poll-job.ts';
import { scheduleAiScans } from '../services/ai-visibility/job.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const MONTHLY_CATCH_UP_DAYS = 3;
export const SCHEDULER_TICK_MS = 15 * 60 * 1000;
/** How much younger than the interval the latest snapshot may be and still count as due: the
 * delay of a tick and a queued run, so a weekly cadence does not slip by that much every week. */
export const REANALYSIS_SLACK_MS = 60 * 60 * 1000;

/** The re-analysis period `now` falls in: periods of `days` days counted from the Unix epoch. */
export function reanalysisPeriod(now: Date, days: number) {
  const length = days * DAY_MS;
  const start = Math.floor(now.getTime() / length) * length;
  return { period: new Date(start).toISOString().slice(0, 10), start };
}

/** The month (YYYY-MM, UTC) whose report is due at `now`, or null outside the first days. */
export function monthlyPeriod(now: Date): string | null {
  if (now.getUTCDate() > MONTHLY_CATCH_UP_DAYS) return null;
  return now.toISOString().slice(0, 7);
}

export const reanalyseKey = (period: string, businessId: string) => `reanalyse:${period}:business-${businessId}`;
export const monthlyKey = (period: string, businessId: string, userId: string) => `monthly:${period}:business-${businessId}:user-${userId}`;

/** One pass: enqueues what is due at `now` and not yet enqueued. Returns how many jobs it added. */
export async function scheduleTick(ctx: AppContext, now: Date = new Date()) {
  const all = (await candidates(ctx)).filter((c) => c.lastAt !== null);
  const { period, start } = reanalysisPeriod(now, ctx.env.REANALYSIS_INTERVAL_DAYS);
  const month = monthlyPeriod(now);
  let reanalyse = 0;
  let monthly = 0;

  // Due when the latest snapshot is from before this period (not this period's run, nor a fresh
  // free report) and a whole interval old: a business first analysed the day before a period
  // begins is re-analysed an interval later, not the next day. Decision 0065.
  const dueBefore = Math.min(start, now.getTime() - ctx.env.REANALYSIS_INTERVAL_DAYS * DAY_MS + REANALYSIS_SLACK_MS);
  // Each business by the plan of whoever pays for it (its owner, else its consultant).
  const due = new Set<string>();
  for (const [businessId, payer] of payersByBusiness(all)) {
    if (can(payer.plan, 'trends') && payer.lastAt! < dueBefore) due.add(businessId);
  }
  for (const businessId of due) {
    const payload: ReanalysePayload = { businessId, period };
    if (await enqueue(ctx.db, { type: 'business.reanalyse', payload: { ...payload }, key: reanalyseKey(period, businessId) })) reanalyse++;
  }
  if (month) {
    for (const c of all) {
      // A client's business gets the client report instead (below), with the consultant in copy.
      if (c.via === 'client' || !can(c.plan, 'monthlyReports')) continue;
      const payload: MonthlyReportPayload = { businessId: c.businessId, period: month, userId: c.userId };
      if (await enqueue(ctx.db, { type: 'report.monthly', payload: { ...payload }, key: monthlyKey(month, c.businessId, c.userId) })) monthly++;
    }
  }
  const clientReports = await scheduleClientReports(ctx, now);
  // Widget leads: queued ones released when the agency may again, daily digests (issue 15).
  const leads = await scheduleWidgetLeads(ctx, now);
  const reviewChecks = await scheduleReviewChecks(ctx, now);
  // Connected profiles poll themselves every GBP_POLL_SECONDS; this restarts a chain that broke.
  const profilePolls = await scheduleProfilePolls(ctx, now);
  // AI answers: each paid business as often as its plan scans (decision 0302).
  const aiScans = await scheduleAiScans(ctx, now);
  if (reanalyse || monthly || clientReports || leads.released || leads.digests || reviewChecks || profilePolls || aiScans) ctx.log.info('scheduled jobs', { reanalyse, monthly, clientReports, ...leads, reviewChecks, profilePolls, aiScans, period, month });
  return { reanalyse, monthly, clientReports, reviewChecks };
}

// Consultants' active clients whose business has had its first analysis. Decision 0105.
const CLIENTS_DUE_SQL = `
SELECT cl.id, cl.report_frequency, u.subscription_tier AS tier, u.subscription_status AS status
FROM clients cl JOIN consultants c ON c.id = cl.consultant_id JOIN users u ON u.id = c.user_id
WHERE cl.archived_at IS NULL AND cl.business_id IS NOT NULL AND u.role = 'consultant' AND u.subscription_tier <> 'free' AND u.closed_at IS NULL
  AND EXISTS (SELECT 1 FROM business_metrics m WHERE m.business_id = cl.business_id AND m.is_main_business = 1)`;

async function scheduleClientReports(ctx: AppContext, now: Date): Promise<number> {
  const { rows } = await ctx.db.$client.execute(CLIENTS_DUE_SQL);
  let queued = 0;
  for (const r of rows) {
    if (!can({ subscriptionTier: String(r.tier), subscriptionStatus: String(r.status) }, 'clientManagement')) continue;
    const period = clientReportPeriod(r.report_frequency === 'weekly' ? 'weekly' : 'monthly', now, MONTHLY_CATCH_UP_DAYS);
    if (!period) continue;
    const payload: ClientReportPayload = { clientId: String(r.id), kind: 'scheduled', period };
    if (await enqueue(ctx.db, { type: CLIENT_REPORT, payload: { ...payload }, key: clientReportKey(payload) })) queued++;
  }
  return queued;
}

/** Runs a tick now and every `everyMs`; returns the function that stops it (waiting for a running tick). */
export function startScheduler(ctx: AppContext, options: { everyMs?: number; now?: () => Date } = {}): () => Promise<void> {
  const everyMs = options.everyMs ?? SCHEDULER_TICK_MS;
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    const now = options.now?.() ?? new Date();
    running = Promise.all([scheduleTick(ctx, now), scheduleRetentionPurge(ctx, now)]).catch((error: unknown) =>
      ctx.log.error('scheduler tick failed', { error: errorText(error) }),
    );
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return async () => {
    stopped = true;
    clearInterval(timer);
    await running;
  };
}
