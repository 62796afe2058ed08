// The real-time review check: a monitored business's reviews are read from the places provider (a
// local double of Google Places) on their own schedule; new low ones become alerts at once,
// e-mailed and pushed as alert.created (verified with standardwebhooks); a second check adds
// nothing (idempotent per review); a quota refusal backs off, longer each time.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { QUOTA_BACKOFF_MS, REVIEWS_CHECK, scheduleReviewChecks } from '../../api/services/review-check.ts';
import { emitEvent } from '../../api/services/webhooks/webhooks.ts';
import { businesses } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reviewAlerts } from '../../db/schema/reports.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';
import { alertCreatedData } from '../helpers/webhook-data.ts';

const DAY = 86_400_000;
let t: TestContext;
let places: Server;
let quota = false;
const review = (k: number, rating: number, daysAgo: number) => ({
  name: `places/gp1/reviews/r${k}`,
  rating,
  text: { text: rating <= 2 ? 'Rude front desk and a long wait.' : 'Lovely team.', languageCode: 'en' },
  authorAttribution: { displayName: `Author ${k}`, uri: `https://maps.google.com/contrib/${k}` },
  publishTime: new Date(Date.now() - daysAgo * DAY).toISOString(),
});
let reviews = [review(1, 5, 1), review(2, 2, 2), review(3, 1, 400)];

const hooks: { headers: IncomingHttpHeaders; body: string }[] = [];
let hookServer: Server;

beforeAll(async () => {
  places = createServer((req, res) => {
    if (quota) return res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ id: 'gp1', reviews }));
  });
  await new Promise<void>((r) => places.listen(0, '127.0.0.1', r));
  hookServer = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => (hooks.push({ headers: req.headers, body }), res.writeHead(200).end('ok')));
  });
  await new Promise<void>((r) => hookServer.listen(0, '127.0.0.1', r));
  t = await createTestContext(
    { PLACES_PROVIDER: 'google', GOOGLE_PLACES_KEY: 'g-key', GOOGLE_PLACES_BASE_URL: `http://127.0.0.1:${(places.address() as AddressInfo).port}` },
    { webhookUrls: { allowLoopback: true, extraPorts: [hookPort()] } },
  );
});
afterAll(async () => {
  await t.close();
  await new Promise((r) => places.close(r));
  await new Promise((r) => hookServer.close(r));
});

const hookPort = () => (hookServer.address() as AddressInfo).port;
const drain = async () => {
  const worker = createWorker(t.ctx, { registry: testRegistry({ webhookFetch: { allowLoopback: true, extraPorts: [hookPort()] } }) });
  while (await worker.runNext());
};

describe('real-time review check', () => {
  it('turns new low reviews into alerts at once, pushes alert.created, and adds nothing on the next check', async () => {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Zilker Dental', snapshots: [{ daysAgo: 3 }] });
    await t.ctx.db.update(businesses).set({ placeId: 'google:gp1', latitude: 30.26, longitude: -97.74 }).where(eq(businesses.id, business.id));
    await t.ctx.db.delete(reviewAlerts).where(eq(reviewAlerts.businessId, business.id));
    const { key } = (await call(t.app, 'POST', '/api/api-keys', { name: 'Hooks', scopes: ['webhooks:write'] }, owner.cookie)).body;
    const created = await t.app.request('/api/v1/webhooks', {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ url: `http://127.0.0.1:${hookPort()}/in`, events: ['alert.created'] }),
    });
    const endpoint = (await created.json()) as { secret: string };
    // A Pro owner's business is not checked.
    const pro = await createUser(t.ctx, { tier: 'pro' });
    await seedBusiness(t.ctx, { userId: pro.userId, snapshots: [{ daysAgo: 3 }] });

    const now = new Date();
    expect(await scheduleReviewChecks(t.ctx, now)).toBe(1);
    expect(await scheduleReviewChecks(t.ctx, now)).toBe(0);
    await drain();
    const alerts = await t.ctx.db.select().from(reviewAlerts).where(eq(reviewAlerts.businessId, business.id));
    // Only the recent low review: the 400-day-old one is outside the alert window, the 5 is not low.
    expect(alerts.map((a) => [a.reviewAuthor, a.reviewRating])).toEqual([['Author 2', 2]]);
    expect(alerts[0]!.emailSent).toBe(true);
    expect(hooks).toHaveLength(1);
    const event = new Webhook(endpoint.secret).verify(hooks[0]!.body, hooks[0]!.headers as Record<string, string>) as { type: string; data: { businessId: string; reviewRating: number } };
    expect(event).toMatchObject({ type: 'alert.created', data: { businessId: business.id, reviewRating: 2 } });

    // The next period: the same reviews again add no alert and no webhook; a new low one does.
    reviews = [...reviews, review(4, 1, 0)];
    expect(await scheduleReviewChecks(t.ctx, new Date(now.getTime() + 60 * 60_000))).toBe(1);
    await drain();
    expect((await t.ctx.db.select().from(reviewAlerts).where(eq(reviewAlerts.businessId, business.id))).length).toBe(2);
    expect(hooks).toHaveLength(2);
    expect(await emitEvent(t.ctx, { userId: owner.userId, type: 'alert.created', eventKey: `alert.created:${alerts[0]!.id}`, data: alertCreatedData(alerts[0]!.id) })).toBe(0);
  });

  it('backs off when the provider refuses for quota, longer each time', async () => {
    quota = true;
    try {
      const owner = await createUser(t.ctx, { tier: 'agency' });
      const { business } = await seedBusiness(t.ctx, { userId: owner.userId, snapshots: [{ daysAgo: 3 }] });
      await t.ctx.db.update(businesses).set({ placeId: 'google:gp1', latitude: 30.26, longitude: -97.74 }).where(eq(businesses.id, business.id));
      await scheduleReviewChecks(t.ctx, new Date(Date.now() + 5 * 60 * 60_000));
      const waits: number[] = [];
      for (let i = 0; i < 2; i++) {
        await drain();
        const [job] = await t.ctx.db.select().from(jobs).where(and(eq(jobs.type, REVIEWS_CHECK), eq(jobs.status, 'queued')));
        expect(job!.lastError).toMatch(/quota/);
        waits.push(job!.runAt.getTime() - Date.now());
        await t.ctx.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, job!.id));
      }
      expect(Math.abs(waits[0]! - QUOTA_BACKOFF_MS)).toBeLessThan(5000);
      expect(Math.abs(waits[1]! - 2 * QUOTA_BACKOFF_MS)).toBeLessThan(5000);
    } finally {
      quota = false;
    }
  });
});
