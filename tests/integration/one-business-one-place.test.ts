// A business is one place, owned once (decision 0212): a report requested again for a place its
// owner already has, through the API or the signed-in form, is a new snapshot of that business
// (same id, threshold, history; visibility.changed fires on it). Two owners of one place have a
// business each; a consultant's client's report lands on the client's business; a visitor
// without an account keeps one business per request.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { SearchLedger } from '../../api/report/analysis/visibility.ts';
import type { ReportData, ReportInput } from '../../api/report/model/types.ts';
import { webhookDeliveries } from '../../db/schema/api.ts';
import { businesses, businessMetrics, reportRequests } from '../../db/schema/businesses.ts';
import { clients } from '../../db/schema/consultants.ts';
import { reviewAlerts } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: 'true' });
});
afterAll(() => t.close());

const FORM = { fullName: 'Dana Whitfield', email: 'dana@whitfield.example', company: 'Whitfield Dental', role: 'owner', website: 'https://whitfield-dental.example', address: '100 Congress Ave., Suite 4', city: 'Austin', state: 'TX', zip: '78701' };
/** The same place as FORM, written another way. */
const FORM_AGAIN = { ...FORM, fullName: 'Dana R. Whitfield', address: '100 congress avenue #4', zip: '78701-1234' };

let analyses: ReportData[] = [];
/** The real sample analysis; every later one with the business gone from the grid (SoLV 0). */
async function analyse(ctx: TestContext['ctx'], input: ReportInput): Promise<ReportData> {
  const data = analyses.length === 0 ? await analyseBusiness(ctx, input, { ledger: new SearchLedger() }) : dropped(analyses[0]!);
  analyses.push(data);
  return data;
}
function dropped(data: ReportData): ReportData {
  const copy = structuredClone(data);
  const id = copy.business.place.placeId;
  for (const k of copy.visibility!.keywords) k.ranks[id] = k.ranks[id]!.map(() => null);
  copy.business.dataPoints.find((p) => p.key === 'visibility.solv')!.value = 0;
  return copy;
}

/** Runs the queued report jobs only (webhook deliveries stay queued, to be counted). */
async function drainReports(analyseWith = analyse) {
  const all = testRegistry({ analyse: analyseWith });
  const worker = createWorker(t.ctx, { registry: { 'report.generate': all['report.generate']! } });
  while (await worker.runNext());
}

/** Days pass: the earlier requests are no longer the same request (the ten-minute window). */
async function daysPass(days = 3) {
  await t.ctx.db.update(reportRequests).set({ dedupeKey: null, createdAt: sql`${reportRequests.createdAt} - ${days * 86_400_000}` });
  await t.ctx.db.update(businessMetrics).set({ reportedAt: sql`${businessMetrics.reportedAt} - ${days * 86_400_000}` });
}

