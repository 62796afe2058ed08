// The report on names typed without their spaces and on reviews in languages the provider does
// not state, against the local Google and Yelp stand-ins (tests/helpers/places-standin.ts,
// markets.ts): a Korean name typed without spaces, German reviews negated after the verb, Swedish
// and Dutch reviews with no language (decision 0222).
import { afterAll, describe, expect, it } from 'vitest';
import { analyseBusiness, type AnalyseOptions } from '../../api/report/analyse.ts';
import { recommend } from '../../api/report/analysis/scoring.ts';
import { reportLines } from '../../api/report/render/summary.ts';
import type { ReportData, ReportInput } from '../../api/report/model/types.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { MARKETS, type MarketName } from '../helpers/markets.ts';
import { startStandin, type Standin } from '../helpers/places-standin.ts';

const NOW = new Date();
const sites: AnalyseOptions['fetch'] = { allowLoopback: true, extraPorts: [9], timeoutMs: 2000 };

const open: Array<{ t: TestContext; standin: Standin }> = [];
async function analyse(name: MarketName, provider: 'google' | 'yelp' = 'google'): Promise<ReportData> {
  const m = MARKETS[name];
  const t0 = await createTestContext({ WORKER: 'off' });
  const standin = await startStandin(m.market(t0.ctx.env.PUBLIC_BASE_URL));
  await t0.close();
  const settings: Record<string, string> = provider === 'google' ? { GOOGLE_PLACES_KEY: 'g', GOOGLE_PLACES_BASE_URL: standin.base } : { YELP_API_KEY: 'y', YELP_BASE_URL: standin.base };
  // No call here is made to fail: a generous time limit, so that a first call on a cold process
  // (modules still loading) is not taken for a provider that did not answer.
  const t = await createTestContext({ PLACES_PROVIDER: provider, PROVIDER_TIMEOUT_MS: '5000', ...settings });
  open.push({ t, standin });
  const input: ReportInput = { businessId: 'b-lang', fullName: 'Ada', email: 'ada@example.com', company: m.company, website: m.website, address: m.address, city: 'Austin', state: 'TX', zip: '78701' };
  return analyseBusiness(t.ctx, input, { now: NOW, fetch: sites });
}
afterAll(async () => {
  for (const { t, standin } of open) {
    await standin.close();
    await t.close();
  }
});

const point = (d: ReportData, key: string) => d.business.dataPoints.find((p) => p.key === key)!;

describe('a name typed without the spaces its listing has', () => {
  it.each(['google', 'yelp'] as const)('finds "서울 숯불 갈비" for "서울숯불갈비", never its own competitor, and keeps the restaurant next door a competitor (%s)', async (provider) => {
    const d = await analyse('korean', provider);
    expect(d.business.place.placeId).toBe(`${provider}:own`);
    expect(d.business.place.name).toBe('서울 숯불 갈비');
    expect(point(d, 'listing.found').value).toBe(true);
    expect(d.competitors.map((c) => c.place.placeId)).not.toContain(`${provider}:own`);
    expect(d.competitors.map((c) => c.place.name)).toEqual(expect.arrayContaining(['부산숯불갈비', '서울 순두부']));
  });
});

describe('reviews read by grammar, in their language', () => {
  it('German reviews negated after the verb read negative: 80% negative, not positive', async () => {
    const d = await analyse('german');
    expect(point(d, 'reviews.languages').value).toBe('German 5');
    expect(point(d, 'reviews.negative_share').value).toBe(80);
    expect(point(d, 'reviews.positive_share').value).toBe(20);
    expect(point(d, 'reviews.sentiment_average').value as number).toBeLessThan(0);
    expect(reportLines(d).join('\n')).toContain('Review languages       German 5 · sentiment (all measured): 20% positive, 0% neutral, 80% negative');
  });

  it('Yelp\'s Swedish and Dutch excerpts with no language: named, read in their language, the one that cannot be told left out and counted', async () => {
    const d = await analyse('nordic', 'yelp');
    // Yelp's 3 newest: "Inte bra, maten var kall." (Swedish), "Slecht" (Dutch), "Prima" (either).
    expect(point(d, 'reviews.languages').value).toBe('Dutch 1, Swedish 1, not recognised 1');
    expect(point(d, 'reviews.positive_share')).toMatchObject({ value: 0, measuredOf: { measured: 2, texts: 3 } });
    expect(point(d, 'reviews.negative_share').value).toBe(100);
    expect(point(d, 'reviews.neutral_share').value).toBe(0);
    expect(point(d, 'reviews.positive_share').how).toContain('2 reviews measured; 1 not measured (not recognised 1) left out.');
    expect(reportLines(d).join('\n')).toContain('Review languages       Dutch 1, Swedish 1, not recognised 1 · sentiment: 0% positive, 0% neutral, 100% negative of the 2 reviews we could measure; 1 more in a language we could not tell (4-star) not measured');
    // A recommendation that cites a sentiment share says what it was read from (every
    // recommendation the points allow, not only the report's first five).
    const positive = recommend(d.business.dataPoints, 50).find((r) => r.evidence.includes('reviews.positive_share'));
    expect(positive?.detail).toContain('Positive review share: 0% (of the 2 reviews we could measure; 1 more in a language we could not tell (4-star) not measured)');
  });

  it('with no text whose language can be told, no sentiment share is given or cited', async () => {
    const d = await analyse('untold', 'yelp');
    expect(point(d, 'reviews.languages').value).toBe('not recognised 3');
    for (const key of ['reviews.positive_share', 'reviews.negative_share', 'reviews.sentiment_average']) expect(point(d, key)).toMatchObject({ value: null, status: 'unknown' });
    expect(reportLines(d).join('\n')).toContain('Review languages       not recognised 3 · sentiment not measured (no text in a language it is measured in)');
    expect(d.recommendations.map((r) => r.detail).join(' ')).not.toMatch(/review share|Average sentiment/);
  });
});
