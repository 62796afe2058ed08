// The google and yelp providers against local HTTP servers answering in the documented shapes,
// including 429, timeouts and malformed bodies: the analysis still completes, with the missing
// data marked and a note.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { COMPETITOR_COUNT, MIN_DATA_POINTS } from '../../common/constants.ts';
import { readOutboxMessage } from '../../api/email/outbox.ts';
import { createRegistry } from '../../api/jobs/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { independentMeasured } from '../../api/report/analysis/data-points.ts';
import { DETAIL_FIELDS } from '../../api/report/analysis/providers/google.ts';
import { loadEnv } from '../../api/env.ts';
import type { ReportInput } from '../../api/report/model/types.ts';
import { reports } from '../../db/schema/reports.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

const good = readFileSync(new URL('../fixtures/sites/good.html', import.meta.url), 'utf8');
const NOW = new Date('2026-11-22T12:00:00Z');
const CENTER = { latitude: 30.2713, longitude: -97.7426 };
const input: ReportInput = { businessId: 'b-1', fullName: 'Ada', email: 'ada@example.com', company: 'Bright Smile Dental', website: '', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' };

type Mode = 'ok' | '429' | '429-once' | 'slow' | 'malformed' | 'html' | '500';
const modes: Record<string, Mode> = {};
const hits: Record<string, number> = {};
const seen: Array<{ path: string; headers: IncomingMessage['headers']; body: string }> = [];
let base = '';
let port = 0;
let server: Server;

function send(res: ServerResponse, route: string, body: unknown) {
  const mode = modes[route] ?? 'ok';
  hits[route] = (hits[route] ?? 0) + 1;
  if (mode === '429' || (mode === '429-once' && hits[route] === 1)) return res.writeHead(429, { 'retry-after': '0', 'content-type': 'application/json' }).end('{"error":{"code":"TOO_MANY_REQUESTS"}}');
  // Slow: answers long after the provider's limit (3 s here), however busy the machine.
  if (mode === 'slow') return void setTimeout(() => res.writeHead(200).end(JSON.stringify(body)), 60_000).unref();
  if (mode === 'malformed') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"places": [{"id": ');
  if (mode === 'html') return res.writeHead(200, { 'content-type': 'text/html' }).end('<html>maintenance</html>');
  if (mode === '500') return res.writeHead(500).end('{}');
  res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

// 12 places around Austin; two beyond 20 miles; the business itself is listed too.
const offsets = [[0, 0], [0.01, 0.02], [0.03, -0.01], [-0.05, 0.04], [0.08, 0.02], [-0.1, -0.06], [0.12, 0.1], [0.15, -0.12], [-0.2, 0.05], [0.05, -0.2], [0.1, 0.1], [0.5, 0.3], [-0.4, 0.2]];
const names = ['Bright Smile Dental', 'Congress Dental', 'Lamar Smiles', 'Zilker Dentistry', 'Hyde Park Dental', 'Mueller Family Dental', 'Barton Creek Dental', 'Riverside Dentistry', 'Cedar Dental Care', 'Oak Hill Dental', 'Tarrytown Dental', 'Round Rock Far Dental', 'Kyle Far Dental'];
const gPlace = (i: number) => ({
  id: `gp${i}`,
  displayName: { text: names[i], languageCode: 'en' },
  formattedAddress: `${100 + i} Main St, Austin, TX 78701, USA`,
  nationalPhoneNumber: `(512) 555-01${String(i).padStart(2, '0')}`,
  websiteUri: i % 3 === 0 ? `${base}/site/${i}` : undefined,
  rating: 3.5 + (i % 5) * 0.3,
  userRatingCount: 20 + i * 15,
  location: { latitude: CENTER.latitude + offsets[i]![0]!, longitude: CENTER.longitude + offsets[i]![1]! },
  primaryType: 'dentist',
  primaryTypeDisplayName: { text: 'Dentist', languageCode: 'en-US' },
});
// Place Details (New) for the fields the report asks for: the profile varies by place.
const gDetails = (i: number) => ({
  ...gReviews(i),
  businessStatus: i === 5 ? 'CLOSED_TEMPORARILY' : 'OPERATIONAL',
  ...(i % 4 === 3 ? {} : {
    regularOpeningHours: {
      openNow: true,
      periods: [1, 2, 3, 4, 5].map((day) => ({ open: { day, hour: 8, minute: 0 }, close: { day, hour: 17, minute: 30 } })),
      weekdayDescriptions: ['Monday: 8:00 AM – 5:30 PM'],
    },
  }),
  photos: Array.from({ length: i % 11 }, (_, k) => ({ name: `places/gp${i}/photos/p${k}`, widthPx: 800, heightPx: 600, authorAttributions: [] })),
  types: ['dentist', 'health', 'point_of_interest', 'establishment'],
  ...(i % 2 === 0 ? { editorialSummary: { text: 'Family dental practice with same-day appointments.', languageCode: 'en' } } : {}),
  priceLevel: 'PRICE_LEVEL_MODERATE',
  accessibilityOptions: { wheelchairAccessibleParking: true, wheelchairAccessibleEntrance: true, wheelchairAccessibleRestroom: i % 2 === 0, wheelchairAccessibleSeating: true },
  paymentOptions: { acceptsCreditCards: true, acceptsDebitCards: true, acceptsCashOnly: false, acceptsNfc: i % 3 === 0 },
  parkingOptions: { freeParkingLot: true, paidParkingLot: false, freeStreetParking: true, paidStreetParking: false, valetParking: false, freeGarageParking: false, paidGarageParking: false },
  goodForChildren: true,
  allowsDogs: false,
  restroom: true,
});
// Yelp business details (`/v3/businesses/{id}`): claimed, photos, regular and special hours.
const yDetails = (i: number) => ({
  ...yBusiness(i),
  is_claimed: i % 2 === 0,
  photos: ['https://s3-media1.fl.yelpcdn.com/bphoto/a/o.jpg', 'https://s3-media1.fl.yelpcdn.com/bphoto/b/o.jpg', 'https://s3-media1.fl.yelpcdn.com/bphoto/c/o.jpg'].slice(0, i % 4),
  price: '$$',
  hours: [{ open: [0, 1, 2, 3, 4].map((day) => ({ is_overnight: false, start: '0800', end: '1700', day })), hours_type: 'REGULAR', is_open_now: true }],
  special_hours: i === 0 ? [{ date: '2026-12-25', is_closed: true, start: null, end: null, is_overnight: null }] : [],
});
const gReviews = (i: number) => ({
  reviews: [1, 2, 3, 4, 5].map((k) => ({
    name: `places/gp${i}/reviews/r${k}`,
    relativePublishTimeDescription: `${k} weeks ago`,
    rating: ((i + k) % 5) + 1,
    text: { text: k % 2 ? 'Great staff, friendly and on time.' : 'Terrible wait and rude front desk.', languageCode: 'en' },
    originalText: { text: 'x', languageCode: 'en' },
    authorAttribution: { displayName: `Author ${k}`, uri: 'https://maps.google.com/contrib/1', photoUri: '' },
    publishTime: new Date(NOW.getTime() - k * 7 * 86_400_000).toISOString(),
  })),
});
const yBusiness = (i: number) => ({
  id: `yb${i}`,
  alias: `yb-${i}`,
  name: names[i],
  image_url: '',
  is_closed: false,
  url: `https://www.yelp.com/biz/yb-${i}`,
  review_count: 10 + i * 9,
  categories: [{ alias: 'generaldentistry', title: 'General Dentistry' }],
  rating: 3 + (i % 4) * 0.5,
  coordinates: { latitude: CENTER.latitude + offsets[i]![0]!, longitude: CENTER.longitude + offsets[i]![1]! },
  transactions: [],
  location: { address1: `${200 + i} Oak Ave`, city: 'Austin', zip_code: '78701', state: 'TX', country: 'US', display_address: [`${200 + i} Oak Ave`, 'Austin, TX 78701'] },
  phone: `+1512555020${i % 10}`,
  display_phone: `(512) 555-020${i % 10}`,
  distance: 1000 * i,
});

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      seen.push({ path: url.pathname + url.search, headers: req.headers, body });
      if (url.pathname.startsWith('/site/')) return res.writeHead(200, { 'content-type': 'text/html' }).end(good);
      if (url.pathname === '/v1/places:searchText') return send(res, 'searchText', { places: [gPlace(0)] });
      if (url.pathname === '/v1/places:searchNearby') return send(res, 'searchNearby', { places: names.map((_, i) => gPlace(i)) });
      if (url.pathname.startsWith('/v1/places/')) return send(res, 'details', gDetails(Number(/gp(\d+)/.exec(url.pathname)![1])));
      if (url.pathname === '/v3/businesses/search') {
        const matching = url.searchParams.get('term') ? [yBusiness(0), yBusiness(3)] : names.map((_, i) => yBusiness(i));
        return send(res, url.searchParams.get('term') ? 'ySearchTerm' : 'ySearch', { businesses: matching, total: matching.length, region: { center: CENTER } });
      }
      if (/^\/v3\/businesses\/[^/]+\/reviews$/.test(url.pathname)) {
        return send(res, 'yReviews', {
          reviews: [1, 2, 3].map((k) => ({ id: `r${k}`, url: 'https://www.yelp.com/biz/x?hrid=1', text: k === 2 ? 'Awful, rude and overpriced.' : 'Wonderful team, explained everything.', rating: k === 2 ? 1 : 5, time_created: new Date(NOW.getTime() - k * 20 * 86_400_000).toISOString().slice(0, 19).replace('T', ' '), user: { id: 'u', profile_url: '', image_url: null, name: `User ${k}.` } })),
          total: 40,
          possible_languages: ['en'],
        });
      }
      if (/^\/v3\/businesses\/yb\d+$/.test(url.pathname)) return send(res, 'yDetails', yDetails(Number(/yb(\d+)/.exec(url.pathname)![1])));
      res.writeHead(404).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(() => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }));
beforeEach(() => {
  for (const k of Object.keys(modes)) delete modes[k];
  for (const k of Object.keys(hits)) delete hits[k];
  seen.length = 0;
});

const localSites = () => ({ allowLoopback: true, extraPorts: [port], timeoutMs: 3000 });

describe('google provider (Places API New)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ PLACES_PROVIDER: 'google', GOOGLE_PLACES_KEY: 'g-key', GOOGLE_PLACES_BASE_URL: base, PROVIDER_TIMEOUT_MS: '3000' });
  });
  afterAll(() => t.close());

  it('identifies the business, finds 9 competitors within 20 miles by popularity, reads reviews and websites', async () => {
    const data = await analyseBusiness(t.ctx, { ...input, website: `${base}/site/own` }, { now: NOW, fetch: localSites() });
    expect(data.provider).toBe('google');
    expect(data.sampleData).toBe(false);
    expect(data.category).toBe('Dentist');
    expect(data.business.place.placeId).toBe('google:gp0');
    expect(data.business.place.rating).toBe(3.5);
    expect(data.competitors).toHaveLength(COMPETITOR_COUNT);
    expect(data.competitors.map((c) => c.place.name)).not.toContain('Bright Smile Dental');
    expect(data.competitors.every((c) => c.place.distanceMiles <= 20)).toBe(true);
    expect(data.competitors.map((c) => c.place.name)).toEqual(names.slice(1, 10));
    expect(data.business.dataPoints.length).toBeGreaterThanOrEqual(MIN_DATA_POINTS);
    // Google's up-to-5 reviews by relevance cannot give counts of recent reviews, nor owner replies:
    // left out for every business.
    for (const key of ['reviews.last_30_days', 'engagement.response_rate']) {
      for (const p of [data.business, ...data.competitors]) expect(p.dataPoints.find((d) => d.key === key), key).toMatchObject({ status: 'not_applicable', value: null });
    }
    expect(data.business.dataPoints.find((d) => d.key === 'site.schema_local_business')?.value).toBe(true);
    expect(data.competitors.find((c) => c.place.name === 'Zilker Dentistry')!.techStack).toMatchObject({ read: true, cms: 'WordPress' });
    expect(data.notes.join(' ')).toMatch(/up to 5 reviews per business, the ones it finds most relevant/);
    // The business's own reviews go on to the Early Warning alerts.
    expect(data.ownReviews!.length).toBeGreaterThan(0);
    expect(data.ownReviews!.every((r) => r.rating >= 1 && !Number.isNaN(Date.parse(r.date)))).toBe(true);

    const nearby = seen.find((s) => s.path === '/v1/places:searchNearby')!;
    expect(nearby.headers['x-goog-api-key']).toBe('g-key');
    expect(nearby.headers['x-goog-fieldmask']).toContain('places.displayName');
    const req = JSON.parse(nearby.body);
    expect(req).toMatchObject({ includedTypes: ['dentist'], rankPreference: 'POPULARITY', maxResultCount: 20 });
    expect(req.locationRestriction.circle.radius).toBe(32187);
    expect(seen.find((s) => s.path === '/v1/places/gp1?languageCode=en')!.headers['x-goog-fieldmask']).toBe(DETAIL_FIELDS.join(','));
  });

  it(`measures at least ${MIN_DATA_POINTS} independent data points for a business with a readable website, and reads its listing profile`, async () => {
    const data = await analyseBusiness(t.ctx, { ...input, website: `${base}/site/0` }, { now: NOW, fetch: localSites() });
    const own = independentMeasured(data.business.dataPoints);
    console.log(`google, readable site: ${own.length} independent measured data points`);
    expect(own.length).toBeGreaterThanOrEqual(MIN_DATA_POINTS);
    const point = (key: string) => data.business.dataPoints.find((d) => d.key === key)!;
    expect(point('listing.has_hours')).toMatchObject({ status: 'measured', value: true });
    expect(point('listing.weekly_hours').value).toBe(47.5);
    expect(point('listing.editorial_summary').value).toBe(true);
    expect(point('listing.wheelchair_accessible_entrance')).toMatchObject({ status: 'measured', value: true });
    expect(point('listing.attributes_stated').value).toBe(18);
    // Yelp's claimed flag is a field Google does not have: left out for everyone.
    expect(point('listing.claimed').status).toBe('not_applicable');
    // Excerpt-based figures say where they come from.
    expect(point('reviews.sentiment_average').how).toMatch(/From the 5 reviews Google shares \(its up to 5 most relevant\)/);
    expect(data.competitors.find((c) => c.place.name === 'Mueller Family Dental')!.dataPoints.find((d) => d.key === 'listing.operational')!.value).toBe(false);
  });

  it('scores a website that does not answer as down: never above a working site on Digital Presence', async () => {
    const dead = await analyseBusiness(t.ctx, { ...input, website: 'http://127.0.0.1:9/' }, { now: NOW, fetch: { ...localSites(), extraPorts: [port, 9] } });
    const live = await analyseBusiness(t.ctx, { ...input, website: `${base}/site/0` }, { now: NOW, fetch: localSites() });
    const independent = independentMeasured(dead.business.dataPoints).length;
    console.log(`google, dead site: ${independent} independent measured data points`);
    expect(dead.business.dataPoints.find((d) => d.key === 'site.reachable')).toMatchObject({ status: 'measured', value: false });
    expect(dead.business.breakdown.digitalPresence.score).not.toBeNull();
    expect(dead.business.scores.digitalPresence!).toBeLessThan(live.business.scores.digitalPresence!);
    expect(dead.notes.join(' ')).toMatch(/did not answer when we visited/);
  });

  it('retries one 429 with a short Retry-After', async () => {
    modes.searchNearby = '429-once';
    const data = await analyseBusiness(t.ctx, input, { now: NOW, fetch: localSites() });
    expect(hits.searchNearby).toBe(2);
    expect(data.competitors).toHaveLength(COMPETITOR_COUNT);
  });

  it('fails the discover stage (the job retries) when competitor search keeps answering 429: never a market of one', async () => {
    modes.searchNearby = '429';
    await expect(analyseBusiness(t.ctx, input, { now: NOW, fetch: localSites() })).rejects.toThrow(/could not list competitors \(its request quota was exhausted \(429\)/);
  });

  it('completes with reviews missing when place details time out', async () => {
    modes.details = 'slow';
    const data = await analyseBusiness(t.ctx, input, { now: NOW, fetch: localSites() });
    expect(data.competitors).toHaveLength(COMPETITOR_COUNT);
    expect(data.business.dataPoints.find((d) => d.key === 'reviews.sentiment_average')).toMatchObject({ status: 'unknown', value: null });
    expect(data.business.dataPoints.find((d) => d.key === 'reviews.rating')?.value).toBe(3.5);
    expect(data.notes.join(' ')).toMatch(/Reviews could not be read for 10 of 10 businesses \(it did not answer in time/);
  });

  it('completes with the listing missing when text search answers a malformed body', async () => {
    modes.searchText = 'malformed';
    const data = await analyseBusiness(t.ctx, input, { now: NOW, fetch: localSites() });
    expect(data.business.place.placeId).toBe('input:b-1');
    expect(data.business.dataPoints.find((d) => d.key === 'reviews.rating')?.status).toBe('unknown');
    // Whether Google lists it is unknown: not "not found".
    expect(data.business.dataPoints.find((d) => d.key === 'listing.found')?.status).toBe('unknown');
    expect(data.notes.join(' ')).toMatch(/could not look up the business \(its answer could not be read/);
    expect(data.competitors.length).toBeGreaterThan(0);
  });

  it('still e-mails the report, its PDF marking what is missing, when the provider fails mid-analysis', async () => {
    modes.details = 'slow';
    const registry = createRegistry({ analyse: (ctx, reportInput) => analyseBusiness(ctx, reportInput, { now: NOW, fetch: localSites() }) });
    const { request } = await createReportRequest(t.ctx);
    await createWorker(t.ctx, { registry }).runNext();
    const report = (await t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))[0]!;
    expect(report.emailSent).toBe(true);
    const [file] = readdirSync(join(t.dataDir, 'outbox')).filter((f) => f.includes(report.id));
    const mail = (await readOutboxMessage(t.ctx, file!))!.email;
    const pdf = mail.attachments.find((a) => a.mimeType === 'application/pdf')!;
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.content as ArrayBuffer)), { mergePages: true });
    expect(text).toMatch(/Reviews could not be read for 9 of 10 businesses \(it did not answer in time/);
    expect(text.replace(/\s+/g, ' ')).toMatch(/Austin Family Dental was not found on Google Places near Austin, TX: a customer searching there does not find it/);
    expect(text).toContain('Unknown');
    expect(mail.text).toMatch(/Some data could not be collected this time \(\d+ of the \d+ data points on your business\)\. The report marks what is missing and says why under "Notes on the data"\./);
    expect(mail.html).toContain('Some data could not be collected this time');
  });

  it('fails the stage when every call fails', async () => {
    modes.searchText = '500';
    modes.searchNearby = 'html';
    await expect(analyseBusiness(t.ctx, input, { now: NOW, fetch: localSites() })).rejects.toMatchObject({ name: 'ProviderStageError', stage: 'identify' });
    modes.searchText = 'malformed';
    await expect(analyseBusiness(t.ctx, input, { now: NOW, fetch: localSites() })).rejects.toMatchObject({ name: 'ProviderStageError', stage: 'discover' });
  });
});

