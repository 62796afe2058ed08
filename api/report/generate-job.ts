// The `report.generate` job: analyse → persist → render → deliver. Each stage is idempotent and
// resumable: the persisted report row (unique per request) marks analysis done, the files on
// disk mark rendering done, and the report's e-mail claim makes the e-mail go out once, or twice
// with the same Message-ID if a worker dies between the mail server's acceptance and the record
// (at least once: docs/operations.md).
import { and, desc, eq, gt, isNotNull, ne, sql } from 'drizzle-orm';
import { businesses, reportRequests } from '../../db/schema/businesses.ts';
import { reports } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { deliverReport } from './deliver.ts';
import type { ReportFailedPayload } from './failed-job.ts';
import { enqueue } from '../jobs/queue.ts';
import { startFirstAiScan } from '../services/ai-visibility/job.ts';
import type { JobDefinition } from '../jobs/types.ts';
import type { ReportGeneratePayload } from '../jobs/types.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { settleListing } from '../services/business-listing.ts';
import { emitEvent } from '../services/webhooks/webhooks.ts';
import { readCachedReportFile, writeReportFiles } from './files/store.ts';
import { renderReport } from './files/render.ts';
import { reportPdfUrl } from './render/links.ts';
import { persistReport } from './persist.ts';
import { placeKey } from '../lib/place-key.ts';
import { withinBudget, type ReportWaits } from './budget.ts';
import type { ReportWaitingPayload } from '../email/report-waiting.ts';
import { payerOf } from '../services/plans/payers.ts';
import { inlineRenderer, type Renderer } from './render/renderer.ts';
import { reportInput, type ReportData, type ReportInput } from './model/types.ts';

export type AnalyseFn = (ctx: AppContext, input: ReportInput) => Promise<ReportData>;
export type Stage = 'analyse' | 'persist' | 'renderPng' | 'renderPdf' | 'deliver';

export interface ReportJobDeps {
  analyse: AnalyseFn;
  renderer?: Renderer;
  /** Stage timings, for the benchmark and the logs. */
  onStage?: (stage: Stage, ms: number) => void;
  /** The clock the shared analysis's window is read by (tests). */
  now?: () => Date;
}

export type ReportRow = typeof reports.$inferSelect;


/** The requesting account's webhooks hear of the report (requests from the API or a signed-in form). */
async function emitReportEvent(ctx: AppContext, requestId: string, type: 'report.completed' | 'report.failed') {
  const request = await ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, requestId) });
  if (!request?.userId || (type === 'report.failed' && request.status !== 'failed')) return;
  const data = { reportId: requestId, businessId: request.businessId };
  if (type === 'report.completed') await emitEvent(ctx, { userId: request.userId, type, eventKey: `${type}:${requestId}`, data: { ...data, status: 'completed' } });
  else await emitEvent(ctx, { userId: request.userId, type, eventKey: `${type}:${requestId}`, data: { ...data, status: 'failed' } });
}

type Place = { company?: unknown; address?: unknown; zip?: unknown };
const samePlace = (a: Place, b: Place) =>
  typeof a.company === 'string' && typeof b.company === 'string' && a.company.trim().toLowerCase() === b.company.trim().toLowerCase() &&
  placeKey({ address: String(a.address ?? ''), zip: String(a.zip ?? '') }) === placeKey({ address: String(b.address ?? ''), zip: String(b.zip ?? '') });

/** The analysis of the same place (the same address, as the intake folds it, under the same
 *  company name: another listing at the address is another business) made in the last
 *  SHARED_ANALYSIS_MINUTES for another visitor's free report; null for a request from an account or
 *  an agency, which get an analysis of their own. A visitor's request is a business of its own
 *  (decision 0212), so the place is matched on the requests, not the business (decision 0351). */
async function sharedAnalysis(ctx: AppContext, requestId: string, now: Date): Promise<ReportData | null> {
  const mine = await ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, requestId), columns: { userId: true, payload: true } });
  const windowMs = ctx.env.SHARED_ANALYSIS_MINUTES * 60_000;
  if (!mine || mine.userId || windowMs === 0) return null;
  // The window's reports without their data (hundreds of KB each); the one matched is read whole.
  const recent = await ctx.db
    .select({ id: reports.id, place: reportRequests.payload })
    .from(reports)
    .innerJoin(reportRequests, eq(reportRequests.id, reports.requestId))
    .where(and(eq(reports.reportType, 'free'), sql`${reports.consultantId} is null`, sql`${reportRequests.userId} is null`, gt(reports.createdAt, new Date(now.getTime() - windowMs)), isNotNull(reports.data)))
    .orderBy(desc(reports.createdAt));
  const match = recent.find((r) => samePlace(r.place as Place, mine.payload as Place));
  if (!match) return null;
  const row = await ctx.db.query.reports.findFirst({ where: eq(reports.id, match.id), columns: { data: true } });
  return (row?.data as ReportData | undefined) ?? null;
}

/** A free report that waits: its visitor hears it is coming and about when, once per request. */
async function tellVisitorItWaits(ctx: AppContext, requestId: string, wait: ReportWaits) {
  const payload: ReportWaitingPayload = { requestId, until: wait.until!.toISOString() };
  await enqueue(ctx.db, { type: 'report.waiting', payload: { ...payload }, key: `report.waiting:${requestId}` });
}

function isPayload(p: unknown): p is ReportGeneratePayload {
  const o = p as Record<string, unknown> | null;
  return typeof o?.requestId === 'string' && typeof o?.businessId === 'string';
}

