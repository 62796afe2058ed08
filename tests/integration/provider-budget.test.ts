// The daily provider budget (issue 49, decision 0271) against the Google and Yelp stand-ins,
// through the real queue and worker: a budget of 2.5 reports lets 2 start and keeps the rest
// waiting, accepted and kept, without spending attempts; raised, after a restart every waiting
// report is made and sent once. Yelp's own daily cap (429 ACCESS_LIMIT_REACHED) makes reports
// wait the same way instead of failing.
import { afterAll, describe, expect, it } from 'vitest';
import { eq, inArray } from 'drizzle-orm';
import { reportRequests } from '../../db/schema/businesses.ts';
import { jobs, providerCalls } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { analyseBusiness, type AnalyseOptions } from '../../api/report/analyse.ts';
import { estimateReportUsd, nextDayStart } from '../../api/report/budget.ts';
import { pricesFor } from '../../api/lib/provider-prices.ts';
import { runWaitingForBudgetNow } from '../../api/jobs/queue.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { BUDGET_WAIT_PREFIX } from '../../api/jobs/faults.ts';
import { createTestContext, databaseEnv, type TestContext } from '../helpers/context.ts';
import { MARKETS } from '../helpers/markets.ts';
import { startStandin } from '../helpers/places-standin.ts';
import { createReportRequest, validForm } from '../helpers/report-requests.ts';
import { listOutbox, readOutboxMessage } from '../../api/email/outbox.ts';
import { roughlyWhen } from '../../api/email/report-waiting.ts';
import { testRegistry } from '../helpers/registry.ts';

const sites: AnalyseOptions['fetch'] = { allowLoopback: true, extraPorts: [9], timeoutMs: 2000 };
// No free allowance, so a day's dollars are its calls at list price and the arithmetic is plain.
const NO_ALLOWANCE = JSON.stringify(Object.fromEntries(['google.text_search.enterprise', 'google.nearby_search.enterprise', 'google.place_details.atmosphere', 'yelp.search', 'yelp.reviews', 'yelp.details'].map((sku) => [sku, { freePerMonth: 0 }])));
const open: Array<{ close: () => Promise<void> }> = [];
afterAll(async () => {
  for (const o of open.reverse()) await o.close();
});

async function setup(provider: 'google' | 'yelp', budget: (perReport: number) => number, extra: Record<string, string> = {}) {
  const t0 = await createTestContext({ WORKER: 'off' });
  const standin = await startStandin(MARKETS.chain.market(t0.ctx.env.PUBLIC_BASE_URL));
  await t0.close();
  open.push(standin);
  const settings: Record<string, string> = provider === 'google' ? { GOOGLE_PLACES_KEY: 'g', GOOGLE_PLACES_BASE_URL: standin.base } : { YELP_API_KEY: 'y', YELP_BASE_URL: standin.base };
  const env = { PLACES_PROVIDER: provider, PROVIDER_TIMEOUT_MS: '5000', PROVIDER_PRICES: NO_ALLOWANCE, ...settings };
  const probe = await createTestContext(env);
  const perReport = estimateReportUsd(probe.ctx.env, pricesFor(probe.ctx.env), 'free');
  await probe.close();
  const t = await createTestContext({ ...env, PROVIDER_DAILY_BUDGET_USD: String(budget(perReport)), ...extra });
  open.push(t);
  return { t, standin, perReport, env };
}

const worker = (t: TestContext) => createWorker(t.ctx, { registry: testRegistry({ analyse: (ctx, input) => analyseBusiness(ctx, input, { fetch: sites }) }), backoffBaseMs: 1, backoffMaxMs: 1 });
/** Runs every job due now, one at a time, until none is left. */
async function drain(t: TestContext) {
  const w = worker(t);
  while (await w.runNext());
}
const requests = (t: TestContext, ids: string[]) => t.ctx.db.select().from(reportRequests).where(inArray(reportRequests.id, ids));

