// The e-mail a visitor gets when their free report could not be made (sent by the `report.failed`
// job, api/report/failed-job.ts). Whose e-mail it is follows the report's own rule
// (api/services/branding/sender.ts `reportSender`, decision 0170): a visitor of our form hears from us, replies reaching the
// operator; an agency's widget lead or client, on a plan with white-label, hears from the agency
// alone: its name over the white-label address, through its own mail server when it has one, its
// contact address for replies, its footer, a link to its website (none without one), and nothing
// of ours in any header or part.
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import type { AppContext } from '../context.ts';
import { contactLine, POWERED_BY, themeOf, type Branding } from '../report/model/branding.ts';
import { domainOf, messageIdFor, type MailMessage } from './mailer.ts';
import { firstName, senderFor, whiteLabelAddress } from './report-email.ts';
import { escapeHtml } from '../../common/html.ts';

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

/** Who the e-mail is from: ours (no branding), or an agency's white-label identity. */
export interface FailureSender {
  branding: Branding | null;
  /** The consultant behind the request: a reply reaches them when the branding has no contact address. */
  consultant?: { companyName: string; email: string } | null;
  /** The address a white-label message leaves from (the agency's server's, or WHITE_LABEL_MAIL_FROM). */
  whiteLabelFrom?: string | null;
}

export function reportFailedEmail(ctx: AppContext, request: FailedRequest, sender: FailureSender = { branding: null }): MailMessage {
  const branding = sender.branding;
  const where = `${request.address}, ${request.city}, ${request.state} ${request.zip}`;
  // Ours: back to our form. An agency's: to its website, where its form is; none without one.
  const againUrl = branding ? branding.website : `${ctx.env.PUBLIC_BASE_URL}/#report-form`;
  const theme = themeOf(branding);
  const subject = branding ? `We could not finish your report for ${request.company}` : `We could not finish your ${PRODUCT_NAME} report for ${request.company}`;
  const paragraphs = [
    `We tried to build the free report you asked for on ${request.company} (${where}) and could not finish it.`,
    `The usual cause is an address we cannot place on the map. Please check the street, city, state and ZIP code and ask again${againUrl ? '' : ' where you asked before'}; it takes a minute.`,
    `If the address is right, reply to this e-mail and we will look into it.`,
  ];
  const footer = branding
    ? [`You receive this e-mail because you asked ${branding.companyName} for a report on ${request.company}.`, branding.footerText, contactLine(branding), branding.poweredBy ? POWERED_BY : null].filter(Boolean).join('\n')
    : `You receive this e-mail because you requested a free report on ${PRODUCT_NAME}. ${OPERATOR.legalName}, ${OPERATOR.postalAddress}`;
  const text = [`Hi ${firstName(request.fullName)},`, '', ...paragraphs.flatMap((p) => [p, '']), ...(againUrl ? [`Ask again: ${againUrl}`, ''] : []), '-- ', footer].join('\n');
  const html = `<!doctype html><html lang="en"><body style="margin:0;background:#f1f5f9;font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
<div style="max-width:560px;margin:0 auto;padding:32px 20px">
<div style="background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;padding:28px${branding ? `;border-top:6px solid ${theme.brand}` : ''}">
${branding ? `<p style="margin:0 0 12px;font-size:16px;font-weight:700;color:${theme.secondaryInk}">${escapeHtml(branding.companyName)}</p>\n` : ''}<h1 style="margin:0 0 16px;font-size:20px">We could not finish your report</h1>
<p style="margin:0 0 12px;font-size:15px;color:#334155">Hi ${escapeHtml(firstName(request.fullName))},</p>
${paragraphs.map((p) => `<p style="margin:0 0 12px;font-size:15px;color:#334155">${escapeHtml(p)}</p>`).join('\n')}
${againUrl ? `<p style="margin:20px 0 0"><a href="${escapeHtml(againUrl)}" style="display:inline-block;background:${theme.brand};color:${theme.onBrand};text-decoration:none;font-weight:600;padding:10px 18px;border-radius:8px">Ask for the report again</a></p>` : ''}
</div>
<p style="margin:16px 0 0;font-size:12px;color:#64748b">${footer.split('\n').map(escapeHtml).join('<br>')}</p>
</div></body></html>`;
  const whiteFrom = branding ? (sender.whiteLabelFrom ?? whiteLabelAddress(ctx)) : null;
  const replyTo = branding ? (branding.contactEmail ?? sender.consultant?.email ?? null) : ctx.env.OPERATOR_EMAIL;
  return {
    messageId: messageIdFor(ctx, `report-failed-${request.id}`, whiteFrom ? domainOf(whiteFrom) : undefined),
    from: senderFor(ctx, branding, whiteFrom),
    to: request.email,
    ...(replyTo ? { replyTo } : {}),
    subject,
    text,
    html,
  };
}
