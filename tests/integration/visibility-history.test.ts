// Local visibility over time: each stored analysis keeps its grid (business_metrics), read back by
// the dashboard's business JSON, GET /api/v1/businesses/{id}/visibility (paged, newest first) and
// the history; a change of Share of Local Voice from the previous scan queues visibility.changed.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { SearchLedger } from '../../api/report/analysis/visibility.ts';
import { persistReport } from '../../api/report/persist.ts';
import { reportInput, type ReportData } from '../../api/report/model/types.ts';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { readOutboxMessage } from '../../api/email/outbox.ts';
import { VISIBILITY_ALERT } from '../../api/services/early-warning-mail.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { webhookDeliveries } from '../../db/schema/api.ts';
import { jobs } from '../../db/schema/operations.ts';
import { businessMetrics } from '../../db/schema/businesses.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { expectDocumented, type OpenApiDocument } from '../helpers/openapi.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

let t: TestContext;
let doc: OpenApiDocument;
beforeAll(async () => {
  t = await createTestContext();
  doc = (await call(t.app, 'GET', '/api/v1/openapi.json')).body;
});
afterAll(() => t.close());

async function v1(key: string, path: string) {
  const res = await t.app.request(`/api/v1${path}`, { headers: { authorization: `Bearer ${key}` } });
  const answer = { status: res.status, headers: res.headers, body: await res.json() };
  expectDocumented(doc, 'GET', `/api/v1${path}`, answer);
  return answer;
}

/** The same analysis with the business absent from every cell of the grid: SoLV 0. */
function dropped(data: ReportData): ReportData {
  const copy = structuredClone(data);
  const id = copy.business.place.placeId;
  for (const k of copy.visibility!.keywords) k.ranks[id] = k.ranks[id]!.map(() => null);
  const solv = copy.business.dataPoints.find((p) => p.key === 'visibility.solv')!;
  solv.value = 0;
  return copy;
}

