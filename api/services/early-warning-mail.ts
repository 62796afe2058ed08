// Who gets the Early Warning e-mails, and when (decision 0077). `alerts.notify` is enqueued by an
// analysis run that recorded new low-rated reviews (api/report/persist.ts, review checks): it pushes
// the alert.created webhooks, then sends the business's unsent alerts. The alerts are claimed
// (emailSent = true) before sending and released if it fails, so each goes out at most once, however
// many runs enqueue a job. `visibility.alert` is enqueued once per re-analysis whose Share of Local
// Voice fell (api/services/visibility-history.ts); its job key and the mail's Message-ID keep it to
// once per run. Both go to the same people: each account that may monitor the business (the owner,
// the consultant whose client it is) on a plan with 'earlyWarning', at a confirmed address (the
// product mails an account on its own only there, decision 0100), unless that address opted out.
// The messages themselves are built in api/email/.
import { and, eq, inArray } from 'drizzle-orm';
import { users } from '../../db/schema/auth.ts';
import { businesses } from '../../db/schema/businesses.ts';
import { reviewAlerts } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { alertsEmail } from '../email/alerts-email.ts';
import { mailerFor } from '../email/mailer.ts';
import { visibilityAlertEmail, type VisibilityDrop } from '../email/visibility-alert-email.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { pushNewAlerts } from './alert-push.ts';
import { can } from './plans/entitlements.ts';
import { candidates } from './plans/payers.ts';
import { isUnsubscribed, unsubscribeToken } from './reports.ts';

export const ALERTS_NOTIFY = 'alerts.notify';
export interface AlertsNotifyPayload {
  businessId: string;
}
export const VISIBILITY_ALERT = 'visibility.alert';
export type VisibilityAlertPayload = VisibilityDrop;

const NOBODY = 'no account with the Early Warning Monitor and a confirmed address to e-mail';

/** The accounts the business's Early Warning e-mails go to. */
async function recipients(ctx: AppContext, businessId: string) {
  const userIds = (await candidates(ctx, businessId)).filter((c) => can(c.plan, 'earlyWarning')).map((c) => c.userId);
  const accounts = userIds.length ? await ctx.db.select({ userId: users.id, email: users.email }).from(users).where(and(inArray(users.id, userIds), eq(users.emailVerified, true))) : [];
  const out: typeof accounts = [];
  for (const a of accounts) if (!(await isUnsubscribed(ctx, a.email))) out.push(a);
  return out;
}

async function businessOf(ctx: AppContext, businessId: string) {
  const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, businessId) });
  if (!business) throw new PermanentJobError(`business ${businessId} not found`);
  return business;
}

export const alertsNotifyJob: JobDefinition<AlertsNotifyPayload> = {
  async run(ctx, job, tools) {
    const businessId = job.payload?.businessId;
    if (typeof businessId !== 'string') throw new PermanentJobError('payload needs businessId');
    const business = await businessOf(ctx, businessId);
    // Webhooks first: they do not depend on a confirmed address or an e-mail opt-out.
    await pushNewAlerts(ctx, businessId);

    const to = await recipients(ctx, businessId);
    // Nobody to tell: the alerts stay unsent (and on the screen).
    if (to.length === 0) return tools.saveProgress({ stage: 'skipped', reason: NOBODY });

    const claimed = await ctx.db
      .update(reviewAlerts)
      .set({ emailSent: true })
      .where(and(eq(reviewAlerts.businessId, businessId), eq(reviewAlerts.alertTriggered, true), eq(reviewAlerts.emailSent, false)))
      .returning();
    if (claimed.length === 0) return tools.saveProgress({ stage: 'skipped', reason: 'no unsent alerts' });
    claimed.sort((a, b) => (b.reviewDate?.getTime() ?? 0) - (a.reviewDate?.getTime() ?? 0));
    try {
      const mailer = mailerFor(ctx);
      for (const account of to) await mailer.send(alertsEmail(ctx, business, account, claimed, await unsubscribeToken(ctx, account.email)));
    } catch (error) {
      await ctx.db.update(reviewAlerts).set({ emailSent: false }).where(inArray(reviewAlerts.id, claimed.map((a) => a.id)));
      throw error;
    }
    await tools.saveProgress({ stage: 'sent', alerts: claimed.length, recipients: to.length });
  },
};

export const visibilityAlertJob: JobDefinition<VisibilityAlertPayload> = {
  async run(ctx, job, tools) {
    const p = job.payload;
    if (typeof p?.businessId !== 'string' || typeof p.runId !== 'string') throw new PermanentJobError('payload needs businessId and runId');
    const business = await businessOf(ctx, p.businessId);
    const to = await recipients(ctx, p.businessId);
    if (to.length === 0) return tools.saveProgress({ stage: 'skipped', reason: NOBODY });
    const mailer = mailerFor(ctx);
    for (const account of to) await mailer.send(visibilityAlertEmail(ctx, business, account, p, await unsubscribeToken(ctx, account.email)));
    await tools.saveProgress({ stage: 'sent', recipients: to.length });
  },
};
