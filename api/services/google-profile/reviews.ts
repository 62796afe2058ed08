// The connected profile's reviews as Early Warning, the dashboard and API v1 read them, and the
// answers the owner or the agency writes (issue 48, decision 0283): posted to Google at once, at
// most 10 edits a minute per profile (Google's limit, counted here before Google refuses), and a
// refused answer keeps Google's reason beside the review. Access is the Early Warning rule
// (monitoredBusiness / monitoredBusinessOf); the caller checks it and passes the Monitored business.
import { and, desc, eq, gte, isNull, lt, or } from 'drizzle-orm';
import { googleConnections, profileMetrics, profileReviews } from '../../../db/schema/google-profile.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { consumeRateLimit } from '../rate-limit.ts';
import type { Monitored } from '../review-alerts.ts';
import { connectionOf, googleConnectConfigured, withAccess } from './connection.ts';
import { deleteReply, GoogleError, putReply, reviewsParent } from './google-api.ts';
import { connectUrl, PROFILE_LABEL } from '../../../common/google-profile.ts';
import type { ProfileReview } from '../../../common/schemas/google-profile.ts';

export const REPLY_MAX = 4096;
export const EDITS_PER_MINUTE = 10;


const iso = (d: Date | null) => (d ? d.toISOString() : null);
const view = (r: typeof profileReviews.$inferSelect): ProfileReview => ({
  id: r.reviewId,
  rating: r.rating,
  author: r.author,
  text: r.text,
  createdAt: r.createdAt.toISOString(),
  updatedAt: r.updatedAt.toISOString(),
  reply: r.replyText ? { text: r.replyText, updatedAt: iso(r.replyUpdatedAt) } : null,
  replyError: r.replyError,
  removed: r.removedAt !== null,
});

/** What the screens show of the connection: never a token. */
export async function profileStatus(ctx: AppContext, business: Monitored) {
  const c = await connectionOf(ctx, business.id);
  const [counts] = await ctx.db.$read('SELECT count(*) AS total, avg(rating) AS average FROM profile_reviews WHERE business_id = ?1 AND removed_at IS NULL', [business.id]);
  return {
    connectable: googleConnectConfigured(ctx.env) || ctx.env.PLACES_PROVIDER === 'sample',
    connectUrl: connectUrl(business.id),
    label: PROFILE_LABEL,
    connection: c ? { status: c.status, title: c.locationTitle, sample: c.status === 'sample', lastPolledAt: iso(c.lastPolledAt), lastError: c.lastError, connectedAt: c.createdAt.toISOString() } : null,
    reviewCount: Number(counts?.total ?? 0),
    averageRating: counts?.average === null || counts?.average === undefined ? null : Math.round(Number(counts.average) * 10) / 10,
  };
}

/** Newest first (by last change), `limit` a page; the cursor is the last review's time and id. */
export async function listProfileReviews(ctx: AppContext, business: Monitored, options: { limit: number; cursor?: string | null }) {
  let after: { at: Date; id: string } | null = null;
  if (options.cursor) {
    const [at, id] = Buffer.from(options.cursor, 'base64url').toString().split('|');
    if (!at || !id || !Number.isFinite(Number(at))) throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { cursor: 'Not a cursor this list gave' } });
    after = { at: new Date(Number(at)), id };
  }
  const rows = await ctx.db
    .select()
    .from(profileReviews)
    .where(and(eq(profileReviews.businessId, business.id), after ? or(lt(profileReviews.updatedAt, after.at), and(eq(profileReviews.updatedAt, after.at), lt(profileReviews.reviewId, after.id))) : undefined))
    .orderBy(desc(profileReviews.updatedAt), desc(profileReviews.reviewId))
    .limit(options.limit + 1);
  const page = rows.slice(0, options.limit);
  const last = page.at(-1);
  return { reviews: page.map(view), nextCursor: rows.length > options.limit && last ? Buffer.from(`${last.updatedAt.getTime()}|${last.reviewId}`).toString('base64url') : null };
}

