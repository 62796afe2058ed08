// The connected Google Business Profile on the dashboard and the client page (issue 48, decision
// 0322): its review figures (count, average, the last 90 days against the 90 before, the newest
// reviews) replace the Places listing's for the business while a profile is connected; with no
// profile they stay as they were. Read with the dashboard answer, so the card is drawn with the
// page and nothing below it moves when it arrives.
import { PROFILE_LABEL, type DashboardProfile } from '../../../common/google-profile.ts';
import { PRECISION, round } from '../../../common/constants.ts';
import type { AppContext } from '../../context.ts';
import { googleConnectConfigured } from './connection.ts';

export const NEWEST_SHOWN = 5;
const DAY_MS = 86_400_000;

const FIGURES_SQL = `
SELECT count(*) AS total, avg(rating) AS average,
  count(CASE WHEN created_at >= ?2 THEN 1 END) AS last90,
  count(CASE WHEN created_at >= ?3 AND created_at < ?2 THEN 1 END) AS previous90
FROM profile_reviews WHERE business_id = ?1 AND removed_at IS NULL`;
const NEWEST_SQL = `
SELECT review_id, rating, author, text, created_at, reply_text IS NOT NULL AS answered
FROM profile_reviews WHERE business_id = ?1 AND removed_at IS NULL ORDER BY created_at DESC, review_id DESC LIMIT ${NEWEST_SHOWN}`;
const DAYS_SQL = `
SELECT day, calls, website_clicks, direction_requests, impressions FROM profile_metrics
WHERE business_id = ?1 AND day >= ?2 ORDER BY day`;

/** The profile's figures while it is connected (or the sample one); null otherwise. */
export async function profileReviewFigures(ctx: AppContext, businessId: string, now = Date.now()): Promise<DashboardProfile['reviews']> {
  const [[f], newest] = await Promise.all([ctx.db.$read(FIGURES_SQL, [businessId, now - 90 * DAY_MS, now - 180 * DAY_MS]), ctx.db.$read(NEWEST_SQL, [businessId])]);
  const average = f?.average === null || f?.average === undefined ? null : round(Number(f.average), PRECISION.reviewRating);
  return {
    source: 'google_business_profile',
    label: PROFILE_LABEL,
    count: Number(f?.total ?? 0),
    average,
    last90: Number(f?.last90 ?? 0),
    previous90: Number(f?.previous90 ?? 0),
    newest: newest.map((r) => ({ id: String(r.review_id), rating: Number(r.rating), author: r.author === null ? null : String(r.author), text: r.text === null ? null : String(r.text), createdAt: new Date(Number(r.created_at)).toISOString(), answered: Boolean(r.answered) })),
  };
}

export async function dashboardProfile(ctx: AppContext, businessId: string, now = Date.now()): Promise<DashboardProfile> {
  const [connection] = await ctx.db.$read('SELECT status, location_title FROM google_connections WHERE business_id = ?1', [businessId]);
  const status = connection ? (String(connection.status) as 'connected' | 'sample' | 'disconnected') : null;
  const live = status === 'connected' || status === 'sample';
  const [reviews, days] = await Promise.all([
    live ? profileReviewFigures(ctx, businessId, now) : null,
    live ? ctx.db.$read(DAYS_SQL, [businessId, new Date(now - 90 * DAY_MS).toISOString().slice(0, 10)]) : [],
  ]);
  return {
    connectable: googleConnectConfigured(ctx.env) || ctx.env.PLACES_PROVIDER === 'sample',
    connection: status ? { status, title: String(connection!.location_title) } : null,
    reviews,
    days: days.map((d) => ({ day: String(d.day), calls: Number(d.calls), websiteClicks: Number(d.website_clicks), directionRequests: Number(d.direction_requests), impressions: Number(d.impressions) })),
  };
}
