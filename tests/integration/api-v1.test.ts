// The public API (/api/v1): every route × (owner, another account, revoked key, wrong scope,
// lapsed plan); problem+json errors; rate limit headers and 429; every answer validated against
// the published OpenAPI document.
import { readdirSync, readFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { scopesFor, type ApiScope } from '../../common/schemas/api-keys.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { WEBHOOK_FAILURE_WINDOW_MS, WEBHOOK_RETRY_DELAYS_MS } from '../../api/services/webhooks/delivery.ts';
import { emitEvent, WEBHOOK_SECRET_OVERLAP_HOURS } from '../../api/services/webhooks/webhooks.ts';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/api.ts';
import { users } from '../../db/schema/auth.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { reports, reviewAlerts } from '../../db/schema/reports.ts';
import { brandingProfiles, clients } from '../../db/schema/consultants.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { saveScan } from '../../api/services/ai-visibility/store.ts';
import { createUser } from '../helpers/factories.ts';
import { checked, expectDocumented, operationsOf, type OpenApiDocument } from '../helpers/openapi.ts';

let t: TestContext;
/** The local receivers' ports: endpoints may be added with them here (tests only). */
const HOOK_PORTS: number[] = [];
let doc: OpenApiDocument;
beforeAll(async () => {
  t = await createTestContext({ API_RATE_LIMIT_ENTERPRISE: '5000' }, { webhookUrls: { allowLoopback: true, extraPorts: HOOK_PORTS } });
  doc = (await call(t.app, 'GET', '/api/v1/openapi.json')).body;
});
afterAll(() => t.close());

const ALL: ApiScope[] = ['reports:read', 'reports:write', 'businesses:read', 'businesses:write', 'alerts:read', 'alerts:write', 'reviews:read', 'reviews:write', 'clients:read', 'clients:write', 'webhooks:write'];

async function account(tier: 'enterprise' | 'agency' = 'enterprise', wanted: ApiScope[] = ALL, role: 'client' | 'consultant' = 'client') {
  const user = await createUser(t.ctx, { tier, role });
  // A business owner's key cannot have the clients scopes (scopesFor).
  const scopes = wanted.filter((s) => scopesFor(role).includes(s));
  const { key, apiKey } = (await call(t.app, 'POST', '/api/api-keys', { name: 'Test', scopes }, user.cookie)).body;
  return { ...user, key: key as string, keyId: apiKey.id as string };
}

/** A request with a key; the answer is checked against the document. */
export async function v1(key: string | null, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await t.app.request(`/api/v1${path}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const answer = { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
  expectDocumented(doc, method, `/api/v1${path}`, answer);
  return answer;
}

describe('public API: document and errors', () => {
  it('publishes an OpenAPI 3.1 document generated from the routes', async () => {
    expect(doc).toMatchObject({ openapi: '3.1.0', info: { title: 'LocalRank API' } });
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/businesses', '/businesses/{businessId}', '/businesses/{businessId}/history', '/businesses/{businessId}/alerts']));
  });

  it('answers a missing, malformed or revoked key 401 and a lapsed plan 403, as problem+json', async () => {
    const owner = await account();
    const missing = await v1(null, 'GET', '/businesses');
    expect(missing.status).toBe(401);
    expect(missing.headers.get('content-type')).toBe('application/problem+json');
    expect(missing.body).toMatchObject({ status: 401, code: 'unauthenticated', title: 'Unauthenticated', type: '/docs/api#error-unauthenticated' });
    expect((await v1('lr_live_not-a-key', 'GET', '/businesses')).status).toBe(401);
    await call(t.app, 'DELETE', `/api/api-keys/${owner.keyId}`, undefined, owner.cookie);
    expect((await v1(owner.key, 'GET', '/businesses')).status).toBe(401);

    const lapsed = await account('agency');
    await t.ctx.db.update(users).set({ subscriptionStatus: 'suspended' }).where(eq(users.id, lapsed.userId));
    const refused = await v1(lapsed.key, 'GET', '/businesses');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('plan_required');
    expect(refused.body.detail).toMatch(/Enterprise and Agency/);
  });

  it('sends RateLimit-Policy and RateLimit on every answer, and 429 with Retry-After past the limit', async () => {
    const local = await createTestContext({ API_RATE_LIMIT_ENTERPRISE: '3' });
    try {
      const user = await createUser(local.ctx, { tier: 'enterprise' });
      const { key } = (await call(local.app, 'POST', '/api/api-keys', { name: 'Limited', scopes: ['businesses:read'] }, user.cookie)).body;
      // The clock stands still: the four requests must fall in one of the clock's minutes.
      vi.useFakeTimers({ toFake: ['Date'] });
      const seen: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await local.app.request('/api/v1/businesses', { headers: { authorization: `Bearer ${key}` } });
        expect(res.status).toBe(200);
        expect(res.headers.get('ratelimit-policy')).toBe('"per-key";q=3;w=60');
        seen.push(res.headers.get('ratelimit')!.split(';t=')[0]!);
      }
      expect(seen).toEqual(['"per-key";r=2', '"per-key";r=1', '"per-key";r=0']);
      const limited = await local.app.request('/api/v1/businesses', { headers: { authorization: `Bearer ${key}` } });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(limited.headers.get('ratelimit')).toMatch(/^"per-key";r=0;t=\d+$/);
      expect(((await limited.json()) as { code: string }).code).toBe('rate_limited');
    } finally {
      vi.useRealTimers();
      await local.close();
    }
  });
});

describe('public API: bad input on every route', () => {
  const GARBAGE = ['0', 'null', '%25', '%00', "1'%20OR%20'1'%3D'1", '..%2F..%2Fetc%2Fpasswd', '%F0%9F%92%A9', 'x'.repeat(3000)];
  const BODIES = ['{"threshold":', '', 'null', '[]', '"x"', '{}', '{"threshold":"3","isAdmin":true}', '{"__proto__":{"x":1}}'];
  const routes = () => [...new Set(t.app.routes.filter((r) => r.path.startsWith('/api/v1/') && r.method !== 'ALL' && !r.path.endsWith('openapi.json')).map((r) => `${r.method} ${r.path}`))];
  const isProblem = (res: { status: number; headers: Headers; body: { code?: unknown; detail?: unknown } }, where: string) => {
    expect(res.status, where).toBeLessThan(500);
    if (res.status < 400) return;
    expect(res.headers.get('content-type'), where).toBe('application/problem+json');
    expect(typeof res.body.code === 'string' && typeof res.body.detail === 'string', where).toBe(true);
  };

  it('garbage ids never make a 5xx and answer problem+json', async () => {
    const owner = await account('agency', ALL, 'consultant');
    for (const route of routes()) {
      const [method, path] = route.split(' ') as [string, string];
      for (const id of path.includes(':') ? GARBAGE : ['']) {
        const res = await t.app.request(path.replace(/:\w+/g, id), { method, headers: { authorization: `Bearer ${owner.key}` } });
        const text = await res.text();
        isProblem({ status: res.status, headers: res.headers, body: text ? JSON.parse(text) : {} }, `${route} ${id.slice(0, 20)}`);
      }
    }
  });

  it('bad bodies on the owner\'s objects are 400 invalid_input with per-field messages where it has fields', async () => {
    const owner = await account('agency', ALL, 'consultant');
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId });
    const client = (await v1(owner.key, 'POST', '/clients', NEW_CLIENT)).body;
    for (const route of routes()) {
      const [method, path] = route.split(' ') as [string, string];
      if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') continue;
      // Only the routes that take a body (rotate-secret and resend take none).
      const template = path.replace(/^\/api\/v1/, '').replace(/:(\w+)/g, '{$1}');
      if (!(doc.paths[template]![method.toLowerCase()] as { requestBody?: unknown }).requestBody) continue;
      for (const body of BODIES) {
        // Every field of a PATCH is optional: an empty object changes nothing and is fine.
        if (method === 'PATCH' && body === '{}') continue;
        const res = await t.app.request(path.replace(':businessId', business.id).replace(':clientId', client.id), {
          method,
          headers: { authorization: `Bearer ${owner.key}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() },
          body,
        });
        const answer = { status: res.status, headers: res.headers, body: (await res.json()) as { code: string; detail: string; fields?: object } };
        isProblem(answer, `${route} ${body}`);
        expect(answer.status, `${route} ${body}`).toBe(400);
        expect(answer.body.code).toBe('invalid_input');
      }
    }
  });
});

