// The local visibility grid against local Google and Yelp stand-ins that rank places by distance
// from each search's centre, as a person standing there would be answered: the grid's geometry,
// the ranks and metrics, the cache shared across reports, the call budget, the daily cap, a quota
// refusal, and a business absent from every cell.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { extractText, getDocumentProxy } from 'unpdf';
import { reportEmail } from '../../api/email/report-email.ts';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { findings } from '../../api/report/render/summary.ts';
import { distanceMiles } from '../../api/report/analysis/geocode.ts';
import { gridMetrics, SearchLedger } from '../../api/report/analysis/visibility.ts';
import type { ReportData, ReportInput } from '../../api/report/model/types.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const CENTER = { latitude: 30.2713, longitude: -97.7426 };
const input: ReportInput = { businessId: 'b-1', fullName: 'Ada', email: 'ada@example.com', company: 'Bright Smile Dental', website: '', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' };

// The business (0) and 24 dentists spread around it, from a few blocks to ~12 miles away.
const PLACES = Array.from({ length: 25 }, (_, i) => {
  const angle = i * 2.4;
  const miles = i === 0 ? 0 : 0.3 + i * 0.45;
  return {
    i,
    name: i === 0 ? 'Bright Smile Dental' : `Dentist Number ${i}`,
    latitude: CENTER.latitude + (miles / 69.055) * Math.cos(angle),
    longitude: CENTER.longitude + (miles / (69.055 * Math.cos((CENTER.latitude * Math.PI) / 180))) * Math.sin(angle),
  };
});

let mode: 'ok' | '429' | 'hide-business' = 'ok';
const gridCalls: Array<{ provider: 'google' | 'yelp'; body: Record<string, unknown>; mask?: string }> = [];
let server: Server;
let base = '';

/** The stand-ins' ranking: nearest first, the top 20. */
function ranked(at: { latitude: number; longitude: number }) {
  return PLACES.filter((p) => !(mode === 'hide-business' && p.i === 0)).map((p) => ({ p, d: distanceMiles(at, p) })).sort((a, b) => a.d - b.d).slice(0, 20).map((x) => x.p);
}

const gPlace = (p: (typeof PLACES)[number]) => ({
  id: `gp${p.i}`, displayName: { text: p.name }, formattedAddress: `${100 + p.i} Main St, Austin, TX 78701, USA`, rating: 4.2, userRatingCount: 30 + p.i,
  location: { latitude: p.latitude, longitude: p.longitude }, primaryType: 'dentist', primaryTypeDisplayName: { text: 'Dentist' },
});
const yBusiness = (p: (typeof PLACES)[number]) => ({
  id: `yb${p.i}`, name: p.name, review_count: 20 + p.i, rating: 4, categories: [{ alias: 'generaldentistry', title: 'General Dentistry' }],
  coordinates: { latitude: p.latitude, longitude: p.longitude }, location: { display_address: [`${200 + p.i} Oak Ave`, 'Austin, TX 78701'] }, display_phone: '(512) 555-0200',
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (url.pathname === '/v1/places:searchText') {
        const body = JSON.parse(raw) as { textQuery: string; locationBias?: { circle: { center: { latitude: number; longitude: number } } } };
        const mask = String(req.headers['x-goog-fieldmask']);
        if (mask !== 'places.id') return json({ places: [gPlace(PLACES[0]!)] }); // identify
        gridCalls.push({ provider: 'google', body, mask });
        if (mode === '429') return res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}');
        return json({ places: ranked(body.locationBias!.circle.center).map((p) => ({ id: `gp${p.i}` })) });
      }
      if (url.pathname === '/v1/places:searchNearby') return json({ places: PLACES.slice(0, 20).map(gPlace) });
      if (url.pathname.startsWith('/v1/places/')) return json({ reviews: [], businessStatus: 'OPERATIONAL' });
      if (url.pathname === '/v3/businesses/search') {
        const term = url.searchParams.get('term');
        if (term === input.company) return json({ businesses: [yBusiness(PLACES[0]!)] }); // identify
        if (!term) return json({ businesses: PLACES.slice(0, 20).map(yBusiness) }); // discover
        gridCalls.push({ provider: 'yelp', body: Object.fromEntries(url.searchParams) });
        if (mode === '429') return res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"code":"TOO_MANY_REQUESTS_PER_SECOND"}}');
        const at = { latitude: Number(url.searchParams.get('latitude')), longitude: Number(url.searchParams.get('longitude')) };
        return json({ businesses: ranked(at).map(yBusiness), total: 20 });
      }
      if (/^\/v3\/businesses\/[^/]+\/reviews$/.test(url.pathname)) return json({ reviews: [] });
      if (/^\/v3\/businesses\/[^/]+$/.test(url.pathname)) return json({ ...yBusiness(PLACES[0]!), photos: [] });
      res.writeHead(404).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
