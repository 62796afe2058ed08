// A chain's other locations among its competitors (issue 46, decision 0235), against the local
// Google and Yelp stand-ins (tests/helpers/places-standin.ts, markets.ts): told by the same name,
// by the chain's central phone line under another name, by the brand's website under another
// spelling; a same-name shop with its own domain stays independent. Marked "your brand" on every
// surface, listed, and left out of the rank unless the owner counts them; and every sentiment
// share says the reviews it was read from.
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, describe, expect, it } from 'vitest';
import { reportEmail } from '../../api/email/report-email.ts';
import { loadEnv } from '../../api/env.ts';
import { analyseBusiness, type AnalyseOptions } from '../../api/report/analyse.ts';
import { breakdownOf, recommend } from '../../api/report/analysis/scoring.ts';
import { fmtValue, marketSize, rankOf, rankValue } from '../../api/report/words/labels.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { findings, reportLines } from '../../api/report/render/summary.ts';
import type { ReportData, ReportInput } from '../../api/report/model/types.ts';
import { eq } from 'drizzle-orm';
import { businesses, reportRequests } from '../../db/schema/businesses.ts';

import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { call } from '../helpers/context.ts';
import { expectDocumented, type OpenApiDocument } from '../helpers/openapi.ts';
import { createReportRequest } from '../helpers/report-requests.ts';
import { persistReport } from '../../api/report/persist.ts';
import { buildDashboard, type DashboardResponse } from '../../site/islands/dashboard/dashboard-data.ts';
import { getReportViaApi } from '../../api/services/api-reports.ts';
import { MARKETS, type MarketName } from '../helpers/markets.ts';
import { startStandin, type Standin } from '../helpers/places-standin.ts';

const NOW = new Date();
const sites: AnalyseOptions['fetch'] = { allowLoopback: true, extraPorts: [9], timeoutMs: 2000 };

const open: Array<{ t: TestContext; standin: Standin }> = [];
async function analyse(name: MarketName, provider: 'google' | 'yelp' = 'google', before?: (t: TestContext) => Promise<void | string>): Promise<ReportData> {
  const m = MARKETS[name];
  const t0 = await createTestContext({ WORKER: 'off' });
  const standin = await startStandin(m.market(t0.ctx.env.PUBLIC_BASE_URL));
  await t0.close();
  const settings: Record<string, string> = provider === 'google' ? { GOOGLE_PLACES_KEY: 'g', GOOGLE_PLACES_BASE_URL: standin.base } : { YELP_API_KEY: 'y', YELP_BASE_URL: standin.base };
  const t = await createTestContext({ PLACES_PROVIDER: provider, PROVIDER_TIMEOUT_MS: '5000', ...settings });
  open.push({ t, standin });
  const id = (await before?.(t)) || 'b-brand';
  const input: ReportInput = { businessId: id, fullName: 'Ada', email: 'ada@example.com', company: m.company, website: m.website, address: m.address, city: 'Austin', state: 'TX', zip: '78701' };
  return analyseBusiness(t.ctx, input, { now: NOW, fetch: sites });
}
afterAll(async () => {
  for (const { t, standin } of open) {
    await standin.close();
    await t.close();
  }
});