describe('local visibility history', () => {
  it('keeps every scan, serves them paged, and queues visibility.changed when SoLV moves', async () => {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const { key } = (await call(t.app, 'POST', '/api/api-keys', { name: 'Grid', scopes: ['businesses:read', 'webhooks:write'] }, owner.cookie)).body;
    expect((await call(t.app, 'POST', '/api/v1/webhooks', { url: 'https://hooks.example.com/grid', events: ['visibility.changed'] }, undefined)).status).toBe(401);
    const hook = await t.app.request('/api/v1/webhooks', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://hooks.example.com/grid', events: ['visibility.changed'] }) });
    expect(hook.status).toBe(201);
    const { business } = await createReportRequest(t.ctx, { userId: owner.userId, company: 'Bright Smile Dental', enqueue: false });

    const first = await analyseBusiness(t.ctx, reportInput(business), { ledger: new SearchLedger() });
    const before = first.business.dataPoints.find((p) => p.key === 'visibility.solv')!.value as number;
    expect(before).toBeGreaterThan(0);
    const run1 = await persistReport(t.ctx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: first });
    await new Promise((r) => setTimeout(r, 5));
    const run2 = await persistReport(t.ctx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: dropped(first) });

    // Stored on the business's own row; every competitor's SoLV on its row.
    const rows = await t.ctx.db.select().from(businessMetrics).where(and(eq(businessMetrics.runId, run1.runId)));
    expect(rows.find((r) => r.isMainBusiness)!.localVoiceShare).toBe(before);
    expect(rows.filter((r) => !r.isMainBusiness).every((r) => typeof r.localVoiceShare === 'number')).toBe(true);

    // visibility.changed: once, for the second run, with the change.
    const queued = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.type, 'visibility.changed'));
    expect(queued).toHaveLength(1);
    expect(JSON.parse(queued[0]!.payload).data).toMatchObject({ businessId: business.id, runId: run2.runId, localVoiceShare: 0, previousLocalVoiceShare: before, change: -before });

    // Two scans the same day: no Early Warning e-mail (week over week only).
    expect(await t.ctx.db.select().from(jobs).where(eq(jobs.type, VISIBILITY_ALERT))).toHaveLength(0);

    // The API: the latest grid on the business, the history with SoLV, and the scans paged.
    const detail = await v1(key, `/businesses/${business.id}`);
    expect(detail.status).toBe(200);
    expect(detail.body.visibility).toMatchObject({ status: 'measured', provider: 'sample', sampleData: true, size: 7, solv: 0, atrp: 21 });
    expect(detail.body.visibility.keywords[0]).toMatchObject({ keyword: 'dentist', ranks: Array(49).fill(null) });
    // Enterprise: a 7×7 grid on up to 5 keywords.
    expect(detail.body.visibility.keywords).toHaveLength(5);
    const history = await v1(key, `/businesses/${business.id}/history`);
    expect(history.body.history.map((h: { localVoiceShare: number }) => h.localVoiceShare)).toEqual([before, 0]);
    const page1 = await v1(key, `/businesses/${business.id}/visibility?limit=1`);
    expect(page1.status).toBe(200);
    expect(page1.body.scans).toHaveLength(1);
    expect(page1.body.scans[0]).toMatchObject({ runId: run2.runId, solv: 0 });
    expect(page1.body.nextCursor).toMatch(/^\d+$/);
    const page2 = await v1(key, `/businesses/${business.id}/visibility?limit=1&cursor=${page1.body.nextCursor}`);
    expect(page2.body.scans[0]).toMatchObject({ runId: run1.runId, solv: before });
    expect(page2.body.nextCursor).toBeNull();
    expect((await v1(key, `/businesses/${business.id}/visibility?cursor=yesterday`)).status).toBe(400);

    // Another account sees nothing of it.
    const other = await createUser(t.ctx, { tier: 'enterprise' });
    const otherKey = (await call(t.app, 'POST', '/api/api-keys', { name: 'Other', scopes: ['businesses:read'] }, other.cookie)).body.key;
    expect((await v1(otherKey, `/businesses/${business.id}/visibility`)).status).toBe(404);
  });

  it('lets the owner choose the grid\'s keywords on a paid plan: searched first from the next analysis', async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const { business } = await createReportRequest(t.ctx, { userId: owner.userId, company: 'Bright Smile Dental', enqueue: false });
    await persistReport(t.ctx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: await analyseBusiness(t.ctx, reportInput(business), { ledger: new SearchLedger() }) });
    const path = `/api/business/${business.id}/visibility-keywords`;

    const tooMany = await call(t.app, 'PUT', path, { keywords: ['ok1', 'ok2', 'ok3', 'ok4', 'ok5', 'ok6'] }, owner.cookie);
    expect(tooMany.status).toBe(400);
    expect(Object.values(tooMany.body.fields)).toEqual(['At most 5 keywords']);
    const short = await call(t.app, 'PUT', path, { keywords: ['a'] }, owner.cookie);
    expect(Object.values(short.body.fields)).toEqual(['Each keyword needs at least 2 characters']);
    const long = await call(t.app, 'PUT', path, { keywords: ['x'.repeat(61)] }, owner.cookie);
    expect(Object.values(long.body.fields)).toEqual(['Each keyword can be at most 60 characters']);
    expect((await call(t.app, 'PUT', path, { keywords: 'dentist' }, owner.cookie)).status).toBe(400);

    const ok = await call(t.app, 'PUT', path, { keywords: ['Emergency Dentist', ' kids dentist ', 'emergency dentist'] }, owner.cookie);
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ businessId: business.id, keywords: ['Emergency Dentist', 'kids dentist'] });
    expect((await call(t.app, 'GET', `/api/business/${business.id}`, undefined, owner.cookie)).body.business.visibilityKeywords).toEqual(['Emergency Dentist', 'kids dentist']);
    // Pro: 3 keywords, the chosen ones first, then the category's.
    const next = await analyseBusiness(t.ctx, reportInput(business), { ledger: new SearchLedger() });
    expect(next.visibility!.keywords.map((k) => k.keyword)).toEqual(['emergency dentist', 'kids dentist', 'dentist']);
    // Back to the defaults.
    expect((await call(t.app, 'PUT', path, { keywords: [] }, owner.cookie)).status).toBe(200);
    expect((await analyseBusiness(t.ctx, reportInput(business), { ledger: new SearchLedger() })).visibility!.keywords[0]!.keyword).toBe('dentist');

    // Nobody else, and not on the free plan; checked before the body is read.
    const stranger = await createUser(t.ctx, { tier: 'pro' });
    expect((await call(t.app, 'PUT', path, { keywords: ['x'] }, stranger.cookie)).status).toBe(404);
    const free = await createUser(t.ctx);
    expect((await call(t.app, 'PUT', path, { keywords: ['dentist'] }, free.cookie)).status).toBe(403);
    expect((await call(t.app, 'PUT', path, { keywords: ['dentist'] })).status).toBe(401);
  });

  it('e-mails the Early Warning alert when SoLV falls by the set number of points week over week', async () => {
    // The sample market's 7×7 grid gives the business a few percent: an alert from a 2-point fall.
    const t = await createTestContext({ VISIBILITY_ALERT_DROP: '2' });
    try {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const { business } = await createReportRequest(t.ctx, { userId: owner.userId, company: 'Bright Smile Dental', enqueue: false });
    const scan = await analyseBusiness(t.ctx, reportInput(business), { ledger: new SearchLedger() });
    const before = scan.business.dataPoints.find((p) => p.key === 'visibility.solv')!.value as number;
    expect(before).toBeGreaterThanOrEqual(t.ctx.env.VISIBILITY_ALERT_DROP);
    const run1 = await persistReport(t.ctx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: scan });
    await t.ctx.db.update(businessMetrics).set({ reportedAt: new Date(Date.now() - 7 * 86_400_000) }).where(eq(businessMetrics.runId, run1.runId));
    const run2 = await persistReport(t.ctx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: dropped(scan) });

    const [job] = await t.ctx.db.select().from(jobs).where(and(eq(jobs.type, VISIBILITY_ALERT), eq(jobs.key, `visibility-alert:${run2.runId}`)));
    expect(job).toBeDefined();
    // The Early Warning Monitor lists the fall beside the review alerts.
    const monitor = await call(t.app, 'GET', `/api/business/${business.id}/review-alerts`, undefined, owner.cookie);
    expect(monitor.status).toBe(200);
    expect(monitor.body.visibility).toEqual({
      dropPoints: 2,
      latest: { solv: 0, at: expect.any(Number) },
      drops: [{ solv: 0, previousSolv: before, at: monitor.body.visibility.latest.at, previousAt: expect.any(Number) }],
    });
    // Two scans a day apart are not week over week: no fall listed.
    await persistReport(t.ctx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: scan });
    const later = (await call(t.app, 'GET', `/api/business/${business.id}/review-alerts`, undefined, owner.cookie)).body.visibility;
    expect(later.latest.solv).toBe(before);
    expect(later.drops).toHaveLength(1);
    await createWorker(t.ctx, { registry: testRegistry({}) }).drain();
    const files = readdirSync(join(t.dataDir, 'outbox'));
    const mails = await Promise.all(files.map(async (f) => (await readOutboxMessage(t.ctx, f))!.email));
    const mail = mails.find((m) => m.subject?.startsWith('Local visibility fell for Bright Smile Dental'))!;
    expect(mail.to?.[0]?.address).toBe(owner.email.toLowerCase());
    expect(mail.subject).toBe(`Local visibility fell for Bright Smile Dental: Share of Local Voice ${before.toFixed(2)}% → 0.00% (example figures, not your real listings)`);
    expect(mail.text).toContain(`fell from ${before.toFixed(2)}%`);
    expect(mail.text).toContain(`/dashboard/${business.id}`);
    // One click unsubscribes (RFC 8058), as the review alerts do; no "write to us" (issue 37).
    const header = (name: string) => mail.headers.find((h) => h.key === name)?.value ?? '';
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
    const url = /<(https?:\/\/[^>]+\/api\/unsubscribe\?token=[^>]+)>/.exec(header('list-unsubscribe'))![1]!;
    expect(mail.text).toContain('Unsubscribe: ');
    expect(mail.text).not.toMatch(/write to/i);
    const unsubscribe = await t.app.request(url.slice(url.indexOf('/api/')), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
    expect(unsubscribe.status).toBe(200);
    // The next fall is not e-mailed to the address that opted out.
    const before2 = readdirSync(join(t.dataDir, 'outbox')).length;
    // A scan a week ago at the old share, the scans before it older still (no tie to break), then the fall.
    await t.ctx.db.update(businessMetrics).set({ reportedAt: new Date(Date.now() - 14 * 86_400_000) }).where(eq(businessMetrics.businessId, business.id));
    const weekAgo = await persistReport(t.ctx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: scan });
    await t.ctx.db.update(businessMetrics).set({ reportedAt: new Date(Date.now() - 7 * 86_400_000) }).where(eq(businessMetrics.runId, weekAgo.runId));
    const run3 = await persistReport(t.ctx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: dropped(scan) });
    await createWorker(t.ctx, { registry: testRegistry({}) }).drain();
    const [skipped] = await t.ctx.db.select().from(jobs).where(eq(jobs.key, `visibility-alert:${run3.runId}`));
    expect(skipped?.progress).toMatchObject({ stage: 'skipped' });
    expect(readdirSync(join(t.dataDir, 'outbox')).length).toBe(before2);
    } finally {
      await t.close();
    }
  });
});