beforeEach(() => {
  mode = 'ok';
  gridCalls.length = 0;
});

const point = (d: ReportData, key: string) => [d.business, ...d.competitors].map((p) => p.dataPoints.find((x) => x.key === key)!);
/** What the stand-in answers at each point of the report's grid: the business's expected ranks. */
const expectedRanks = (d: ReportData, i: number) => d.visibility!.points.map((pt) => { const k = ranked(pt).findIndex((p) => p.i === i); return k < 0 ? null : k + 1; });

describe('visibility grid with Google Text Search', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ PLACES_PROVIDER: 'google', GOOGLE_PLACES_KEY: 'g-key', GOOGLE_PLACES_BASE_URL: base, PROVIDER_TIMEOUT_MS: '10000' });
  });
  afterAll(() => t.close());

  it('searches a 3×3 grid reaching the fifth-nearest competitor and ranks every place by its id', async () => {
    const ledger = new SearchLedger();
    const d = await analyseBusiness(t.ctx, input, { now: NOW, ledger });
    const v = d.visibility!;
    expect(v).toMatchObject({ status: 'measured', provider: 'google', sampleData: false, tier: 'free', size: 3, calls: 9, cached: 0 });
    // Competitors are the nearest 9 (the stand-in's Nearby Search lists them by distance); the
    // fifth-nearest sets the reach.
    const fifth = [...d.competitors].map((c) => c.place.distanceMiles).sort((a, b) => a - b)[4]!;
    expect(v.radiusMiles).toBeCloseTo(Math.min(10, Math.max(1, fifth)), 2);
    expect(v.basis).toContain('fifth-nearest competitor');
    expect(v.points).toHaveLength(9);
    expect(v.points[4]).toEqual({ latitude: Number(CENTER.latitude.toFixed(3)), longitude: Number(CENTER.longitude.toFixed(3)) });
    // North-west corner first: north of the centre and west of it, by the radius.
    expect(distanceMiles(v.points[4]!, v.points[1]!)).toBeCloseTo(v.radiusMiles, 1);
    expect(v.points[0]!.latitude).toBeGreaterThan(v.points[4]!.latitude);
    expect(v.points[0]!.longitude).toBeLessThan(v.points[4]!.longitude);

    // The request: the keyword, a bias circle on the point, 20 results, ids only.
    expect(gridCalls).toHaveLength(9);
    for (const c of gridCalls) {
      expect(c.mask).toBe('places.id');
      expect(c.body).toMatchObject({ textQuery: 'dentist', pageSize: 20 });
      expect((c.body.locationBias as { circle: { radius: number } }).circle.radius).toBeGreaterThan(0);
    }
    expect(v.keywords.map((k) => k.keyword)).toEqual(['dentist']);
    // Ranks equal what the stand-in answered at each point, for the business and a competitor.
    expect(v.keywords[0]!.ranks['google:gp0']).toEqual(expectedRanks(d, 0));
    expect(v.keywords[0]!.ranks['google:gp3']).toEqual(expectedRanks(d, 3));
    expect(v.keywords[0]!.ranks['google:gp0']![4]).toBe(1);

    // Metrics per place, as data points with their source; SoLV in Market Share.
    const own = gridMetrics([expectedRanks(d, 0)]);
    const solv = d.business.dataPoints.find((p) => p.key === 'visibility.solv')!;
    expect(solv).toMatchObject({ status: 'measured', value: own.solv, score: 'marketShare' });
    expect(d.business.dataPoints.find((p) => p.key === 'visibility.atrp')!.value).toBe(own.atrp);
    expect(d.business.dataPoints.find((p) => p.key === 'visibility.arp')!.value).toBe(own.arp);
    const part = d.business.breakdown.marketShare.parts.find((p) => p.key === 'visibility.solv')!;
    expect(part).toMatchObject({ source: 'search', weight: 8, status: 'measured' });
    expect(part.contribution).not.toBeNull();
    for (const c of d.competitors) {
      const id = c.place.placeId;
      expect(c.dataPoints.find((p) => p.key === 'visibility.solv')!.value).toBe(gridMetrics([v.keywords[0]!.ranks[id]!]).solv);
    }
    expect(d.notes.join(' ')).toMatch(/Local visibility: a 3×3 grid of local searches for "dentist".*9 searches sent to Google Places/);
  });

  it('answers a second report in the same market from the cache: no new calls', async () => {
    const ledger = new SearchLedger();
    await analyseBusiness(t.ctx, input, { now: NOW, ledger });
    expect(gridCalls).toHaveLength(9);
    const again = await analyseBusiness(t.ctx, { ...input, businessId: 'b-2' }, { now: new Date(NOW.getTime() + 3_600_000), ledger });
    expect(gridCalls).toHaveLength(9);
    expect(again.visibility).toMatchObject({ status: 'measured', calls: 0, cached: 9 });
    expect(again.notes.join(' ')).toMatch(/0 searches sent to Google Places, 9 answered from searches made earlier today/);
    // A new day searches again.
    await analyseBusiness(t.ctx, input, { now: new Date(NOW.getTime() + 86_400_000), ledger });
    expect(gridCalls).toHaveLength(18);
  });

  it('sizes the grid by the plan, and keeps keywords within the per-report call budget', async () => {
    const budgeted = await createTestContext({ PLACES_PROVIDER: 'google', GOOGLE_PLACES_KEY: 'g-key', GOOGLE_PLACES_BASE_URL: base, VISIBILITY_CALL_BUDGET: '60' });
    try {
      const owner = await createUser(budgeted.ctx, { tier: 'pro' });
      const { business } = await createReportRequest(budgeted.ctx, { userId: owner.userId, company: input.company, enqueue: false });
      const d = await analyseBusiness(budgeted.ctx, { ...input, businessId: business.id }, { now: NOW, ledger: new SearchLedger() });
      // Pro: 5×5 on up to 3 keywords = 75 searches; the budget of 60 takes two.
      expect(d.visibility).toMatchObject({ status: 'measured', tier: 'pro', size: 5, calls: 50 });
      expect(d.visibility!.keywords.map((k) => k.keyword)).toEqual(['dentist', 'cleanings and exams']);
      expect(d.visibility!.reason).toMatch(/"teeth whitening" would pass the 60 searches a report may make/);
      expect(gridCalls).toHaveLength(50);
    } finally {
      await budgeted.close();
    }
  });

  it('stops at the daily cap per provider, leaving visibility Not measured', async () => {
    const capped = await createTestContext({ PLACES_PROVIDER: 'google', GOOGLE_PLACES_KEY: 'g-key', GOOGLE_PLACES_BASE_URL: base, VISIBILITY_DAILY_CAP: '5' });
    try {
      const ledger = new SearchLedger();
      const d = await analyseBusiness(capped.ctx, input, { now: NOW, ledger });
      expect(d.visibility).toMatchObject({ status: 'not_measured', calls: 5 });
      expect(d.visibility!.reason).toMatch(/daily allowance of 5 local searches is used up/);
      expect(gridCalls).toHaveLength(5);
      expect(d.business.scores.overall).not.toBeNull();
      // The rest of the day makes no more calls.
      await analyseBusiness(capped.ctx, input, { now: NOW, ledger });
      expect(gridCalls).toHaveLength(5);
    } finally {
      await capped.close();
    }
  });

  it('a quota refusal backs off and leaves visibility Not measured without failing the report', async () => {
    mode = '429';
    const ledger = new SearchLedger();
    const d = await analyseBusiness(t.ctx, input, { now: NOW, ledger });
    expect(d.visibility).toMatchObject({ status: 'not_measured', keywords: [] });
    expect(d.visibility!.reason).toMatch(/refused the local searches .*429/);
    for (const p of point(d, 'visibility.solv')) expect(p).toMatchObject({ status: 'unknown', value: null });
    expect(d.business.scores.marketShare).not.toBeNull();
    expect(d.notes.join(' ')).toMatch(/Local visibility: Not measured\./);
    // Stopped at the first refusals (the searches under way, each tried twice as every provider
    // call is on a 429), not the whole grid's; then left alone.
    const refused = gridCalls.length;
    expect(refused).toBeLessThanOrEqual(2 * 8);
    mode = 'ok';
    const later = await analyseBusiness(t.ctx, input, { now: new Date(NOW.getTime() + 60_000), ledger });
    expect(later.visibility!.status).toBe('not_measured');
    expect(later.visibility!.reason).toMatch(/refused searches for quota a short while ago/);
    expect(gridCalls).toHaveLength(refused);
    const after = await analyseBusiness(t.ctx, input, { now: new Date(NOW.getTime() + 16 * 60_000), ledger });
    expect(after.visibility!.status).toBe('measured');
  });

  it('a business absent from every cell: SoLV 0, no ARP, ATRP 21', async () => {
    mode = 'hide-business';
    const d = await analyseBusiness(t.ctx, input, { now: NOW, ledger: new SearchLedger() });
    expect(d.visibility!.keywords[0]!.ranks['google:gp0']).toEqual(Array(9).fill(null));
    const get = (k: string) => d.business.dataPoints.find((p) => p.key === k)!;
    expect(get('visibility.solv')).toMatchObject({ status: 'measured', value: 0 });
    expect(get('visibility.arp')).toMatchObject({ status: 'not_applicable', value: null });
    expect(get('visibility.atrp')).toMatchObject({ status: 'measured', value: 21 });
    // The competitors are still ranked.
    expect(d.competitors.some((c) => (c.dataPoints.find((p) => p.key === 'visibility.solv')!.value as number) > 0)).toBe(true);
  });
});

