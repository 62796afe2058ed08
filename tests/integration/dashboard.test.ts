// GET /api/my-business and GET /api/business/{id}: who may read a dashboard, what it holds.
import { and, eq } from 'drizzle-orm';
import type { DataPoint } from '../../api/report/model/types.ts';
import { DASHBOARD_SQL } from '../../api/services/dashboard.ts';
import { businessMetrics } from '../../db/schema/businesses.ts';
import { clients } from '../../db/schema/consultants.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sessions } from '../../db/schema/auth.ts';
import { createTestContext, call, type TestContext } from '../helpers/context.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

const NOT_FOUND = { code: 'not_found', message: 'No business found' };

describe('dashboard reads', () => {
  it('answers 401 Not authenticated to a visitor, a forged cookie and an expired session', async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, snapshots: [{ daysAgo: 1 }] });
    for (const path of ['/api/my-business', `/api/business/${business.id}`]) {
      const res = await call(t.app, 'GET', path);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 'unauthenticated', message: 'Not authenticated' });
      const forged = owner.cookie.replace(/session_token=([^.]+)\.[^;]+/, (_, tok) => `session_token=${tok}.${encodeURIComponent('A'.repeat(43) + '=')}`);
      expect(forged).not.toBe(owner.cookie);
      expect((await call(t.app, 'GET', path, undefined, forged)).status).toBe(401);
    }
    await t.ctx.db.update(sessions).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(sessions.userId, owner.userId));
    expect((await call(t.app, 'GET', `/api/business/${business.id}`, undefined, owner.cookie)).status).toBe(401);
  });

  it('refuses the free plan and a lapsed paid plan with 403 plan_required', async () => {
    for (const plan of [{ tier: 'free' as const }, { tier: 'pro' as const, status: 'canceled' }]) {
      const user = await createUser(t.ctx, plan);
      const { business } = await seedBusiness(t.ctx, { userId: user.userId, snapshots: [{ daysAgo: 1 }] });
      for (const path of ['/api/my-business', `/api/business/${business.id}`]) {
        const res = await call(t.app, 'GET', path, undefined, user.cookie);
        expect(res.status).toBe(403);
        expect(res.body.code).toBe('plan_required');
      }
    }
  });

  it("gives the owner the business, the latest run's competitors and metrics, and the 90-day history", async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const { business, runs } = await seedBusiness(t.ctx, {
      userId: owner.userId,
      company: 'Lamar Smiles',
      snapshots: [
        { daysAgo: 120, scores: { overall: 5 } },
        { daysAgo: 60, scores: { overall: 6.1 } },
        { daysAgo: 30, scores: { overall: 6.4 } },
        { daysAgo: 2, scores: { overall: 7.25, reviews: 8.5 } },
      ],
    });
    // The business's own listing figures, as the analysis stores them (an unknown one stays out).
    const ownPoints: DataPoint[] = [
      { key: 'reviews.rating', label: 'Average rating', unit: 'stars', score: 'reviews', value: 4.3, status: 'measured' },
      { key: 'reviews.count', label: 'Review count', unit: 'reviews', score: 'reviews', value: null, status: 'unknown' },
      { key: 'site.reachable', label: 'Website reachable', unit: 'yes/no', score: 'digitalPresence', value: false, status: 'measured' },
    ];
    await t.ctx.db.update(businessMetrics).set({ dataPoints: ownPoints, techStackData: { read: false, reason: 'no answer', state: 'down' } }).where(and(eq(businessMetrics.runId, runs[3]!), eq(businessMetrics.isMainBusiness, true)));
    for (const path of ['/api/my-business', `/api/business/${business.id}`, `/api/business/${business.id}?consultantId=enterprise-white-label`]) {
      const res = await call(t.app, 'GET', path, undefined, owner.cookie);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('private, no-store');
      const body = res.body;
      expect(body.access).toEqual({ trends: true, earlyWarning: false });
      expect(body.business).toMatchObject({ id: business.id, company: 'Lamar Smiles', city: 'Austin', state: 'TX', sampleData: true });
      expect(body.competitors).toHaveLength(9);
      expect(Object.keys(body.competitors[0]).sort()).toEqual(['address', 'distanceFromBusiness', 'id', 'name', 'phone', 'rating', 'reviewCount', 'website', 'yourBrand']);
      expect(body.metrics).toHaveLength(10);
      const main = body.metrics.filter((m: { isMainBusiness: boolean }) => m.isMainBusiness);
      expect(main).toHaveLength(1);
      expect(main[0]).toMatchObject({ overallScore: 7.25, reviewScore: 8.5, competitorId: null });
      expect(new Set(body.metrics.map((m: { id: string }) => m.id)).size).toBe(10);
      // Competitors in score order, each with its metrics row from the same (latest) run.
      const overall = body.competitors.map((c: { id: string }) => body.metrics.find((m: { competitorId: string }) => m.competitorId === c.id).overallScore);
      expect(overall).toEqual([...overall].sort((a: number, b: number) => b - a));
      // The business's own row in the table: its measured listing figures, whether its site answered and how it was met.
      expect(body.self).toEqual({ rating: 4.3, reviewCount: null, siteReachable: false, siteState: 'down' });
      expect(body.history.map((h: { overallScore: number }) => h.overallScore)).toEqual([6.1, 6.4, 7.25]);
      expect(body.history[2].runId).toBe(runs[3]);
    }
  });

  it('shows a business still being analysed with empty metrics, and picks the analysed one for /my-business', async () => {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const { business: pending } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Pending Dental' });
    const pendingRes = await call(t.app, 'GET', `/api/business/${pending.id}`, undefined, owner.cookie);
    expect(pendingRes.status).toBe(200);
    expect(pendingRes.body).toMatchObject({ access: { earlyWarning: true }, competitors: [], metrics: [], history: [] });
    const { business: analysed } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Done Dental', snapshots: [{ daysAgo: 3 }] });
    await seedBusiness(t.ctx, { userId: owner.userId, company: 'Newer Pending Dental' });
    const mine = await call(t.app, 'GET', '/api/my-business', undefined, owner.cookie);
    expect(mine.body.business.id).toBe(analysed.id);
  });

  it('answers 404 No business found to a paid user without a business', async () => {
    const user = await createUser(t.ctx, { tier: 'agency' });
    const res = await call(t.app, 'GET', '/api/my-business', undefined, user.cookie);
    expect(res.status).toBe(404);
    expect(res.body).toEqual(NOT_FOUND);
  });

  it("refuses another user's business with the same 404 as an unknown id; consultantId grants nothing", async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, snapshots: [{ daysAgo: 1 }] });
    const stranger = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
    const strangerRes = await call(t.app, 'GET', `/api/business/${business.id}?consultantId=${stranger.viewer.consultant!.id}`, undefined, stranger.cookie);
    const unknownRes = await call(t.app, 'GET', `/api/business/${crypto.randomUUID()}`, undefined, stranger.cookie);
    expect(strangerRes.status).toBe(404);
    expect(strangerRes.body).toEqual(NOT_FOUND);
    expect(unknownRes.status).toBe(404);
    expect(unknownRes.body).toEqual(strangerRes.body);
    // Not even for a visitor's (ownerless) business.
    const { business: orphan } = await seedBusiness(t.ctx, { snapshots: [{ daysAgo: 1 }] });
    expect((await call(t.app, 'GET', `/api/business/${orphan.id}`, undefined, stranger.cookie)).status).toBe(404);
  });

  it("lets the consultant read a client's business, and only their own clients'", async () => {
    const owner = await createUser(t.ctx, { tier: 'free' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Client Dental', snapshots: [{ daysAgo: 1 }] });
    const consultant = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
    const other = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
    await addClient(t.ctx, consultant.viewer.consultant!.id, business.id);
    const res = await call(t.app, 'GET', `/api/business/${business.id}`, undefined, consultant.cookie);
    expect(res.status).toBe(200);
    expect(res.body.business.company).toBe('Client Dental');
    expect(res.body.access).toEqual({ trends: true, earlyWarning: true });
    expect((await call(t.app, 'GET', `/api/business/${business.id}`, undefined, other.cookie)).body).toEqual(NOT_FOUND);
    // A client's business is not the consultant's own: /my-business stays theirs.
    expect((await call(t.app, 'GET', '/api/my-business', undefined, consultant.cookie)).status).toBe(404);
    // The owner on the free plan still gets the upgrade answer for their own business.
    expect((await call(t.app, 'GET', `/api/business/${business.id}`, undefined, owner.cookie)).body.code).toBe('plan_required');
  });

  it('lists the businesses the switcher offers: the viewer\'s own, then their active clients\', nobody else\'s', async () => {
    const consultant = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
    const { business: mine } = await seedBusiness(t.ctx, { userId: consultant.userId, company: 'Zebra Own Shop', snapshots: [{ daysAgo: 1 }] });
    const owner = await createUser(t.ctx, { tier: 'free' });
    const { business: clientBiz } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Client Bakery', snapshots: [{ daysAgo: 1 }] });
    const { business: archivedBiz } = await seedBusiness(t.ctx, { company: 'Archived Cafe', snapshots: [{ daysAgo: 1 }] });
    await addClient(t.ctx, consultant.viewer.consultant!.id, clientBiz.id);
    const archived = await addClient(t.ctx, consultant.viewer.consultant!.id, archivedBiz.id);
    await t.ctx.db.update(clients).set({ archivedAt: new Date() }).where(eq(clients.id, archived.id));
    const other = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
    await seedBusiness(t.ctx, { userId: other.userId, company: 'Not Yours Ltd', snapshots: [{ daysAgo: 1 }] });

    const res = await call(t.app, 'GET', '/api/my-businesses', undefined, consultant.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    expect(res.body).toEqual([
      { id: mine.id, company: 'Zebra Own Shop', city: 'Austin', state: 'TX', clientName: null },
      { id: clientBiz.id, company: 'Client Bakery', city: 'Austin', state: 'TX', clientName: 'Dana Whitfield' },
    ]);
    expect((await call(t.app, 'GET', '/api/my-businesses', undefined, other.cookie)).body.map((b: { company: string }) => b.company)).toEqual(['Not Yours Ltd']);
    expect((await call(t.app, 'GET', '/api/my-businesses')).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/my-businesses', undefined, owner.cookie)).body.code).toBe('plan_required');
  });

  it('says how often the business is re-analysed: the REANALYSIS_INTERVAL_DAYS setting', async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    await seedBusiness(t.ctx, { userId: owner.userId, snapshots: [{ daysAgo: 1 }] });
    expect((await call(t.app, 'GET', '/api/my-business', undefined, owner.cookie)).body.reanalysisDays).toBe(7);
    const fortnightly = await createTestContext({ REANALYSIS_INTERVAL_DAYS: '14' });
    try {
      const user = await createUser(fortnightly.ctx, { tier: 'pro' });
      const { business } = await seedBusiness(fortnightly.ctx, { userId: user.userId, snapshots: [{ daysAgo: 1 }] });
      expect((await call(fortnightly.app, 'GET', `/api/business/${business.id}`, undefined, user.cookie)).body.reanalysisDays).toBe(14);
    } finally {
      await fortnightly.close();
    }
  });

  it('reads the 90-day history from its covering index, not from the rows (whose data points would drag overflow pages in)', async () => {
    for (const [name, statement] of Object.entries(DASHBOARD_SQL)) {
      const plan = await t.ctx.db.$client.execute({ sql: `EXPLAIN QUERY PLAN ${statement}`, args: ['x', Date.now(), 'x', 0] });
      const details = plan.rows.map((row) => String(row.detail));
      expect(details, name).toContain('SEARCH business_metrics USING COVERING INDEX business_metrics_main_history_idx (business_id=? AND reported_at>?)');
    }
  });
});
