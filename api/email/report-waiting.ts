// The `report.waiting` job: the e-mail a visitor gets when their free report waits for the daily
// provider budget or a provider's cap (decision 0271). It says the report is coming and about
// when; never that anything failed. Enqueued with a key per request, so it goes out once.
import { eq } from 'drizzle-orm';
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import { reportRequests } from '../../db/schema/businesses.ts';
import type { AppContext } from '../context.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { mailerFor, messageIdFor, type MailMessage } from './mailer.ts';
import { escapeHtml } from '../../common/html.ts';
import { firstName, senderFor } from './report-email.ts';

export interface ReportWaitingPayload {
  requestId: string;
  /** When the report is due to start (ISO). */
  until: string;
}

/** "Thursday, December 3 at about 12:01 AM UTC": a UTC moment as people read it. */
export function roughlyWhen(until: Date): string {
  const day = until.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric', timeZone: 'UTC' });
  const time = until.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit', timeZone: 'UTC' });
  return `${day}, from ${time} UTC`;
}

export function reportWaitingEmail(ctx: AppContext, request: { id: string; email: string; fullName: string; company: string }, until: Date): MailMessage {
  const subject = `Your ${PRODUCT_NAME} report for ${request.company} is on its way`;
  const paragraphs = [
    `Thank you for asking for a free report on ${request.company}. Your request is safely in our queue.`,
    `So many reports were asked for today that yours is scheduled for ${roughlyWhen(until)}. It will reach this address within the hour after that; you do not need to do anything.`,
    `If you have a question, reply to this e-mail.`,
  ];
  const footer = `You receive this e-mail because you requested a free report on ${PRODUCT_NAME}. ${OPERATOR.legalName}, ${OPERATOR.postalAddress}`;
  const text = [`Hi ${firstName(request.fullName)},`, '', ...paragraphs.flatMap((p) => [p, '']), '-- ', footer].join('\n');
  const html = `<!doctype html><html lang="en"><body style="margin:0;background:#f1f5f9;font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
<div style="max-width:560px;margin:0 auto;padding:32px 20px">
<div style="background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:28px">
<h1 style="margin:0 0 16px;font-size:20px">Your report is on its way</h1>
<p style="margin:0 0 12px;font-size:15px;color:#334155">Hi ${escapeHtml(firstName(request.fullName))},</p>
${paragraphs.map((p) => `<p style="margin:0 0 12px;font-size:15px;color:#334155">${escapeHtml(p)}</p>`).join('\n')}
</div>
<p style="margin:16px 0 0;font-size:12px;color:#64748b">${escapeHtml(footer)}</p>
</div></body></html>`;
  return { messageId: messageIdFor(ctx, `report-waiting-${request.id}`), from: senderFor(ctx, null, null), to: request.email, replyTo: ctx.env.OPERATOR_EMAIL, subject, text, html };
}

export const reportWaitingJob: JobDefinition<ReportWaitingPayload> = {
  async run(ctx, job) {
    const { requestId, until } = job.payload ?? {};
    if (typeof requestId !== 'string' || typeof until !== 'string' || Number.isNaN(Date.parse(until))) throw new PermanentJobError('payload needs requestId and until');
    const request = await ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, requestId) });
    if (!request) throw new PermanentJobError(`report request ${requestId} not found`);
    // Made meanwhile (the budget was raised): the report itself has said everything.
    if (request.status === 'sent') return;
    const details = request.payload as { fullName: string; company: string };
    await mailerFor(ctx).send(reportWaitingEmail(ctx, { id: request.id, email: request.email, fullName: details.fullName, company: details.company }, new Date(until)));
  },
};
