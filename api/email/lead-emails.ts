// The e-mail that tells an agency of its widget leads (issue 15), one lead or a day's digest. Leads
// that wait (the plan has lapsed, a limit was reached) say so and why: nothing is lost, and the
// agency knows what is queued. When it is sent is decided by api/services/widget-lead-mail.ts.
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import { escapeHtml } from '../../common/html.ts';
import type { widgetLeads } from '../../db/schema/widget.ts';
import type { AppContext } from '../context.ts';
import { messageIdFor, type MailMessage } from './mailer.ts';

type WidgetLeadRow = typeof widgetLeads.$inferSelect;

const WAITING: Record<string, string> = {
  plan: 'Its report is waiting: your plan does not include the widget right now. It goes out as soon as the Agency plan is active again.',
  limit: "Its report is waiting: your widget reached its hourly limit. It goes out within the hour.",
  address: 'Its report is waiting: the address could not be located. Check it and add the business as a client.',
};

const line = (lead: WidgetLeadRow) => `${lead.fullName}, ${lead.company} <${lead.email}>, from ${lead.sourceHostname}`;

export function leadsEmail(ctx: AppContext, to: { userId: string; email: string }, leads: WidgetLeadRow[], key: string): MailMessage {
  const page = `${ctx.env.PUBLIC_BASE_URL}/widget`;
  const subject = leads.length === 1 ? `New lead from your widget: ${leads[0]!.company}` : `${leads.length} new leads from your widget`;
  const waiting = leads.filter((l) => l.status === 'queued');
  const text = [
    leads.length === 1 ? 'A visitor asked for a report through your website widget:' : 'Visitors asked for reports through your website widget:',
    '',
    ...leads.map((l) => `- ${line(l)}${l.status === 'queued' ? `\n  ${WAITING[l.queuedReason ?? ''] ?? 'Its report is waiting.'}` : ''}`),
    '',
    waiting.length ? `${waiting.length} of them ${waiting.length === 1 ? 'is' : 'are'} queued; nothing is lost.` : 'Each gets the full report in your branding by e-mail.',
    `See your leads: ${page}`,
    '',
    '-- ',
    `${PRODUCT_NAME}. You get these e-mails because your widget key sends lead e-mails; choose a daily digest on ${page}.`,
    `${OPERATOR.legalName}, ${OPERATOR.postalAddress}`,
  ].join('\n');
  const items = leads
    .map((l) => `<li style="margin:0 0 10px"><strong>${escapeHtml(l.fullName)}</strong>, ${escapeHtml(l.company)} &lt;${escapeHtml(l.email)}&gt;<br><span style="color:#64748b">from ${escapeHtml(l.sourceHostname)}</span>${l.status === 'queued' ? `<br><span style="color:#b45309">${escapeHtml(WAITING[l.queuedReason ?? ''] ?? 'Its report is waiting.')}</span>` : ''}</li>`)
    .join('');
  const html = `<!doctype html><html lang="en"><body style="font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
<h1 style="font-size:18px">${escapeHtml(subject)}</h1>
<ul style="padding-left:18px;font-size:15px">${items}</ul>
<p style="font-size:15px">${waiting.length ? `${waiting.length} of them ${waiting.length === 1 ? 'is' : 'are'} queued; nothing is lost.` : 'Each gets the full report in your branding by e-mail.'}</p>
<p><a href="${escapeHtml(page)}" style="background:#2563eb;color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none;font-weight:600">See your leads</a></p>
<p style="color:#64748b;font-size:12px">${escapeHtml(PRODUCT_NAME)}. You get these e-mails because your widget key sends lead e-mails; choose a daily digest on your widget page.<br>${escapeHtml(`${OPERATOR.legalName}, ${OPERATOR.postalAddress}`)}</p></body></html>`;
  return { messageId: messageIdFor(ctx, `${key}-${to.userId}`), from: ctx.env.MAIL_FROM, to: to.email, subject, text, html };
}