export function reportGenerateJob(deps: ReportJobDeps): JobDefinition<ReportGeneratePayload> {
  const renderer = deps.renderer ?? inlineRenderer();
  const timed = async <T>(stage: Stage, fn: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    const result = await fn();
    deps.onStage?.(stage, performance.now() - started);
    return result;
  };

  return {
    async run(ctx, job, tools) {
      if (!isPayload(job.payload)) throw new PermanentJobError('payload needs requestId and businessId');
      const { requestId, consultantId, brandingProfileId, clientId } = job.payload;
      // The request names its business: its listing (below) may have moved it since the job was
      // queued, and a merge of one place's businesses (decision 0212) too.
      const request = await ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, requestId), columns: { businessId: true } });
      let businessId = request?.businessId ?? job.payload.businessId;
      const found = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, businessId) });
      if (!found) throw new PermanentJobError(`business ${businessId} not found`);
      let business = found;
      await ctx.db.update(reportRequests).set({ status: 'processing' }).where(eq(reportRequests.id, requestId));

      // Stage 1-2: analyse and persist, unless a previous attempt already persisted this request.
      let report = await ctx.db.query.reports.findFirst({ where: eq(reports.requestId, requestId) });
      if (!report) {
        // Paid plans' reports (an owner's, an agency's) go before free ones when the budget is short.
        const { tier } = await payerOf(ctx, businessId);
        const paid = tier !== 'free' || Boolean(consultantId);
        // Two visitors asking about one place minutes apart share one analysis (decision 0272).
        const data =
          (consultantId ? null : await sharedAnalysis(ctx, requestId, deps.now?.() ?? new Date())) ??
          (await withinBudget(ctx, job, tools, { tier, paid, onFirstWait: (wait) => (paid ? Promise.resolve() : tellVisitorItWaits(ctx, requestId, wait)) }, () => timed('analyse', () => deps.analyse(ctx, reportInput(business)))));
        tools.signal.throwIfAborted();
        const settled = await settleListing(ctx, { businessId, requestId, listingId: data.business.place.placeId });
        if (settled !== businessId) {
          businessId = settled;
          business = (await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, businessId) }))!;
        }
        const persisted = await timed('persist', () => persistReport(ctx, { businessId, requestId, reportType: 'free', data, consultantId, brandingProfileId, clientId }));
        // Read back without its data, which is in hand (on a libSQL server, hundreds of KB each way).
        const row = (await ctx.db.query.reports.findFirst({ where: eq(reports.id, persisted.reportId), columns: { data: false } }))!;
        report = { ...row, data: persisted.data };
        await tools.saveProgress({ stage: 'persisted', reportId: report.id, runId: report.runId });
        // A paid business's first AI-answers scan runs with its first report (decision 0302).
        if (tier !== 'free') await startFirstAiScan(ctx, businessId);
      }
      const data = report.data as ReportData;

      // Stage 3: render the files (skipped when both are cached from an earlier attempt, for the
      // brand the row names now).
      let png = await readCachedReportFile(ctx, report, 'png');
      let pdf = png && (await readCachedReportFile(ctx, report, 'pdf'));
      if (!png || !pdf) {
        tools.signal.throwIfAborted();
        const rendered = await renderReport(ctx, renderer, { ...report, data });
        deps.onStage?.('renderPng', rendered.pngMs);
        deps.onStage?.('renderPdf', rendered.pdfMs);
        writeReportFiles(ctx, report, rendered);
        png = rendered.png;
        pdf = rendered.pdf;
        await ctx.db.update(reports).set({ pdfUrl: reportPdfUrl(ctx, report.token!) }).where(eq(reports.id, report.id));
        await tools.saveProgress({ stage: 'rendered' });
      }

      // Stage 4: deliver, once per report (again, with the same Message-ID, only after a crash
      // between the mail server's acceptance and the record).
      tools.signal.throwIfAborted();
      const outcome = await timed('deliver', () => deliverReport(ctx, { report, business, png, pdf }));
      await ctx.db.update(reportRequests).set({ status: 'sent' }).where(eq(reportRequests.id, requestId));
      await tools.saveProgress({ stage: 'delivered', email: outcome });
      await emitReportEvent(ctx, requestId, 'report.completed');
    },
    async onGiveUp(ctx, job) {
      if (!isPayload(job.payload)) return;
      const { requestId, consultantId, brandingProfileId } = job.payload;
      await ctx.db.update(reportRequests).set({ status: 'failed' }).where(and(eq(reportRequests.id, requestId), ne(reportRequests.status, 'sent')));
      await emitReportEvent(ctx, requestId, 'report.failed');
      // A report whose e-mail was handed to the mail server by an interrupted attempt may well
      // have arrived: telling the visitor it could not be made would be wrong. The operator sees
      // the failed job and its reason.
      const report = await ctx.db.query.reports.findFirst({ where: eq(reports.requestId, requestId) });
      if (report?.emailClaimedAt) return;
      // The visitor is told by e-mail, once per request ever (the key), whatever retries follow;
      // an agency's lead or client by the agency (api/email/report-failed.ts).
      const payload: ReportFailedPayload = { requestId, ...(consultantId ? { consultantId, brandingProfileId: brandingProfileId ?? null } : {}) };
      await enqueue(ctx.db, { type: 'report.failed', payload: { ...payload }, key: `report.failed:${requestId}` });
    },
  };
}