describe('yelp provider (Fusion)', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext({ PLACES_PROVIDER: 'yelp', YELP_API_KEY: 'y-key', YELP_BASE_URL: base, PROVIDER_TIMEOUT_MS: '3000' });
  });
  afterAll(() => t.close());

  it('identifies the business, finds competitors in its category, reads 3 review excerpts each', async () => {
    const data = await analyseBusiness(t.ctx, input, { now: NOW, fetch: localSites() });
    expect(data.provider).toBe('yelp');
    expect(data.business.place.placeId).toBe('yelp:yb0');
    expect(data.competitors).toHaveLength(COMPETITOR_COUNT);
    expect(data.competitors.every((c) => c.place.website === null && c.place.distanceMiles <= 20)).toBe(true);
    expect(data.business.sentiment).toMatchObject({ read: true, reviewsRead: 3 });
    expect(data.notes.join(' ')).toMatch(/Yelp does not give the websites/);
    // Competitors' websites are unknown: their Digital Presence and Engagement read "Not enough
    // data", never 1.00, and the overall and the rank compare the scores everyone has.
    for (const c of data.competitors) {
      expect(c.scores.engagement, c.place.name).toBeNull();
      expect(c.scores.digitalPresence, c.place.name).toBeNull();
      expect(c.scores.reviews, c.place.name).not.toBeNull();
    }
    expect(data.notes.join(' ')).toMatch(/overall score and the rank compare Online Reviews and Market Share only/);
    expect(data.business.dataPoints.find((d) => d.key === 'listing.has_website')!.status).toBe('not_applicable');
    const reviewsCall = seen.find((s) => /^\/v3\/businesses\/yb\d+\/reviews/.test(s.path))!;
    expect(new URL(reviewsCall.path, 'http://x').searchParams.get('sort_by')).toBe('newest');
    const search = seen.find((s) => s.path.startsWith('/v3/businesses/search?categories='))!;
    expect(search.headers.authorization).toBe('Bearer y-key');
    const q = new URL(search.path, 'http://x').searchParams;
    expect(q.get('categories')).toBe('generaldentistry');
    expect(q.get('radius')).toBe('32187');
    expect(Number(q.get('limit'))).toBeLessThanOrEqual(50);
  });

  it(`measures at least ${MIN_DATA_POINTS} independent data points for a business with a readable website`, async () => {
    const data = await analyseBusiness(t.ctx, { ...input, website: `${base}/site/0` }, { now: NOW, fetch: localSites() });
    const own = independentMeasured(data.business.dataPoints);
    console.log(`yelp, readable site: ${own.length} independent measured data points`);
    expect(own.length).toBeGreaterThanOrEqual(MIN_DATA_POINTS);
    const point = (key: string) => data.business.dataPoints.find((d) => d.key === key)!;
    expect(point('listing.claimed')).toMatchObject({ status: 'measured', value: true });
    expect(point('listing.special_hours').value).toBe(true);
    // The newest 3 reviews reach back 60 days: the last 30 days are counted; the last 90 cannot be,
    // for any business, so that point is left out for all.
    expect(point('reviews.last_30_days')).toMatchObject({ status: 'measured', value: 1 });
    expect(point('reviews.last_90_days').status).toBe('not_applicable');
    // Newest first, so the latest review is known (20 days ago, Yelp's time read as US Pacific).
    expect(point('reviews.days_since_latest').status).toBe('measured');
    expect(point('reviews.days_since_latest').value).toBeOneOf([19, 20]);
    expect(point('reviews.sentiment_average').how).toMatch(/From the 3 newest reviews Yelp shares/);
    const dead = await analyseBusiness(t.ctx, { ...input, website: 'http://127.0.0.1:9/' }, { now: NOW, fetch: { ...localSites(), extraPorts: [port, 9] } });
    console.log(`yelp, dead site: ${independentMeasured(dead.business.dataPoints).length} independent measured data points`);
  });

  it('completes with reviews missing when the reviews endpoint is rate limited', async () => {
    modes.yReviews = '429';
    const data = await analyseBusiness(t.ctx, input, { now: NOW, fetch: localSites() });
    expect(data.competitors).toHaveLength(COMPETITOR_COUNT);
    expect(data.competitors[0]!.dataPoints.find((d) => d.key === 'reviews.sentiment_average')?.status).toBe('unknown');
    expect(data.notes.join(' ')).toMatch(/429/);
  });

  it('completes with reviews missing when the reviews endpoint does not answer in time', async () => {
    modes.yReviews = 'slow';
    const data = await analyseBusiness(t.ctx, input, { now: NOW, fetch: localSites() });
    expect(data.competitors).toHaveLength(COMPETITOR_COUNT);
    expect(data.business.dataPoints.find((d) => d.key === 'reviews.sentiment_average')?.status).toBe('unknown');
    expect(data.business.dataPoints.find((d) => d.key === 'reviews.rating')?.value).not.toBeNull();
    expect(data.notes.join(' ')).toMatch(/Reviews could not be read for 10 of 10 businesses \(it did not answer in time/);
  });

  it('fails the discover stage when the search answers a malformed body', async () => {
    modes.ySearch = 'malformed';
    await expect(analyseBusiness(t.ctx, input, { now: NOW, fetch: localSites() })).rejects.toThrow(/Yelp could not list competitors/);
  });

  it('keeps the reviews already read when the details call fails', async () => {
    modes.yDetails = '500';
    const data = await analyseBusiness(t.ctx, input, { now: NOW, fetch: localSites() });
    expect(data.business.sentiment).toMatchObject({ read: true, reviewsRead: 3 });
    expect(data.business.dataPoints.find((d) => d.key === 'listing.claimed')?.status).toBe('unknown');
  });
});

describe('settings', () => {
  it('refuse a real provider without its key', async () => {
    await expect(createTestContext({ PLACES_PROVIDER: 'google' })).rejects.toThrow(/GOOGLE_PLACES_KEY: is required when PLACES_PROVIDER=google/);
    await expect(createTestContext({ PLACES_PROVIDER: 'yelp' })).rejects.toThrow(/YELP_API_KEY/);
  });

  it('default to the sample provider and parse the extra website ports', () => {
    const env = loadEnv({});
    expect(env.PLACES_PROVIDER).toBe('sample');
    expect(env.SITE_FETCH_PORTS).toEqual([]);
    expect(loadEnv({ SITE_FETCH_PORTS: '8080, 8443' }).SITE_FETCH_PORTS).toEqual([8080, 8443]);
    expect(() => loadEnv({ SITE_FETCH_PORTS: 'http' })).toThrow(/SITE_FETCH_PORTS: must be a comma-separated list of port numbers/);
    expect(() => loadEnv({ PLACES_PROVIDER: 'bing' })).toThrow(/PLACES_PROVIDER/);
  });
});
