// `profile.poll`: reads a connected profile's reviews (issue 48, decision 0282). The first read
// takes every page; later reads ask newest first (updateTime desc) and stop at the first review
// already known and unchanged, so a poll with nothing new is one call. A review that left the
// profile is seen by its absence: when Google's count of reviews is below ours the read goes on to
// the last page in the same poll (decision 0320); once a day the read is a full one anyway. New
// and edited reviews at or below the threshold become Early Warning alerts (the analysis runs'
// rules), e-mailed and pushed as alert.created by alerts.notify. A lease per profile keeps several
// workers from reading one profile at once. Each poll queues the next, GBP_POLL_SECONDS later.
import { and, eq, inArray, isNull, notInArray } from 'drizzle-orm';
import { ALERT_THRESHOLD } from '../../../common/constants.ts';
import { businesses } from '../../../db/schema/businesses.ts';
import { googleConnections, profileMetrics, profileReviews } from '../../../db/schema/google-profile.ts';
import { reviewAlerts } from '../../../db/schema/reports.ts';
import type { AppContext } from '../../context.ts';
import { ALERTS_NOTIFY } from '../early-warning-mail.ts';
import { RetryLaterError } from '../../jobs/errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { JobDefinition } from '../../jobs/types.ts';
import { withLease } from '../../lib/lease.ts';
import { businessCan } from '../plans/payers.ts';
import { alertRows } from '../review-alerts.ts';
import { withAccess, type Connection } from './connection.ts';
import { dailyMetrics, GoogleError, reviewsPage, reviewsParent, type GoogleReview } from './google-api.ts';

export const PROFILE_POLL = 'profile.poll';
export interface ProfilePollPayload {
  businessId: string;
  period: string;
}

const DAY_MS = 86_400_000;
export const FULL_READ_EVERY_MS = DAY_MS;
export const METRICS_DAYS = 90;
const QUOTA_BACKOFF_MS = 60_000;

class ProfileBusy extends Error {}

export const pollPeriod = (now: number, seconds: number) => new Date(Math.floor(now / (seconds * 1000)) * seconds * 1000).toISOString();
export const pollKey = (period: string, businessId: string) => `profile-poll:${period}:business-${businessId}`;

/** Queues the poll of the period after `now` (once, whichever worker asks). */
async function queueNext(ctx: AppContext, businessId: string, now: number) {
  const at = now + ctx.env.GBP_POLL_SECONDS * 1000;
  const period = pollPeriod(at, ctx.env.GBP_POLL_SECONDS);
  const payload: ProfilePollPayload = { businessId, period };
  await enqueue(ctx.db, { type: PROFILE_POLL, payload: { ...payload }, key: pollKey(period, businessId), runAt: new Date(Date.parse(period)) });
}

/** The scheduler's safety net: a connected profile whose chain of polls broke is polled again. */
export async function scheduleProfilePolls(ctx: AppContext, now: Date): Promise<number> {
  const rows = await ctx.db.select({ businessId: googleConnections.businessId, lastPolledAt: googleConnections.lastPolledAt }).from(googleConnections).where(eq(googleConnections.status, 'connected'));
  let queued = 0;
  for (const r of rows) {
    if (r.lastPolledAt && r.lastPolledAt.getTime() > now.getTime() - 2 * ctx.env.GBP_POLL_SECONDS * 1000) continue;
    const period = pollPeriod(now.getTime(), ctx.env.GBP_POLL_SECONDS);
    if (await enqueue(ctx.db, { type: PROFILE_POLL, payload: { businessId: r.businessId, period }, key: pollKey(period, r.businessId) })) queued++;
  }
  return queued;
}

export interface PollResult {
  calls: number;
  pages: number;
  changed: number;
  removed: number;
  newAlerts: number;
  full: boolean;
}

