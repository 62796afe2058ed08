// The Early Warning Monitor's API. Access and the plan are checked by the service on every call,
// before the body is read (a stranger learns nothing from a 400); `consultantId` in the query or
// the body is accepted and ignored (it grants nothing).
import { Hono } from 'hono';
import { alertThresholdSchema } from '../../common/schemas/early-warning.ts';
import type { AppContext } from '../context.ts';
import { validate } from '../lib/validate.ts';
import { ALERT_WINDOW_DAYS, getReviewAlerts, monitoredBusiness, setAlertThreshold, type Monitored } from '../services/review-alerts.ts';
import { visibilityDrops } from '../services/visibility-history.ts';

const NO_STORE = { 'Cache-Control': 'private, no-store' };

export function earlyWarningRoutes(ctx: AppContext) {
  return new Hono<{ Variables: { business: Monitored } }>()
    .get('/business/:businessId/review-alerts', async (c) => {
      const now = Date.now();
      const answer = await getReviewAlerts({ ctx, cookie: c.req.header('cookie'), businessId: c.req.param('businessId'), now });
      // Beside the review alerts, the falls of local visibility over the same window.
      return c.json({ ...answer, visibility: await visibilityDrops(ctx, answer.business.id, now, ALERT_WINDOW_DAYS) }, 200, NO_STORE);
    })
    .put(
      '/business/:businessId/alert-threshold',
      async (c, next) => {
        c.set('business', await monitoredBusiness(ctx, c.req.header('cookie'), c.req.param('businessId'), Date.now()));
        await next();
      },
      validate('json', alertThresholdSchema),
      async (c) => c.json(await setAlertThreshold(ctx, c.get('business'), c.req.valid('json').threshold), 200, NO_STORE),
    );
}
