// Early Warning over the API: a business's alerts since a time, and its alert threshold. The
// Early Warning rules are the screen's (api/services/review-alerts.ts).
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { THRESHOLD_MESSAGE } from '../../../common/schemas/early-warning.ts';

/** The document says `multipleOf: 0.1`; so does the message (one decimal: 2.5, not 2.55). */
const THRESHOLD_STEP_MESSAGE = 'Threshold must be a number between 1.0 and 5.0 with one decimal (2.5, not 2.55)';
import type { AppContext } from '../../context.ts';
import { alertsSince, monitoredBusinessOf, setAlertThreshold, type Monitored } from '../../services/review-alerts.ts';
import { jsonContent, NO_STORE, pathId, problems, scope, validPathId, type V1Env } from './common.ts';
import { alertListSchema, thresholdSchema } from './schemas.ts';

type AlertsEnv = V1Env & { Variables: { business: Monitored } };
const ALERT_PAGE = { default: 50, max: 200 } as const;

export function alertRoutes(ctx: AppContext) {
  // The business is checked against the caller before anything else is read (another account's id: 404).
  const params = pathId('businessId', 'A business id from the list.');
  const business = createMiddleware<AlertsEnv>(async (c, next) => {
    c.set('business', await monitoredBusinessOf(ctx, { kind: 'user', id: c.get('caller').userId }, validPathId(params, c, 'businessId'), Date.now()));
    await next();
  });

  const list = createRoute({
    method: 'get',
    path: '/businesses/{businessId}/alerts',
    operationId: 'listAlerts',
    tags: ['Alerts'],
    summary: 'List alerts',
    description: 'Reviews rated at or below the business\'s threshold, newest first, recorded after `since`.',
    middleware: [scope('alerts:read'), business] as const,
    request: {
      params,
      query: z.object({
        since: z.iso.datetime({ offset: true }).optional().openapi({ description: 'Only alerts recorded after this time (ISO 8601).', example: '2026-11-01T00:00:00Z' }),
        limit: z.coerce.number().int().min(1).max(ALERT_PAGE.max).default(ALERT_PAGE.default).openapi({ description: `How many alerts at most (1 to ${ALERT_PAGE.max}; ${ALERT_PAGE.default} when not given).` }),
      }),
    },
    responses: { 200: jsonContent(alertListSchema, 'The alerts.'), ...problems(400, 404) },
  });

  const getThreshold = createRoute({
    method: 'get',
    path: '/businesses/{businessId}/alert-threshold',
    operationId: 'getAlertThreshold',
    tags: ['Alerts'],
    summary: 'Get the alert threshold',
    description: 'The rating at or below which a new review of this business becomes an alert.',
    middleware: [scope('alerts:read'), business] as const,
    request: { params },
    responses: { 200: jsonContent(thresholdSchema, 'The threshold in force.'), ...problems(404) },
  });

  const putThreshold = createRoute({
    method: 'put',
    path: '/businesses/{businessId}/alert-threshold',
    operationId: 'setAlertThreshold',
    tags: ['Alerts'],
    summary: 'Set the alert threshold',
    description: 'A review rated at or below it becomes an alert. 1.0 to 5.0 in steps of 0.1.',
    middleware: [scope('alerts:write'), business] as const,
    request: {
      params,
      body: {
        required: true,
        content: { 'application/json': { schema: z.strictObject({ threshold: z.number().min(1, THRESHOLD_MESSAGE).max(5, THRESHOLD_MESSAGE).multipleOf(0.1, THRESHOLD_STEP_MESSAGE).openapi({ multipleOf: 0.1, example: 3.5, description: 'Reviews at or below this star rating raise an alert: 1.0 to 5.0 in steps of 0.1.' }) }) } },
      },
    },
    responses: { 200: jsonContent(thresholdSchema, 'The threshold now in force.'), ...problems(400, 404) },
  });

  return new OpenAPIHono<AlertsEnv>()
    .openapi(list, async (c) => {
      const { since, limit } = c.req.valid('query');
      const b = c.get('business');
      const alerts = await alertsSince(ctx, b, since ? Date.parse(since) : 0, limit);
      return c.json({ businessId: b.id, threshold: b.threshold, alerts }, 200, NO_STORE);
    })
    .openapi(getThreshold, (c) => c.json({ businessId: c.get('business').id, threshold: c.get('business').threshold }, 200, NO_STORE))
    .openapi(putThreshold, async (c) => {
      const b = c.get('business');
      const { threshold } = await setAlertThreshold(ctx, b, Math.round(c.req.valid('json').threshold * 10) / 10);
      return c.json({ businessId: b.id, threshold }, 200, NO_STORE);
    });
}
