// The agency's home: GET /api/portfolio, what /dashboard shows a consultant. One row per business
// the viewer reaches from its dashboard's switcher (its own, then every active client's), each
// with its latest overall score, the change since the snapshot before, its rank in the latest
// run, the Early Warning alerts of the alert window, and its last and next report. One SQL
// statement; the same session and plan rules as the dashboard read (api/services/dashboard.ts).
import { isMarket, isSamplePlace } from '../../common/constants.ts';
import type { AppContext } from '../context.ts';
import { unauthenticated } from '../errors.ts';
import { nextClientReport } from './client-report-schedule.ts';
import { planRequired } from './dashboard.ts';
import { can } from './plans/entitlements.ts';
import { optOutsOf } from './reports.ts';
import { ALERT_WINDOW_DAYS } from './review-alerts.ts';
import { sessionTokenFrom } from './session-token.ts';
import { VIEWER_CTE } from './viewer-sql.ts';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface PortfolioRow {
  businessId: string;
  company: string;
  city: string;
  state: string;
  /** The client when the business is one of the consultant's clients; null for the viewer's own. */
  client: { id: string; name: string } | null;
  /** Made from the offline sample provider: the screen says so. */
  sampleData: boolean;
  overall: number | null;
  /** Overall now minus overall at the snapshot before; null with fewer than two snapshots. */
  change: number | null;
  rank: number | null;
  /** Places ranked in the latest run (the business and its competitors); null before the first. */
  of: number | null;
  latestAt: string | null;
  /** Low-rated reviews of the alert window; null when the plan has no Early Warning. */
  openAlerts: number | null;
  /** When the last report e-mail about the business went out; null when none has. */
  lastReport: string | null;
  /** When the next scheduled report goes out; null when none is scheduled (a client who unsubscribed has none). */
  nextReport: string | null;
  /** When the client unsubscribed from its report e-mails: its reports are paused. Null while subscribed, and for the viewer's own. */
  unsubscribedAt: string | null;
  /** A client's latest report, newer than the last one sent, that waits for the agency's own mail
   *  server or failed: since when it waits, and what the server did (decision 0210); else null. */
  reportProblem: { status: 'waiting' | 'failed'; since: string | null; problem: string | null } | null;
}

export interface Portfolio {
  alertWindowDays: number;
  rows: PortfolioRow[];
}

// ?1 session token, ?2 now (ms), ?3 start of the alert window (ms).
const PORTFOLIO_SQL = `
WITH v AS (${VIEWER_CTE.session}),
x AS (
  SELECT b.id, NULL AS client_id, NULL AS client_name, NULL AS frequency, NULL AS client_email, 0 AS kind FROM businesses b, v WHERE b.user_id = v.user_id
  UNION ALL
  SELECT cl.business_id, cl.id, cl.client_name, cl.report_frequency, cl.client_email, 1 FROM clients cl, v
  WHERE cl.consultant_id = v.consultant_id AND cl.archived_at IS NULL AND cl.business_id IS NOT NULL
    AND cl.business_id NOT IN (SELECT id FROM businesses WHERE user_id = v.user_id)
)
SELECT v.tier, v.status, y.* FROM v LEFT JOIN (
  SELECT x.id, x.client_id, x.client_name, x.frequency, x.client_email, x.kind, b.company, b.city, b.state, b.place_id,
    m.overall_score AS overall, m.reported_at,
    (SELECT p.overall_score FROM business_metrics p WHERE p.business_id = b.id AND p.is_main_business = 1 AND p.reported_at < m.reported_at
       ORDER BY p.reported_at DESC LIMIT 1) AS previous,
    (SELECT count(*) FROM business_metrics r WHERE r.run_id = m.run_id) AS places,
    (SELECT count(*) FROM business_metrics r WHERE r.run_id = m.run_id AND r.overall_score > m.overall_score) AS higher,
    (SELECT count(*) FROM review_alerts a WHERE a.business_id = b.id AND a.alert_triggered = 1 AND coalesce(a.review_date, a.created_at) >= ?3) AS alerts,
    (SELECT max(r.email_sent_at) FROM reports r WHERE r.business_id = b.id AND r.email_sent = 1) AS last_report,
    (SELECT json_object('failed', r.failed_at, 'since', r.mail_waiting_since, 'problem', r.mail_problem) FROM reports r
       WHERE r.client_id = x.client_id AND r.report_type = 'client' AND r.email_sent = 0 AND (r.failed_at IS NOT NULL OR r.mail_waiting_since IS NOT NULL)
         AND r.created_at > coalesce((SELECT max(s.created_at) FROM reports s WHERE s.client_id = x.client_id AND s.report_type = 'client' AND s.email_sent = 1), 0)
       ORDER BY r.created_at DESC LIMIT 1) AS report_problem
  FROM x JOIN businesses b ON b.id = x.id
  LEFT JOIN business_metrics m ON m.id = (
    SELECT z.id FROM business_metrics z WHERE z.business_id = b.id AND z.is_main_business = 1 ORDER BY z.reported_at DESC LIMIT 1)
) y ON 1
ORDER BY y.kind, lower(coalesce(y.client_name, y.company)), y.id`;

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v)).toISOString());