async function replyTarget(ctx: AppContext, business: Monitored, reviewId: string) {
  const connection = await connectionOf(ctx, business.id);
  if (!connection || connection.status === 'disconnected') throw new AppError('conflict', 'Connect your Google Business Profile again to answer reviews: Google no longer accepts our access to it.');
  const [review] = await ctx.db.select().from(profileReviews).where(and(eq(profileReviews.businessId, business.id), eq(profileReviews.reviewId, reviewId), isNull(profileReviews.removedAt)));
  if (!review) throw new AppError('not_found', 'Review not found');
  await consumeRateLimit({ ctx, input: { key: `google-profile-edits:${connection.locationName}`, limit: EDITS_PER_MINUTE, windowMs: 60_000, message: `Google takes at most ${EDITS_PER_MINUTE} answers a minute for one profile. Please try again in a minute.` } });
  return { connection, review };
}

/** Posts (or replaces) the answer; Google's refusal is kept and said, with its reason. */
export async function replyToReview(ctx: AppContext, business: Monitored, reviewId: string, text: string, now = new Date()): Promise<ProfileReview> {
  const { connection, review } = await replyTarget(ctx, business, reviewId);
  if (connection.status === 'connected') {
    try {
      await withAccess(ctx, connection, (token) => putReply(ctx.env, token, reviewsParent(connection.accountName, connection.locationName), reviewId, text));
    } catch (error) {
      if (!(error instanceof GoogleError)) throw error;
      const reason = `Google refused the answer: ${error.message}`;
      await ctx.db.update(profileReviews).set({ replyError: reason }).where(eq(profileReviews.id, review.id));
      if (error.kind === 'quota') throw new AppError('rate_limited', reason, { retryAfterSeconds: 60 });
      if (error.kind === 'invalid') throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { text: reason } });
      throw new AppError('conflict', reason);
    }
  }
  const [row] = await ctx.db.update(profileReviews).set({ replyText: text, replyUpdatedAt: now, replyError: null }).where(eq(profileReviews.id, review.id)).returning();
  return view(row!);
}

export async function deleteReviewReply(ctx: AppContext, business: Monitored, reviewId: string): Promise<ProfileReview> {
  const { connection, review } = await replyTarget(ctx, business, reviewId);
  if (connection.status === 'connected') {
    try {
      await withAccess(ctx, connection, (token) => deleteReply(ctx.env, token, reviewsParent(connection.accountName, connection.locationName), reviewId));
    } catch (error) {
      if (!(error instanceof GoogleError)) throw error;
      if (error.kind === 'quota') throw new AppError('rate_limited', `Google refused: ${error.message}`, { retryAfterSeconds: 60 });
      throw new AppError('conflict', `Google refused: ${error.message}`);
    }
  }
  const [row] = await ctx.db.update(profileReviews).set({ replyText: null, replyUpdatedAt: null, replyError: null }).where(eq(profileReviews.id, review.id)).returning();
  return view(row!);
}

/** Calls, website clicks, direction requests and impressions per day, the last `days` days. */
export async function profileMetricsOf(ctx: AppContext, business: Monitored, days: number, now = Date.now()) {
  const from = new Date(now - days * 86_400_000).toISOString().slice(0, 10);
  const rows = await ctx.db.select().from(profileMetrics).where(and(eq(profileMetrics.businessId, business.id), gte(profileMetrics.day, from))).orderBy(profileMetrics.day);
  const [c] = await ctx.db.select({ status: googleConnections.status }).from(googleConnections).where(eq(googleConnections.businessId, business.id));
  const connectable = googleConnectConfigured(ctx.env) || ctx.env.PLACES_PROVIDER === 'sample';
  return { businessId: business.id, connected: Boolean(c && c.status !== 'disconnected'), connectable, sample: c?.status === 'sample', days: rows.map(({ businessId: _b, ...d }) => d) };
}
