// Produces a finished report in the server's database and outbox by running the report.generate
// handler directly with a fixture analysis (no queued job, so the server's worker never races it).
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../api/context.ts';
import { closeMailer } from '../../api/email/mailer.ts';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { reportGenerateJob } from '../../api/report/generate-job.ts';
import type { ReportData } from '../../api/report/model/types.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

/** analysed: the real pipeline on the sample provider (listing, homepage signals and the
 *  visibility grid included) instead of the fixture; `edit` then changes its result. */
export async function seedReport(appCtx: AppContext, baseURL: string, options: { company?: string; expired?: boolean; analysed?: boolean; edit?: (data: ReportData) => void } = {}) {
  // Links in the e-mail point at the server under test, as PUBLIC_BASE_URL makes them in production.
  const ctx: AppContext = { ...appCtx, env: { ...appCtx.env, PUBLIC_BASE_URL: baseURL } };
  const { business, request } = await createReportRequest(ctx, { company: options.company, enqueue: false });
  const job = reportGenerateJob({
    analyse: async (c, input) => {
      const data = options.analysed ? await analyseBusiness(c, input) : reportDataFixture({ company: options.company });
      options.edit?.(data);
      return data;
    },
  });
  await job.run(ctx, { id: 'e2e', type: 'report.generate', payload: { requestId: request.id, businessId: business.id }, attempts: 1, progress: {} }, { saveProgress: async () => {}, signal: new AbortController().signal });
  closeMailer(ctx);
  if (options.expired) await ctx.db.update(reports).set({ expiresAt: new Date(Date.now() - 60_000) }).where(eq(reports.requestId, request.id));
  const report = (await ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))[0]!;
  return { business, request, report, token: report.token! };
}
