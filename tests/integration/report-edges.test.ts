// The report at the edges real markets hit, against local Google Places and Yelp stand-ins in
// their documented shapes (tests/helpers/places-standin.ts, markets.ts): names in Cyrillic and
// Japanese and with accents the visitor did not type, a dead website, a business the provider
// does not list, zero reviews, a Yelp market, and competitor discovery answering 500, 429 or never.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { readOutboxMessage } from '../../api/email/outbox.ts';
import { createRegistry } from '../../api/jobs/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { analyseBusiness, type AnalyseOptions } from '../../api/report/analyse.ts';
import { ProviderStageError } from '../../api/report/analysis/providers/types.ts';
import type { ReportData, ReportInput } from '../../api/report/model/types.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reportRequests } from '../../db/schema/businesses.ts';
import { reports } from '../../db/schema/reports.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { MARKETS, type MarketName } from '../helpers/markets.ts';
import { startStandin, type Standin } from '../helpers/places-standin.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

const NOW = new Date();
const sites: AnalyseOptions['fetch'] = { allowLoopback: true, extraPorts: [9], timeoutMs: 2000 };

interface Harness {
  t: TestContext;
  standin: Standin;
  input: ReportInput;
  analyse: () => Promise<ReportData>;
}

const open: Harness[] = [];
async function harness(name: MarketName, provider: 'google' | 'yelp' = 'google'): Promise<Harness> {
  const m = MARKETS[name];
  const t0 = await createTestContext({ WORKER: 'off' });
  const standin = await startStandin(m.market(t0.ctx.env.PUBLIC_BASE_URL));
  await t0.close();
  const settings: Record<string, string> = provider === 'google' ? { GOOGLE_PLACES_KEY: 'g', GOOGLE_PLACES_BASE_URL: standin.base } : { YELP_API_KEY: 'y', YELP_BASE_URL: standin.base };
  const t = await createTestContext({ PLACES_PROVIDER: provider, PROVIDER_TIMEOUT_MS: '3000', ...settings });
  const input: ReportInput = { businessId: 'b-edge', fullName: 'Ada', email: 'ada@example.com', company: m.company, website: m.website, address: m.address, city: 'Austin', state: 'TX', zip: '78701' };
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

const ownIds = (d: ReportData) => d.competitors.map((c) => c.place.placeId).filter((id) => /:(own|own-dup)$/.test(id));
const point = (d: ReportData, key: string) => d.business.dataPoints.find((p) => p.key === key)!;

describe('names in every script', () => {
  it.each(['google', 'yelp'] as const)('a Cyrillic name typed as listed is found, its category read, never ranked against itself (%s)', async (provider) => {
    const h = await harness('cyrillic', provider);
    const d = await h.analyse();
    expect(d.business.place.placeId).toBe(`${provider}:own`);
    expect(point(d, 'listing.found').value).toBe(true);
    expect(d.category).toBe('Restaurant');
    // Neither its own listing nor its duplicate (same phone, other name) is a competitor.
    expect(ownIds(d)).toEqual([]);
    expect(d.competitors.map((c) => c.place.name)).toContain('Кафе Пушкин');
    expect(d.business.rank).toBeGreaterThan(0);
    if (provider === 'google') expect(point(d, 'site.nap_name').value).toBe(true);
  });

  it('a Japanese name with a branch suffix is found and never its own competitor', async () => {
    const h = await harness('japanese');
    const d = await h.analyse();
    expect(d.business.place.placeId).toBe('google:own');
    expect(d.category).toBe('Restaurant');
    expect(ownIds(d)).toEqual([]);
    expect(d.competitors.map((c) => c.place.name)).toContain('寿司 さくら');
  });

  it('"Joes Cafe Ole" finds "Joe\'s Café Olé" and not the similar-named place before it', async () => {
    const h = await harness('accents');
    const d = await h.analyse();
    expect(d.business.place.placeId).toBe('google:own');
    expect(d.business.place.name).toBe("Joe's Café Olé");
    expect(ownIds(d)).toEqual([]);
    expect(d.category).toBe('Restaurant');
  });
});

describe('sentiment in the review\'s language', () => {
  it('reads Google\'s English translation, keeps the Spanish original for quotes', async () => {
    const h = await harness('spanish');
    const d = await h.analyse();
    expect(h.standin.seen.filter((s) => s.route === 'details').every((s) => s.url.endsWith('?languageCode=en'))).toBe(true);
    expect(point(d, 'reviews.languages').value).toBe('Spanish 5');
    expect(d.ownReviews!.map((r) => r.text)).toContain('Excelente servicio, muy amables y rápidos. ¡Los recomiendo!');
    expect(point(d, 'reviews.sentiment_average')).toMatchObject({ status: 'measured' });
    expect(point(d, 'reviews.positive_share').value).toBe(60);
    expect(point(d, 'reviews.negative_share').value).toBe(40);
  });

  it('detects Spanish in Yelp\'s excerpts and scores it: the positive review is positive, the complaint negative', async () => {
    const d = await (await harness('spanish', 'yelp')).analyse();
    // Yelp's 3 newest: two praising, one complaining ("Terrible, nunca llegaron…").
    expect(point(d, 'reviews.languages').value).toBe('Spanish 3');
    expect(point(d, 'reviews.positive_share').value).toBeCloseTo(66.67, 1);
    expect(point(d, 'reviews.negative_share').value).toBeCloseTo(33.33, 1);
    expect(point(d, 'reviews.sentiment_average').value as number).toBeGreaterThan(0);
  });
});

describe('advice that follows the facts', () => {
  it('a dead website: "Get your website back up" in the top three with its real gain, no advice for pages nobody can open', async () => {
    const d = await (await harness('dead-site')).analyse();
    expect(point(d, 'site.reachable')).toMatchObject({ status: 'measured', value: false });
    const top = d.recommendations.slice(0, 3);
    const fix = top.find((r) => r.title === 'Get your website back up')!;
    expect(fix).toBeDefined();
    // Its gain is every website point's at once, on the score it moves most: far more than any
    // single website fix.
    const lost = (['digitalPresence', 'engagement'] as const).map((k) => {
      const b = d.business.breakdown[k];
      return b.parts.filter((p) => p.source === 'website' && p.normalised !== null).reduce((s, p) => s + (9 * p.weight * (1 - p.normalised!)) / b.measuredWeight, 0);
    });
    expect(fix.gain).toBeCloseTo(Math.max(...lost), 1);
    expect(fix.detail).toMatch(/\(Website reachable: no; \d+ website data points at their worst because of it\.\)$/);
    for (const r of d.recommendations) expect(r.title).not.toMatch(/contact form|tap-to-call|social profiles|live chat|HTTPS|structured data/i);
  });

  it('an unlisted business: "Create or claim your listing" first; share "Not enough data", never 0.00%', async () => {
    const d = await (await harness('unlisted')).analyse();
    expect(point(d, 'listing.found')).toMatchObject({ status: 'measured', value: false });
    expect(d.recommendations[0]!.title).toBe('Create or claim your listing');
    expect(d.recommendations[0]!.detail).toMatch(/not found on Google Places/);
    expect(d.business.scores.marketSharePercent).toBeNull();
    // Its listing's points are what a customer finds there: none (not read from the request).
    expect(point(d, 'listing.has_address')).toMatchObject({ status: 'measured', value: null, absentBecause: 'not_listed' });
    expect(d.notes.join(' ')).toMatch(/was not found on Google Places near Austin, TX/);
  });

  it('zero reviews is measured: the business is ranked, with the lowest Online Reviews in its market', async () => {
    const d = await (await harness('zero-reviews')).analyse();
    expect(point(d, 'reviews.count')).toMatchObject({ status: 'measured', value: 0 });
    expect(point(d, 'reviews.rating')).toMatchObject({ status: 'measured', absentBecause: 'no_reviews' });
    expect(d.business.scores.reviews).not.toBeNull();
    expect(d.business.scores.overall).not.toBeNull();
    expect(d.business.scores.marketSharePercent).toBe(0);
    for (const c of d.competitors) expect(c.scores.reviews!).toBeGreaterThan(d.business.scores.reviews!);
    expect(d.recommendations.map((r) => r.title)).toContain('Get your first reviews');
  });

  it('never tells a business to advertise where competitors do when no competitor has an ad pixel', async () => {
    const d = await (await harness('cyrillic', 'yelp')).analyse();
    expect(d.recommendations.map((r) => r.title)).not.toContain('Advertise where your competitors do');
  });
});

describe('a provider\'s bad minute is retried, not reported', () => {
  let h: Harness;
  beforeAll(async () => (h = await harness('dead-site')));
  afterEach(() => {
    for (const r of ['searchText', 'searchNearby', 'details'] as const) h.standin.fail(r, 'ok');
  });

  it.each([['500', /answered with an error: HTTP 500/], ['429', /quota was exhausted \(429\)/], ['never', /did not answer in time/]] as const)('competitor discovery answering %s fails the stage', async (failure, cause) => {
    h.standin.fail('searchNearby', failure);
    const error = await h.analyse().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderStageError);
    expect((error as ProviderStageError).stage).toBe('discover');
    expect((error as Error).message).toMatch(cause);
    expect((error as Error).message).not.toMatch(/\n/);
  });

  it('the business lookup answering 500 fails the stage; a malformed answer marks the listing unknown', async () => {
    h.standin.fail('searchText', '500');
    await expect(h.analyse()).rejects.toMatchObject({ name: 'ProviderStageError', stage: 'identify' });
    h.standin.fail('searchText', 'malformed');
    const d = await h.analyse();
    expect(point(d, 'listing.found').status).toBe('unknown');
    expect(point(d, 'listing.has_address').status).toBe('unknown');
    expect(d.business.scores.marketSharePercent).toBeNull();
  });

  it('the job retries with back-off and e-mails the report once the provider answers; no report claims a rank against nobody', async () => {
    h.standin.fail('searchNearby', '500', 2);
    const registry = createRegistry({ analyse: (ctx, reportInput) => analyseBusiness(ctx, reportInput, { now: NOW, fetch: sites }) });
    const worker = createWorker(h.t.ctx, { registry, backoffBaseMs: 1, backoffMaxMs: 1 });
    const { request, jobId } = await createReportRequest(h.t.ctx);
    for (let attempt = 1; attempt <= 2; attempt++) {
      await worker.runNext();
      const job = (await h.t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
      expect(job.attempts).toBe(attempt);
      expect(job.lastError).toMatch(/Google Places could not list competitors/);
      expect(await h.t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id))).toEqual([]);
      await new Promise((r) => setTimeout(r, 5));
    }
    await worker.runNext();
    const report = (await h.t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))[0]!;
    expect(report.emailSent).toBe(true);
    const data = report.data as ReportData;
    expect(data.competitors.length).toBe(9);
    const [req] = await h.t.ctx.db.select().from(reportRequests).where(eq(reportRequests.id, request.id));
    expect(req!.status).toBe('sent');
    const file = readdirSync(join(h.t.dataDir, 'outbox')).find((f) => f.includes(report.id))!;
    const mail = (await readOutboxMessage(h.t.ctx, file))!.email;
    const pdf = mail.attachments.find((a) => a.mimeType === 'application/pdf')!;
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.content as ArrayBuffer)), { mergePages: true });
    expect(text).not.toMatch(/rank #1 of 1|100\.00% of the reviews/);
  });

  it('when the retries are spent the visitor gets the failure e-mail, not a report', async () => {
    // A server error: a quota's 429 (RESOURCE_EXHAUSTED) makes the report wait instead (provider-budget.test.ts).
    h.standin.fail('searchNearby', '500');
    const registry = createRegistry({ analyse: (ctx, reportInput) => analyseBusiness(ctx, reportInput, { now: NOW, fetch: sites }) });
    const worker = createWorker(h.t.ctx, { registry, backoffBaseMs: 1, backoffMaxMs: 1 });
    const { request, jobId } = await createReportRequest(h.t.ctx);
    await h.t.ctx.db.update(jobs).set({ maxAttempts: 2 }).where(eq(jobs.id, jobId));
    for (let i = 0; i < 2; i++) {
      await worker.runNext();
      await new Promise((r) => setTimeout(r, 5));
    }
    const [req] = await h.t.ctx.db.select().from(reportRequests).where(eq(reportRequests.id, request.id));
    expect(req!.status).toBe('failed');
    expect(await h.t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id))).toEqual([]);
    const failed = await h.t.ctx.db.select().from(jobs).where(eq(jobs.key, `report.failed:${request.id}`));
    expect(failed).toHaveLength(1);
  });
});
