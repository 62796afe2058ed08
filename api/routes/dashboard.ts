// The business dashboard's reads, and the agency's portfolio (/dashboard for a consultant). Object access and the plan are checked by the service on
// every call; `consultantId` in the query is accepted and ignored (it grants nothing).
import { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { visibilityKeywordsSchema } from '../../common/schemas/visibility.ts';
import { validate } from '../lib/validate.ts';
import { getDashboardJson, listDashboardBusinesses } from '../services/dashboard.ts';
import { getPortfolio } from '../services/portfolio.ts';
import { setVisibilityKeywords } from '../services/visibility-history.ts';
import { rankSettingsSchema } from '../../common/schemas/rank-settings.ts';
import { setRankWithBranches } from '../services/rank-settings.ts';
import { aiVisibilityOf } from '../services/ai-visibility/read.ts';

const HEADERS = { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'private, no-store' };

export function dashboardRoutes(ctx: AppContext) {
  return new Hono()
    .get('/my-businesses', async (c) => c.json(await listDashboardBusinesses({ ctx, cookie: c.req.header('cookie') }), 200, { 'Cache-Control': 'private, no-store' }))
    .get('/portfolio', async (c) => c.json(await getPortfolio({ ctx, cookie: c.req.header('cookie') }), 200, { 'Cache-Control': 'private, no-store' }))
    .get('/my-business', async (c) => c.body(await getDashboardJson({ ctx, cookie: c.req.header('cookie'), businessId: null }), 200, HEADERS))
    .get('/business/:businessId', async (c) =>
      c.body(await getDashboardJson({ ctx, cookie: c.req.header('cookie'), businessId: c.req.param('businessId') }), 200, HEADERS),
    )
    // The "AI answers" section: whoever may open the business's dashboard, checked first.
    .get('/business/:businessId/ai-visibility', async (c) => {
      await getDashboardJson({ ctx, cookie: c.req.header('cookie'), businessId: c.req.param('businessId') });
      return c.json(await aiVisibilityOf(ctx, c.req.param('businessId')), 200, { 'Cache-Control': 'private, no-store' });
    })
    // The grid's keywords: whoever may open the business's dashboard (its owner, the consultant of
    // the client it belongs to) on a plan with the dashboard; checked before the body is read.
    .put(
      '/business/:businessId/visibility-keywords',
      async (c, next) => {
        await getDashboardJson({ ctx, cookie: c.req.header('cookie'), businessId: c.req.param('businessId') });
        await next();
      },
      validate('json', visibilityKeywordsSchema),
      async (c) => c.json(await setVisibilityKeywords(ctx, c.req.param('businessId'), c.req.valid('json').keywords), 200, { 'Cache-Control': 'private, no-store' }),
    )
    // Whether the rank counts the brand's other locations (decision 0235): the same viewer and
    // plan rule as the dashboard, checked before the body is read.
    .put(
      '/business/:businessId/rank-settings',
      async (c, next) => {
        await getDashboardJson({ ctx, cookie: c.req.header('cookie'), businessId: c.req.param('businessId') });
        await next();
      },
      validate('json', rankSettingsSchema),
      async (c) => c.json(await setRankWithBranches(ctx, c.req.param('businessId'), c.req.valid('json').rankWithBranches), 200, { 'Cache-Control': 'private, no-store' }),
    );
}
