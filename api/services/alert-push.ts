// alert.created: every new Early Warning alert of a business, pushed to the webhooks of each
// account that may monitor it (the owner, the consultant whose client it is) on a plan with the
// Early Warning Monitor. Run by the alerts.notify job, which follows every recording of alerts
// (analysis runs and the real-time review check), so both paths push. Each alert is claimed once
// (pushed_at), and emitEvent's key makes a repeat deliver nothing twice.
import { and, eq, isNull } from 'drizzle-orm';
import { reviewAlerts } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { candidates } from './plans/payers.ts';
import { can } from './plans/entitlements.ts';
import { emitEvent } from './webhooks/webhooks.ts';

export async function pushNewAlerts(ctx: AppContext, businessId: string, now = new Date()): Promise<number> {
  const claimed = await ctx.db
    .update(reviewAlerts)
    .set({ pushedAt: now })
    .where(and(eq(reviewAlerts.businessId, businessId), isNull(reviewAlerts.pushedAt)))
    .returning();
  if (claimed.length === 0) return 0;
  const userIds = [...new Set((await candidates(ctx, businessId)).filter((c) => can(c.plan, 'earlyWarning')).map((c) => c.userId))];
  let queued = 0;
  for (const alert of claimed) {
    const data = {
      alertId: alert.id,
      businessId,
      platform: alert.platform,
      reviewRating: alert.reviewRating,
      reviewAuthor: alert.reviewAuthor,
      reviewText: alert.reviewText,
      reviewUrl: alert.reviewUrl,
      reviewDate: alert.reviewDate?.toISOString() ?? null,
      threshold: alert.alertThreshold,
    };
    for (const userId of userIds) queued += await emitEvent(ctx, { userId, type: 'alert.created', eventKey: `alert.created:${alert.id}`, data, now });
  }
  return queued;
}
