// A client's page: the reports sent for it with their status, its Early Warning alerts where the
// consultant's plan has them, and "Send report now" / "Send a test to me".
import { and, desc, eq } from 'drizzle-orm';
import { EARLY_WARNING_ALERT_LIMIT } from '../../common/constants.ts';
import { clients } from '../../db/schema/consultants.ts';
import { reports, reviewAlerts } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { enqueue } from '../jobs/queue.ts';
import { askedPeriod, CLIENT_REPORT, clientReportKey, type ClientReportPayload } from '../report/client-report-schedule.ts';
import { brandingFor } from './branding-profiles.ts';
import { clientNotFound, getClient } from './clients.ts';
import type { ConsultantAccess } from './consultant-access.ts';
import { can } from './entitlements.ts';

/** 'waiting': the e-mail waits for the agency's own mail server (decision 0210). */
export type ReportStatus = 'sending' | 'waiting' | 'sent' | 'opened' | 'failed';

/** A report's status from its row (one that waited and then went out is sent). */
export const reportStatus = (r: { failedAt: Date | null; openedAt: Date | null; emailSent: boolean; mailWaitingSince: Date | null }): ReportStatus =>
  r.failedAt ? 'failed' : r.openedAt ? 'opened' : r.emailSent ? 'sent' : r.mailWaitingSince ? 'waiting' : 'sending';

export async function clientDetail({ ctx, access, clientId }: { ctx: AppContext; access: ConsultantAccess; clientId: string }) {
  const client = await getClient({ ctx, access, clientId });
  const rows = await ctx.db.query.reports.findMany({ where: eq(reports.clientId, clientId), orderBy: [desc(reports.createdAt)], limit: 50 });
  const now = Date.now();
  const sent = rows.map((r) => ({
    id: r.id,
    type: r.reportType,
    to: r.recipientEmail,
    cc: r.ccEmail,
    createdAt: r.createdAt.toISOString(),
    sentAt: r.emailSentAt?.toISOString() ?? null,
    openedAt: r.openedAt?.toISOString() ?? null,
    status: reportStatus(r),
    /** Since when it waits for the agency's mail server (status 'waiting'). */
    waitingSince: r.mailWaitingSince?.toISOString() ?? null,
    /** What the agency's mail server did, in our words, while waiting or once failed; null otherwise. */
    problem: !r.emailSent && (r.failedAt || r.mailWaitingSince) ? r.mailProblem : null,
    link: r.signedUrl && r.expiresAt && r.expiresAt.getTime() > now ? r.signedUrl : null,
  }));
  const earlyWarning = can(access.user, 'earlyWarning');
  const alerts =
    earlyWarning && client.business
      ? (
          await ctx.db.query.reviewAlerts.findMany({
            where: eq(reviewAlerts.businessId, client.business.id),
            orderBy: [desc(reviewAlerts.reviewDate)],
            limit: EARLY_WARNING_ALERT_LIMIT,
          })
        ).map((a) => ({ id: a.id, platform: a.platform, rating: a.reviewRating, author: a.reviewAuthor, text: a.reviewText, url: a.reviewUrl, date: a.reviewDate?.toISOString() ?? null }))
      : null;
  const branding = await brandingFor(ctx, { user: access.user, consultantId: access.consultant.id, profileId: client.brandingProfileId });
  return {
    client,
    reports: sent,
    alerts,
    branding: branding ? { id: branding.id, companyName: branding.companyName, fromDefault: branding.id !== client.brandingProfileId } : null,
    access: { earlyWarning, whiteLabel: can(access.user, 'whiteLabel') },
  };
}

/** Queues the client's report now (to the client, consultant in copy) or a test to the consultant. */
export async function sendClientReport({ ctx, access, clientId, to, now = new Date() }: { ctx: AppContext; access: ConsultantAccess; clientId: string; to: 'client' | 'me'; now?: Date }) {
  const row = await ctx.db.query.clients.findFirst({ where: and(eq(clients.id, clientId), eq(clients.consultantId, access.consultant.id)) });
  if (!row?.businessId) throw clientNotFound();
  const payload: ClientReportPayload = { clientId, kind: to === 'me' ? 'test' : 'now', period: askedPeriod(now) };
  const queued = await enqueue(ctx.db, { type: CLIENT_REPORT, payload: { ...payload }, key: clientReportKey(payload) });
  return { queued: queued !== null, to: to === 'me' ? access.user.email : row.clientEmail };
}