/** The business, owned by a user on `tier`, with the rank setting stored. */
async function ownedBusiness(t: TestContext, tier: 'free' | 'pro', rankWithBranches: boolean) {
  const { userId } = await createUser(t.ctx, { tier });
  await t.ctx.db.insert(businesses).values({ id: 'b-brand', userId, fullName: 'Ada', email: 'ada@example.com', company: 'Bean & Leaf Coffee', role: 'owner', website: 'https://www.beanandleaf.example/', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', rankWithBranches });
}

const LINKS = { methodologyUrl: 'https://localrank.example/methodology' };
const pdfText = async (data: ReportData) => {
  const doc = await getDocumentProxy(new Uint8Array(await renderPdf(data, LINKS)));
  const { text } = await extractText(doc, { mergePages: true });
  return text.replace(/\s+/g, ' ');
};
const email = (data: ReportData) => {
  const ctx = { env: loadEnv({ NODE_ENV: 'test', PUBLIC_BASE_URL: 'https://app.example.com' }) } as Parameters<typeof reportEmail>[0];
  const m = reportEmail(ctx, { data, to: 'owner@example.com', fullName: 'Dana Lee', token: 't', reportUrl: 'https://app.example.com/report/t', expiresAt: new Date('2026-12-24T00:00:00Z'), messageId: '<m@app.example.com>', scoreCard: Buffer.alloc(0), pdf: Buffer.alloc(0) });
  return { text: String(m.text), html: String(m.html).replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/\s+/g, ' ') };
};
const byId = (d: ReportData) => new Map(d.competitors.map((c) => [c.place.placeId.split(':').pop()!, c]));
const point = (d: ReportData, key: string) => d.business.dataPoints.find((p) => p.key === key)!;

describe('a chain\'s other locations among its competitors', () => {
  it.each(['google'] as const)('are told by name, central phone line and brand website; a namesake on its own domain is not (%s)', async (provider) => {
    const d = await analyse('chain', provider);
    const c = byId(d);
    // The phone line and the website used to make these the business's own listing: dropped.
    expect(c.get('b4')?.brand).toBe('phone');
    expect(c.get('b5')?.brand).toBe('website');
    for (const id of ['b1', 'b2', 'b3']) expect(c.get(id)?.brand).toBe('name');
    expect(c.get('n1')).toBeDefined();
    expect(c.get('n1')!.brand).toBeUndefined();
    expect(d.branches).toEqual({ count: 5, counted: false, why: 'default' });
    const independents = d.competitors.filter((x) => !x.brand);
    expect(marketSize(d)).toBe(independents.length + 1);
    // The rank is among the independents: every branch is left without one.
    expect(d.business.rank).toBe(independents.filter((x) => (x.scores.overall ?? 0) > d.business.scores.overall!).length + 1);
    for (const b of d.competitors.filter((x) => x.brand)) expect(rankValue(b, d)).toBeNull();
    expect(rankOf(d.business, d)).toBe(`#${d.business.rank} of ${independents.length + 1}`);
    expect(d.notes.join(' ')).toContain(`5 of the ${d.competitors.length} competitors are other locations of your brand (the same name, the same phone line, the same brand website), marked "your brand" and still listed`);
    expect(d.notes.join(' ')).toContain(`Your rank compares you with the ${independents.length} independent competitors only`);
  });

  it('are marked "your brand" and counted out of the rank on every surface', async () => {
    const d = await analyse('chain');
    const sentence = `5 of the ${d.competitors.length} competitors are other locations of your brand, marked "your brand". Your rank is among the ${d.competitors.length - 5} independent competitors first; they are listed without a rank.`;
    const cli = reportLines(d).join('\n');
    expect(cli).toContain(sentence);
    const rows = cli.split('\n').filter((l) => l.includes('(your brand)'));
    expect(rows).toHaveLength(5);
    // A long name is cut, its mark never; a brand row has no rank.
    for (const row of rows) expect(row).toMatch(/^–\s+\S.*\(your brand\)\s+\d/);
    expect(cli).toContain(`rank #${d.business.rank} of ${d.competitors.length - 4}`);
    expect(findings(d)).toContain(sentence);
    const pdf = await pdfText(d);
    expect(pdf).toContain(sentence);
    expect(pdf).toContain('B&L Express Kiosk (your brand)');
    const mail = email(d);
    expect(mail.text).toContain(`Market rank: #${d.business.rank} of ${d.competitors.length - 4}`);
    expect(mail.text).toContain(sentence);
    expect(mail.html).toContain(sentence);
  });

  it('count in the rank when the owner of a paid business chooses it', async () => {
    const d = await analyse('chain', 'google', async (t) => {
      await ownedBusiness(t, 'pro', true);
    });
    expect(d.branches).toEqual({ count: 5, counted: true, why: 'chosen' });
    expect(marketSize(d)).toBe(d.competitors.length + 1);
    expect(d.competitors.filter((x) => x.brand).every((b) => rankValue(b, d) !== null)).toBe(true);
    expect(reportLines(d).join('\n')).toContain('They count in your rank, as chosen for this business.');
  });

  it('a free business\'s stored choice does not count them: the free report ranks against independents first', async () => {
    const d = await analyse('chain', 'google', async (t) => {
      await ownedBusiness(t, 'free', true);
    });
    expect(d.branches?.counted).toBe(false);
  });

  it('in another script, by the exact name; another chain\'s name is independent', async () => {
    const d = await analyse('cyrillicChain');
    expect(d.competitors.filter((c) => c.brand).map((c) => c.place.name)).toEqual(['Кофе Хауз', 'Кофе Хауз']);
    expect(d.competitors.find((c) => c.place.name === 'Шоколадница')?.brand).toBeUndefined();
    expect(d.branches).toMatchObject({ count: 2, counted: false });
  });
});

describe('every sentiment share says its base', () => {
  it('five reviews in five languages: the share is of the 3 measured, and the 2 not measured are named with their stars', async () => {
    const d = await analyse('mixed');
    const base = 'of the 3 reviews we could measure; 2 more in Polish and Japanese (both 1-star) not measured';
    const positive = point(d, 'reviews.positive_share');
    expect(positive.value).toBeCloseTo(66.67, 2);
    expect(fmtValue(positive)).toBe(`66.67% ${base}`);
    // The stars of the texts not measured still count where stars count.
    expect(point(d, 'reviews.share_1_star').value).toBe(40);
    const part = breakdownOf(d.business.dataPoints, 'reviews').parts.find((p) => p.key === 'reviews.positive_share')!;
    expect(part.note).toBe(base);
    const pdf = await pdfText(d);
    expect(pdf).toContain(`Positive review share (${base})`);
    expect(pdf).not.toContain('Positive review share (from 5 reviews read)');
    expect(reportLines(d).join('\n')).toContain(`66.67% positive, 33.33% neutral, 0% negative ${base}`);
    expect(d.business.sentiment).toMatchObject({ sentimentMeasured: 3, notMeasured: [{ language: 'pl', rating: 1 }, { language: 'ja', rating: 1 }] });
  });

  it('other languages and mixed stars, on a competitor\'s table and in a recommendation citing a share', async () => {
    const d = await analyse('mixed');
    const c = d.competitors[0]!;
    const positive = c.dataPoints.find((p) => p.key === 'reviews.positive_share')!;
    expect(fmtValue(positive)).toMatch(/^100% of the 1 review we could measure; 3 more in (Vietnamese, Greek and Thai|[A-Za-z, ]+) \(rated \d, \d and \d stars\) not measured$/);
    const nordic = await analyse('nordic', 'yelp');
    const rec = recommend(nordic.business.dataPoints, 50).find((r) => r.evidence.includes('reviews.positive_share'));
    expect(rec?.detail).toContain('Positive review share: 0% (of the 2 reviews we could measure; 1 more in a language we could not tell (4-star) not measured)');
    expect(email({ ...nordic, recommendations: [rec!] }).text).toContain('of the 2 reviews we could measure; 1 more in a language we could not tell (4-star) not measured');
  });
});

describe('the owner\'s choice on the dashboard and in the API', () => {
  it('stores whether the brand\'s locations count in the rank: validated, authorized, documented, and the dashboard ranks by it', async () => {
    let owner!: Awaited<ReturnType<typeof createUser>>;
    let businessId = '';
    let requestId = '';
    const d = await analyse('chain', 'google', async (t) => {
      owner = await createUser(t.ctx, { tier: 'enterprise' });
      const { business, request } = await createReportRequest(t.ctx, { userId: owner.userId, company: 'Bean & Leaf Coffee', enqueue: false });
      businessId = business.id;
      requestId = request.id;
      return business.id;
    });
    const t = open.at(-1)!.t;
    await persistReport(t.ctx, { businessId, requestId, reportType: 'free', data: d });
    await t.ctx.db.update(reportRequests).set({ status: 'sent' }).where(eq(reportRequests.id, requestId));

    // The dashboard's answer names the brand's locations; its ranks leave them out by default.
    const read = async () => (await call(t.app, 'GET', `/api/business/${businessId}`, undefined, owner.cookie)).body as DashboardResponse;
    const first = await read();
    expect(first.business.rankWithBranches).toBe(false);
    expect(first.competitors.filter((c) => c.yourBrand).map((c) => c.yourBrand).sort()).toEqual(['name', 'name', 'name', 'phone', 'website']);
    const view = buildDashboard(first);
    expect(view.branches).toEqual({ count: 5, counted: false, why: 'default' });
    expect(view.total).toBe(5);
    expect(view.overallRank).toBe(d.business.rank);
    expect(view.competitors.filter((c) => c.yourBrand).every((c) => c.rank === null)).toBe(true);

    const path = `/api/business/${businessId}/rank-settings`;
    const bad = await call(t.app, 'PUT', path, { rankWithBranches: 'yes' }, owner.cookie);
    expect(bad.status).toBe(400);
    expect(bad.body.fields).toEqual({ rankWithBranches: 'rankWithBranches must be true or false' });
    expect((await call(t.app, 'PUT', path, { rankWithBranches: true, extra: 1 }, owner.cookie)).status).toBe(400);
    const stranger = await createUser(t.ctx, { tier: 'pro' });
    expect((await call(t.app, 'PUT', path, { rankWithBranches: true }, stranger.cookie)).status).toBe(404);
    const free = await createUser(t.ctx);
    expect((await call(t.app, 'PUT', path, { rankWithBranches: true }, free.cookie)).status).toBe(403);
    expect((await call(t.app, 'PUT', path, { rankWithBranches: true })).status).toBe(401);
    const ok = await call(t.app, 'PUT', path, { rankWithBranches: true }, owner.cookie);
    expect(ok).toMatchObject({ status: 200, body: { businessId, rankWithBranches: true } });
    const counted = buildDashboard(await read());
    expect(counted.branches).toEqual({ count: 5, counted: true, why: 'chosen' });
    expect(counted.total).toBe(d.competitors.length + 1);
    expect(counted.competitors.filter((c) => c.yourBrand && c.scores?.overall !== null).every((c) => c.rank !== null)).toBe(true);

    // The API: the same setting, its own scope, 400 with the field, 404 for another's business.
    const doc = (await call(t.app, 'GET', '/api/v1/openapi.json')).body as OpenApiDocument;
    const { key } = (await call(t.app, 'POST', '/api/api-keys', { name: 'Brand', scopes: ['businesses:read', 'businesses:write'] }, owner.cookie)).body;
    const v1 = async (method: string, url: string, body?: unknown) => {
      const res = await t.app.request(`/api/v1${url}`, { method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
      const answer = { status: res.status, headers: res.headers, body: await res.json() };
      expectDocumented(doc, method, `/api/v1${url}`, answer);
      return answer;
    };
    const refused = await v1('PUT', `/businesses/${businessId}/settings`, { rankWithBranches: 1 });
    expect(refused.status).toBe(400);
    expect(JSON.stringify(refused.body)).toContain('rankWithBranches must be true or false');
    const other = await createReportRequest(t.ctx, { userId: stranger.userId, enqueue: false });
    // Ownership before the body: a stranger's bad body is 404, not 400.
    expect((await v1('PUT', `/businesses/${other.business.id}/settings`, { rankWithBranches: 'x' })).status).toBe(404);
    expect(await v1('PUT', `/businesses/${businessId}/settings`, { rankWithBranches: false })).toMatchObject({ status: 200, body: { businessId, rankWithBranches: false } });
    const detail = await v1('GET', `/businesses/${businessId}`);
    expect(detail.body.business.rankWithBranches).toBe(false);
    expect(detail.body.competitors.filter((c: { yourBrand: string | null }) => c.yourBrand)).toHaveLength(5);
    const readOnly = (await call(t.app, 'POST', '/api/api-keys', { name: 'Read', scopes: ['businesses:read'] }, owner.cookie)).body.key;
    const noScope = await t.app.request(`/api/v1/businesses/${businessId}/settings`, { method: 'PUT', headers: { authorization: `Bearer ${readOnly}`, 'content-type': 'application/json' }, body: JSON.stringify({ rankWithBranches: true }) });
    expect(noScope.status).toBe(403);

    // The report over the API: each competitor says whether it is the brand's, and the rank's base.
    const report = await getReportViaApi({ ctx: t.ctx, userId: owner.userId, reportId: requestId });
    expect(report.result?.branches).toEqual({ count: 5, countedInRank: false });
    expect(report.result?.rankOf).toBe(5);
    expect(report.result?.competitors.filter((c) => c.yourBrand).every((c) => c.rank === null)).toBe(true);
  });
});