async function apiAccount(tier: 'enterprise' | 'agency' = 'enterprise', role: 'client' | 'consultant' = 'client') {
  const user = await createUser(t.ctx, { tier, role });
  const scopes = ['reports:read', 'reports:write', 'businesses:read', 'alerts:read', 'alerts:write', 'webhooks:write', ...(role === 'consultant' ? ['clients:read', 'clients:write'] : [])];
  const { key } = (await call(t.app, 'POST', '/api/api-keys', { name: 'Test', scopes }, user.cookie)).body;
  const v1 = async (method: string, path: string, body?: unknown) => {
    const res = await t.app.request(`/api/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, 'idempotency-key': crypto.randomUUID(), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : null };
  };
  return { ...user, v1 };
}

const businessOf = async (requestId: string) => (await t.ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, requestId) }))!.businessId;
const ownedBy = (userId: string) => t.ctx.db.$count(businesses, eq(businesses.userId, userId));

let ipSeq = 0;
async function submitForm(body: unknown, cookie?: string) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${++ipSeq}` };
  if (cookie) headers.cookie = cookie;
  const res = await t.app.request('/api/submit-request', { method: 'POST', headers, body: JSON.stringify(body) });
  expect(res.status).toBe(202);
  return ((await res.json()) as { requestId: string }).requestId;
}

describe('a business is one place, owned once', () => {
  it('API v1 twice for one place: one business, the threshold kept, the history grows and visibility.changed fires on the second', async () => {
    analyses = [];
    const owner = await apiAccount();
    expect((await owner.v1('POST', '/webhooks', { url: 'https://hooks.example.com/places', events: ['visibility.changed', 'report.completed'] })).status).toBe(201);

    const first = await owner.v1('POST', '/reports', FORM);
    expect(first.status).toBe(202);
    await drainReports();
    const read = await owner.v1('GET', `/reports/${first.body.id}`);
    expect(read.body.status).toBe('completed');
    const businessId = read.body.business.id as string;
    expect((await owner.v1('PUT', `/businesses/${businessId}/alert-threshold`, { threshold: 4.8 })).status).toBe(200);
    await t.ctx.db.update(businesses).set({ visibilityKeywords: ['emergency dentist'] }).where(eq(businesses.id, businessId));

    await daysPass();
    const second = await owner.v1('POST', '/reports', FORM_AGAIN);
    expect(second.status).toBe(202);
    expect(second.body.id).not.toBe(first.body.id);
    await drainReports();

    expect((await owner.v1('GET', `/reports/${second.body.id}`)).body.business.id).toBe(businessId);
    expect(await ownedBy(owner.userId)).toBe(1);
    const business = (await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, businessId) }))!;
    expect(business).toMatchObject({ alertThreshold: 4.8, visibilityKeywords: ['emergency dentist'], fullName: 'Dana R. Whitfield', address: '100 congress avenue #4' });
    expect((await owner.v1('GET', `/businesses/${businessId}/alert-threshold`)).body.threshold).toBe(4.8);

    // Two snapshots in its trend; the second run's alerts were judged against 4.8, not the default.
    const snapshots = await t.ctx.db.select().from(businessMetrics).where(and(eq(businessMetrics.businessId, businessId), eq(businessMetrics.isMainBusiness, true)));
    expect(snapshots).toHaveLength(2);
    const trend = (await owner.v1('GET', `/businesses/${businessId}/history`)).body.history as Array<{ runId: string; localVoiceShare: number | null }>;
    expect(trend.map((h) => h.runId)).toEqual(snapshots.sort((x, y) => x.reportedAt.getTime() - y.reportedAt.getTime()).map((s) => s.runId));
    expect(trend.at(-1)!.localVoiceShare).toBe(0);
    // (A review rated above 3 raises an alert only under the owner's 4.8.)
    const alerts = await t.ctx.db.select().from(reviewAlerts).where(eq(reviewAlerts.businessId, businessId));
    const aboveDefault = alerts.filter((a) => a.reviewRating > 3);
    expect(aboveDefault.length).toBeGreaterThan(0);
    expect(aboveDefault.every((a) => a.alertThreshold === 4.8)).toBe(true);

    // visibility.changed: once, on the second run of the same business.
    const changed = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.type, 'visibility.changed'));
    expect(changed).toHaveLength(1);
    expect(JSON.parse(changed[0]!.payload).data).toMatchObject({ businessId, localVoiceShare: 0 });
    const completed = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.type, 'report.completed'));
    expect(completed.map((d) => JSON.parse(d.payload).data.businessId)).toEqual([businessId, businessId]);
  });

  it('the signed-in form twice for one place: one business; another address is another place', async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const first = await submitForm({ ...FORM, email: owner.email }, owner.cookie);
    await daysPass();
    const second = await submitForm({ ...FORM_AGAIN, email: owner.email }, owner.cookie);
    expect(second).not.toBe(first);
    expect(await businessOf(second)).toBe(await businessOf(first));
    expect(await ownedBy(owner.userId)).toBe(1);

    // Suite 5 is another unit, and 200 Congress Ave another street address: a business each.
    const suite5 = await submitForm({ ...FORM, address: '100 Congress Ave, Suite 5', email: owner.email }, owner.cookie);
    const moved = await submitForm({ ...FORM, address: '200 Congress Ave', email: owner.email }, owner.cookie);
    expect(new Set([await businessOf(first), await businessOf(suite5), await businessOf(moved)]).size).toBe(3);
    expect(await ownedBy(owner.userId)).toBe(3);
  });

  it('two owners of the same place have a business each', async () => {
    const a = await createUser(t.ctx, { tier: 'pro' });
    const b = await createUser(t.ctx, { tier: 'pro' });
    const ra = await submitForm({ ...FORM, email: a.email }, a.cookie);
    const rb = await submitForm({ ...FORM, email: b.email }, b.cookie);
    expect(await businessOf(ra)).not.toBe(await businessOf(rb));
    expect(await ownedBy(a.userId)).toBe(1);
    expect(await ownedBy(b.userId)).toBe(1);
  });

  it("a consultant's report for a client's place is a snapshot of the client's business; another address stays the consultant's", async () => {
    analyses = [];
    const agency = await apiAccount('agency', 'consultant');
    const added = await agency.v1('POST', '/clients', { clientName: 'Pat Lee', clientEmail: 'pat@lee-dental.example', company: 'Lee Dental', website: 'https://lee-dental.example', address: '1 Main St', city: 'Austin', state: 'TX', zip: '78701', reportFrequency: 'monthly' });
    expect(added.status).toBe(201);
    const clientBusiness = added.body.business.id as string;
    const before = await t.ctx.db.$count(businesses);

    const asked = await agency.v1('POST', '/reports', { ...FORM, company: 'Lee Dental', address: '1 Main Street', clientId: added.body.id });
    expect(asked.status).toBe(202);
    expect(await businessOf(asked.body.id)).toBe(clientBusiness);
    expect(await t.ctx.db.$count(businesses)).toBe(before);
    await drainReports();
    expect((await agency.v1('GET', `/reports/${asked.body.id}`)).body.business.id).toBe(clientBusiness);
    expect(await t.ctx.db.$count(businessMetrics, and(eq(businessMetrics.businessId, clientBusiness), eq(businessMetrics.isMainBusiness, true)))).toBeGreaterThan(0);

    // Not the client's place: a business of the consultant's account, as before; asked again, the same one.
    const elsewhere = await agency.v1('POST', '/reports', { ...FORM, clientId: added.body.id });
    const elsewhereAgain = await agency.v1('POST', '/reports', { ...FORM_AGAIN, clientId: added.body.id });
    const other = await businessOf(elsewhere.body.id);
    expect(other).not.toBe(clientBusiness);
    expect(await businessOf(elsewhereAgain.body.id)).toBe(other);
    expect((await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, other) }))!.userId).toBe(agency.userId);
    expect((await t.ctx.db.query.clients.findFirst({ where: eq(clients.id, added.body.id) }))!.businessId).toBe(clientBusiness);
  });

  it('a visitor without an account keeps one business per request', async () => {
    const first = await submitForm({ ...FORM, email: 'visitor@example.com' });
    await daysPass();
    const second = await submitForm({ ...FORM_AGAIN, email: 'visitor@example.com' });
    expect(await businessOf(second)).not.toBe(await businessOf(first));
  });
});

