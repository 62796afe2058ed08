// `report.monthly`: on the first of the month, the latest analysis of a paid plan's business goes
// by e-mail, with its PDF and a fresh 30-day link, to the account it belongs to (the owner, or the
// consultant whose client it is). Its own report row carries the e-mail's at-most-once claim.
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { users } from '../../db/schema/auth.ts';
import { businesses } from '../../db/schema/businesses.ts';
import { reports } from '../../db/schema/reports.ts';
import { deliverReport } from './deliver.ts';
import type { JobDefinition } from '../jobs/types.ts';
import type { MonthlyReportPayload } from '../jobs/types.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { can } from '../services/plans/entitlements.ts';
import { isUnsubscribed } from '../services/reports.ts';
import { writeReportFiles } from './files/store.ts';
import { renderReport } from './files/render.ts';
import { reportPdfUrl } from './render/links.ts';
import { newReportLink } from './persist.ts';
import { inlineRenderer, type Renderer } from './render/renderer.ts';
import type { ReportData } from './model/types.ts';

function isPayload(p: unknown): p is MonthlyReportPayload {
  const o = p as Record<string, unknown> | null;
  return typeof o?.businessId === 'string' && typeof o?.period === 'string' && typeof o?.userId === 'string';
}

export function reportMonthlyJob(deps: { renderer?: Renderer }): JobDefinition<MonthlyReportPayload> {
  const renderer = deps.renderer ?? inlineRenderer();
  return {
    async run(ctx, job, tools) {
      if (!isPayload(job.payload)) throw new PermanentJobError('payload needs businessId, period and userId');
      const { businessId, userId, period } = job.payload;
      const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, businessId) });
      const user = await ctx.db.query.users.findFirst({ where: eq(users.id, userId) });
      if (!business || !user) throw new PermanentJobError('business or recipient no longer exists');
      // The plan may have lapsed, or the recipient opted out, since the tick: then nothing goes out.
      if (!can(user, 'monthlyReports')) return tools.saveProgress({ stage: 'skipped', reason: 'plan without monthly reports' });
      if (await isUnsubscribed(ctx, user.email)) return tools.saveProgress({ stage: 'skipped', reason: 'recipient unsubscribed' });
      // The product mails an account on its own only at a confirmed address (decision 0100).
      if (!user.emailVerified) return tools.saveProgress({ stage: 'skipped', reason: 'e-mail address not confirmed' });

      let report = typeof job.progress.reportId === 'string' ? await ctx.db.query.reports.findFirst({ where: eq(reports.id, job.progress.reportId) }) : undefined;
      if (!report) {
        const latest = await ctx.db.query.reports.findFirst({
          where: and(eq(reports.businessId, businessId), isNotNull(reports.data)),
          orderBy: [desc(reports.createdAt)],
        });
        if (!latest) throw new PermanentJobError(`business ${businessId} has no analysis to report`);
        [report] = await ctx.db
          .insert(reports)
          .values({
            businessId,
            runId: latest.runId,
            reportType: 'monthly',
            recipientEmail: user.email,
            data: latest.data,
            ...newReportLink(ctx),
          })
          .returning();
        await tools.saveProgress({ stage: 'created', reportId: report!.id, period });
      }
      const data = report!.data as ReportData;
      tools.signal.throwIfAborted();
      const rendered = await renderReport(ctx, renderer, { ...report!, data });
      writeReportFiles(ctx, report!, rendered);
      await ctx.db.update(reports).set({ pdfUrl: reportPdfUrl(ctx, report!.token!) }).where(eq(reports.id, report!.id));
      tools.signal.throwIfAborted();
      // To the account's address; greeted by the form's name only when the account is the owner's
      // (a consultant is not the client who filled in the form).
      const recipient = { ...business, email: user.email, fullName: business.userId === user.id ? business.fullName : '' };
      const outcome = await deliverReport(ctx, { report: report!, business: recipient, png: rendered.png, pdf: rendered.pdf });
      await tools.saveProgress({ stage: 'delivered', email: outcome });
    },
  };
}
