// Markets at their thinnest and Google's documented edge values, against the local Google Places
// stand-in (tests/helpers/places-standin.ts, markets.ts): a business with no competitor within the
// radius, one with two, a place open 24/7, a place not open yet, a price level Google does not know.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, describe, expect, it } from 'vitest';
import { readOutboxMessage } from '../../api/email/outbox.ts';
import { createRegistry } from '../../api/jobs/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { scoreCardTree } from '../../api/report/render/score-card.ts';
import { reports } from '../../db/schema/reports.ts';
import { createReportRequest } from '../helpers/report-requests.ts';
import { analyseBusiness, type AnalyseOptions } from '../../api/report/analyse.ts';
import type { ReportData, ReportInput } from '../../api/report/model/types.ts';
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
  const t = await createTestContext({ PLACES_PROVIDER: 'google', PROVIDER_TIMEOUT_MS: '10000', GOOGLE_PLACES_KEY: 'g', GOOGLE_PLACES_BASE_URL: standin.base, ...extra });
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

describe('a market is a market only with competitors in it (decision 0216)', () => {
  it('no competitor within the radius: no rank, no share, no Market Share score, no "you lead"; the overall from the other three, the business\'s own findings kept', async () => {
    const d = await (await harness('no-competitors')).analyse();
    expect(d.competitors).toEqual([]);
    const b = d.business;
    expect(b.scores.marketShare).toBeNull();
    expect(b.scores.marketSharePercent).toBeNull();
    expect(b.breakdown.marketShare.parts).toEqual([]);
    for (const key of ['market.review_share', 'market.review_position', 'market.prominence_position', 'market.average_rating']) expect(pointOf(b, key), key).toMatchObject({ status: 'not_applicable', value: null });
    expect(pointOf(b, 'market.review_position').how).toMatch(/No market: no competitor was found within 20 miles/);
    // The business's own findings stay measured (shown, not scored).
    expect(pointOf(b, 'market.review_volume')).toMatchObject({ status: 'measured', value: 80, score: null });
    expect(pointOf(b, 'reviews.rating')).toMatchObject({ status: 'measured' });
    // The overall: Online Reviews 30, Digital Presence 25, Engagement 20, rescaled to 100.
    const { reviews, digitalPresence, engagement } = b.scores;
    expect(b.scores.overall).toBeCloseTo((0.3 * reviews! + 0.25 * digitalPresence! + 0.2 * engagement!) / 0.75, 2);
    expect(d.recommendations.every((r) => r.score !== 'marketShare')).toBe(true);
    const { findings, reportLines } = await import('../../api/report/render/summary.ts');
    const text = [...findings(d), ...reportLines(d)].join('\n');
    expect(text).not.toMatch(/#1 of 1|you lead|100\.00% of the reviews|top 0/);
    expect(text).toMatch(/No market to rank you in: no other restaurant was found within 20 miles/);
    expect(text).toMatch(/rank No market · market share No market/);
    expect(text).toMatch(/Market Share\s+No market/);
    expect(text).toMatch(/The overall score weighs Online Reviews 40%, Digital Presence 33\.33%, Customer Engagement 26\.67%/);
    expect(d.notes.join(' ')).toMatch(/No restaurant competitor was found within 20 miles: a rank, a share of the market and the Market Share score need at least 3/);
  });

  it('two competitors: compared side by side, with no rank, no share and no Market Share score for anyone', async () => {
    const d = await (await harness('two-competitors')).analyse();
    expect(d.competitors).toHaveLength(2);
    for (const p of [d.business, ...d.competitors]) {
      expect(p.scores.marketShare).toBeNull();
      expect(p.scores.marketSharePercent).toBeNull();
      expect(p.scores.overall).not.toBeNull();
    }
    // A comparison with the competitors found is still made.
    expect(pointOf(d.business, 'market.rating_vs_average').status).toBe('measured');
    const { findings, reportLines } = await import('../../api/report/render/summary.ts');
    const text = [...findings(d), ...reportLines(d)].join('\n');
    expect(text).not.toMatch(/#\d of 3|you lead|% of the reviews in this market are yours/);
    expect(text).toMatch(/Too few competitors to rank you: 2 other restaurants were found within 20 miles/);
    expect(text).toMatch(/Your overall score is \d+\.\d\d: (above|below|level with) /);
  });

  it('says so on every surface: the PDF, the e-mail body and subject, the score card', async () => {
    const h = await harness('no-competitors');
    const registry = createRegistry({ analyse: (ctx, reportInput) => analyseBusiness(ctx, reportInput, { now: NOW, fetch: sites }) });
    const worker = createWorker(h.t.ctx, { registry, backoffBaseMs: 1, backoffMaxMs: 1 });
    const { request } = await createReportRequest(h.t.ctx, { company: MARKETS['no-competitors'].company });
    await worker.runNext();
    const report = (await h.t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))[0]!;
    expect(report.emailSent).toBe(true);
    const data = report.data as ReportData;
    expect(data.competitors).toEqual([]);
    const wrong = /#1 of 1|rank 1 of 1|ranks #|you lead|100\.00% of the reviews|top 0/;
    const file = readdirSync(join(h.t.dataDir, 'outbox')).find((f) => f.includes(report.id))!;
    const mail = (await readOutboxMessage(h.t.ctx, file))!.email;
    expect(mail.subject).toMatch(/Prairie Creek Diner has no competitor nearby to rank against$/);
    expect(mail.subject).not.toMatch(wrong);
    for (const body of [mail.text as string, mail.html as string]) {
      expect(body).not.toMatch(wrong);
      expect(body).toMatch(/No market to rank you in: no other restaurant was found within 20 miles/);
      expect(body).toMatch(/Market Share: No market|>No market</);
    }
    expect(mail.text).toMatch(/Market rank: No market/);
    const pdf = mail.attachments.find((a) => a.mimeType === 'application/pdf')!;
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.content as ArrayBuffer)), { mergePages: true });
    expect(text).not.toMatch(wrong);
    expect(text).toMatch(/no restaurant competitor within 20 miles/);
    expect(text).toMatch(/No market to rank in/);
    expect(text).toMatch(/Share of the reviews in this market:\s+No market/);
    const card = JSON.stringify(scoreCardTree(data));
    expect(card).not.toMatch(wrong);
    expect(card).toMatch(/no competitor within 20 miles/);
    expect(card).toMatch(/No market to rank in/);
  });
});
