// GET /api/v1/businesses, /businesses/{businessId}, /businesses/{businessId}/history, /visibility and /ai-visibility: the
// dashboard's reads for a key's owner (api/services/dashboard.ts, businesses.ts).
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import type { AppContext } from '../../context.ts';
import { BUSINESS_PAGE, listBusinesses } from '../../services/businesses.ts';
import { businessJsonForUser, TREND_DAYS } from '../../services/dashboard.ts';
import { createMiddleware } from 'hono/factory';
import { jsonContent, NO_STORE, pathId, problems, rawJson, scope, validPathId, type V1Env } from './common.ts';
import { VISIBILITY_PAGE, visibilityHistory } from '../../services/visibility-history.ts';
import { aiVisibilitySchema, businessDetailSchema, businessPageSchema, historySchema, rankSettingsResultSchema, visibilityPageSchema } from './schemas.ts';
import { rankSettingsSchema } from '../../../common/schemas/rank-settings.ts';
import { setRankWithBranches } from '../../services/rank-settings.ts';
import { aiVisibilityFor } from '../../services/ai-visibility/read.ts';

const businessId = pathId('businessId', 'A business id from the list.');

const list = createRoute({
  method: 'get',
  path: '/businesses',
    operationId: 'listBusinesses',
  tags: ['Businesses'],
  summary: 'List businesses',
  description: 'Your businesses and, for a consultant, your clients\' businesses, newest first.',
  middleware: [scope('businesses:read')] as const,
  request: {
    query: z.object({
      cursor: z.string().max(200).optional().openapi({ description: 'The `nextCursor` of the previous page.' }),
      limit: z.coerce.number().int().min(1).max(BUSINESS_PAGE.max).default(BUSINESS_PAGE.default).openapi({ description: `Page size (1-${BUSINESS_PAGE.max}).` }),
    }),
  },
  responses: { 200: jsonContent(businessPageSchema, 'A page of businesses.'), ...problems(400) },
});

const one = createRoute({
  method: 'get',
  path: '/businesses/{businessId}',
    operationId: 'getBusiness',
  tags: ['Businesses'],
  summary: 'Get a business',
  description: 'The business with its competitors and the metrics of its latest analysis.',
  middleware: [scope('businesses:read')] as const,
  request: { params: businessId },
  responses: { 200: jsonContent(businessDetailSchema, 'The business.'), ...problems(404) },
});

const history = createRoute({
  method: 'get',
  path: '/businesses/{businessId}/history',
    operationId: 'getBusinessHistory',
  tags: ['Businesses'],
  summary: 'Metric history',
  description: `The business's own scores at each analysis of the last ${TREND_DAYS} days (the dashboard's trends), oldest first.`,
  middleware: [scope('businesses:read')] as const,
  request: { params: businessId },
  responses: { 200: jsonContent(historySchema, 'The history.'), ...problems(404) },
});

const visibility = createRoute({
  method: 'get',
  path: '/businesses/{businessId}/visibility',
  operationId: 'getBusinessVisibility',
  tags: ['Businesses'],
  summary: 'Local visibility history',
  description: 'The local visibility grid of each analysis (weekly on paid plans), newest first: the grid size and reach, searches made, Share of Local Voice, ARP and ATRP, and the business\'s rank at every point per keyword.',
  middleware: [scope('businesses:read')] as const,
  request: {
    params: businessId,
    query: z.object({
      cursor: z.string().regex(/^[0-9]{1,15}$/, 'Use the nextCursor of the previous page').optional().openapi({ description: 'The `nextCursor` of the previous page.' }),
      limit: z.coerce.number().int().min(1).max(VISIBILITY_PAGE.max).default(VISIBILITY_PAGE.default).openapi({ description: `Page size (1-${VISIBILITY_PAGE.max}).` }),
    }),
  },
  responses: { 200: jsonContent(visibilityPageSchema, 'A page of scans.'), ...problems(400, 404) },
});

const aiVisibility = createRoute({
  method: 'get',
  path: '/businesses/{businessId}/ai-visibility',
  operationId: 'getBusinessAiVisibility',
  tags: ['Businesses'],
  summary: 'Visibility in AI answers',
  description: 'Each scan of the business in AI answers, newest first: per keyword, the question put to each AI engine several times, how many answers came back, how many named the business and at what average place, the sites they cited, and the same figures for each competitor. Answers vary from one ask to the next: read a figure as "named in 3 of 5 answers", never as a rank.',
  middleware: [scope('businesses:read')] as const,
  request: { params: businessId },
  responses: { 200: jsonContent(aiVisibilitySchema, 'The scans.'), ...problems(404) },
});

/** The business is checked against the key's owner before the body is read: another account's
 *  id is 404 whatever the body says. */
const ownBusiness = (ctx: AppContext) =>
  createMiddleware<V1Env>(async (c, next) => {
    await businessJsonForUser({ ctx, userId: c.get('caller').userId, businessId: validPathId(businessId, c, 'businessId') });
    await next();
  });

const settingsRoute = (ctx: AppContext) => createRoute({
  method: 'put',
  path: '/businesses/{businessId}/settings',
  operationId: 'setBusinessSettings',
  tags: ['Businesses'],
  summary: 'Set the rank settings',
  description: 'Whether the business\'s rank counts the competitors that are other locations of its brand (same name, brand website or phone line). By default it does not: the business ranks against independent competitors first, and its brand\'s locations stay listed, marked as its brand. Applies to the dashboard at once and to reports from the next analysis.',
  middleware: [scope('businesses:write'), ownBusiness(ctx)] as const,
  request: {
    params: businessId,
    body: { required: true, content: { 'application/json': { schema: rankSettingsSchema.openapi({ example: { rankWithBranches: true } }) } } },
  },
  responses: { 200: jsonContent(rankSettingsResultSchema, 'The settings now in force.'), ...problems(400, 404) },
});

export function businessRoutes(ctx: AppContext) {
  return new OpenAPIHono<V1Env>()
    .openapi(list, async (c) => {
      const { cursor, limit } = c.req.valid('query');
      return c.json(await listBusinesses({ ctx, userId: c.get('caller').userId, cursor, limit }), 200, NO_STORE);
    })
    .openapi(one, async (c) => {
      // SQLite's JSON text goes out as it is: one query, nothing parsed (decision 0060).
      const { body } = await businessJsonForUser({ ctx, userId: c.get('caller').userId, businessId: c.req.valid('param').businessId });
      return rawJson(c, body);
    })
    .openapi(history, async (c) => {
      const id = c.req.valid('param').businessId;
      const { history: rows } = await businessJsonForUser({ ctx, userId: c.get('caller').userId, businessId: id });
      return rawJson(c, `{"businessId":${JSON.stringify(id)},"days":${TREND_DAYS},"history":${rows}}`);
    })
    .openapi(settingsRoute(ctx), async (c) => {
      const id = c.req.valid('param').businessId;
      return c.json(await setRankWithBranches(ctx, id, c.req.valid('json').rankWithBranches), 200, NO_STORE);
    })
    .openapi(aiVisibility, async (c) => c.json(await aiVisibilityFor(ctx, { userId: c.get('caller').userId, businessId: c.req.valid('param').businessId }), 200, NO_STORE))
    .openapi(visibility, async (c) => {
      const { cursor, limit } = c.req.valid('query');
      return c.json(await visibilityHistory({ ctx, userId: c.get('caller').userId, businessId: c.req.valid('param').businessId, cursor, limit }), 200, NO_STORE);
    });
}