function problemOf(v: unknown): PortfolioRow['reportProblem'] {
  if (typeof v !== 'string') return null;
  const p = JSON.parse(v) as { failed: number | null; since: number | null; problem: string | null };
  return { status: p.failed !== null ? 'failed' : 'waiting', since: iso(p.since), problem: p.problem };
}

/** The signed-in viewer's portfolio; 401 signed out, 403 plan_required on a plan without the dashboard. */
export async function getPortfolio({ ctx, cookie, now = new Date() }: { ctx: AppContext; cookie: string | null | undefined; now?: Date }): Promise<Portfolio> {
  const token = await sessionTokenFrom(ctx, cookie);
  if (!token) throw unauthenticated();
  const rows = await ctx.db.$read(PORTFOLIO_SQL, [token, now.getTime(), now.getTime() - ALERT_WINDOW_DAYS * DAY_MS]);
  if (rows.length === 0) throw unauthenticated();
  const plan = { subscriptionTier: String(rows[0]!.tier), subscriptionStatus: String(rows[0]!.status) };
  if (!can(plan, 'dashboard')) throw planRequired();
  const alertsIncluded = can(plan, 'earlyWarning');
  // The owners' monthly report goes out on the first of the month, on a plan that has it, for an
  // analysed business (api/jobs/schedule.ts).
  const ownNext = can(plan, 'monthlyReports') ? nextClientReport('monthly', now).toISOString() : null;
  // A client who unsubscribed gets no report until they subscribe again: the row says so instead of a date.
  const optOuts = await optOutsOf(ctx, rows.flatMap((r) => (typeof r.client_email === 'string' ? [r.client_email] : [])));
  return {
    alertWindowDays: ALERT_WINDOW_DAYS,
    rows: rows
      .filter((r) => r.id !== null)
      .map((r): PortfolioRow => {
        const overall = num(r.overall);
        const previous = num(r.previous);
        const isClient = r.client_id !== null;
        const unsubscribedAt = isClient ? (optOuts.get(String(r.client_email).toLowerCase()) ?? null) : null;
        return {
          businessId: String(r.id),
          company: String(r.company),
          city: String(r.city),
          state: String(r.state),
          client: isClient ? { id: String(r.client_id), name: String(r.client_name) } : null,
          sampleData: isSamplePlace(r.place_id),
          overall,
          change: overall !== null && previous !== null ? Math.round((overall - previous) * 100) / 100 : null,
          // No rank without a market: fewer than MIN_MARKET_COMPETITORS competitors (decision 0216).
          rank: overall === null || r.reported_at === null || !isMarket(Number(r.places) - 1) ? null : Number(r.higher) + 1,
          of: r.reported_at === null ? null : Number(r.places),
          latestAt: iso(r.reported_at),
          openAlerts: alertsIncluded ? Number(r.alerts) : null,
          lastReport: iso(r.last_report),
          nextReport: isClient ? (unsubscribedAt ? null : nextClientReport(r.frequency === 'weekly' ? 'weekly' : 'monthly', now).toISOString()) : r.reported_at === null ? null : ownNext,
          unsubscribedAt: unsubscribedAt?.toISOString() ?? null,
          reportProblem: isClient ? problemOf(r.report_problem) : null,
        };
      }),
  };
}
