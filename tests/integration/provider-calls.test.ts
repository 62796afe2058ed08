// The provider-call ledger (issue 49, decision 0270): every call a report makes to the Google and
// Yelp stand-ins (tests/helpers/places-standin.ts) and to the geocoder is one row, billed as the
// provider bills it (Google by endpoint and field mask), against the report request that made it;
// what a report cost and what a day cost are read from it.
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { providerCalls } from '../../db/schema/operations.ts';
import { analyseBusiness, type AnalyseOptions } from '../../api/report/analyse.ts';
import { withCallSubject } from '../../api/lib/provider-calls.ts';
import { priceTable } from '../../api/lib/provider-prices.ts';
import { costLine, spendLines, subjectSpend } from '../../api/lib/provider-spend.ts';
import type { ReportInput } from '../../api/report/model/types.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { MARKETS } from '../helpers/markets.ts';
import { startStandin, type Standin } from '../helpers/places-standin.ts';

const sites: AnalyseOptions['fetch'] = { allowLoopback: true, extraPorts: [9], timeoutMs: 2000 };
const open: Array<{ t: TestContext; standin: Standin }> = [];
afterAll(async () => {
  for (const { t, standin } of open) {
    await standin.close();
    await t.close();
  }
});

async function report(provider: 'google' | 'yelp', requestId: string) {
  const m = MARKETS.chain;
  const t0 = await createTestContext({ WORKER: 'off' });
  const standin = await startStandin(m.market(t0.ctx.env.PUBLIC_BASE_URL));
  await t0.close();
  const settings: Record<string, string> = provider === 'google' ? { GOOGLE_PLACES_KEY: 'g', GOOGLE_PLACES_BASE_URL: standin.base } : { YELP_API_KEY: 'y', YELP_BASE_URL: standin.base };
  const t = await createTestContext({ PLACES_PROVIDER: provider, PROVIDER_TIMEOUT_MS: '5000', GEOCODER_URL: `${standin.base}/maps/api/geocode/json`, GEOCODER_KEY: 'geo', ...settings });
  open.push({ t, standin });
  const input: ReportInput = { businessId: 'b-1', fullName: 'Ada', email: 'ada@example.com', company: m.company, website: m.website, address: m.address, city: 'Austin', state: 'TX', zip: '78701' };
  await withCallSubject({ type: 'report.generate', id: requestId }, () => analyseBusiness(t.ctx, input, { fetch: sites }));
  const rows = await t.ctx.db.select().from(providerCalls);
  const bySku: Record<string, number> = {};
  for (const r of rows) bySku[r.sku] = (bySku[r.sku] ?? 0) + 1;
  return { t, standin, rows, bySku };
}

