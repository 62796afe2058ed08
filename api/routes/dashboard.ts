// The business dashboard's reads, and the agency's portfolio (/dashboard for a consultant). Object access and the plan are checked by the service on
// every call; `consultantId` in the query is accepted and ignored (it grants nothing).
import { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { getDashboardJson, listDashboardBusinesses } from '../services/dashboard.ts';
import { getPortfolio } from '../services/portfolio.ts';

const HEADERS = { 'Content-Type': 'application/json; charset=UTF-8', 'Cache-Control': 'private, no-store' };

export function dashboardRoutes(ctx: AppContext) {
  return new Hono()
    .get('/my-businesses', async (c) => c.json(await listDashboardBusinesses({ ctx, cookie: c.req.header('cookie') }), 200, { 'Cache-Control': 'private, no-store' }))
    .get('/portfolio', async (c) => c.json(await getPortfolio({ ctx, cookie: c.req.header('cookie') }), 200, { 'Cache-Control': 'private, no-store' }))
    .get('/my-business', async (c) => c.body(await getDashboardJson({ ctx, cookie: c.req.header('cookie'), businessId: null }), 200, HEADERS))
    .get('/business/:businessId', async (c) =>
      c.body(await getDashboardJson({ ctx, cookie: c.req.header('cookie'), businessId: c.req.param('businessId') }), 200, HEADERS),
    );
}
