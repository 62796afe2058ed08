// The free-report intake: de-duplication, rate limits, then the business, the request, the
// consent record and the report.generate job written together in one batch (one transaction).
// A signed-in owner's (or a consultant's client's) place that is already a business gets the
// request as a new snapshot of that business; its settings stay (decision 0212).
import { createHash, randomUUID } from 'node:crypto';
import { and, asc, eq, gt, lte } from 'drizzle-orm';
import { CONSENT_TEXT_VERSION } from '../../common/schemas/report-request-rules.ts';
import { REQUEST_FIELDS, type ReportRequest, type RequestField } from '../../common/schemas/report-request.ts';
import { businesses, consentRecords, reportRequests } from '../../db/schema/businesses.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { errorText } from '../log.ts';
import { locatableOffline } from '../report/analysis/geocode.ts';
import { enqueueStatement } from '../jobs/queue.ts';
import type { ReportGeneratePayload } from '../jobs/types.ts';
import { knownPlace } from './business-place.ts';
import { consumeRateLimits } from './rate-limit.ts';

/** A second identical request within this window returns the first request's id. */
export const DUPLICATE_WINDOW_MS = 10 * 60 * 1000;
export const INTAKE_WINDOW_MS = 60 * 60 * 1000;

export interface Requester {
  ip: string;
  userAgent: string | null;
  /** The signed-in user, who then owns the business. */
  userId: string | null;
  /** Sent with an API key: the key's own rate limit applies instead of the form's per-IP and per-e-mail limits. */
  viaApiKey?: boolean;
}

/** Same fields (case and spacing aside) from the same user means the same request. */
export function requestFingerprint(input: ReportRequest, userId: string | null): string {
  const parts = REQUEST_FIELDS.map((key) => input[key].trim().toLowerCase().replace(/\s+/g, ' '));
  return createHash('sha256').update(JSON.stringify([userId ?? '', ...parts])).digest('hex');
}

/** A request made through an agency's widget (api/services/widget.ts), or over the API for one
 *  of a consultant's clients (api/services/api-reports.ts): its report is the consultant's. */
export interface AgencyRequest {
  consultantId: string;
  brandingProfileId: string | null;
  clientId?: string;
  /** The consent line the widget showed (it names the agency); absent: the report form's. */
  consentTextVersion?: string;
}

