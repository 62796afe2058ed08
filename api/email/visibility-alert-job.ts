// `visibility.alert`: the Early Warning e-mail when a business's Share of Local Voice falls by at
// least VISIBILITY_ALERT_DROP points from the scan a week or more before (the weekly re-analysis).
// Enqueued once per run by api/services/visibility-history.ts; sent to each account that may
// monitor the business on a plan with the Early Warning Monitor, at a confirmed address, unless it
// opted out (the same recipients as the review alerts, decision 0077). At most once per run: the
// job key, and the mail's Message-ID for a retry after a crash.
import { and, eq, inArray } from 'drizzle-orm';
import { OPERATOR, PRODUCT_NAME, SAMPLE_DATA_LABEL, SAMPLE_DATA_NOTE } from '../../common/constants.ts';
import { users } from '../../db/schema/auth.ts';
import { businesses } from '../../db/schema/businesses.ts';
import type { AppContext } from '../context.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { can } from '../services/plans/entitlements.ts';
import { candidates } from '../services/plans/payers.ts';
import { isUnsubscribed, unsubscribeToken } from '../services/reports.ts';
import { isSamplePlace } from '../services/review-alerts.ts';
import { mailerFor, messageIdFor, type MailMessage } from './mailer.ts';
import { unsubscribeApiUrl, unsubscribeHeaders, unsubscribePageUrl } from './report-email.ts';
import { escapeHtml } from '../../common/html.ts';

export const VISIBILITY_ALERT = 'visibility.alert';
export interface VisibilityAlertPayload {
  businessId: string;
  runId: string;
  solv: number;
  previousSolv: number;
  /** ISO dates of the two scans. */
  at: string;
  previousAt: string;
}

type Business = typeof businesses.$inferSelect;
const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

/** `unsubscribe`: the recipient's signed unsubscribe token (unsubscribeToken, services/reports.ts),
 *  for the RFC 8058 one-click header and the link in the footer, as the review alerts have. */
export function visibilityAlertEmail(ctx: AppContext, business: Business, to: { userId: string; email: string }, p: VisibilityAlertPayload, unsubscribe: string): MailMessage {
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

export const visibilityAlertJob: JobDefinition<VisibilityAlertPayload> = {
  async run(ctx, job, tools) {
    const p = job.payload;
    if (typeof p?.businessId !== 'string' || typeof p.runId !== 'string') throw new PermanentJobError('payload needs businessId and runId');
    const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, p.businessId) });
    if (!business) throw new PermanentJobError(`business ${p.businessId} not found`);
    const userIds = (await candidates(ctx, p.businessId)).filter((c) => can(c.plan, 'earlyWarning')).map((c) => c.userId);
    const accounts = userIds.length ? await ctx.db.select({ userId: users.id, email: users.email }).from(users).where(and(inArray(users.id, userIds), eq(users.emailVerified, true))) : [];
    const recipients: typeof accounts = [];
    for (const a of accounts) if (!(await isUnsubscribed(ctx, a.email))) recipients.push(a);
    if (recipients.length === 0) return tools.saveProgress({ stage: 'skipped', reason: 'no account with the Early Warning Monitor and a confirmed address to e-mail' });
    const mailer = mailerFor(ctx);
    for (const to of recipients) await mailer.send(visibilityAlertEmail(ctx, business, to, p, await unsubscribeToken(ctx, to.email)));
    await tools.saveProgress({ stage: 'sent', recipients: recipients.length });
  },
};