describe('public API: businesses', () => {
  it('reads the owner\'s business, competitors, metrics and history; another account gets 404', async () => {
    const owner = await account();
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Congress Dental', snapshots: [{ daysAgo: 20 }, { daysAgo: 5, seed: 7 }] });
    const one = await v1(owner.key, 'GET', `/businesses/${business.id}`);
    expect(one.status).toBe(200);
    expect(one.body.business).toMatchObject({ id: business.id, company: 'Congress Dental' });
    expect(one.headers.get('ratelimit')).toMatch(/^"per-key";r=\d+;t=\d+$/);
    expect(one.headers.get('cache-control')).toBe('private, no-store');
    expect(one.body.competitors.length).toBeGreaterThan(0);
    expect(one.body.metrics.some((m: { isMainBusiness: boolean }) => m.isMainBusiness)).toBe(true);
    const history = await v1(owner.key, 'GET', `/businesses/${business.id}/history`);
    expect(history.body.history).toHaveLength(2);
    expect(history.body.days).toBe(90);
    // Seeded snapshots carry no visibility grid: an empty page (the grid's own file tests a full one).
    const visibility = await v1(owner.key, 'GET', `/businesses/${business.id}/visibility`);
    expect(visibility.body).toEqual({ businessId: business.id, scans: [], nextCursor: null });
    // Visibility in AI answers (issue 50): the scans, newest first, without the engines' dollars.
    expect((await v1(owner.key, 'GET', `/businesses/${business.id}/ai-visibility`)).body).toEqual({ businessId: business.id, waitingUntil: null, scans: [] });
    const engines = [{ engine: 'openai' as const, asked: 5, answered: 4, failed: 1, named: 3, averagePosition: 1.3, sources: [{ domain: 'yelp.com', count: 2, kind: 'review_site' as const }] }];
    await saveScan(t.ctx, business.id, { keyword: 'dentist', location: 'Austin, TX', question: 'best dentist in Austin, TX', scannedAt: '2026-11-30T10:00:00.000Z', sample: false, engines, competitors: [{ name: 'Lone Star Smiles', engines: [{ engine: 'openai', named: 2, averagePosition: 2 }] }], cost: { calls: 7, inputTokens: 100, outputTokens: 50, usd: 0.04 } });
    const ai = await v1(owner.key, 'GET', `/businesses/${business.id}/ai-visibility`);
    expect(ai.status).toBe(200);
    expect(ai.body.scans).toEqual([{ keyword: 'dentist', location: 'Austin, TX', question: 'best dentist in Austin, TX', scannedAt: '2026-11-30T10:00:00.000Z', sample: false, engines, competitors: [{ name: 'Lone Star Smiles', engines: [{ engine: 'openai', named: 2, averagePosition: 2 }] }] }]);

    const stranger = await account();
    expect((await v1(stranger.key, 'GET', `/businesses/${business.id}`)).status).toBe(404);
    expect((await v1(stranger.key, 'GET', `/businesses/${business.id}/history`)).status).toBe(404);
    expect((await v1(stranger.key, 'GET', `/businesses/${business.id}/ai-visibility`)).status).toBe(404);
    const narrow = await account('enterprise', ['alerts:read']);
    const wrongScope = await v1(narrow.key, 'GET', `/businesses/${business.id}`);
    expect(wrongScope.status).toBe(403);
    expect(wrongScope.body.detail).toContain('businesses:read');
  });

  it('pages through businesses with a cursor, including a consultant\'s clients', async () => {
    const agency = await account('agency', ALL, 'consultant');
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push((await seedBusiness(t.ctx, { userId: agency.userId, company: `Shop ${i}` })).business.id);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { status: number; body: { businesses: { id: string }[]; nextCursor: string | null } } = await v1(agency.key, 'GET', `/businesses?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.status).toBe(200);
      seen.push(...page.body.businesses.map((b) => b.id));
      cursor = page.body.nextCursor;
    } while (cursor);
    expect(seen.sort()).toEqual([...ids].sort());
    const bad = await v1(agency.key, 'GET', '/businesses?cursor=nonsense&limit=500');
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields)).toEqual(['limit']);
    expect((await v1(agency.key, 'GET', '/businesses?cursor=bm9uc2Vuc2U')).body.fields).toEqual({ cursor: 'Not a cursor this API gave out' });
  });
});

const NEW_CLIENT = { clientName: 'Dana Whitfield', clientEmail: 'dana@client.example', company: 'Whitfield Dental', website: 'https://whitfield-dental.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' };
const FORM = { fullName: 'Dana Whitfield', email: 'dana@whitfield.example', company: 'Whitfield Dental', role: 'owner', website: 'https://whitfield-dental.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' };
const drain = async () => {
  const worker = createWorker(t.ctx, { registry: testRegistry({ analyse: async () => reportDataFixture({ seed: 11 }) }) });
  while (await worker.runNext());
};

describe('public API: reports', () => {
  it('a report without a market (no competitor within the radius) has no rank, no share and no Market Share score, as the document says (decision 0216)', async () => {
    const owner = await account();
    const requested = await v1(owner.key, 'POST', '/reports', { ...FORM, company: 'Prairie Creek Dental' }, { 'idempotency-key': crypto.randomUUID() });
    const alone = reportDataFixture({ seed: 12 });
    alone.competitors = [];
    alone.business.scores = { ...alone.business.scores, marketShare: null, marketSharePercent: null };
    const worker = createWorker(t.ctx, { registry: testRegistry({ analyse: async () => alone }) });
    while (await worker.runNext());
    const done = await v1(owner.key, 'GET', `/reports/${requested.body.id}`);
    expect(done.body.status).toBe('completed');
    expect(done.body.result).toMatchObject({ rank: null, rankOf: null, competitors: [], scores: { marketShare: null, marketSharePercent: null } });
  });

  it('requests a report with an Idempotency-Key, replays it, refuses another body with it, and reads the finished report', async () => {
    const owner = await account();
    const key = crypto.randomUUID();
    const first = await v1(owner.key, 'POST', '/reports', FORM, { 'idempotency-key': key });
    expect(first.status).toBe(202);
    expect(first.body).toEqual({ id: expect.any(String), status: 'queued' });
    const again = await v1(owner.key, 'POST', '/reports', FORM, { 'idempotency-key': key });
    expect(again.status).toBe(202);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    const other = await v1(owner.key, 'POST', '/reports', { ...FORM, company: 'Another Dental' }, { 'idempotency-key': key });
    expect(other.status).toBe(422);
    expect(other.body.code).toBe('unprocessable');
    const missing = await v1(owner.key, 'POST', '/reports', FORM);
    expect(missing.status).toBe(400);
    expect(Object.keys(missing.body.fields)).toEqual(['idempotency-key']);
    const bad = await v1(owner.key, 'POST', '/reports', { ...FORM, zip: 'x', state: 'ZZ' }, { 'idempotency-key': crypto.randomUUID() });
    expect(Object.keys(bad.body.fields).sort()).toEqual(['state', 'zip']);

    const queued = await v1(owner.key, 'GET', `/reports/${first.body.id}`);
    expect(queued.body).toMatchObject({ id: first.body.id, status: 'queued', result: null, business: { company: 'Whitfield Dental' } });
    await drain();
    const done = await v1(owner.key, 'GET', `/reports/${first.body.id}`);
    expect(done.body.status).toBe('completed');
    expect(done.body.result.competitors.length).toBeGreaterThan(0);
    expect(done.body.result.recommendations.length).toBeGreaterThan(0);
    expect(done.body.result.links.pdf).toMatch(/\/api\/reports\/[^/]+\/report\.pdf$/);
    expect(done.body.result.links.online).toMatch(/\/report\/[^/]+$/);

    const stranger = await account();
    expect((await v1(stranger.key, 'GET', `/reports/${first.body.id}`)).status).toBe(404);
    // Keys are per account: the same Idempotency-Key from another account is a new request.
    expect((await v1(stranger.key, 'POST', '/reports', { ...FORM, company: 'Stranger Dental' }, { 'idempotency-key': key })).status).toBe(202);
    const readOnly = await account('enterprise', ['reports:read']);
    expect((await v1(readOnly.key, 'POST', '/reports', FORM, { 'idempotency-key': crypto.randomUUID() })).status).toBe(403);
  });

  it('takes two concurrent requests with one key once: the other answers 409 or the same answer', async () => {
    const owner = await account();
    const key = crypto.randomUUID();
    const body = { ...FORM, company: 'Concurrent Dental' };
    const answers = await Promise.all([1, 2, 3].map(() => v1(owner.key, 'POST', '/reports', body, { 'idempotency-key': key })));
    const accepted = answers.filter((a) => a.status === 202);
    expect(accepted.length).toBeGreaterThan(0);
    expect(new Set(accepted.map((a) => a.body.id)).size).toBe(1);
    for (const a of answers) expect([202, 409]).toContain(a.status);
    const rows = await t.ctx.db.$read('SELECT count(*) AS n FROM report_requests WHERE user_id = ?1', [owner.userId]);
    expect(Number(rows[0]!.n)).toBe(1);
  });
});

describe('public API: a report for a client', () => {
  it("with clientId the report is the consultant's client's, in its branding profile; another consultant's client is 404, a business owner 403", async () => {
    const agency = await account('agency', ALL, 'consultant');
    const added = await v1(agency.key, 'POST', '/clients', { clientName: 'Pat Lee', clientEmail: 'pat@lee-dental.example', company: 'Lee Dental', website: 'https://lee-dental.example', address: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', reportFrequency: 'monthly' });
    expect(added.status).toBe(201);
    const [profile] = await t.ctx.db.insert(brandingProfiles).values({ consultantId: agency.viewer.consultant!.id, companyName: 'Lee Agency', isDefault: false }).returning();
    await t.ctx.db.update(clients).set({ brandingProfileId: profile!.id }).where(eq(clients.id, added.body.id));
    await drain();

    const asked = await v1(agency.key, 'POST', '/reports', { ...FORM, company: 'Lee Dental Annex', clientId: added.body.id }, { 'idempotency-key': crypto.randomUUID() });
    expect(asked.status).toBe(202);
    await drain();
    const [row] = await t.ctx.db.select().from(reports).where(eq(reports.requestId, asked.body.id));
    expect(row).toMatchObject({ consultantId: agency.viewer.consultant!.id, clientId: added.body.id, brandingProfileId: profile!.id });
    expect((await v1(agency.key, 'GET', `/reports/${asked.body.id}`)).body.status).toBe('completed');

    const other = await account('agency', ALL, 'consultant');
    const theirs = await v1(other.key, 'POST', '/reports', { ...FORM, clientId: added.body.id }, { 'idempotency-key': crypto.randomUUID() });
    expect(theirs.status).toBe(404);
    const owner = await account('enterprise');
    expect((await v1(owner.key, 'POST', '/reports', { ...FORM, clientId: added.body.id }, { 'idempotency-key': crypto.randomUUID() })).status).toBe(403);
    expect((await v1(agency.key, 'POST', '/reports', { ...FORM, clientId: 'not-an-id' }, { 'idempotency-key': crypto.randomUUID() })).body.fields).toEqual({ clientId: 'Must be the id of one of your clients' });
  });
});

describe('public API: clients', () => {
  it('lists, adds, reads and updates a consultant\'s clients with the screens\' rules; others get 404 or 403', async () => {
    const agency = await account('agency', ALL, 'consultant');
    const created = await v1(agency.key, 'POST', '/clients', NEW_CLIENT);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ clientName: 'Dana Whitfield', reportFrequency: 'monthly', business: { company: 'Whitfield Dental' } });
    const list = await v1(agency.key, 'GET', '/clients?search=whitfield');
    expect(list.body.clients.map((c: { id: string }) => c.id)).toEqual([created.body.id]);
    expect((await v1(agency.key, 'GET', `/clients/${created.body.id}`)).body.id).toBe(created.body.id);
    const updated = await v1(agency.key, 'PATCH', `/clients/${created.body.id}`, { reportFrequency: 'weekly' });
    expect(updated.body.reportFrequency).toBe('weekly');
    const invalid = await v1(agency.key, 'POST', '/clients', { ...NEW_CLIENT, clientEmail: 'nope' });
    expect(Object.keys(invalid.body.fields)).toEqual(['clientEmail']);

    const otherAgency = await account('agency', ALL, 'consultant');
    expect((await v1(otherAgency.key, 'GET', `/clients/${created.body.id}`)).status).toBe(404);
    expect((await v1(otherAgency.key, 'PATCH', `/clients/${created.body.id}`, { notes: 'x'.repeat(5000) })).status).toBe(404);
    const notConsultant = await account('enterprise');
    const refused = await v1(notConsultant.key, 'GET', '/clients');
    expect(refused.status).toBe(403);
    // A business owner's key is never given the clients scopes.
    expect(refused.body.detail).toBe('This API key lacks the "clients:read" scope.');
    const readOnly = await account('agency', ['clients:read'], 'consultant');
    expect((await v1(readOnly.key, 'POST', '/clients', NEW_CLIENT)).status).toBe(403);
  });
});

describe('public API: alerts', () => {
  it('lists alerts since a time and reads and sets the threshold; other accounts get 404', async () => {
    const owner = await account('enterprise');
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, snapshots: [{ daysAgo: 1 }] });
    await t.ctx.db.delete(reviewAlerts).where(eq(reviewAlerts.businessId, business.id));
    const old = new Date(Date.now() - 10 * 86_400_000);
    await t.ctx.db.insert(reviewAlerts).values([
      { businessId: business.id, platform: 'google', reviewRating: 1, reviewAuthor: 'A', reviewDate: old, createdAt: old, alertTriggered: true },
      { businessId: business.id, platform: 'yelp', reviewRating: 2, reviewAuthor: 'B', reviewText: 'Slow', reviewDate: new Date(), createdAt: new Date(), alertTriggered: true },
    ]);
    const all = await v1(owner.key, 'GET', `/businesses/${business.id}/alerts`);
    expect(all.body.alerts.map((a: { reviewAuthor: string }) => a.reviewAuthor)).toEqual(['B', 'A']);
    const since = await v1(owner.key, 'GET', `/businesses/${business.id}/alerts?since=${new Date(Date.now() - 86_400_000).toISOString()}`);
    expect(since.body.alerts.map((a: { reviewAuthor: string }) => a.reviewAuthor)).toEqual(['B']);
    expect((await v1(owner.key, 'GET', `/businesses/${business.id}/alerts?since=yesterday`)).status).toBe(400);

    expect((await v1(owner.key, 'GET', `/businesses/${business.id}/alert-threshold`)).body).toEqual({ businessId: business.id, threshold: 3 });
    expect((await v1(owner.key, 'PUT', `/businesses/${business.id}/alert-threshold`, { threshold: 3.5 })).body.threshold).toBe(3.5);
    const bad = await v1(owner.key, 'PUT', `/businesses/${business.id}/alert-threshold`, { threshold: 3.55 });
    expect(bad.body.fields).toEqual({ threshold: 'Threshold must be a number between 1.0 and 5.0 with one decimal (2.5, not 2.55)' });

    const stranger = await account('agency');
    expect((await v1(stranger.key, 'GET', `/businesses/${business.id}/alerts`)).status).toBe(404);
    // Ownership is checked before the body: a stranger learns nothing from a 400.
    expect((await v1(stranger.key, 'PUT', `/businesses/${business.id}/alert-threshold`, { threshold: 'x' })).status).toBe(404);
    const readOnly = await account('enterprise', ['alerts:read']);
    expect((await v1(readOnly.key, 'PUT', `/businesses/${business.id}/alert-threshold`, { threshold: 4 })).status).toBe(403);

    // Whether the rank counts the brand's other locations (decision 0235; own-brand.test.ts ranks by it).
    expect((await v1(owner.key, 'PUT', `/businesses/${business.id}/settings`, { rankWithBranches: true })).body).toEqual({ businessId: business.id, rankWithBranches: true });
    expect((await v1(owner.key, 'GET', `/businesses/${business.id}`)).body.business.rankWithBranches).toBe(true);
    expect((await v1(owner.key, 'PUT', `/businesses/${business.id}/settings`, { rankWithBranches: 'no' })).body.fields).toEqual({ rankWithBranches: 'rankWithBranches must be true or false' });
    expect((await v1(stranger.key, 'PUT', `/businesses/${business.id}/settings`, { rankWithBranches: 'x' })).status).toBe(404);
    expect((await v1(readOnly.key, 'PUT', `/businesses/${business.id}/settings`, { rankWithBranches: false })).status).toBe(403);
  });
});

/** A local webhook receiver: answers with the status `respond` gives, records every request. */
async function receiver(respond: () => number = () => 204) {
  const received: { headers: IncomingHttpHeaders; body: string }[] = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(respond(), { 'content-type': 'text/plain' }).end('receiver says hello');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  HOOK_PORTS.push(port);
  return { url: `http://127.0.0.1:${port}/hooks`, port, received, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Runs every due job with a worker that may reach the local receiver (tests only). */
async function drainWith(port: number) {
  const worker = createWorker(t.ctx, { registry: testRegistry({ analyse: async () => reportDataFixture({ seed: 11 }), webhookFetch: { allowLoopback: true, extraPorts: [port] } }) });
  while (await worker.runNext());
}

describe('public API: webhooks', () => {
  it('an enterprise user requests a report and receives report.completed, signed per Standard Webhooks, then fetches the report', async () => {
    const owner = await account();
    const hook = await receiver();
    try {
      const endpoint = await v1(owner.key, 'POST', '/webhooks', { url: hook.url, events: ['report.completed'], description: 'CI' });
      expect(endpoint.status).toBe(201);
      expect(endpoint.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
      const requested = await v1(owner.key, 'POST', '/reports', { ...FORM, company: 'Webhook Dental' }, { 'idempotency-key': crypto.randomUUID() });
      await drainWith(hook.port);
      expect(hook.received).toHaveLength(1);
      const { headers, body } = hook.received[0]!;
      const event = new Webhook(endpoint.body.secret).verify(body, {
        'webhook-id': String(headers['webhook-id']),
        'webhook-timestamp': String(headers['webhook-timestamp']),
        'webhook-signature': String(headers['webhook-signature']),
      }) as { type: string; data: { reportId: string; status: string } };
      expect(event).toMatchObject({ type: 'report.completed', data: { reportId: requested.body.id, status: 'completed' } });
      expect(() => new Webhook(`whsec_${Buffer.from('another secret, 24 bytes!').toString('base64')}`).verify(body, headers as Record<string, string>)).toThrow();
      expect((await v1(owner.key, 'GET', `/reports/${event.data.reportId}`)).body.status).toBe('completed');

      const log = await v1(owner.key, 'GET', `/webhooks/${endpoint.body.id}/deliveries`);
      expect(log.body.deliveries).toHaveLength(1);
      expect(log.body.deliveries[0]).toMatchObject({ type: 'report.completed', status: 'delivered', messageId: headers['webhook-id'], attempts: [{ responseStatus: 204 }] });
      const resent = await v1(owner.key, 'POST', `/webhooks/${endpoint.body.id}/deliveries/${log.body.deliveries[0].id}/resend`);
      expect(resent.status).toBe(202);
      await drainWith(hook.port);
      expect(hook.received).toHaveLength(2);
      expect(hook.received[1]!.headers['webhook-id']).toBe(headers['webhook-id']);

      // A test event, although the endpoint receives only report.completed (issue 39).
      const tested = await v1(owner.key, 'POST', `/webhooks/${endpoint.body.id}/test`);
      expect(tested.status).toBe(202);
      await drainWith(hook.port);
      expect(hook.received).toHaveLength(3);
      expect(JSON.parse(hook.received[2]!.body)).toMatchObject({ type: 'webhook.test', data: { endpointId: endpoint.body.id } });

      const stranger = await account();
      expect((await v1(stranger.key, 'POST', `/webhooks/${endpoint.body.id}/test`)).status).toBe(404);
      expect((await v1(stranger.key, 'GET', `/webhooks/${endpoint.body.id}/deliveries`)).status).toBe(404);
      expect((await v1(stranger.key, 'POST', `/webhooks/${endpoint.body.id}/deliveries/${log.body.deliveries[0].id}/resend`)).status).toBe(404);
      expect((await v1(stranger.key, 'POST', `/webhooks/${endpoint.body.id}/rotate-secret`)).status).toBe(404);
      expect((await v1(stranger.key, 'DELETE', `/webhooks/${endpoint.body.id}`)).status).toBe(404);
      expect((await v1(stranger.key, 'GET', '/webhooks')).body.endpoints).toEqual([]);
      const rotated = await v1(owner.key, 'POST', `/webhooks/${endpoint.body.id}/rotate-secret`);
      expect(rotated.body.secret).not.toBe(endpoint.body.secret);
      expect(Date.parse(rotated.body.previousSecretValidUntil) - Date.now()).toBeGreaterThan((WEBHOOK_SECRET_OVERLAP_HOURS - 1) * 3_600_000);
      // During the overlap a delivery carries two signatures: a receiver on either secret accepts it.
      await emitEvent(t.ctx, { userId: owner.userId, type: 'report.completed', eventKey: 'report.completed:rotation-1', data: { reportId: 'rotation-1', businessId: 'business-1', status: 'completed' } });
      await drainWith(hook.port);
      const during = hook.received.at(-1)!;
      expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
      for (const secret of [endpoint.body.secret, rotated.body.secret]) expect(new Webhook(secret).verify(during.body, during.headers as Record<string, string>)).toMatchObject({ data: { reportId: 'rotation-1', businessId: 'business-1', status: 'completed' } });
      // After it, only the new secret signs.
      await t.ctx.db.update(webhookEndpoints).set({ previousSecretUntil: new Date(Date.now() - 1000) }).where(eq(webhookEndpoints.id, endpoint.body.id));
      await emitEvent(t.ctx, { userId: owner.userId, type: 'report.completed', eventKey: 'report.completed:rotation-2', data: { reportId: 'rotation-2', businessId: 'business-1', status: 'completed' } });
      await drainWith(hook.port);
      const after = hook.received.at(-1)!;
      expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
      expect(new Webhook(rotated.body.secret).verify(after.body, after.headers as Record<string, string>)).toMatchObject({ data: { reportId: 'rotation-2', businessId: 'business-1', status: 'completed' } });
      expect(() => new Webhook(endpoint.body.secret).verify(after.body, after.headers as Record<string, string>)).toThrow();
      expect((await v1(owner.key, 'GET', '/webhooks')).body.endpoints.map((e: { id: string }) => e.id)).toEqual([endpoint.body.id]);
      expect((await v1(owner.key, 'DELETE', `/webhooks/${endpoint.body.id}`)).body).toEqual({ deleted: true });
      const bad = await v1(owner.key, 'POST', '/webhooks', { url: 'ftp://x', events: ['everything'] });
      expect(Object.keys(bad.body.fields).sort()).toEqual(['events.0', 'url']);
      const noScope = await account('enterprise', ['reports:read']);
      expect((await v1(noScope.key, 'GET', '/webhooks')).status).toBe(403);
    } finally {
      await hook.close();
    }
  });

  it('retries a failing endpoint over about three days, logging every attempt, then disables it and e-mails the owner', async () => {
    const owner = await account();
    const hook = await receiver(() => 500);
    try {
      const endpoint = (await v1(owner.key, 'POST', '/webhooks', { url: hook.url, events: ['report.completed'] })).body;
      await emitEvent(t.ctx, { userId: owner.userId, type: 'report.completed', eventKey: 'report.completed:test-1', data: { reportId: 'test-1', businessId: 'business-1', status: 'completed' } });
      // Emitting the same event again (a retried job) delivers nothing new.
      expect(await emitEvent(t.ctx, { userId: owner.userId, type: 'report.completed', eventKey: 'report.completed:test-1', data: { reportId: 'test-1', businessId: 'business-1', status: 'completed' } })).toBe(0);
      const waits: number[] = [];
      for (let attempt = 1; attempt <= WEBHOOK_RETRY_DELAYS_MS.length + 1; attempt++) {
        if (attempt === WEBHOOK_RETRY_DELAYS_MS.length + 1) {
          // The last attempt comes when the endpoint has been failing for the whole window.
          await t.ctx.db.update(webhookEndpoints).set({ failingSince: new Date(Date.now() - WEBHOOK_FAILURE_WINDOW_MS) }).where(eq(webhookEndpoints.id, endpoint.id));
        }
        await drainWith(hook.port);
        const [next] = await t.ctx.db.select().from(jobs).where(and(eq(jobs.type, 'webhook.deliver'), eq(jobs.status, 'queued')));
        if (!next) break;
        waits.push(next.runAt.getTime() - Date.now());
        await t.ctx.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, next.id));
      }
      expect(hook.received).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length + 1);
      expect(waits).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length);
      waits.forEach((w, i) => expect(Math.abs(w - WEBHOOK_RETRY_DELAYS_MS[i]!)).toBeLessThan(5000));
      expect(WEBHOOK_FAILURE_WINDOW_MS / 86_400_000).toBeCloseTo(3, 0);
      const log = await v1(owner.key, 'GET', `/webhooks/${endpoint.id}/deliveries`);
      expect(log.body.deliveries[0].status).toBe('failed');
      expect(log.body.deliveries[0].attempts).toHaveLength(WEBHOOK_RETRY_DELAYS_MS.length + 1);
      expect(log.body.deliveries[0].attempts[0]).toMatchObject({ responseStatus: 500, excerpt: 'receiver says hello' });
      const [row] = await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
      expect(row!.disabledAt).not.toBeNull();
      const mail = readdirSync(join(t.dataDir, 'outbox')).map((f) => readFileSync(join(t.dataDir, 'outbox', f), 'utf8')).find((m) => m.includes('webhook endpoint was disabled'));
      expect(mail).toContain(owner.email);
      // A disabled endpoint receives no new events.
      expect(await emitEvent(t.ctx, { userId: owner.userId, type: 'report.completed', eventKey: 'report.completed:test-2', data: { reportId: 'test-2', businessId: 'business-1', status: 'completed' } })).toBe(0);
    } finally {
      await hook.close();
    }
  });

  it('sends nothing for an account whose plan lapsed, and refuses its resend, until the plan is renewed', async () => {
    const owner = await account();
    const endpoint = (await v1(owner.key, 'POST', '/webhooks', { url: 'https://hooks.example.com/in', events: ['report.completed'] })).body;
    expect(await emitEvent(t.ctx, { userId: owner.userId, type: 'report.completed', eventKey: 'report.completed:lapse-1', data: { reportId: 'lapse-1', businessId: 'business-1', status: 'completed' } })).toBe(1);
    const [delivery] = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint.id));

    await t.ctx.db.update(users).set({ subscriptionStatus: 'suspended' }).where(eq(users.id, owner.userId));
    expect(await emitEvent(t.ctx, { userId: owner.userId, type: 'report.completed', eventKey: 'report.completed:lapse-2', data: { reportId: 'lapse-2', businessId: 'business-1', status: 'completed' } })).toBe(0);
    const resend = await call(t.app, 'POST', `/api/webhooks/${endpoint.id}/deliveries/${delivery!.id}/resend`, undefined, owner.cookie);
    expect(resend.status).toBe(403);
    expect(resend.body.code).toBe('plan_required');

    // Renewed: the endpoint, kept as it was, receives events again.
    await t.ctx.db.update(users).set({ subscriptionStatus: 'active' }).where(eq(users.id, owner.userId));
    expect(await emitEvent(t.ctx, { userId: owner.userId, type: 'report.completed', eventKey: 'report.completed:lapse-3', data: { reportId: 'lapse-3', businessId: 'business-1', status: 'completed' } })).toBe(1);
    expect((await call(t.app, 'POST', `/api/webhooks/${endpoint.id}/deliveries/${delivery!.id}/resend`, undefined, owner.cookie)).status).toBe(202);
  });

  it('refuses loopback and private targets outside tests (the safe fetcher), logging why', async () => {
    const owner = await account();
    const hook = await receiver();
    try {
      const endpoint = (await v1(owner.key, 'POST', '/webhooks', { url: hook.url, events: ['alert.created'] })).body;
      await emitEvent(t.ctx, { userId: owner.userId, type: 'alert.created', eventKey: 'alert.created:x', data: { alertId: 'x', businessId: 'business-1', platform: 'google', reviewRating: 1, reviewAuthor: null, reviewText: null, reviewUrl: null, reviewDate: null, threshold: 3 } });
      const worker = createWorker(t.ctx, { registry: testRegistry({}) });
      while (await worker.runNext());
      expect(hook.received).toHaveLength(0);
      const log = await v1(owner.key, 'GET', `/webhooks/${endpoint.id}/deliveries`);
      expect(log.body.deliveries[0].attempts[0].responseStatus).toBeNull();
      expect(log.body.deliveries[0].attempts[0].excerpt).toMatch(/^No answer: /);
    } finally {
      await hook.close();
    }
  });
});