export async function submitReportRequest({ ctx, input, requester, agency }: { ctx: AppContext; input: ReportRequest; requester: Requester; agency?: AgencyRequest }) {
  // Without an online geocoder the report is located from the packaged ZIP data. A request it
  // cannot place (neither the ZIP nor the city is known) would fail in the worker after the form
  // promised an e-mail: refuse it here, under the fields to correct (decision 0074).
  if (!ctx.env.GEOCODER_KEY && !locatableOffline(input)) {
    throw new AppError('invalid_input', 'We could not find this address. Please check the ZIP code and the city.', {
      fields: { zip: 'ZIP code not found', city: `No city of this name in ${input.state}` },
    });
  }
  // The same visitor through two agencies' widgets makes two requests, each agency's own.
  const fingerprint = requestFingerprint(input, agency ? `agency:${agency.consultantId}` : requester.userId);
  const findPrevious = async () =>
    (
      await ctx.db
        .select({ id: reportRequests.id })
        .from(reportRequests)
        .where(and(eq(reportRequests.fingerprint, fingerprint), gt(reportRequests.createdAt, new Date(Date.now() - DUPLICATE_WINDOW_MS))))
        .orderBy(asc(reportRequests.createdAt))
        .limit(1)
    )[0];
  const previous = await findPrevious();
  if (previous) {
    // The same request, this time with the box ticked: the consent is given now, not lost.
    if (input.consent === true && !(await ctx.db.query.consentRecords.findFirst({ where: eq(consentRecords.requestId, previous.id) }))) {
      await ctx.db.batch([
        ctx.db.update(reportRequests).set({ marketingConsent: true }).where(eq(reportRequests.id, previous.id)),
        consentRecord(ctx, previous.id, input, requester, new Date(), agency?.consentTextVersion),
      ]);
    }
    return { requestId: previous.id, duplicate: true };
  }

  try {
    if (!requester.viaApiKey) await countIntake(ctx, input, requester);
  } catch (error) {
    // Refused by a limit, unless an identical request made at this moment won meanwhile.
    const winner = await findPrevious();
    if (winner) return { requestId: winner.id, duplicate: true };
    throw error;
  }

  const known = await knownPlace(ctx, input, { userId: requester.userId, clientId: agency?.clientId });
  const businessId = known?.businessId ?? randomUUID();
  const requestId = randomUUID();
  const now = new Date();
  const details = Object.fromEntries(REQUEST_FIELDS.map((key) => [key, input[key]])) as Pick<ReportRequest, RequestField>;
  const consent = input.consent === true;
  const payload: ReportGeneratePayload = agency
    ? { requestId, businessId, consultantId: agency.consultantId, brandingProfileId: agency.brandingProfileId, ...(agency.clientId ? { clientId: agency.clientId } : {}) }
    : { requestId, businessId };
  // One row per fingerprint and ten-minute window, held by a unique index (decision 0094).
  const dedupeKey = `${fingerprint}:${Math.floor(now.getTime() / DUPLICATE_WINDOW_MS)}`;

  // A known place takes the request's details as its latest (the address as now written, the
  // contact); its threshold, keywords and history are untouched.
  const business = known
    ? ctx.db.update(businesses).set({ ...details, updatedAt: now }).where(eq(businesses.id, businessId))
    : ctx.db.insert(businesses).values({ id: businessId, userId: requester.userId, ...details, createdAt: now, updatedAt: now });
  const request = ctx.db.insert(reportRequests).values({
    id: requestId,
    businessId,
    userId: requester.userId,
    email: input.email,
    fingerprint,
    dedupeKey,
    payload: details,
    marketingConsent: consent,
    ipAddress: requester.ip,
    userAgent: requester.userAgent,
    createdAt: now,
  });
  const job = enqueueStatement(ctx.db, { type: 'report.generate', payload: { ...payload }, key: `report.generate:${requestId}` });
  for (let attempt = 1; ; attempt++) {
    try {
      if (consent) {
        await ctx.db.batch([business, request, consentRecord(ctx, requestId, input, requester, now, agency?.consentTextVersion), job]);
      } else {
        await ctx.db.batch([business, request, job]);
      }
      return { requestId, duplicate: false };
    } catch (error) {
      // The same request taken at the same moment by another process (or request) won the unique
      // dedupe key; the batch is one transaction, so nothing of this one was written.
      if (attempt > 1 || !/UNIQUE constraint failed: report_requests\.dedupe_key/.test(errorText(error))) throw error;
      const winner = await findPrevious();
      if (winner) return { requestId: winner.id, duplicate: true };
      // The key's holder is older than the window (a clock differs between processes): it no
      // longer stands for a duplicate, so it gives the key up and this request is written.
      await ctx.db
        .update(reportRequests)
        .set({ dedupeKey: null })
        .where(and(eq(reportRequests.dedupeKey, dedupeKey), lte(reportRequests.createdAt, new Date(Date.now() - DUPLICATE_WINDOW_MS))));
    }
  }
}

function countIntake(ctx: AppContext, input: ReportRequest, requester: Requester) {
  return consumeRateLimits({
    ctx,
    input: [
      {
        key: `intake:ip:${requester.ip}`,
        limit: ctx.env.INTAKE_RATE_LIMIT_PER_IP,
        windowMs: INTAKE_WINDOW_MS,
        message: 'Too many report requests from your network. Please try again in an hour.',
      },
      {
        key: `intake:email:${input.email}`,
        limit: ctx.env.INTAKE_RATE_LIMIT_PER_EMAIL,
        windowMs: INTAKE_WINDOW_MS,
        message: 'Too many report requests for this email address. Please try again in an hour.',
      },
    ],
  });
}

const consentRecord = (ctx: AppContext, requestId: string, input: ReportRequest, requester: Requester, at: Date, textVersion = CONSENT_TEXT_VERSION) =>
  ctx.db.insert(consentRecords).values({
    requestId,
    email: input.email,
    textVersion,
    ipAddress: requester.ip,
    userAgent: requester.userAgent,
    consentedAt: at,
  });
