// `client.report`: a consultant's client gets its report by e-mail, and the consultant a copy of
// it as a message of its own (a test goes to the consultant alone). Each message has its own
// `reports` row (the copy's type 'client-copy'), which records consultant, client and branding
// profile, carries that e-mail's claim and its unsubscribe link: the consultant unsubscribing from
// copies never opts the client out (issue 37). A crash ends in one e-mail each, or in two with one
// Message-ID when it falls between the server's acceptance and the record (deliver.ts).
// A fresh analysis is run when the business has none from the last day; otherwise the
// latest one is reported (the scheduled re-analyses keep paid plans' businesses current).
import { and, desc, eq, isNotNull } from 'drizzle-orm';
import { users } from '../../db/schema/auth.ts';
import { businesses } from '../../db/schema/businesses.ts';
import { clients, consultants } from '../../db/schema/consultants.ts';
import { reports } from '../../db/schema/reports.ts';
import { deliverReport } from './deliver.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { brandingFor } from '../services/branding/sender.ts';
import { can, effectiveTier } from '../services/plans/entitlements.ts';
import { withinBudget } from './budget.ts';
import { isUnsubscribed } from '../services/reports.ts';
import { COPY_TYPE, type ClientReportPayload } from '../services/client-report-schedule.ts';
import { writeReportFiles } from './files/store.ts';
import { renderReport } from './files/render.ts';
import { reportPdfUrl } from './render/links.ts';
import type { AnalyseFn, Stage } from './generate-job.ts';
import { newReportLink, persistReport } from './persist.ts';
import { startFirstAiScan } from '../services/ai-visibility/job.ts';
import { inlineRenderer, type Renderer } from './render/renderer.ts';
import { reportInput, type ReportData } from './model/types.ts';

/** A report this recent is sent as it is; an older one is analysed again first. */
export const FRESH_ANALYSIS_MS = 24 * 60 * 60 * 1000;

function isPayload(p: unknown): p is ClientReportPayload {
  const o = p as Record<string, unknown> | null;
  return typeof o?.clientId === 'string' && typeof o?.period === 'string' && ['first', 'scheduled', 'now', 'test'].includes(String(o?.kind));
}

