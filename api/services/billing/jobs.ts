// Billing's jobs: at the end of a grace period the subscription is read again (paid by then:
// active; still unpaid: suspended), and a failed payment e-mails the user a link to fix the card.
import { eq } from 'drizzle-orm';
import { OPERATOR, PRODUCT_NAME } from '../../../common/constants.ts';
import { users } from '../../../db/schema/auth.ts';
import type { AppContext } from '../../context.ts';
import { mailerFor, messageIdFor, type MailMessage } from '../../email/mailer.ts';
import { escapeHtml } from '../../../common/html.ts';
import type { JobDefinition } from '../../jobs/types.ts';
import { PermanentJobError } from '../../jobs/errors.ts';
import { GRACE_END_JOB, PAYMENT_FAILED_JOB, syncSubscription } from './subscriptions.ts';

const TIER_NAMES: Record<string, string> = { pro: 'Pro', enterprise: 'Enterprise', agency: 'Agency' };
const dateText = (date: Date) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long', timeZone: 'UTC' }).format(date);

export const graceEndJob: JobDefinition<{ subscriptionId: string }> = {
  async run(ctx, job) {
    if (typeof job.payload?.subscriptionId !== 'string') throw new PermanentJobError('payload needs subscriptionId');
    await syncSubscription({ ctx, subscriptionId: job.payload.subscriptionId });
  },
};

export function paymentFailedEmail(ctx: AppContext, user: typeof users.$inferSelect, invoiceId: string): MailMessage {
  const plan = TIER_NAMES[user.subscriptionTier] ?? 'paid';
  const fixUrl = `${ctx.env.PUBLIC_BASE_URL}/account#billing`;
  const until = user.billingGraceUntil ? dateText(user.billingGraceUntil) : null;
  const keep = until ? `Your ${plan} features stay on until ${until}; if the payment still fails then, they are paused until it succeeds.` : `Your ${plan} features are paused until the payment succeeds.`;
  const subject = `Your ${PRODUCT_NAME} payment failed: please update your card`;
  const text = [
    'Hello,',
    '',
    `We could not charge your card for your ${PRODUCT_NAME} ${plan} plan.`,
    keep,
    '',
    `Update your card here (Billing Settings, then "Update payment method"): ${fixUrl}`,
    '',
    `Questions? Reply to this e-mail or write to ${OPERATOR.supportEmail}.`,
    '',
    '-- ',
    `${OPERATOR.legalName}, ${OPERATOR.postalAddress}`,
  ].join('\n');
  const html = `<!doctype html><html lang="en"><body style="font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a;max-width:560px">
<h1 style="font-size:20px">Your payment failed</h1>
<p style="font-size:15px">We could not charge your card for your ${escapeHtml(PRODUCT_NAME)} ${escapeHtml(plan)} plan.</p>
<p style="font-size:15px">${escapeHtml(keep)}</p>
<p><a href="${escapeHtml(fixUrl)}" style="display:inline-block;background:#2563eb;color:#fff;padding:12px 18px;border-radius:8px;text-decoration:none;font-weight:600">Update your card</a></p>
<p style="color:#64748b;font-size:12px">Questions? Reply to this e-mail or write to ${escapeHtml(OPERATOR.supportEmail)}.<br>${escapeHtml(`${OPERATOR.legalName}, ${OPERATOR.postalAddress}`)}</p></body></html>`;
  return { messageId: messageIdFor(ctx, `payment-failed-${invoiceId}-${user.id}`), from: ctx.env.MAIL_FROM, to: user.email, replyTo: OPERATOR.supportEmail, subject, text, html };
}

export const paymentFailedJob: JobDefinition<{ userId: string; invoiceId: string }> = {
  async run(ctx, job) {
    const { userId, invoiceId } = job.payload ?? {};
    if (typeof userId !== 'string' || typeof invoiceId !== 'string') throw new PermanentJobError('payload needs userId and invoiceId');
    const user = await ctx.db.query.users.findFirst({ where: eq(users.id, userId) });
    if (!user) throw new PermanentJobError(`user ${userId} not found`);
    // Paid again before the e-mail went out: nothing to fix.
    if (user.subscriptionStatus === 'active') return;
    await mailerFor(ctx).send(paymentFailedEmail(ctx, user, invoiceId));
  },
};

export const BILLING_JOBS = { [GRACE_END_JOB]: graceEndJob, [PAYMENT_FAILED_JOB]: paymentFailedJob };
