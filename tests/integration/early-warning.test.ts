// The Early Warning Monitor: who may read the alerts and set the threshold, the threshold's
// validation, and the alerts every analysis run records (each low review once).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { persistReport } from '../../api/report/persist.ts';
import type { Review } from '../../api/report/model/types.ts';
import { reports, reviewAlerts } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
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
const PLAN_MESSAGE = 'Early Warning Monitor requires Enterprise or Agency subscription';
const NOT_FOUND = { code: 'not_found', message: 'Business not found' };

function review(rating: number, daysAgo: number, author: string | null = `Author ${rating}-${daysAgo}`, url: string | null = null): Review {
  return { rating, text: `A ${rating}-star review`, author, date: new Date(Date.now() - daysAgo * DAY_MS).toISOString(), url, ownerResponse: null };
}

async function analyse(businessId: string, ownReviews: Review[], provider: 'sample' | 'google' = 'sample') {
  const data = reportDataFixture();
  data.provider = provider;
  data.ownReviews = ownReviews;
  return persistReport(t.ctx, { businessId, requestId: null, reportType: 'scheduled', data });
}

const alertsPath = (id: string) => `/api/business/${id}/review-alerts`;
const thresholdPath = (id: string) => `/api/business/${id}/alert-threshold`;

describe('Early Warning access', () => {
  it('answers the owner on Enterprise or Agency, the consultant of a client; refuses everyone else', async () => {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Lamar Smiles' });

    const ok = await call(t.app, 'GET', `${alertsPath(business.id)}?consultantId=demo-consultant`, undefined, owner.cookie);
    expect(ok.status).toBe(200);
    expect(ok.headers.get('cache-control')).toBe('private, no-store');
    expect(ok.body).toEqual({
      business: { id: business.id, companyName: 'Lamar Smiles', city: 'Austin', state: 'TX', sampleData: false },
      threshold: 3,
      alertWindowDays: 90,
      stats: { total: 0, last30Days: 0, averageRating: null, lowestRating: null, latestReviewDate: null },
      alerts: [],
      // No analysis yet: Share of Local Voice not measured, no fall.
      visibility: { dropPoints: 10, latest: null, drops: [] },
    });

    // Signed out: 401, for reads and writes.
    expect((await call(t.app, 'GET', alertsPath(business.id))).status).toBe(401);
    expect((await call(t.app, 'PUT', thresholdPath(business.id), { threshold: 2.5 })).status).toBe(401);

    // A plan without the monitor (pro, or a lapsed enterprise): 403 with the spec's message.
    for (const plan of [{ tier: 'pro' as const }, { tier: 'enterprise' as const, status: 'canceled' }, { tier: 'free' as const }]) {
      const user = await createUser(t.ctx, plan);
      const own = await seedBusiness(t.ctx, { userId: user.userId });
      for (const [method, path, body] of [['GET', alertsPath(own.business.id), undefined], ['PUT', thresholdPath(own.business.id), { threshold: 2 }]] as const) {
        const res = await call(t.app, method, path, body, user.cookie);
        expect(res.status).toBe(403);
        expect(res.body).toEqual({ code: 'plan_required', message: PLAN_MESSAGE });
      }
    }

    // Another enterprise user, with or without a consultantId naming anyone: the same 404 as an unknown id.
    const stranger = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
    for (const path of [alertsPath(business.id), `${alertsPath(business.id)}?consultantId=${stranger.viewer.consultant!.id}`, alertsPath('no-such-business')]) {
      const res = await call(t.app, 'GET', path, undefined, stranger.cookie);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
    const put = await call(t.app, 'PUT', thresholdPath(business.id), { threshold: 1.5, consultantId: stranger.viewer.consultant!.id }, stranger.cookie);
    expect(put.status).toBe(404);

    // The consultant whose client it is.
    await addClient(t.ctx, stranger.viewer.consultant!.id, business.id);
    expect((await call(t.app, 'GET', alertsPath(business.id), undefined, stranger.cookie)).status).toBe(200);
    expect((await call(t.app, 'PUT', thresholdPath(business.id), { threshold: 3.5 }, stranger.cookie)).body).toEqual({ threshold: 3.5 });
  });
});

describe('alert threshold', () => {
  it('saves a threshold from 1.0 to 5.0 in steps of 0.1 and refuses anything else with 400', async () => {
    const owner = await createUser(t.ctx, { tier: 'agency' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId });
    for (const threshold of [3.7, 1, 5, 2.1]) {
      const res = await call(t.app, 'PUT', thresholdPath(business.id), { threshold, consultantId: 'demo-consultant' }, owner.cookie);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ threshold });
      expect((await call(t.app, 'GET', alertsPath(business.id), undefined, owner.cookie)).body.threshold).toBe(threshold);
    }
    for (const body of [{ threshold: 0.9 }, { threshold: 5.1 }, { threshold: 3.15 }, { threshold: '3' }, { threshold: null }, {}]) {
      const res = await call(t.app, 'PUT', thresholdPath(business.id), body, owner.cookie);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_input');
      expect(res.body.fields).toEqual({ threshold: 'Threshold must be a number between 1.0 and 5.0' });
    }
    for (const body of ['{"threshold":', '[]']) expect((await call(t.app, 'PUT', thresholdPath(business.id), body, owner.cookie)).status).toBe(400);
    expect((await call(t.app, 'GET', alertsPath(business.id), undefined, owner.cookie)).body.threshold).toBe(2.1);
  });
});

