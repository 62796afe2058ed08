// A client's page: the reports sent for it with their status, its Early Warning alerts where the
// consultant's plan has them, and "Send report now" / "Send a test to me".
import { and, desc, eq } from 'drizzle-orm';
import { EARLY_WARNING_ALERT_LIMIT } from '../../common/constants.ts';
import { clients } from '../../db/schema/consultants.ts';
import { reports, reviewAlerts } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { enqueue } from '../jobs/queue.ts';
import { askedPeriod, CLIENT_REPORT, clientReportKey, type ClientReportPayload } from './client-report-schedule.ts';
import { brandingFor } from './branding/sender.ts';
import { clientNotFound, getClient } from './clients.ts';
import type { ConsultantAccess } from './plans/consultant-access.ts';
import { can } from './plans/entitlements.ts';
import { AppError } from '../errors.ts';
import { COPY_TYPE } from './client-report-schedule.ts';
import { optOutsOf } from './reports.ts';

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
  const listed = withCopies(rows, sent);
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
    reports: listed,
    alerts,
    branding: branding ? { id: branding.id, companyName: branding.companyName, fromDefault: branding.id !== client.brandingProfileId } : null,
    access: { earlyWarning, whiteLabel: can(access.user, 'whiteLabel') },
  };
}

/** Queues the client's report now (to the client, and a copy to the consultant) or a test to the
 *  consultant. A client who unsubscribed is refused with the reason (409): nothing is queued. */
export async function sendClientReport({ ctx, access, clientId, to, now = new Date() }: { ctx: AppContext; access: ConsultantAccess; clientId: string; to: 'client' | 'me'; now?: Date }) {
  const row = await ctx.db.query.clients.findFirst({ where: and(eq(clients.id, clientId), eq(clients.consultantId, access.consultant.id)) });
  if (!row?.businessId) throw clientNotFound();
  const optedOut = to === 'client' ? (await optOutsOf(ctx, [row.clientEmail])).get(row.clientEmail.toLowerCase()) : undefined;
  if (optedOut) throw unsubscribedClient(row, optedOut);
  const payload: ClientReportPayload = { clientId, kind: to === 'me' ? 'test' : 'now', period: askedPeriod(now) };
  const queued = await enqueue(ctx.db, { type: CLIENT_REPORT, payload: { ...payload }, key: clientReportKey(payload) });
  return { queued: queued !== null, to: to === 'me' ? access.user.email : row.clientEmail };
}

/** The 409 of a send to a client who unsubscribed: who, since when, and that nothing went out. */
export function unsubscribedClient(client: { clientName: string; clientEmail: string }, since: Date) {
  const day = since.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
  return new AppError('conflict', `${client.clientName} unsubscribed from these reports on ${day}, so reports to ${client.clientEmail} are paused. Nothing was sent.`);
}

/**
 * The client's reports, each with the consultant's copy of it beside it (the copy is a message of
 * its own: made right after the report, from the same analysis run). Copies are not listed apart.
 */
function withCopies<T extends { id: string; type: string; to: string | null; status: ReportStatus; sentAt: string | null; openedAt: string | null }>(
  rows: ReadonlyArray<{ id: string; runId: string | null; reportType: string; createdAt: Date }>,
  listed: T[],
) {
  const byId = new Map(listed.map((r) => [r.id, r]));
  const copyOf = new Map<string, T>();
  // Newest first: each copy goes with the latest report of its run made before it that has none yet.
  for (const copy of rows.filter((r) => r.reportType === COPY_TYPE)) {
    const original = rows.find((r) => r.reportType === 'client' && r.runId === copy.runId && r.createdAt.getTime() <= copy.createdAt.getTime() && !copyOf.has(r.id));
    if (original && byId.has(copy.id)) copyOf.set(original.id, byId.get(copy.id)!);
  }
  return listed
    .filter((r) => r.type !== COPY_TYPE)
    .map((r) => {
      const copy = copyOf.get(r.id);
      return { ...r, copy: copy ? { to: copy.to, status: copy.status, sentAt: copy.sentAt, openedAt: copy.openedAt } : null };
    });
}
