// The Early Warning Monitor's e-mail of new low-rated reviews: subject, text and HTML, with the
// one-click unsubscribe. Who gets it, and when, is decided by api/services/early-warning-mail.ts
// (decision 0077).
import { isSamplePlace, OPERATOR, PRODUCT_NAME, SAMPLE_DATA_LABEL, SAMPLE_DATA_NOTE } from '../../common/constants.ts';
import { escapeHtml } from '../../common/html.ts';
import type { businesses } from '../../db/schema/businesses.ts';
import type { reviewAlerts } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { messageIdFor, type MailMessage } from './mailer.ts';
import { unsubscribeApiUrl, unsubscribeHeaders, unsubscribePageUrl } from './report-email.ts';

export type Alert = typeof reviewAlerts.$inferSelect;
export type Business = typeof businesses.$inferSelect;

const PLATFORM = { google: 'Google', yelp: 'Yelp', facebook: 'Facebook', other: 'Other', google_business_profile: 'Google (from your Google Business Profile)' } as const;
const day = (d: Date | null) => (d ? d.toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' }) : 'date unknown');
const safeLink = (url: string | null) => (url && /^https?:\/\//i.test(url) ? url : null);

/** `unsubscribe`: the recipient's signed unsubscribe token (unsubscribeToken, services/reports.ts). */
export function alertsEmail(ctx: AppContext, business: Business, to: { userId: string; email: string }, alerts: Alert[], unsubscribe: string): MailMessage {
  const unsubscribePage = unsubscribePageUrl(ctx, unsubscribe);
  const monitor = `${ctx.env.PUBLIC_BASE_URL}/early-warning/${encodeURIComponent(business.id)}`;
  const count = alerts.length === 1 ? 'A new low-rated review' : `${alerts.length} new low-rated reviews`;
  const sample = isSamplePlace(business.placeId);
  // Sample reviews are made up: the e-mail says so in its subject and first line.
  const subject = `${count} for ${business.company}${sample ? ` (${SAMPLE_DATA_LABEL.toLowerCase()})` : ''}`;
  const line = (a: Alert) => `${a.reviewRating.toFixed(1)} stars on ${PLATFORM[a.platform]} by ${a.reviewAuthor ?? 'Anonymous'}, ${day(a.reviewDate)}`;
  const text = [
    ...(sample ? [`${SAMPLE_DATA_LABEL}. ${SAMPLE_DATA_NOTE}`, ''] : []),
    `${count} for ${business.company} (${business.city}, ${business.state}), at or below your alert threshold:`,
    '',
    ...alerts.flatMap((a) => [`- ${line(a)}`, ...(a.reviewText ? [`  "${a.reviewText}"`] : []), ...(safeLink(a.reviewUrl) ? [`  ${a.reviewUrl}`] : []), '']),
    `Open the Early Warning Monitor: ${monitor}`,
    '',
    '-- ',
    `${PRODUCT_NAME} Early Warning Monitor: you get these e-mails because your plan watches the reviews of ${business.company}.`,
    `Unsubscribe: ${unsubscribePage}`,
    `${OPERATOR.legalName}, ${OPERATOR.postalAddress}`,
  ].join('\n');
  const items = alerts
    .map((a) => {
      const link = safeLink(a.reviewUrl);
      return `<li style="margin:0 0 14px"><strong style="color:${a.reviewRating >= 3 ? '#b45309' : '#b91c1c'}">&#9733; ${a.reviewRating.toFixed(1)}</strong> on ${PLATFORM[a.platform]} by <strong>${escapeHtml(a.reviewAuthor ?? 'Anonymous')}</strong>, ${escapeHtml(day(a.reviewDate))}${
        a.reviewText ? `<br><span style="color:#334155">${escapeHtml(a.reviewText)}</span>` : ''
      }${link ? `<br><a href="${escapeHtml(link)}">View review</a>` : ''}</li>`;
    })
    .join('');
  const html = `<!doctype html><html lang="en"><body style="font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
${sample ? `<p role="note" style="background:#fef3c7;border:1px solid #fcd34d;color:#92400e;border-radius:6px;padding:10px 14px;font-size:14px"><strong>${escapeHtml(SAMPLE_DATA_LABEL)}.</strong> ${escapeHtml(SAMPLE_DATA_NOTE)}</p>` : ''}
<h1 style="font-size:18px">${escapeHtml(subject)}</h1>
<p style="font-size:15px">${escapeHtml(business.company)} (${escapeHtml(business.city)}, ${escapeHtml(business.state)}): reviews at or below your alert threshold.</p>
<ul style="padding-left:18px;font-size:15px">${items}</ul>
<p><a href="${escapeHtml(monitor)}" style="background:#2563eb;color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none;font-weight:600">Open the Early Warning Monitor</a></p>
<p style="color:#64748b;font-size:12px">${escapeHtml(PRODUCT_NAME)} Early Warning Monitor: you get these e-mails because your plan watches the reviews of ${escapeHtml(business.company)}. <a href="${escapeHtml(unsubscribePage)}" style="color:#64748b">Unsubscribe</a><br>${escapeHtml(`${OPERATOR.legalName}, ${OPERATOR.postalAddress}`)}</p></body></html>`;
  return {
    messageId: messageIdFor(ctx, `alerts-${alerts[0]!.id}-${to.userId}`),
    from: ctx.env.MAIL_FROM,
    to: to.email,
    subject,
    text,
    html,
    headers: unsubscribeHeaders(unsubscribeApiUrl(ctx, unsubscribe), ctx.env.OPERATOR_EMAIL),
  };
}