describe('alerts from analysis runs', () => {
  it('records each recent review at or below the threshold once, however many runs see it', async () => {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId });
    const first = [review(1, 2, 'Pat Q.', 'https://maps.example/r/1'), review(3, 10), review(3.5, 3), review(5, 1), review(2, 120), review(2, 40, null)];
    await analyse(business.id, first, 'google');
    // The second run sees the same reviews and one new low one.
    await analyse(business.id, [review(2.5, 0, 'New N.'), ...first], 'google');

    const rows = await t.ctx.db.select().from(reviewAlerts).where(eq(reviewAlerts.businessId, business.id));
    expect(rows.map((r) => r.reviewRating).sort()).toEqual([1, 2, 2.5, 3]);
    expect(rows.every((r) => r.alertTriggered && !r.emailSent && r.alertThreshold === 3 && r.platform === 'google')).toBe(true);
    // The report snapshot does not keep the reviews.
    const [report] = await t.ctx.db.select({ data: reports.data }).from(reports).where(eq(reports.businessId, business.id)).limit(1);
    expect(report!.data).not.toHaveProperty('ownReviews');

    const res = await call(t.app, 'GET', alertsPath(business.id), undefined, owner.cookie);
    expect(res.status).toBe(200);
    expect(res.body.stats).toMatchObject({ total: 4, last30Days: 3, averageRating: 2.1, lowestRating: 1 });
    expect(res.body.alerts.map((a: { reviewAuthor: string | null }) => a.reviewAuthor)).toEqual(['New N.', 'Pat Q.', 'Author 3-10', null]);
    expect(res.body.alerts[1]).toMatchObject({ platform: 'google', reviewRating: 1, reviewText: 'A 1-star review', reviewUrl: 'https://maps.example/r/1' });
    expect(Object.keys(res.body.alerts[0]).sort()).toEqual(['createdAt', 'id', 'platform', 'reviewAuthor', 'reviewDate', 'reviewRating', 'reviewText', 'reviewUrl']);
  });

  it('uses the threshold in force, names the sample provider "other", and lists the 10 most recent', async () => {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId });
    await call(t.app, 'PUT', thresholdPath(business.id), { threshold: 4.2 }, owner.cookie);
    await analyse(business.id, Array.from({ length: 12 }, (_, i) => review(i % 2 ? 4.2 : 4.3, i + 1)));
    const rows = await t.ctx.db.select().from(reviewAlerts).where(eq(reviewAlerts.businessId, business.id));
    expect(rows).toHaveLength(6);
    expect(rows.every((r) => r.platform === 'other' && r.alertThreshold === 4.2)).toBe(true);

    await analyse(business.id, Array.from({ length: 8 }, (_, i) => review(1, 30 + i)));
    const res = await call(t.app, 'GET', alertsPath(business.id), undefined, owner.cookie);
    expect(res.body.stats.total).toBe(14);
    expect(res.body.alerts).toHaveLength(10);
    const dates = res.body.alerts.map((a: { reviewDate: number }) => a.reviewDate);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
  });
});