export function clientReportJob(deps: { analyse: AnalyseFn; renderer?: Renderer; onStage?: (stage: Stage, ms: number) => void }): JobDefinition<ClientReportPayload> {
  const renderer = deps.renderer ?? inlineRenderer();
  return {
    async run(ctx, job, tools) {
      if (!isPayload(job.payload)) throw new PermanentJobError('payload needs clientId, kind and period');
      const { clientId, kind } = job.payload;
      const client = await ctx.db.query.clients.findFirst({ where: eq(clients.id, clientId) });
      if (!client?.businessId) throw new PermanentJobError(`client ${clientId} or its business no longer exists`);
      const consultant = (await ctx.db.query.consultants.findFirst({ where: eq(consultants.id, client.consultantId) }))!;
      const user = (await ctx.db.query.users.findFirst({ where: eq(users.id, consultant.userId) }))!;
      const business = (await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, client.businessId) }))!;
      // The plan may have lapsed, the client been archived or opted out, since it was queued.
      if (!can(user, 'clientManagement')) return tools.saveProgress({ stage: 'skipped', reason: 'plan without client management' });
      if (kind === 'scheduled' && client.archivedAt) return tools.saveProgress({ stage: 'skipped', reason: 'client archived' });
      const to = kind === 'test' ? user.email : client.clientEmail;
      // A test is asked for by the address it goes to, just now: an earlier opt-out (of the copies)
      // does not refuse it. The client's own opt-out pauses its reports (the client page says so).
      if (kind !== 'test' && (await isUnsubscribed(ctx, to))) return tools.saveProgress({ stage: 'skipped', reason: 'recipient unsubscribed' });
      const branding = await brandingFor(ctx, { user, consultantId: consultant.id, profileId: client.brandingProfileId });

      let report = typeof job.progress.reportId === 'string' ? await ctx.db.query.reports.findFirst({ where: eq(reports.id, job.progress.reportId) }) : undefined;
      if (!report) {
        const addressing = {
          consultantId: consultant.id,
          clientId: client.id,
          brandingProfileId: branding?.id ?? null,
          reportType: kind === 'test' ? 'client-test' : 'client',
          recipientEmail: to,
        };
        const latest = await ctx.db.query.reports.findFirst({
          where: and(eq(reports.businessId, business.id), isNotNull(reports.data)),
          orderBy: [desc(reports.createdAt)],
        });
        if (!latest || Date.now() - latest.createdAt.getTime() > FRESH_ANALYSIS_MS) {
          const data = await withinBudget(ctx, job, tools, { tier: effectiveTier(user), paid: true }, () => deps.analyse(ctx, reportInput(business)));
          tools.signal.throwIfAborted();
          const persisted = await persistReport(ctx, { businessId: business.id, requestId: null, reportType: addressing.reportType, data });
          [report] = await ctx.db.update(reports).set(addressing).where(eq(reports.id, persisted.reportId)).returning();
          await startFirstAiScan(ctx, business.id);
        } else {
          [report] = await ctx.db
            .insert(reports)
            .values({
              ...addressing,
              businessId: business.id,
              runId: latest.runId,
              data: latest.data,
              ...newReportLink(ctx),
            })
            .returning();
        }
        await tools.saveProgress({ stage: 'created', reportId: report!.id });
      }
      tools.signal.throwIfAborted();
      const rendered = await renderReport(ctx, renderer, { ...report!, data: report!.data as ReportData });
      writeReportFiles(ctx, report!, rendered);
      await ctx.db.update(reports).set({ pdfUrl: reportPdfUrl(ctx, report!.token!) }).where(eq(reports.id, report!.id));
      tools.signal.throwIfAborted();
      const recipient = { ...business, email: to, fullName: kind === 'test' ? '' : client.clientName };
      const started = performance.now();
      const outcome = await deliverReport(ctx, { report: report!, business: recipient, png: rendered.png, pdf: rendered.pdf });
      deps.onStage?.('deliver', performance.now() - started);
      await tools.saveProgress({ stage: 'delivered', email: outcome });

      // The consultant's copy: what the client got, to the consultant's address, with its own
      // unsubscribe; none after the consultant opted out of them, nor to the client's own address.
      if (kind === 'test' || user.email.toLowerCase() === to.toLowerCase()) return;
      let copy = typeof job.progress.copyId === 'string' ? await ctx.db.query.reports.findFirst({ where: eq(reports.id, job.progress.copyId) }) : undefined;
      if (!copy) {
        if (await isUnsubscribed(ctx, user.email)) return tools.saveProgress({ copy: 'skipped: consultant unsubscribed from copies' });
        const { businessId, runId, data, consultantId, clientId, brandingProfileId } = report!;
        [copy] = await ctx.db
          .insert(reports)
          .values({ businessId, runId, data, consultantId, clientId, brandingProfileId, reportType: COPY_TYPE, recipientEmail: user.email, ...newReportLink(ctx) })
          .returning();
        await tools.saveProgress({ copyId: copy!.id });
      }
      writeReportFiles(ctx, copy!, rendered);
      await ctx.db.update(reports).set({ pdfUrl: reportPdfUrl(ctx, copy!.token!) }).where(eq(reports.id, copy!.id));
      tools.signal.throwIfAborted();
      const copied = await deliverReport(ctx, { report: copy!, business: { ...business, email: user.email, fullName: '' }, png: rendered.png, pdf: rendered.pdf, copyOf: { name: client.clientName, email: client.clientEmail } });
      await tools.saveProgress({ copy: copied });
    },
    async onGiveUp(ctx, job) {
      const reportId = job.progress.reportId;
      if (typeof reportId === 'string') await ctx.db.update(reports).set({ failedAt: new Date() }).where(and(eq(reports.id, reportId), eq(reports.emailSent, false)));
    },
  };
}
