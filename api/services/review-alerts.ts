// The Early Warning Monitor: alerts for the business's own low-rated reviews, recorded by every
// analysis run (alertRows, called from persist.ts), read by GET /api/business/{id}/review-alerts,
// and the per-business threshold set by PUT /api/business/{id}/alert-threshold. Access is the
// dashboard's: the business's owner or the consultant whose client it is, on a plan that includes
// 'earlyWarning'; anyone else gets the same 404 as an unknown id. Decision 0076.
import { eq } from 'drizzle-orm';
import { ALERT_THRESHOLD, EARLY_WARNING_ALERT_LIMIT, isLowRating, isSamplePlace, PRECISION, round } from '../../common/constants.ts';
import { businesses } from '../../db/schema/businesses.ts';
import { reviewAlerts } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { AppError, unauthenticated } from '../errors.ts';
import type { ProviderName, Review } from '../report/model/types.ts';
import { EARLY_WARNING_PLAN_MESSAGE } from '../../common/plan-messages.ts';
import { can } from './plans/entitlements.ts';
import { sessionTokenFrom } from './session-token.ts';
import { VIEWER_CTE, type ViewerKind, viewerMaySee } from './viewer-sql.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Only reviews this recent raise an alert: a new monitor is not flooded with years-old reviews. */
export const ALERT_WINDOW_DAYS = 90;

/** Spec section 8's Access Denied text, shared with the screen (common/plan-messages.ts). */
export { EARLY_WARNING_PLAN_MESSAGE };
/** The offline sample provider's place ids start with 'sample-'. */
export const businessNotFound = () => new AppError('not_found', 'Business not found');

type Platform = (typeof reviewAlerts.$inferInsert)['platform'];
const platformOf = (provider: ProviderName): Platform => (provider === 'google' || provider === 'yelp' ? provider : 'other');

/** The threshold in force: the stored one, or the default. */
export const thresholdOf = (stored: number | null | undefined) => (typeof stored === 'number' ? stored : ALERT_THRESHOLD.default);

/**
 * The review_alerts rows one analysis run records: the business's reviews of the last
 * ALERT_WINDOW_DAYS rated at or below the threshold. Inserted with ON CONFLICT DO NOTHING, the
 * unique index on business, platform, author, date and rating keeps each review to one alert.
 */
export function alertRows(businessId: string, provider: ProviderName, reviews: readonly Review[], threshold: number, now: Date): (typeof reviewAlerts.$inferInsert)[] {
  const since = now.getTime() - ALERT_WINDOW_DAYS * DAY_MS;
  return reviews
    .map((r) => ({ r, date: Date.parse(r.date), rating: round(r.rating, PRECISION.reviewRating) }))
    .filter(({ date, rating }) => Number.isFinite(date) && date >= since && isLowRating(rating, threshold))
    .map(({ r, date, rating }) => ({
      businessId,
      platform: platformOf(provider),
      reviewRating: rating,
      reviewText: r.text || null,
      reviewUrl: r.url,
      reviewAuthor: r.author,
      reviewDate: new Date(date),
      alertTriggered: true,
      alertThreshold: threshold,
      createdAt: now,
    }));
}

// ?1 session token (or user id, see viewer-sql.ts), ?2 now (ms), ?3 business id. One row when the
// viewer is valid; the business columns are null when there is no such business or the viewer may not see it.
const accessSql = (viewer: ViewerKind) => `
WITH v AS (${VIEWER_CTE[viewer]})
SELECT v.tier, v.status, b.id, b.company, b.city, b.state, b.alert_threshold, b.place_id
FROM v LEFT JOIN businesses b ON b.id = ?3 AND ${viewerMaySee('b')}`;
const ACCESS_SQL = { session: accessSql('session'), user: accessSql('user') };

export interface Monitored {
  id: string;
  company: string;
  city: string;
  state: string;
  threshold: number;
  /** Made from the offline sample provider (its place ids start with 'sample-'): every surface says so. */
  sampleData: boolean;
}

/** The business the signed-in viewer may monitor, or 401 / 403 / 404. */
export async function monitoredBusiness(ctx: AppContext, cookie: string | null | undefined, businessId: string, now: number): Promise<Monitored> {
  const token = await sessionTokenFrom(ctx, cookie);
  if (!token) throw unauthenticated();
  return monitoredBusinessOf(ctx, { kind: 'session', id: token }, businessId, now);
}