describe('the provider-call ledger', () => {
  it('records every Google call the stand-in received, per SKU as Google bills it, against the report', async () => {
    const { t, standin, rows, bySku } = await report('google', 'req-g');
    const received = Object.values(standin.hits).reduce((a, b) => a + (b ?? 0), 0);
    expect(rows.length).toBe(received);
    expect(rows.every((r) => r.subjectType === 'report.generate' && r.subjectId === 'req-g' && r.status === 200)).toBe(true);
    const idsOnly = standin.seen.filter((s) => s.route === 'searchText' && s.mask === 'places.id').length;
    expect(bySku).toEqual({
      'geocoder.geocode': standin.hits.geocode,
      // The business lookup asks for ratings and websites: Enterprise; the grid's searches ids only: free.
      'google.text_search.enterprise': standin.hits.searchText! - idsOnly,
      ...(idsOnly ? { 'google.text_search.ids_only': idsOnly } : {}),
      'google.nearby_search.enterprise': standin.hits.searchNearby,
      // Reviews make Place Details Enterprise + Atmosphere.
      'google.place_details.atmosphere': standin.hits.details,
    });
    expect(standin.hits.geocode).toBe(1);

    const spend = await subjectSpend(t.ctx.db, priceTable(), 'req-g');
    const expected = (standin.hits.searchText! - idsOnly) * 0.035 + standin.hits.searchNearby! * 0.035 + standin.hits.details! * 0.025 + 0.005;
    expect(spend.usd).toBeCloseTo(expected, 10);
    expect(costLine(spend)).toMatch(new RegExp(`^Provider cost: \\$${expected.toFixed(2).replace('.', '\\.')} \\(${received} calls: .*${standin.hits.details} Place Details Enterprise \\+ Atmosphere \\$`));
  });

  it('records every Yelp call the stand-in received, per endpoint', async () => {
    const { standin, rows, bySku } = await report('yelp', 'req-y');
    const received = Object.values(standin.hits).reduce((a, b) => a + (b ?? 0), 0);
    expect(rows.length).toBe(received);
    expect(bySku).toEqual({
      'geocoder.geocode': 1,
      'yelp.search': (standin.hits.yelpTerm ?? 0) + (standin.hits.yelpSearch ?? 0),
      'yelp.reviews': standin.hits.yelpReviews,
      'yelp.details': standin.hits.yelpDetails,
    });
  });

  it('counts a call that failed, and charges only those answered', async () => {
    const { t, standin } = await report('google', 'req-ok');
    standin.fail('details', '500');
    await t.ctx.db.delete(providerCalls);
    const input: ReportInput = { businessId: 'b-2', fullName: 'Ada', email: 'ada@example.com', company: MARKETS.chain.company, website: MARKETS.chain.website, address: MARKETS.chain.address, city: 'Austin', state: 'TX', zip: '78701' };
    await withCallSubject({ type: 'report.generate', id: 'req-500' }, () => analyseBusiness(t.ctx, input, { fetch: sites }));
    const failed = await t.ctx.db.select().from(providerCalls).where(eq(providerCalls.status, 500));
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((r) => r.sku === 'google.place_details.atmosphere')).toBe(true);
    const spend = await subjectSpend(t.ctx.db, priceTable(), 'req-500');
    expect(spend.skus.find((s) => s.sku === 'google.place_details.atmosphere')).toMatchObject({ calls: failed.length, usd: 0 });
  });

  it('says what the day cost, after the free monthly allowance used by earlier days of the month', async () => {
    const t = await createTestContext();
    open.push({ t, standin: await startStandin(MARKETS.chain.market(t.ctx.env.PUBLIC_BASE_URL)) });
    const now = new Date('2026-12-10T12:00:00Z');
    const row = (day: string, sku: string, provider: string, status = 200) => ({ day, at: new Date(`${day}T08:00:00Z`), provider, sku, status });
    // 999 Place Details with reviews earlier this month, 3 today: 2 past the 1,000 free.
    await t.ctx.db.insert(providerCalls).values([
      ...Array.from({ length: 999 }, () => row('2026-12-03', 'google.place_details.atmosphere', 'google')),
      ...Array.from({ length: 3 }, () => row('2026-12-10', 'google.place_details.atmosphere', 'google')),
      ...Array.from({ length: 2 }, () => row('2026-12-10', 'yelp.search', 'yelp')),
      row('2026-11-30', 'google.place_details.atmosphere', 'google'),
      row('2026-12-09', 'google.text_search.enterprise', 'google'),
    ]);
    const lines = await spendLines(t.ctx.db, priceTable(), { budgetUsd: 10, days: 2, now });
    // 2 × $0.025 + 2 × $7.63 / 1,000.
    expect(lines).toEqual([
      'Today: $0.07, 5 calls (budget $10.00 a day, 1% spent)',
      '  google',
      '    Place Details Enterprise + Atmosphere: 3 calls, $0.05, free allowance 1,000/1,000 used this month',
      '  yelp',
      '    Yelp business search: 2 calls, $0.02',
      '2026-12-09: $0.00, 1 call',
      '  google',
      '    Text Search Enterprise: 1 call, $0.00, free allowance 1/1,000 used this month',
    ]);
    // An account with its own prices (PROVIDER_PRICES): no free allowance, $20 per 1,000.
    const custom = await spendLines(t.ctx.db, priceTable({ 'google.place_details.atmosphere': { usdPer1000: 20, freePerMonth: 0 } }), { budgetUsd: 10, days: 1, now });
    expect(custom[2]).toBe('    Place Details Enterprise + Atmosphere: 3 calls, $0.06');
  });
});

describe('PROVIDER_PRICES', () => {
  it('replaces the list price of the SKUs it names, and refuses what is not such JSON', async () => {
    const { loadEnv } = await import('../../api/env.ts');
    const { pricesFor } = await import('../../api/lib/provider-prices.ts');
    const env = loadEnv({ PROVIDER_PRICES: '{"google.place_details.atmosphere":{"usdPer1000":20}}' });
    expect(pricesFor(env)['google.place_details.atmosphere']).toMatchObject({ usdPer1000: 20, freePerMonth: 1_000 });
    expect(pricesFor(loadEnv({}))['google.place_details.atmosphere']!.usdPer1000).toBe(25);
    for (const bad of ['25', '{"x":{"usdPer1000":-1}}', '{"x":{"price":1}}', '{']) expect(() => loadEnv({ PROVIDER_PRICES: bad })).toThrow(/PROVIDER_PRICES: must be JSON/);
  });
});
