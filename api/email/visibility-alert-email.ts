// The Early Warning e-mail of a fall in Share of Local Voice (at least VISIBILITY_ALERT_DROP points
// from the scan a week or more before): subject, text and HTML, with the one-click unsubscribe.
// Who gets it is decided by api/services/early-warning-mail.ts, as for the review alerts.
import { isSamplePlace, OPERATOR, PRODUCT_NAME, SAMPLE_DATA_LABEL, SAMPLE_DATA_NOTE } from '../../common/constants.ts';
import { escapeHtml } from '../../common/html.ts';
import type { AppContext } from '../context.ts';
import type { Business } from './alerts-email.ts';
import { messageIdFor, type MailMessage } from './mailer.ts';
import { unsubscribeApiUrl, unsubscribeHeaders, unsubscribePageUrl } from './report-email.ts';

/** The fall the e-mail reports: two scans' Share of Local Voice, and the run that found it. */
export interface VisibilityDrop {
  businessId: string;
  runId: string;
  solv: number;
  previousSolv: number;
  /** ISO dates of the two scans. */
  at: string;
  previousAt: string;
}

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** `unsubscribe`: the recipient's signed unsubscribe token (unsubscribeToken, services/reports.ts),
 *  for the RFC 8058 one-click header and the link in the footer, as the review alerts have. */
export function visibilityAlertEmail(ctx: AppContext, business: Business, to: { userId: string; email: string }, p: VisibilityDrop, unsubscribe: string): MailMessage {
  const unsubscribePage = unsubscribePageUrl(ctx, unsubscribe);
  const dashboard = `${ctx.env.PUBLIC_BASE_URL}/dashboard/${encodeURIComponent(business.id)}`;
  const sample = isSamplePlace(business.placeId);
  const subject = `Local visibility fell for ${business.company}: Share of Local Voice ${p.previousSolv.toFixed(2)}% → ${p.solv.toFixed(2)}%${sample ? ` (${SAMPLE_DATA_LABEL.toLowerCase()})` : ''}`;
  const what = `${business.company} (${business.city}, ${business.state}) is in the top 3 of local searches at fewer points of its grid: its Share of Local Voice fell from ${p.previousSolv.toFixed(2)}% on ${day(p.previousAt)} to ${p.solv.toFixed(2)}% on ${day(p.at)}, ${(p.previousSolv - p.solv).toFixed(2)} points.`;
  const footer = `${PRODUCT_NAME} Early Warning Monitor: you get these e-mails because your plan watches the local visibility of ${business.company}.`;
  const text = [...(sample ? [`${SAMPLE_DATA_LABEL}. ${SAMPLE_DATA_NOTE}`, ''] : []), what, '', `See the latest grid on the dashboard: ${dashboard}`, '', '-- ', footer, `Unsubscribe: ${unsubscribePage}`, `${OPERATOR.legalName}, ${OPERATOR.postalAddress}`].join('\n');
  const html = `<!doctype html><html lang="en"><body style="font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
${sample ? `<p role="note" style="background:#fef3c7;border:1px solid #fcd34d;color:#92400e;border-radius:6px;padding:10px 14px;font-size:14px"><strong>${escapeHtml(SAMPLE_DATA_LABEL)}.</strong> ${escapeHtml(SAMPLE_DATA_NOTE)}</p>` : ''}
<h1 style="font-size:18px">${escapeHtml(subject)}</h1>
<p style="font-size:15px">${escapeHtml(what)}</p>
<p><a href="${escapeHtml(dashboard)}" style="background:#2563eb;color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none;font-weight:600">See the latest grid</a></p>
<p style="color:#64748b;font-size:12px">${escapeHtml(footer)} <a href="${escapeHtml(unsubscribePage)}" style="color:#64748b">Unsubscribe</a><br>${escapeHtml(`${OPERATOR.legalName}, ${OPERATOR.postalAddress}`)}</p></body></html>`;
  return { messageId: messageIdFor(ctx, `visibility-${p.runId}-${to.userId}`), from: ctx.env.MAIL_FROM, to: to.email, subject, text, html, headers: unsubscribeHeaders(unsubscribeApiUrl(ctx, unsubscribe), ctx.env.OPERATOR_EMAIL) };
}
