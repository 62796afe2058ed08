// Webhook endpoints' health and delivery log: an address delivery would refuse is refused when it
// is added, with the reason; an endpoint says whether it is active, failing or disabled, when it
// last succeeded and how many attempts failed since; the delivery log is paged (API and screen).
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/api.ts';
import { safeFetch } from '../../api/lib/safe-fetch.ts';
import { webhookUrlRules } from '../../api/services/webhooks/webhooks.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
let owner: Awaited<ReturnType<typeof createUser>>;
let key: string;
beforeAll(async () => {
  t = await createTestContext();
  owner = await createUser(t.ctx, { tier: 'agency' });
  key = (await call(t.app, 'POST', '/api/api-keys', { name: 'Hooks', scopes: ['webhooks:write'] }, owner.cookie)).body.key;
});
afterAll(() => t.close());

async function v1(method: string, path: string, body?: unknown) {
  const res = await t.app.request(`/api/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

describe('adding a webhook endpoint', () => {
  it('refuses, with the reason, an address delivery would refuse', async () => {
    const cases: Array<[string, RegExp]> = [
      ['http://127.0.0.1/hooks', /private, loopback or reserved addresses \(127\.0\.0\.1 is loopback\)/],
      ['https://10.1.2.3/hooks', /10\.1\.2\.3 is private/],
      ['https://[::1]/hooks', /\(::1 is loopback\)/],
      ['https://169.254.169.254/latest', /169\.254\.169\.254 is linkLocal/],
      ['http://localhost/hooks', /localhost/],
      ['https://hooks.example.com:8443/in', /ports 80 and 443 only \(port 8443\)/],
      ['https://user:secret@hooks.example.com/in', /No user name or password/],
    ];
    for (const [url, reason] of cases) {
      const res = await v1('POST', '/webhooks', { url, events: ['report.completed'] });
      expect(res.status, url).toBe(400);
      expect(res.body.fields.url, url).toMatch(reason);
    }
    expect((await t.ctx.db.select().from(webhookEndpoints)).length).toBe(0);
    const ok = await v1('POST', '/webhooks', { url: 'https://hooks.example.com/in', events: ['report.completed'] });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ state: 'active', lastSuccessAt: null, consecutiveFailures: 0 });
  });

  it('resolves the name when it is added, and refuses it with the words a delivery would log', async () => {
    // Names the test resolver answers (tests/helpers/dns.ts): ours, our network's, the clouds' metadata address, none.
    const cases: Array<[string, string]> = [
      ['https://loopback.hooks.test/in', 'Deliveries never go to private, loopback or reserved addresses (loopback.hooks.test: 127.0.0.1 is loopback)'],
      ['https://private.hooks.test/in', 'Deliveries never go to private, loopback or reserved addresses (private.hooks.test: 10.0.0.8 is private)'],
      ['http://metadata.hooks.test/computeMetadata/v1/', 'Deliveries never go to private, loopback or reserved addresses (metadata.hooks.test: 169.254.169.254 is linkLocal)'],
      ['http://metadata.google.internal/computeMetadata/v1/', 'Deliveries never go to private, loopback or reserved addresses (metadata.google.internal is a private-use name)'],
      ['https://hooks.nowhere.invalid/in', 'Deliveries need a name that resolves (host not found: hooks.nowhere.invalid)'],
    ];
    for (const [url, message] of cases) {
      const res = await v1('POST', '/webhooks', { url, events: ['report.completed'] });
      expect(res.status, url).toBe(400);
      expect(res.body.fields.url, url).toBe(message);
      // The account screen's route says the same.
      const screen = await call(t.app, 'POST', '/api/webhooks', { url, events: ['report.completed'] }, owner.cookie);
      expect(screen.body.fields?.url, url).toBe(message);
    }
    expect(await t.ctx.db.select().from(webhookEndpoints).where(like(webhookEndpoints.url, '%.test/%'))).toEqual([]);
  });

  it("delivery's guard says the same about a name that resolves to our own machine", async () => {
    const rules = webhookUrlRules(t.ctx.env);
    const delivered = await safeFetch('https://loopback.hooks.test/in', { ...rules, method: 'POST', body: '{}', maxRedirects: 0 }).catch((error: Error) => error.message);
    expect(delivered).toBe('refused loopback.hooks.test: 127.0.0.1 is loopback');
    const unresolvable = await safeFetch('https://hooks.nowhere.invalid/in', { ...rules, method: 'POST', body: '{}', maxRedirects: 0 }).catch((error: Error) => error.message);
    expect(unresolvable).toBe('host not found: hooks.nowhere.invalid');
  });
});

describe('endpoint health and the delivery log', () => {
  it('says failing, then active with the last success, then disabled; pages the log in the API and on the screen', async () => {
    const created = await v1('POST', '/webhooks', { url: 'https://health.example.com/in', events: ['report.completed'] });
    const id = created.body.id as string;
    const t0 = Date.now() - 3_600_000;
    // 60 deliveries, one attempt each: the first 55 answered 204, the last 5 failed (two 500s, three without an answer).
    for (let i = 0; i < 60; i++) {
      const [d] = await t.ctx.db
        .insert(webhookDeliveries)
        .values({ endpointId: id, messageId: `msg_${i}`, eventKey: `report.completed:${i}`, type: 'report.completed', payload: '{}', status: i < 55 ? 'delivered' : 'failed', attempts: 1, createdAt: new Date(t0 + i * 1000) })
        .returning();
      await t.ctx.db.insert(webhookAttempts).values({ deliveryId: d!.id, at: new Date(t0 + i * 1000 + 100), responseStatus: i < 55 ? 204 : i < 57 ? 500 : null, excerpt: null, durationMs: 12 });
    }
    const endpoint = async () => ((await v1('GET', '/webhooks')).body.endpoints as Array<Record<string, unknown>>).find((e) => e.id === id)!;
    expect(await endpoint()).toMatchObject({ state: 'failing', consecutiveFailures: 5, lastSuccessAt: new Date(t0 + 54 * 1000 + 100).toISOString() });

    const first = await v1('GET', `/webhooks/${id}/deliveries`);
    expect(first.body.deliveries).toHaveLength(50);
    expect(first.body.deliveries[0].messageId).toBe('msg_59');
    const second = await v1('GET', `/webhooks/${id}/deliveries?cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect(second.body.deliveries.map((d: { messageId: string }) => d.messageId)).toEqual(Array.from({ length: 10 }, (_, i) => `msg_${9 - i}`));
    expect(second.body.nextCursor).toBeNull();
    expect((await v1('GET', `/webhooks/${id}/deliveries?limit=7`)).body.deliveries).toHaveLength(7);

    // The account screen: 10 a page, then older ones through its own route.
    const screen = (await call(t.app, 'GET', '/api/webhooks', undefined, owner.cookie)).body.endpoints.find((e: { id: string }) => e.id === id);
    expect(screen).toMatchObject({ state: 'failing', consecutiveFailures: 5 });
    expect(screen.deliveries).toHaveLength(10);
    const older = await call(t.app, 'GET', `/api/webhooks/${id}/deliveries?cursor=${encodeURIComponent(screen.nextCursor)}`, undefined, owner.cookie);
    expect(older.body.deliveries[0].messageId).toBe('msg_49');
    const stranger = await createUser(t.ctx, { tier: 'agency' });
    expect((await call(t.app, 'GET', `/api/webhooks/${id}/deliveries`, undefined, stranger.cookie)).status).toBe(404);

    // A success after the failures: active again.
    const [d] = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.messageId, 'msg_59'));
    await t.ctx.db.insert(webhookAttempts).values({ deliveryId: d!.id, at: new Date(), responseStatus: 200, excerpt: 'ok', durationMs: 9 });
    expect(await endpoint()).toMatchObject({ state: 'active', consecutiveFailures: 0 });

    await t.ctx.db.update(webhookEndpoints).set({ disabledAt: new Date() }).where(eq(webhookEndpoints.id, id));
    expect(await endpoint()).toMatchObject({ state: 'disabled' });
  });
});