describe('public API: reviews of a connected Google Business Profile', () => {
  // With a profile connected against Google's stand-in: tests/integration/google-profile.test.ts.
  it('answers a business without a connected profile with no reviews, no metrics, and 404 for a reply', async () => {
    const owner = await account();
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId });
    expect((await v1(owner.key, 'GET', `/businesses/${business.id}/reviews`)).body).toEqual({ reviews: [], nextCursor: null });
    expect((await v1(owner.key, 'GET', `/businesses/${business.id}/profile-metrics`)).body).toEqual({ businessId: business.id, connected: false, days: [] });
    expect((await v1(owner.key, 'PUT', `/businesses/${business.id}/reviews/abc/reply`, { text: 'Thanks' })).status).toBe(409);
    expect((await v1(owner.key, 'DELETE', `/businesses/${business.id}/reviews/abc/reply`)).status).toBe(409);
    const stranger = await account();
    expect((await v1(stranger.key, 'GET', `/businesses/${business.id}/reviews`)).status).toBe(404);
  });
});

describe('public API: the document covers what the tests saw', () => {
  it('the document check refuses an answer the document does not allow', () => {
    const wrong = { status: 200, headers: new Headers({ 'content-type': 'application/json' }), body: { businessId: 'b', threshold: '3' } };
    expect(() => expectDocumented(doc, 'GET', '/api/v1/businesses/b/alert-threshold', wrong)).toThrow(/alert-threshold 200/);
    expect(() => expectDocumented(doc, 'GET', '/api/v1/businesses/b/alert-threshold', { ...wrong, status: 418 })).toThrow(/documents status 418/);
  });

  it('every documented operation had a real answer validated against the document', () => {
    const exercised = new Set([...checked].map((c) => c.split(' ').slice(0, 2).join(' ')));
    expect(operationsOf(doc).filter((op) => !exercised.has(op))).toEqual([]);
  });
});