/** The same check for a viewer given by session token or (an API key's owner) by user id. */
export async function monitoredBusinessOf(ctx: AppContext, viewer: { kind: ViewerKind; id: string }, businessId: string, now: number): Promise<Monitored> {
  const [row] = await ctx.db.$read(ACCESS_SQL[viewer.kind], [viewer.id, now, businessId]);
  if (!row) throw unauthenticated();
  if (!can({ subscriptionTier: String(row.tier), subscriptionStatus: String(row.status) }, 'earlyWarning')) {
    throw new AppError('plan_required', EARLY_WARNING_PLAN_MESSAGE);
  }
  if (typeof row.id !== 'string') throw businessNotFound();
  return { id: row.id, company: String(row.company), city: String(row.city), state: String(row.state), threshold: thresholdOf(row.alert_threshold as number | null), sampleData: isSamplePlace(row.place_id) };
}

const STATS_SQL = `
SELECT count(*) AS total, count(CASE WHEN review_date >= ?2 THEN 1 END) AS last30, avg(review_rating) AS average,
  min(review_rating) AS lowest, max(review_date) AS latest
FROM review_alerts WHERE business_id = ?1`;

const LIST_SQL = `
SELECT id, platform, review_rating, review_author, review_text, review_url, review_date, created_at
FROM review_alerts WHERE business_id = ?1
ORDER BY coalesce(review_date, created_at) DESC, created_at DESC LIMIT ${EARLY_WARNING_ALERT_LIMIT}`;

const numOrNull = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export async function getReviewAlerts({ ctx, cookie, businessId, now = Date.now() }: { ctx: AppContext; cookie: string | null | undefined; businessId: string; now?: number }) {
  const business = await monitoredBusiness(ctx, cookie, businessId, now);
  const [[stats], alerts] = await Promise.all([
    ctx.db.$read(STATS_SQL, [business.id, now - 30 * DAY_MS]),
    ctx.db.$read(LIST_SQL, [business.id]),
  ]);
  const average = numOrNull(stats?.average);
  return {
    business: { id: business.id, companyName: business.company, city: business.city, state: business.state, sampleData: business.sampleData },
    threshold: business.threshold,
    alertWindowDays: ALERT_WINDOW_DAYS,
    stats: {
      total: Number(stats?.total ?? 0),
      last30Days: Number(stats?.last30 ?? 0),
      averageRating: average === null ? null : round(average, PRECISION.reviewRating),
      lowestRating: numOrNull(stats?.lowest),
      latestReviewDate: numOrNull(stats?.latest),
    },
    alerts: alerts.map((a) => ({
      id: String(a.id),
      platform: String(a.platform),
      reviewRating: Number(a.review_rating),
      reviewAuthor: (a.review_author as string | null) ?? null,
      reviewText: (a.review_text as string | null) ?? null,
      reviewUrl: (a.review_url as string | null) ?? null,
      reviewDate: numOrNull(a.review_date),
      createdAt: Number(a.created_at),
    })),
  };
}

/** Stores the threshold of a business the viewer may monitor (see monitoredBusiness). */
export async function setAlertThreshold(ctx: AppContext, business: Monitored, threshold: number) {
  await ctx.db.update(businesses).set({ alertThreshold: threshold }).where(eq(businesses.id, business.id));
  return { threshold };
}

export interface AlertItem {
  id: string;
  platform: Platform;
  reviewRating: number;
  reviewAuthor: string | null;
  reviewText: string | null;
  reviewUrl: string | null;
  reviewDate: string | null;
  createdAt: string;
}

const SINCE_SQL = `
SELECT id, platform, review_rating, review_author, review_text, review_url, review_date, created_at
FROM review_alerts WHERE business_id = ?1 AND created_at > ?2
ORDER BY created_at DESC, id LIMIT ?3`;

/** The business's alerts recorded after `since` (ms), newest first: the public API's list. */
export async function alertsSince(ctx: AppContext, business: Monitored, since: number, limit: number): Promise<AlertItem[]> {
  const rows = await ctx.db.$read(SINCE_SQL, [business.id, since, limit]);
  const iso = (v: unknown) => (v === null || v === undefined ? null : new Date(Number(v)).toISOString());
  return rows.map((a) => ({
    id: String(a.id),
    platform: a.platform as Platform,
    reviewRating: Number(a.review_rating),
    reviewAuthor: (a.review_author as string | null) ?? null,
    reviewText: (a.review_text as string | null) ?? null,
    reviewUrl: (a.review_url as string | null) ?? null,
    reviewDate: iso(a.review_date),
    createdAt: iso(a.created_at)!,
  }));
}
