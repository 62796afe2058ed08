// GET /api/portfolio: the agency's home (/dashboard for a consultant). Its own businesses and every
// active client's, each with score, change, rank, alerts and reports; nobody else's; the dashboard's
// session and plan rules.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients } from '../../db/schema/consultants.ts';
import { reports, reviewAlerts } from '../../db/schema/reports.ts';
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

const DAY_MS = 24 * 60 * 60 * 1000;

describe('the agency portfolio', () => {
  it("lists the consultant's own businesses then its active clients', each with its figures", async () => {
    const consultant = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
    const consultantId = consultant.viewer.consultant!.id;
    const { business: own } = await seedBusiness(t.ctx, { userId: consultant.userId, company: 'Zebra Own Shop', snapshots: [{ daysAgo: 1, scores: { overall: 6.5 } }] });
    const { business: bakery } = await seedBusiness(t.ctx, {
      company: 'Client Bakery',
      snapshots: [
        { daysAgo: 40, scores: { overall: 5.25 } },
        { daysAgo: 2, scores: { overall: 7 } },
      ],
    });
    const { business: fresh } = await seedBusiness(t.ctx, { company: 'Not Yet Analysed' });
    const { business: archivedBiz } = await seedBusiness(t.ctx, { company: 'Archived Cafe', snapshots: [{ daysAgo: 1 }] });
    const bakeryClient = await addClient(t.ctx, consultantId, bakery.id);
    await t.ctx.db.update(clients).set({ clientName: 'Anna Baker', reportFrequency: 'weekly' }).where(eq(clients.id, bakeryClient.id));
    await addClient(t.ctx, consultantId, fresh.id);
    const archived = await addClient(t.ctx, consultantId, archivedBiz.id);
    await t.ctx.db.update(clients).set({ archivedAt: new Date() }).where(eq(clients.id, archived.id));
    const sentAt = new Date(Date.now() - 3 * DAY_MS);
    await t.ctx.db.insert(reports).values({ businessId: bakery.id, reportType: 'client', emailSent: true, emailSentAt: sentAt });
    await t.ctx.db.insert(reviewAlerts).values([
      { businessId: bakery.id, platform: 'google', reviewRating: 1, reviewAuthor: 'A', reviewDate: new Date(Date.now() - 5 * DAY_MS), alertTriggered: true },
      { businessId: bakery.id, platform: 'google', reviewRating: 2, reviewAuthor: 'B', reviewDate: new Date(Date.now() - 200 * DAY_MS), alertTriggered: true },
    ]);
    const other = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
    await seedBusiness(t.ctx, { userId: other.userId, company: 'Not Yours Ltd', snapshots: [{ daysAgo: 1 }] });

    const res = await call(t.app, 'GET', '/api/portfolio', undefined, consultant.cookie);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const rows = res.body.rows as Array<Record<string, unknown>>;
    expect(rows.map((r) => r.company)).toEqual(['Zebra Own Shop', 'Client Bakery', 'Not Yet Analysed']);
    const [mine, client, pending] = rows;
    expect(mine).toMatchObject({ businessId: own.id, client: null, overall: 6.5, change: null, openAlerts: 0, lastReport: null, sampleData: true });
    expect(mine!.nextReport).toMatch(/-01T00:00:00.000Z$/);
    expect(client).toMatchObject({ businessId: bakery.id, client: { id: bakeryClient.id, name: 'Anna Baker' }, overall: 7, change: 1.75, openAlerts: 1, lastReport: sentAt.toISOString() });
    expect(client!.rank).toBeGreaterThanOrEqual(1);
    expect(client!.of).toBe(10);
    // Weekly: the next Monday.
    expect(new Date(String(client!.nextReport)).getUTCDay()).toBe(1);
    expect(pending).toMatchObject({ businessId: fresh.id, overall: null, change: null, rank: null, of: null, latestAt: null });
    expect(res.body.alertWindowDays).toBe(90);

    expect((await call(t.app, 'GET', '/api/portfolio', undefined, other.cookie)).body.rows.map((r: { company: string }) => r.company)).toEqual(['Not Yours Ltd']);
  });

  it('keeps the dashboard rules: 401 signed out, plan_required on a plan without the dashboard, no alerts without Early Warning', async () => {
    expect((await call(t.app, 'GET', '/api/portfolio')).status).toBe(401);
    const lapsed = await createUser(t.ctx, { tier: 'agency', status: 'canceled', role: 'consultant' });
    const res = await call(t.app, 'GET', '/api/portfolio', undefined, lapsed.cookie);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('plan_required');
    const pro = await createUser(t.ctx, { tier: 'pro', role: 'consultant' });
    await seedBusiness(t.ctx, { userId: pro.userId, snapshots: [{ daysAgo: 1 }] });
    expect((await call(t.app, 'GET', '/api/portfolio', undefined, pro.cookie)).body.rows[0].openAlerts).toBeNull();
  });
});
