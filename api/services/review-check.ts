// The real-time review check (issue 16): for businesses monitored on a plan with the Early
// Warning Monitor, the business's reviews alone (not a re-analysis) are read from the places
// provider every REVIEW_CHECK_INTERVAL_MINUTES; new ones at or below the threshold become alerts
// at once with the analysis runs' rules (alertRows), then e-mailed and pushed as alert.created by
// alerts.notify. Idempotent per review (the alerts' unique index); a provider's quota or rate
// refusal makes the check wait and try again later, longer each time. Decision 0123.
import { eq } from 'drizzle-orm';
import { businesses } from '../../db/schema/businesses.ts';
import { reviewAlerts } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { ALERTS_NOTIFY } from './early-warning-mail.ts';
import { enqueue } from '../jobs/queue.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { businessCan, candidates, payersByBusiness } from './plans/payers.ts';
import { PermanentJobError, RetryLaterError } from '../jobs/errors.ts';
import { createProvider, providerFetch } from '../report/analysis/providers/configured.ts';
import { ProviderError, type PlacesProvider } from '../report/analysis/providers/types.ts';
import { can } from './plans/entitlements.ts';
import { alertRows, thresholdOf } from './review-alerts.ts';

export const REVIEWS_CHECK = 'reviews.check';
export interface ReviewsCheckPayload {
  businessId: string;
  period: string;
}
/** The first wait after a quota refusal; it doubles per refusal, up to the check interval. */
export const QUOTA_BACKOFF_MS = 5 * 60 * 1000;

const providerOfPlace = (placeId: string) => (placeId.startsWith('google:') ? 'google' : placeId.startsWith('yelp:') ? 'yelp' : placeId.startsWith('sample-') ? 'sample' : null);

export const reviewCheckKey = (period: string, businessId: string) => `reviews-check:${period}:business-${businessId}`;

/** The check period `now` falls in (intervals counted from the epoch), as an ISO time. */
export function reviewCheckPeriod(now: Date, minutes: number): string {
  const length = minutes * 60_000;
  return new Date(Math.floor(now.getTime() / length) * length).toISOString();
}

/** Enqueues this period's check of every monitored business (once per period, however many ticks). */
export async function scheduleReviewChecks(ctx: AppContext, now: Date): Promise<number> {
  const period = reviewCheckPeriod(now, ctx.env.REVIEW_CHECK_INTERVAL_MINUTES);
  // Each business by the plan of whoever pays for it (its owner, else its consultant).
  const payers = payersByBusiness((await candidates(ctx)).filter((c) => c.lastAt !== null));
  const due = [...payers].filter(([, payer]) => can(payer.plan, 'earlyWarning')).map(([businessId]) => businessId);
  let queued = 0;
  for (const businessId of due) {
    const payload: ReviewsCheckPayload = { businessId, period };
    if (await enqueue(ctx.db, { type: REVIEWS_CHECK, payload: { ...payload }, key: reviewCheckKey(period, businessId) })) queued++;
  }
  return queued;
}

export function reviewsCheckJob(options: { provider?: (ctx: AppContext) => PlacesProvider } = {}): JobDefinition<ReviewsCheckPayload> {
  return {
    async run(ctx, job, tools) {
      const { businessId } = job.payload;
      if (typeof businessId !== 'string') throw new PermanentJobError('payload needs businessId');
      // The plan is checked again at run time: it may have lapsed since the tick.
      if (!(await businessCan(ctx, businessId, 'earlyWarning'))) return tools.saveProgress({ stage: 'skipped', reason: 'no plan with the Early Warning Monitor' });
      const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, businessId) });
      if (!business?.placeId || business.latitude === null || business.longitude === null) return tools.saveProgress({ stage: 'skipped', reason: 'not identified with the provider yet' });
      // A connected Google Business Profile gives every review (profile.poll): the public sample is not needed.
      const [connected] = await ctx.db.$read("SELECT 1 FROM google_connections WHERE business_id = ?1 AND status IN ('connected', 'sample')", [businessId]);
      if (connected) return tools.saveProgress({ stage: 'skipped', reason: 'read from the connected Google Business Profile' });
      const provider = options.provider?.(ctx) ?? createProvider(ctx.env, new Date(), providerFetch(ctx));
      if (providerOfPlace(business.placeId) !== provider.name) return tools.saveProgress({ stage: 'skipped', reason: `the place is from another provider than ${provider.name}` });

      let reviews;
      try {
        ({ reviews } = await provider.reviews({
          placeId: business.placeId,
          name: business.company,
          address: business.address,
          phone: null,
          website: business.website,
          rating: null,
          reviewCount: null,
          latitude: business.latitude,
          longitude: business.longitude,
          providerCategory: null,
          categoryLabel: business.category,
        }));
      } catch (error) {
        if (error instanceof ProviderError && error.kind === 'rate_limited') {
          const refusals = Number(job.progress.quotaRefusals ?? 0) + 1;
          await tools.saveProgress({ quotaRefusals: refusals });
          const wait = Math.min(QUOTA_BACKOFF_MS * 2 ** (refusals - 1), ctx.env.REVIEW_CHECK_INTERVAL_MINUTES * 60_000);
          throw new RetryLaterError(`the places provider refused for quota (${refusals}×); next try in ${Math.round(wait / 60_000)} min`, wait);
        }
        throw error;
      }
      const now = new Date();
      const rows = alertRows(business.id, provider.name, reviews, thresholdOf(business.alertThreshold), now);
      const added = rows.length ? await ctx.db.insert(reviewAlerts).values(rows).onConflictDoNothing().returning({ id: reviewAlerts.id }) : [];
      if (added.length) await enqueue(ctx.db, { type: ALERTS_NOTIFY, payload: { businessId }, key: `alerts:check-${job.id}` });
      await tools.saveProgress({ stage: 'checked', reviews: reviews.length, newAlerts: added.length });
    },
  };
}
