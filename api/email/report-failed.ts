// The `report.failed` job: the e-mail a visitor gets when their free report could not be made
// (report.generate gave up). The form promised a report, so silence would leave them waiting.
// Enqueued with a key per request, so it goes out once; replies go to the operator.
import { eq } from 'drizzle-orm';
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import { reportRequests } from '../../db/schema/businesses.ts';
import type { AppContext } from '../context.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { mailerFor, messageIdFor, type MailMessage } from './mailer.ts';
import { escapeHtml, firstName } from './report-email.ts';

export interface FailedRequest {
  id: string;
  email: string;
  fullName: string;
  company: string;
  address: string;
  city: string;
  state: string;
  zip: string;
}

export function reportFailedEmail(ctx: AppContext, request: FailedRequest): MailMessage {
  const where = `${request.address}, ${request.city}, ${request.state} ${request.zip}`;
  const formUrl = `${ctx.env.PUBLIC_BASE_URL}/#report-form`;
  const subject = `We could not finish your ${PRODUCT_NAME} report for ${request.company}`;
  const paragraphs = [
    `We tried to build the free report you asked for on ${request.company} (${where}) and could not finish it.`,
    'The usual cause is an address we cannot place on the map. Please check the street, city, state and ZIP code and ask again; it takes a minute.',
    `If the address is right, reply to this e-mail and we will look into it.`,
  ];
  const footer = `You receive this e-mail because you requested a free report on ${PRODUCT_NAME}. ${OPERATOR.legalName}, ${OPERATOR.postalAddress}`;
  const text = [`Hi ${firstName(request.fullName)},`, '', ...paragraphs.flatMap((p) => [p, '']), `Ask again: ${formUrl}`, '', '-- ', footer].join('\n');
  const html = `<!doctype html><html lang="en"><body style="margin:0;background:#f1f5f9;font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
<div style="max-width:560px;margin:0 auto;padding:32px 20px">
<div style="background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:28px">
<h1 style="margin:0 0 16px;font-size:20px">We could not finish your report</h1>
<p style="margin:0 0 12px;font-size:15px;color:#334155">Hi ${escapeHtml(firstName(request.fullName))},</p>
${paragraphs.map((p) => `<p style="margin:0 0 12px;font-size:15px;color:#334155">${escapeHtml(p)}</p>`).join('\n')}
<p style="margin:20px 0 0"><a href="${escapeHtml(formUrl)}" style="display:inline-block;background:#3B82F6;color:#ffffff;text-decoration:none;font-weight:600;padding:10px 18px;border-radius:8px">Ask for the report again</a></p>
</div>
<p style="margin:16px 0 0;font-size:12px;color:#64748b">${escapeHtml(footer)}</p>
</div></body></html>`;
  return {
    messageId: messageIdFor(ctx, `report-failed-${request.id}`),
    from: ctx.env.MAIL_FROM,
    to: request.email,
    replyTo: ctx.env.OPERATOR_EMAIL,
    subject,
    text,
    html,
  };
}

export const reportFailedJob: JobDefinition<{ requestId: string }> = {
  async run(ctx, job) {
    const requestId = job.payload?.requestId;
    if (typeof requestId !== 'string') throw new PermanentJobError('payload needs requestId');
    const request = await ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, requestId) });
    if (!request) throw new PermanentJobError(`report request ${requestId} not found`);
    if (request.status === 'sent') return; // an operator's retry made the report after all
    const details = request.payload as Omit<FailedRequest, 'id' | 'email'>;
    await mailerFor(ctx).send(reportFailedEmail(ctx, { ...details, id: request.id, email: request.email }));
  },
};