/** Reads the profile's reviews as described above; the Google calls it made are counted. */
export async function pollProfile(ctx: AppContext, connection: Connection, now = new Date()): Promise<PollResult> {
  let full = !connection.fullReadAt || connection.fullReadAt.getTime() <= now.getTime() - FULL_READ_EVERY_MS;
  const known = new Map((await ctx.db.select({ id: profileReviews.reviewId, updatedAt: profileReviews.updatedAt, removedAt: profileReviews.removedAt }).from(profileReviews).where(eq(profileReviews.businessId, connection.businessId))).map((r) => [r.id, r]));
  const live = [...known.values()].filter((r) => !r.removedAt).length;
  const parent = reviewsParent(connection.accountName, connection.locationName);
  const changed: GoogleReview[] = [];
  const seen = new Set<string>();
  let calls = 0;
  let pages = 0;
  let next: string | null = null;
  do {
    const pageToken: string | undefined = next ?? undefined;
    const page: { reviews: GoogleReview[]; next: string | null; total: number | null } = await withAccess(ctx, connection, (token) => {
      calls++;
      return reviewsPage(ctx.env, token, parent, pageToken);
    });
    pages++;
    let reachedKnown = false;
    for (const r of page.reviews) {
      seen.add(r.reviewId);
      const before = known.get(r.reviewId);
      if (before && !before.removedAt && before.updatedAt.getTime() === r.updatedAt.getTime()) reachedKnown = true;
      else changed.push(r);
    }
    next = page.next;
    if (full || !reachedKnown) continue;
    // Newest first reached what is known. Google counts the location's reviews on every page: fewer
    // than we hold with the new ones means one left the profile, seen only by its absence, so the
    // read goes on to the last page now rather than at the daily full read (decision 0320).
    const holding = live + changed.filter((r) => !known.get(r.reviewId) || known.get(r.reviewId)!.removedAt).length;
    if (page.total !== null && page.total < holding) full = true;
    else break;
  } while (next);

  for (const r of changed) {
    const values = { businessId: connection.businessId, reviewId: r.reviewId, author: r.author, rating: r.rating, text: r.text, createdAt: r.createdAt, updatedAt: r.updatedAt, replyText: r.reply?.text ?? null, replyUpdatedAt: r.reply?.updatedAt ?? null, removedAt: null, seenAt: now };
    const { businessId: _b, reviewId: _r, ...update } = values;
    await ctx.db.insert(profileReviews).values(values).onConflictDoUpdate({ target: [profileReviews.businessId, profileReviews.reviewId], set: update });
  }
  let removed = 0;
  if (full) {
    const gone = [...known.entries()].filter(([id, r]) => !r.removedAt && !seen.has(id)).map(([id]) => id);
    if (gone.length) removed = (await ctx.db.update(profileReviews).set({ removedAt: now }).where(and(eq(profileReviews.businessId, connection.businessId), inArray(profileReviews.reviewId, gone), isNull(profileReviews.removedAt))).returning({ id: profileReviews.id })).length;
  }

  const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, connection.businessId), columns: { alertThreshold: true } });
  const threshold = typeof business?.alertThreshold === 'number' ? business.alertThreshold : ALERT_THRESHOLD.default;
  const rows = alertRows(connection.businessId, 'google', changed.map((r) => ({ rating: r.rating, text: r.text ?? '', author: r.author, date: r.createdAt.toISOString(), url: null, ownerResponse: null })), threshold, now).map((row) => ({ ...row, platform: 'google_business_profile' as const }));
  const added = rows.length ? await ctx.db.insert(reviewAlerts).values(rows).onConflictDoNothing().returning({ id: reviewAlerts.id }) : [];
  if (added.length) await enqueue(ctx.db, { type: ALERTS_NOTIFY, payload: { businessId: connection.businessId }, key: `alerts:profile-${connection.businessId}-${now.getTime()}` });

  if (!connection.metricsFetchedAt || connection.metricsFetchedAt.getTime() <= now.getTime() - DAY_MS) {
    calls += await readMetrics(ctx, connection, now);
  }
  await ctx.db.update(googleConnections).set({ lastPolledAt: now, lastError: null, ...(full ? { fullReadAt: now } : {}) }).where(eq(googleConnections.id, connection.id));
  return { calls, pages, changed: changed.length, removed, newAlerts: added.length, full };
}

/** The last 90 days of calls, clicks, directions and impressions (up to yesterday: today is not done). */
async function readMetrics(ctx: AppContext, connection: Connection, now: Date): Promise<number> {
  const to = new Date(now.getTime() - DAY_MS).toISOString().slice(0, 10);
  const from = new Date(now.getTime() - METRICS_DAYS * DAY_MS).toISOString().slice(0, 10);
  let calls = 0;
  const days = await withAccess(ctx, connection, (token) => {
    calls++;
    return dailyMetrics(ctx.env, token, connection.locationName, from, to);
  });
  for (const d of days) {
    const { day: _d, ...figures } = d;
    await ctx.db.insert(profileMetrics).values({ businessId: connection.businessId, ...d }).onConflictDoUpdate({ target: [profileMetrics.businessId, profileMetrics.day], set: figures });
  }
  await ctx.db.delete(profileMetrics).where(and(eq(profileMetrics.businessId, connection.businessId), notInArray(profileMetrics.day, days.map((d) => d.day))));
  await ctx.db.update(googleConnections).set({ metricsFetchedAt: now }).where(eq(googleConnections.id, connection.id));
  return calls;
}

export const profilePollJob: JobDefinition<ProfilePollPayload> = {
  async run(ctx, job, tools) {
    const { businessId } = job.payload;
    if (!(await businessCan(ctx, businessId, 'earlyWarning'))) return tools.saveProgress({ stage: 'skipped', reason: 'no plan with the Early Warning Monitor' });
    let result: PollResult | null;
    try {
      result = await withLease(
        ctx,
        `profile-poll:${businessId}`,
        async () => {
          // Read inside the lease: another worker may have just refreshed the token or disconnected it.
          const connection = await ctx.db.query.googleConnections.findFirst({ where: eq(googleConnections.businessId, businessId) });
          if (connection?.status !== 'connected') return null;
          return pollProfile(ctx, connection);
        },
        { ttlMs: 60_000, waitMs: 0, busy: () => new ProfileBusy() },
      );
    } catch (error) {
      if (error instanceof ProfileBusy) return tools.saveProgress({ stage: 'skipped', reason: 'another worker is reading this profile' });
      if (!(error instanceof GoogleError)) throw error;
      // A revoked grant was marked disconnected (one e-mail): no retry, no next poll.
      if (error.kind === 'invalid_grant') return tools.saveProgress({ stage: 'disconnected' });
      await ctx.db.update(googleConnections).set({ lastError: error.message }).where(eq(googleConnections.businessId, businessId));
      if (error.kind === 'quota') {
        const refusals = Number(job.progress.quotaRefusals ?? 0) + 1;
        await tools.saveProgress({ quotaRefusals: refusals });
        throw new RetryLaterError(`Google refused for quota (${refusals}×): ${error.message}`, Math.min(QUOTA_BACKOFF_MS * 2 ** (refusals - 1), ctx.env.GBP_POLL_SECONDS * 1000));
      }
      if (error.kind === 'unverified') {
        await queueNext(ctx, businessId, Date.now());
        return tools.saveProgress({ stage: 'refused', reason: error.message });
      }
      throw error;
    }
    if (!result) return tools.saveProgress({ stage: 'skipped', reason: 'not connected' });
    await queueNext(ctx, businessId, Date.now());
    await tools.saveProgress({ stage: 'polled', ...result });
  },
};