describe('visibility grid with Yelp search', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ PLACES_PROVIDER: 'yelp', YELP_API_KEY: 'y-key', YELP_BASE_URL: base, PROVIDER_TIMEOUT_MS: '10000' });
  });
  afterAll(() => t.close());

  it('searches the term from each point with best_match and matches Yelp business ids', async () => {
    const d = await analyseBusiness(t.ctx, input, { now: NOW, ledger: new SearchLedger() });
    expect(d.visibility).toMatchObject({ status: 'measured', provider: 'yelp', size: 3, calls: 9 });
    expect(gridCalls).toHaveLength(9);
    for (const c of gridCalls) expect(c.body).toMatchObject({ term: 'dentist', sort_by: 'best_match', limit: '20' });
    expect(d.visibility!.keywords[0]!.ranks['yelp:yb0']).toEqual(expectedRanks(d, 0));
    expect(point(d, 'visibility.solv').every((p) => p.status === 'measured')).toBe(true);
  });
});

describe('visibility grid with the sample provider', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t.close());

  it('the report e-mail carries the grid (text line, coloured HTML cells, the business outlined) and the PDF its page', async () => {
    const data = await analyseBusiness(t.ctx, input, { now: NOW, ledger: new SearchLedger() });
    const mail = reportEmail(t.ctx, { to: 'ada@example.com', fullName: 'Ada', data, token: 'tok', reportUrl: 'https://app.example.com/report/tok', expiresAt: new Date('2026-12-24T00:00:00Z'), messageId: '<m@x>', scoreCard: Buffer.alloc(0), pdf: Buffer.alloc(0) });
    // The executive summary (PDF and online report) says it in a sentence.
    expect(findings(data).at(-1)).toMatch(/^Of 9 local searches around you \(a 3×3 grid\), \d+ list you in the top 3: a Share of Local Voice of \d+\.\d{2}%\.$/);
    expect(String(mail.text)).toMatch(/^Share of Local Voice \d+\.\d{2}% \(top 3 at \d+ of 9 grid points for "dentist"\)/m);
    const html = String(mail.html);
    expect(html).toContain('<h2 style="font-size:17px;margin:12px 0 8px">Local visibility');
    expect(html.match(/<td align="center" style="width:30px;height:30px/g)).toHaveLength(9);
    expect(html.match(/border:3px solid #0f172a/g)).toHaveLength(1);
    expect(html).toMatch(/role="img" aria-label="Your rank for &quot;dentist&quot; at each of 9 points/);
    const text = (await extractText(await getDocumentProxy(new Uint8Array(await renderPdf(data, { methodologyUrl: 'https://app.example.com/methodology' }))), { mergePages: false })).text as string[];
    const page = text.find((p) => p.includes('Local visibility'))!;
    expect(page).toMatch(/Share of Local Voice \d+\.\d{2}% · ARP/);
    expect(page).toContain('Share of Local Voice, business by business');
    expect(text.some((p) => p.includes('Your listing against the market') && p.includes('Local signals on your homepage'))).toBe(true);
  });

  it('is deterministic, falls off with distance and says it is sample data', async () => {
    const a = await analyseBusiness(t.ctx, input, { now: NOW, ledger: new SearchLedger() });
    const b = await analyseBusiness(t.ctx, input, { now: NOW, ledger: new SearchLedger() });
    expect(a.visibility).toEqual(b.visibility);
    expect(a.visibility).toMatchObject({ status: 'measured', provider: 'sample', sampleData: true, size: 3 });
    const ranks = a.visibility!.keywords[0]!.ranks[a.business.place.placeId]!;
    // The centre is the business's best cell.
    const atCentre = ranks[4] ?? 21;
    expect(ranks.every((r) => (r ?? 21) >= atCentre)).toBe(true);
  });
});
