// One report, start to finish, outside the queue: the operator's `npm run report` and the
// benchmark. Stores the business and request like the intake does, then runs the same
// report.generate handler the worker runs (so nothing here can drift from production).
import { eq } from 'drizzle-orm';
import type { BusinessContact } from '../../common/schemas/report-request.ts';
import { businesses, reportRequests } from '../../db/schema/businesses.ts';
import { reports } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { withCallSubject } from '../lib/provider-calls.ts';
import { reportFiles } from './files/store.ts';
import { reportGenerateJob, type ReportJobDeps } from './generate-job.ts';
import type { ReportData } from './model/types.ts';

/** The business's contact fields, as the report form takes them. */
export type RunOnceInput = BusinessContact;

export interface RunOnceResult {
  reportId: string;
  /** The request, which its provider calls are recorded against. */
  requestId: string;
  businessId: string;
  data: ReportData;
  url: string;
  pdf: string;
  png: string;
  emailSent: boolean;
}

export async function runReportOnce(ctx: AppContext, input: RunOnceInput, deps: ReportJobDeps): Promise<RunOnceResult> {
  const [business] = await ctx.db.insert(businesses).values({ ...input, role: 'other' }).returning();
  const [request] = await ctx.db
    .insert(reportRequests)
    .values({ businessId: business!.id, email: input.email, fingerprint: `cli|${input.email}|${input.company}`, payload: { ...input, source: 'cli' }, status: 'queued' })
    .returning();
  const handler = reportGenerateJob(deps);
  const progress: Record<string, unknown> = {};
  await withCallSubject({ type: 'report.generate', id: request!.id }, () => handler.run(
    ctx,
    { id: `cli-${request!.id}`, type: 'report.generate', payload: { requestId: request!.id, businessId: business!.id }, attempts: 1, progress },
    { saveProgress: async (patch) => void Object.assign(progress, patch), signal: new AbortController().signal },
  ));
  const report = (await ctx.db.query.reports.findFirst({ where: eq(reports.requestId, request!.id) }))!;
  const files = reportFiles(ctx, report.id);
  return { reportId: report.id, requestId: request!.id, businessId: business!.id, data: report.data as ReportData, url: report.signedUrl!, pdf: files.pdf, png: files.png, emailSent: report.emailSent };
}