describe('once the provider names the listing, the listing decides', () => {
  /** An analysis whose provider found this owner's business as this (real) listing; anyone
   *  else's request left queued by the tests above is analysed as usual. */
  const listed = (email: string, listingId: string) => async (ctx: TestContext['ctx'], input: ReportInput) => {
    if (input.email !== email) return analyse(ctx, input);
    const data = reportDataFixture({ seed: 5 });
    data.business.place.placeId = listingId;
    return data;
  };

  it("an address written another way than the key folds: the report joins the account's business of that listing", async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const first = await submitForm({ ...FORM, email: owner.email }, owner.cookie);
    await drainReports(listed(owner.email, 'google:ChIJ-congress-100'));
    const businessId = await businessOf(first);
    await daysPass();
    // Number after the street: another key, the same listing.
    const second = await submitForm({ ...FORM, address: 'Congress Ave 100, Suite 4', company: 'Whitfield Dental Care', email: owner.email }, owner.cookie);
    expect(await businessOf(second)).not.toBe(businessId);
    await drainReports(listed(owner.email, 'google:ChIJ-congress-100'));
    expect(await businessOf(second)).toBe(businessId);
    expect(await ownedBy(owner.userId)).toBe(1);
    expect((await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, businessId) }))!.company).toBe('Whitfield Dental Care');
    expect(await t.ctx.db.$count(businessMetrics, and(eq(businessMetrics.businessId, businessId), eq(businessMetrics.isMainBusiness, true)))).toBe(2);
  });

  it('another listing at the same address (no unit given) is another business; the first keeps its own details', async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const dental = await submitForm({ ...FORM, address: '300 Congress Ave', email: owner.email }, owner.cookie);
    await drainReports(listed(owner.email, 'google:ChIJ-dental-300'));
    const dentalId = await businessOf(dental);
    await daysPass();
    const bar = await submitForm({ ...FORM, address: '300 Congress Ave', company: 'Congress Bar', email: owner.email }, owner.cookie);
    expect(await businessOf(bar)).toBe(dentalId);
    await drainReports(listed(owner.email, 'google:ChIJ-bar-300'));
    const barId = await businessOf(bar);
    expect(barId).not.toBe(dentalId);
    const [dentalRow, barRow] = await Promise.all([dentalId, barId].map((id) => t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, id) })));
    expect(dentalRow).toMatchObject({ company: 'Whitfield Dental', placeId: 'google:ChIJ-dental-300' });
    expect(barRow).toMatchObject({ company: 'Congress Bar', placeId: 'google:ChIJ-bar-300', userId: owner.userId });
    expect(await t.ctx.db.$count(businessMetrics, and(eq(businessMetrics.businessId, dentalId), eq(businessMetrics.isMainBusiness, true)))).toBe(1);
    expect(await t.ctx.db.$count(businessMetrics, and(eq(businessMetrics.businessId, barId), eq(businessMetrics.isMainBusiness, true)))).toBe(1);
  });
});
