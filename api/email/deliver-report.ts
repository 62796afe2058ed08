// Sends a report's e-mail once. The report row is claimed with one atomic UPDATE before sending;
// a send the transport reports as failed releases the claim so a retry can send. A send that was
// interrupted (the process died) is judged once the claim is old enough: the outbox can tell
// whether the message was written; an SMTP server cannot, so it is sent again with the same
// Message-ID, which makes a second copy recognisable as the same message (mail clients thread or
// drop it) rather than the report silently never arriving (decision 0051, amended).
import { and, eq, isNull } from 'drizzle-orm';
import { businesses } from '../../db/schema/businesses.ts';
import { reports } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { RetryLaterError } from '../jobs/errors.ts';
import { reportSender } from '../services/branding-profiles.ts';
import type { ReportData } from '../report/types.ts';
import { mailerFor, messageIdFor } from './mailer.ts';
import { reportEmail } from './report-email.ts';
import { forgetLinkUrl } from '../services/data-rights/forget-link.ts';

/** A claim younger than this may belong to a worker that is sending right now. */
export const CLAIM_IN_FLIGHT_MS = 2 * 60 * 1000;

type ReportRow = typeof reports.$inferSelect;
type BusinessRow = typeof businesses.$inferSelect;

export type DeliveryOutcome = 'sent' | 'already-sent';

export async function deliverReport(
  ctx: AppContext,
  input: { report: ReportRow; business: BusinessRow; png: Buffer; pdf: Buffer },
): Promise<DeliveryOutcome> {
  const { business } = input;
  const mailer = mailerFor(ctx);
  const now = new Date();
  const messageId = messageIdFor(ctx, `report-${input.report.id}`);

  const claimed = await ctx.db
    .update(reports)
    .set({ emailClaimedAt: now, emailMessageId: messageId })
    .where(and(eq(reports.id, input.report.id), eq(reports.emailSent, false), isNull(reports.emailClaimedAt)))
    .returning();
  let report = claimed[0];
  if (!report) {
    const current = (await ctx.db.query.reports.findFirst({ where: eq(reports.id, input.report.id) }))!;
    if (current.emailSent) return 'already-sent';
    const claimAge = current.emailClaimedAt ? now.getTime() - current.emailClaimedAt.getTime() : Infinity;
    if (claimAge < CLAIM_IN_FLIGHT_MS) {
      // Waiting is not failing: the job comes back once that attempt must have ended, with its
      // attempts intact, instead of spending them all before the claim is old enough to judge.
      throw new RetryLaterError('the e-mail is being sent by another attempt; checking again when it must have ended', CLAIM_IN_FLIGHT_MS - claimAge);
    }
    const delivered = mailer.wasDelivered(current.emailMessageId ?? messageId);
    if (delivered === true) {
      await markSent(ctx, current.id);
      return 'already-sent';
    }
    if (delivered === null) ctx.log.warn('report e-mail sent again after an interrupted send', { reportId: current.id });
    const reclaimed = await ctx.db
      .update(reports)
      .set({ emailClaimedAt: now })
      .where(and(eq(reports.id, current.id), eq(reports.emailSent, false), eq(reports.emailClaimedAt, current.emailClaimedAt!)))
      .returning();
    report = reclaimed[0];
    if (!report) throw new RetryLaterError('another attempt claimed the e-mail meanwhile; checking again when it must have ended', CLAIM_IN_FLIGHT_MS);
  }

  // White-label or not is read from the report row, like its files and its online page.
  const sender = await reportSender(ctx, report);
  const client = report.reportType.startsWith('client');
  const message = reportEmail(ctx, {
    to: business.email,
    fullName: business.fullName,
    data: report.data as ReportData,
    token: report.token!,
    reportUrl: report.signedUrl!,
    expiresAt: report.expiresAt!,
    messageId: report.emailMessageId ?? messageId,
    scoreCard: input.png,
    pdf: input.pdf,
    kind: report.reportType === 'monthly' ? 'monthly' : client ? 'client' : 'free',
    branding: sender.branding,
    replyTo: sender.consultant?.email ?? null,
    consultantName: sender.consultant?.companyName ?? null,
    // A visitor's free report: the address may erase what it left with us. Account holders and a
    // consultant's clients have their data in an account instead.
    ...(report.requestId && report.reportType === 'free' ? { deleteDataUrl: await forgetLinkUrl(ctx, report.requestId) } : {}),
  });
  // A client report goes to the client with the consultant in copy.
  if (report.ccEmail) message.cc = report.ccEmail;
  try {
    await mailer.send(message);
  } catch (error) {
    // Not sent: let a later attempt try again.
    await ctx.db.update(reports).set({ emailClaimedAt: null }).where(eq(reports.id, report.id));
    throw error;
  }
  await markSent(ctx, report.id);
  ctx.log.info('report e-mail sent', { reportId: report.id, via: mailer.kind });
  return 'sent';
}

async function markSent(ctx: AppContext, reportId: string) {
  await ctx.db.update(reports).set({ emailSent: true, emailSentAt: new Date() }).where(eq(reports.id, reportId));
}
