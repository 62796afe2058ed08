// `alerts.notify`: the Early Warning Monitor's e-mail (and the alert.created webhooks, alert-push.ts). Enqueued by an analysis run that recorded
// new alerts (persist.ts); sends the business's unsent alerts to each account that may monitor it
// (the owner, the consultant whose client it is) on a plan with 'earlyWarning', unless that address
// opted out. The alerts are claimed (emailSent = true) before sending and released if it fails, so
// each alert goes out at most once, however many runs enqueue a job. Decision 0077.
import { and, eq, inArray } from 'drizzle-orm';
import { OPERATOR, PRODUCT_NAME, SAMPLE_DATA_LABEL, SAMPLE_DATA_NOTE } from '../../common/constants.ts';
import { users } from '../../db/schema/auth.ts';
import { businesses } from '../../db/schema/businesses.ts';
import { reviewAlerts } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { candidates } from '../services/plan-candidates.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { pushNewAlerts } from '../services/alert-push.ts';
import { can } from '../services/entitlements.ts';
import { isUnsubscribed, unsubscribeToken } from '../services/reports.ts';
import { isSamplePlace } from '../services/review-alerts.ts';
import { mailerFor, messageIdFor, type MailMessage } from './mailer.ts';
import { escapeHtml, unsubscribeApiUrl, unsubscribeHeaders, unsubscribePageUrl } from './report-email.ts';

export const ALERTS_NOTIFY = 'alerts.notify';
export interface AlertsNotifyPayload {
  businessId: string;
}

type Alert = typeof reviewAlerts.$inferSelect;
type Business = typeof businesses.$inferSelect;

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

export const alertsNotifyJob: JobDefinition<AlertsNotifyPayload> = {
  async run(ctx, job, tools) {
    const businessId = job.payload?.businessId;
    if (typeof businessId !== 'string') throw new PermanentJobError('payload needs businessId');
    const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, businessId) });
    if (!business) throw new PermanentJobError(`business ${businessId} not found`);
    // Webhooks first: they do not depend on a confirmed address or an e-mail opt-out.
    await pushNewAlerts(ctx, businessId);

    const userIds = (await candidates(ctx, businessId)).filter((c) => can(c.plan, 'earlyWarning')).map((c) => c.userId);
    // Only confirmed addresses: the product mails an account on its own only there (decision 0100).
    const accounts = userIds.length ? await ctx.db.select({ userId: users.id, email: users.email }).from(users).where(and(inArray(users.id, userIds), eq(users.emailVerified, true))) : [];
    const recipients: typeof accounts = [];
    for (const a of accounts) if (!(await isUnsubscribed(ctx, a.email))) recipients.push(a);
    // Nobody to tell: the alerts stay unsent (and on the screen).
    if (recipients.length === 0) return tools.saveProgress({ stage: 'skipped', reason: 'no account with the Early Warning Monitor and a confirmed address to e-mail' });

    const claimed = await ctx.db
      .update(reviewAlerts)
      .set({ emailSent: true })
      .where(and(eq(reviewAlerts.businessId, businessId), eq(reviewAlerts.alertTriggered, true), eq(reviewAlerts.emailSent, false)))
      .returning();
    if (claimed.length === 0) return tools.saveProgress({ stage: 'skipped', reason: 'no unsent alerts' });
    claimed.sort((a, b) => (b.reviewDate?.getTime() ?? 0) - (a.reviewDate?.getTime() ?? 0));
    try {
      const mailer = mailerFor(ctx);
      for (const to of recipients) await mailer.send(alertsEmail(ctx, business, to, claimed, await unsubscribeToken(ctx, to.email)));
    } catch (error) {
      await ctx.db.update(reviewAlerts).set({ emailSent: false }).where(inArray(reviewAlerts.id, claimed.map((a) => a.id)));
      throw error;
    }
    await tools.saveProgress({ stage: 'sent', alerts: claimed.length, recipients: recipients.length });
  },
};
