// The sample provider's websites, served by the product (decision 0041): GET
// /api/sample-sites/<site id>/ and its robots.txt, sitemap.xml, favicon.ico and contact page.
// Public and read-only; the pages are generated from the id, nothing is stored.
import { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { sampleSiteResponse } from '../report/analysis/sample-sites.ts';

export function sampleSiteRoutes(_ctx: AppContext) {
  const app = new Hono();
  app.get('/sample-sites/:rest{.+}', (c) => sampleSiteResponse(c.req.param('rest')));
  return app;
}