describe('the daily provider budget', () => {
  it('lets 2 reports of a 2.5-report budget start, keeps the others waiting, and sends all once when raised', async () => {
    const { t, standin, perReport, env } = await setup('google', (r) => 2.5 * r);
    expect(perReport).toBeCloseTo(0.035 + 0.035 + 10 * 0.025, 10);
    // With room, the thank-you screen says nothing of waiting.
    const first = await t.app.request('/api/submit-request', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(validForm()) });
    expect(await first.json()).not.toHaveProperty('waitsUntil');
    await t.ctx.db.delete(jobs);
    const made = [];
    for (let i = 0; i < 4; i++) made.push(await createReportRequest(t.ctx, { company: MARKETS.chain.company }));
    const before = new Date();
    await drain(t);

    const ids = made.map((m) => m.request.id);
    const sent = (await requests(t, ids)).filter((r) => r.status === 'sent');
    expect(sent.map((r) => r.id).sort()).toEqual(ids.slice(0, 2).sort());
    const waiting = await t.ctx.db.select().from(jobs).where(inArray(jobs.id, made.slice(2).map((m) => m.jobId)));
    for (const j of waiting) {
      // Accepted and kept: queued for the next UTC day (free reports a minute after paid work), no attempt spent.
      expect(j).toMatchObject({ status: 'queued', attempts: 0 });
      expect(j.lastError).toMatch(new RegExp(`^${BUDGET_WAIT_PREFIX}: today's provider spend \\$0\\.\\d\\d leave no room for this report's \\$0\\.32 within PROVIDER_DAILY_BUDGET_USD \\$0\\.80`));
      expect(j.runAt.getTime()).toBe(nextDayStart(before, false).getTime());
    }
    for (const r of await requests(t, ids.slice(2))) expect(r.status).not.toBe('failed');

    // Each waiting visitor is told, once, that the report is coming and about when; never that it failed.
    const mail = await listOutbox(t.ctx);
    const told = mail.filter((m) => /is on its way/.test(m.subject));
    expect(told.map((m) => m.to).sort()).toEqual(made.slice(2).map((m) => m.request.email).sort());
    for (const m of told) {
      const text = String((await readOutboxMessage(t.ctx, m.file))!.email.text);
      expect(text).toContain(`scheduled for ${roughlyWhen(nextDayStart(before, false))}`);
      expect(text).not.toMatch(/fail|could not|error/i);
    }
    expect(mail.filter((m) => /could not finish/.test(m.subject))).toEqual([]);
    // The operator: one e-mail at 80% of the day's budget, one when reports started waiting.
    const operator = mail.filter((m) => m.to === t.ctx.env.OPERATOR_EMAIL).map((m) => m.subject).sort();
    expect(operator).toEqual(["LocalRank: 80% of today's provider budget spent ($0.64 of $0.80)", 'LocalRank: reports are waiting for the provider budget']);
    // A visitor submitting now hears on the thank-you screen when the report will be made.
    const res = await t.app.request('/api/submit-request', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.9' }, body: JSON.stringify(validForm()) });
    expect(res.status).toBe(202);
    const late = (await res.json()) as { requestId: string };
    expect(late).toMatchObject({ status: 'queued', waitsUntil: nextDayStart(new Date(), false).toISOString() });

    const calls = await t.ctx.db.select().from(providerCalls);
    expect(calls.length).toBe(Object.values(standin.hits).reduce((a, b) => a + (b ?? 0), 0));
    expect(new Set(calls.map((c) => c.subjectId))).toEqual(new Set(ids.slice(0, 2)));

    // The operator raises the budget and restarts: the waiting reports are due at once.
    const raised = await createTestContext({ ...env, PROVIDER_DAILY_BUDGET_USD: '100', ...databaseEnv(t) });
    open.push(raised);
    expect(await runWaitingForBudgetNow(raised.ctx.db)).toBe(2);
    await drain(raised);
    expect((await requests(raised, ids)).map((r) => r.status)).toEqual(['sent', 'sent', 'sent', 'sent']);
    // Each made once: one report row and one Place Details round per request.
    const rows = await raised.ctx.db.select().from(reports).where(inArray(reports.requestId, ids));
    expect(rows).toHaveLength(4);
    expect(rows.every((r) => r.emailSent)).toBe(true);
    const all = await raised.ctx.db.select().from(providerCalls);
    expect(all.length).toBe(Object.values(standin.hits).reduce((a, b) => a + (b ?? 0), 0));
    // The four, and the one asked for on the form while the budget was spent.
    expect(new Set(all.map((c) => c.subjectId))).toEqual(new Set([...ids, late.requestId]));
    // Still one of each operator e-mail today, whichever process saw the budget.
    await drain(raised);
    expect((await listOutbox(raised.ctx)).filter((m) => m.to === raised.ctx.env.OPERATOR_EMAIL)).toHaveLength(2);
  });

  it("makes reports wait, not fail, when Yelp answers 429 ACCESS_LIMIT_REACHED, and makes them once it lifts", async () => {
    const { t, standin } = await setup('yelp', () => 100);
    standin.fail('yelpTerm', '429');
    const { request, jobId } = await createReportRequest(t.ctx, { company: MARKETS.chain.company });
    const before = new Date();
    await drain(t);
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId));
    expect(job).toMatchObject({ status: 'queued', attempts: 0 });
    expect(job!.lastError).toMatch(/^waiting for the provider budget: yelp refused with its own cap \(HTTP 429 \(ACCESS_LIMIT_REACHED\)/);
    expect(job!.runAt.getTime()).toBe(nextDayStart(before, false).getTime());
    expect((await requests(t, [request.id]))[0]!.status).not.toBe('failed');
    expect(await t.ctx.db.select().from(jobs).where(eq(jobs.key, `report.failed:${request.id}`))).toEqual([]);

    // The next day (here: the cap lifted and the worker restarted), the report is made.
    standin.fail('yelpTerm', 'ok');
    await runWaitingForBudgetNow(t.ctx.db);
    await drain(t);
    expect((await requests(t, [request.id]))[0]!.status).toBe('sent');
  });

  it('shares one analysis between two form requests for the same place minutes apart: the provider is asked once; after the window, again', async () => {
    const { t, standin } = await setup('google', () => 100, { SHARED_ANALYSIS_MINUTES: '15' });
    let clock = new Date();
    const run = async () => {
      const w = createWorker(t.ctx, { registry: testRegistry({ analyse: (ctx, input) => analyseBusiness(ctx, input, { fetch: sites, now: clock }), now: () => clock }), backoffBaseMs: 1, backoffMaxMs: 1 });
      while (await w.runNext());
    };
    const place = { company: MARKETS.chain.company, address: '100 Lamar Blvd', city: 'Austin', state: 'TX', zip: '78701' };
    const submit = async (over: Record<string, string>, ip: string) => {
      const res = await t.app.request('/api/submit-request', { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': ip }, body: JSON.stringify(validForm({ ...place, ...over })) });
      expect(res.status).toBe(202);
      return ((await res.json()) as { requestId: string }).requestId;
    };
    const first = await submit({ email: 'ana@bean.example' }, '203.0.113.1');
    await run();
    const once = { ...standin.hits };
    expect(Object.values(once).reduce((a, b) => a + (b ?? 0), 0)).toBeGreaterThan(0);
    // Another visitor, minutes later, the address written another way and the name in capitals:
    // a business of its own (decision 0212), the same place.
    clock = new Date(clock.getTime() + 5 * 60_000);
    const second = await submit({ email: 'ben@bean.example', company: place.company.toUpperCase(), address: '100 lamar boulevard' }, '198.51.100.2');
    await run();
    expect(standin.hits).toEqual(once);
    expect((await requests(t, [first, second])).map((r) => r.status)).toEqual(['sent', 'sent']);
    const rows = await t.ctx.db.select().from(reports).where(inArray(reports.requestId, [first, second]));
    expect(rows).toHaveLength(2);
    expect(rows[0]!.data).toEqual(rows[1]!.data);
    expect(new Set((await t.ctx.db.select().from(providerCalls)).map((c) => c.subjectId))).toEqual(new Set([first]));

    // Another name at the same address is another business (its listing decides): analysed anew.
    const bar = await submit({ email: 'bo@bar.example', company: 'Barton Bar' }, '198.51.100.3');
    await run();
    expect(standin.hits.searchText).toBeGreaterThan(once.searchText!);
    const afterBar = { ...standin.hits };

    // Past the window, the same place is asked about again: a new analysis, its own calls.
    clock = new Date(clock.getTime() + 16 * 60_000);
    const third = await submit({ email: 'cy@bean.example' }, '198.51.100.4');
    await run();
    expect(standin.hits.searchText).toBeGreaterThan(afterBar.searchText!);
    expect((await requests(t, [bar, third])).map((r) => r.status)).toEqual(['sent', 'sent']);
    expect(new Set((await t.ctx.db.select().from(providerCalls)).map((c) => c.subjectId))).toEqual(new Set([first, bar, third]));
  });
});
