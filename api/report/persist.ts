// Persist one analysis run: the geocoded business, its competitors, one business_metrics row per
// place (history accumulates run after run), the report row with its token and the Early Warning
// alerts for the business's own low-rated reviews, in one batch so a crash leaves either all of it
// or none of it.
import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { PRECISION, round } from '../../common/constants.ts';
import { businesses, businessMetrics, competitors } from '../../db/schema/businesses.ts';
import { reports, reviewAlerts } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { ALERTS_NOTIFY } from '../services/early-warning-mail.ts';
import { enqueueStatement } from '../jobs/queue.ts';
import { alertRows, thresholdOf } from '../services/review-alerts.ts';
import { emitVisibilityChange } from '../services/visibility-history.ts';
import type { AnalysedPlace, ReportData } from './model/types.ts';
import { reportUrl } from './render/links.ts';
import { solvOf, visibilitySummary } from './words/visibility.ts';

export const REPORT_LINK_DAYS = 30;

export interface PersistInput {
  businessId: string;
  requestId: string | null;
  reportType: string;
  data: ReportData;
  /** A widget lead's report: the agency it belongs to and the branding it is rendered in. */
  consultantId?: string | null;
  brandingProfileId?: string | null;
  clientId?: string | null;
}

export interface PersistedReport {
  reportId: string;
  token: string;
  runId: string;
  /** The report's data as stored (its `data` column), so the caller need not read it back. */
  data: Omit<ReportData, 'ownReviews'>;
}

/** A new report row's link: an unguessable token, the signed URL and the times it works between. */
export function newReportLink(ctx: AppContext, now = new Date()) {
  const token = randomBytes(24).toString('base64url');
  return { token, signedUrl: reportUrl(ctx, token), createdAt: now, expiresAt: new Date(now.getTime() + REPORT_LINK_DAYS * 24 * 60 * 60 * 1000) };
}

/** "Not enough data" is stored as NULL. */
const score = (n: number | null) => (n === null ? null : round(n, PRECISION.score));

function metricsRow(businessId: string, runId: string, reportedAt: Date, analysed: AnalysedPlace, competitorId: string | null) {
  return {
    businessId,
    competitorId,
    runId,
    isMainBusiness: analysed.isMainBusiness,
    reviewScore: score(analysed.scores.reviews),
    digitalPresenceScore: score(analysed.scores.digitalPresence),
    engagementScore: score(analysed.scores.engagement),
    marketShareScore: score(analysed.scores.marketShare),
    marketSharePercent: analysed.scores.marketSharePercent === null ? null : round(analysed.scores.marketSharePercent, 2),
    overallScore: score(analysed.scores.overall),
    techStackData: analysed.techStack,
    reviewVelocityData: analysed.reviewVelocity,
    sentimentData: analysed.sentiment,
    adAnalysisData: analysed.ads,
    dataPoints: analysed.dataPoints,
    localVoiceShare: solvOf(analysed),
    reportedAt,
  };
}

export async function persistReport(ctx: AppContext, input: PersistInput): Promise<PersistedReport> {
  const { businessId } = input;
  // The business's own reviews feed the alerts only; the report snapshot does not keep them.
  const { ownReviews = [], ...data } = input.data;
  const runId = randomUUID();
  const reportId = randomUUID();
  const link = newReportLink(ctx);
  const now = link.createdAt;

  // Competitor rows are kept per business and updated in place; their ids are known before the
  // batch so the metrics rows can point at them.
  const existing = await ctx.db.select({ id: competitors.id, placeId: competitors.placeId }).from(competitors).where(eq(competitors.businessId, businessId));
  const idByPlace = new Map(existing.map((c) => [c.placeId, c.id]));
  const competitorIds = data.competitors.map((c) => idByPlace.get(c.place.placeId) ?? randomUUID());
  const [own] = await ctx.db.select({ alertThreshold: businesses.alertThreshold }).from(businesses).where(eq(businesses.id, businessId));
  const alerts = alertRows(businessId, data.provider, ownReviews, thresholdOf(own?.alertThreshold), now);

  // The geocoded point: what the competitors' distances are measured from.
  const lat = data.location.latitude;
  const long = data.location.longitude;
  const statements = [
    ctx.db
      .update(businesses)
      .set({
        latitude: round(lat, PRECISION.latitude),
        longitude: round(long, PRECISION.longitude),
        placeId: data.business.place.placeId,
        category: data.category,
        updatedAt: now,
      })
      .where(eq(businesses.id, businessId)),
    ...data.competitors.map((c, i) => {
      const values = {
        name: c.place.name,
        address: c.place.address,
        rating: c.place.rating === null ? null : round(c.place.rating, PRECISION.rating),
        reviewCount: c.place.reviewCount,
        website: c.place.website,
        phone: c.place.phone,
        latitude: round(c.place.latitude, PRECISION.latitude),
        longitude: round(c.place.longitude, PRECISION.longitude),
        distanceFromBusiness: round(c.place.distanceMiles, PRECISION.distance),
        brand: c.brand ?? null,
      };
      return ctx.db
        .insert(competitors)
        .values({ id: competitorIds[i], businessId, placeId: c.place.placeId, ...values })
        .onConflictDoUpdate({ target: [competitors.businessId, competitors.placeId], set: values });
    }),
    ctx.db.insert(businessMetrics).values([
      { ...metricsRow(businessId, runId, now, data.business, null), visibility: visibilitySummary(input.data) },
      ...data.competitors.map((c, i) => metricsRow(businessId, runId, now, c, competitorIds[i]!)),
    ]),
    ctx.db.insert(reports).values({
      id: reportId,
      businessId,
      requestId: input.requestId,
      consultantId: input.consultantId ?? null,
      brandingProfileId: input.brandingProfileId ?? null,
      clientId: input.clientId ?? null,
      runId,
      reportType: input.reportType,
      data,
      ...link,
    }),
    // New alerts are e-mailed by a job (api/services/early-warning-mail.ts); it sends only unsent ones.
    ...(alerts.length
      ? [ctx.db.insert(reviewAlerts).values(alerts).onConflictDoNothing(), enqueueStatement(ctx.db, { type: ALERTS_NOTIFY, payload: { businessId }, key: `alerts:run-${runId}` })]
      : []),
  ] as const;
  await ctx.db.batch(statements);
  await emitVisibilityChange(ctx, businessId, runId, now);
  return { reportId, token: link.token, runId, data };
}
