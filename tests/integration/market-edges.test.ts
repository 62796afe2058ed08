// Markets at their thinnest and Google's documented edge values, against the local Google Places
// stand-in (tests/helpers/places-standin.ts, markets.ts): a business with no competitor within the
// radius, one with two, a place open 24/7, a place not open yet, a price level Google does not know.
import { afterAll, describe, expect, it } from 'vitest';
import { analyseBusiness, type AnalyseOptions } from '../../api/report/analyse.ts';
import type { ReportData, ReportInput } from '../../api/report/types.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { MARKETS, type MarketName } from '../helpers/markets.ts';
import { startStandin, type Standin } from '../helpers/places-standin.ts';

const NOW = new Date();
const sites: AnalyseOptions['fetch'] = { allowLoopback: true, extraPorts: [9], timeoutMs: 2000 };

interface Harness {
  t: TestContext;
  standin: Standin;
  input: ReportInput;
  analyse: () => Promise<ReportData>;
}

const open: Harness[] = [];
async function harness(name: MarketName, extra: Record<string, string> = {}): Promise<Harness> {
  const m = MARKETS[name];
  const t0 = await createTestContext({ WORKER: 'off' });
  const standin = await startStandin(m.market(t0.ctx.env.PUBLIC_BASE_URL));
  await t0.close();
  const t = await createTestContext({ PLACES_PROVIDER: 'google', PROVIDER_TIMEOUT_MS: '600', GOOGLE_PLACES_KEY: 'g', GOOGLE_PLACES_BASE_URL: standin.base, ...extra });
  const input: ReportInput = { businessId: `b-${name}`, fullName: 'Ada', email: 'ada@example.com', company: m.company, website: m.website, address: m.address, city: 'Austin', state: 'TX', zip: '78701' };
  const h = { t, standin, input, analyse: () => analyseBusiness(t.ctx, input, { now: NOW, fetch: sites }) };
  open.push(h);
  return h;
}
afterAll(async () => {
  for (const h of open) {
    await h.standin.close();
    await h.t.close();
  }
});

const pointOf = (p: ReportData['business'], key: string) => p.dataPoints.find((d) => d.key === key)!;

describe('Google\'s contract read as Google means it', () => {
  it('a place open 24/7 (one period: day 0 at 00:00, no close) is open 7 days and 168 hours a week', async () => {
    const d = await (await harness('provider-contract')).analyse();
    expect(pointOf(d.business, 'listing.has_hours')).toMatchObject({ status: 'measured', value: true });
    expect(pointOf(d.business, 'listing.open_days')).toMatchObject({ status: 'measured', value: 7 });
    expect(pointOf(d.business, 'listing.weekly_hours')).toMatchObject({ status: 'measured', value: 168 });
    expect(pointOf(d.business, 'listing.price_level').value).toBe('inexpensive');
  });

  it('FUTURE_OPENING is a place not open yet: not "closed", not unknown, and no "mark your business as open"', async () => {
    const d = await (await harness('provider-contract')).analyse();
    const soon = d.competitors.find((c) => c.place.placeId === 'google:c1')!;
    const operational = pointOf(soon, 'listing.operational');
    expect(operational.status).toBe('not_applicable');
    expect(operational.how).toMatch(/not open yet/);
    expect(d.notes.join(' ')).toMatch(/Blue Moon Diner is listed by Google Places as not open yet/);
    // The other places are read as before: operating.
    expect(pointOf(d.business, 'listing.operational')).toMatchObject({ status: 'measured', value: true });
  });

  it('PRICE_LEVEL_UNSPECIFIED is no price level (unknown), never a level called "unspecified"', async () => {
    const d = await (await harness('provider-contract')).analyse();
    const unspecified = d.competitors.find((c) => c.place.placeId === 'google:c2')!;
    const price = pointOf(unspecified, 'listing.price_level');
    expect(price.value).toBeNull();
    expect(price.status).not.toBe('measured');
    for (const p of [d.business, ...d.competitors]) expect(String(pointOf(p, 'listing.price_level').value)).not.toMatch(/unspecified/i);
  });
});
