// A website read the way a visitor meets it (issue 38, decision 0217), against local stand-ins
// of what the real web does (tests/helpers/site-standins.ts): a site refusing non-browsers (403),
// a challenge page (503) and a firewall block page (403), a page trickling in, a 10 MB page, a
// page drawn by JavaScript, a port nothing listens on and a server answering 503 every time.
// Only the last two are down; the others are named for what they are, what could be measured
// without the page is measured, and nothing that could not be seen counts as missing.
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportEmail } from '../../api/email/report-email.ts';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { findings, reportLines, websiteStatus } from '../../api/report/render/summary.ts';
import { collectDataPoints, type Subject } from '../../api/report/analysis/data-points.ts';
import type { Listing } from '../../api/report/analysis/providers/types.ts';
import { breakdownOf, recommend, scoreOf } from '../../api/report/analysis/scoring.ts';
import { analyseWebsite, type WebsiteAnalysis } from '../../api/report/analysis/website.ts';
import type { DataPoint, ReportData } from '../../api/report/model/types.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { startStandin, type Standin, type StandinPlace } from '../helpers/places-standin.ts';
import { SITE_CASES, startSiteStandins, type SiteCase, type SiteStandins } from '../helpers/site-standins.ts';

let sites: SiteStandins;
const read = {} as Record<SiteCase, WebsiteAnalysis>;
const points = {} as Record<SiteCase, DataPoint[]>;

const listing: Listing = { placeId: 'p', name: 'Bright Smile Dental', address: '100 Congress Ave, Austin, TX 78701', phone: '(512) 555-0142', website: null, rating: 4.4, reviewCount: 120, latitude: 30.27, longitude: -97.74, providerCategory: 'dentist', categoryLabel: 'Dentist' };
const market = { places: 1, totalReviews: 120, totalLast90: null, medianReviewCount: 120, averageRating: 4.4, nearestOtherMiles: null, othersWithin5: 0, prominencePosition: 1, reviewPosition: 1 };
const subject = (site: WebsiteAnalysis): Subject => ({ listing: { ...listing, website: site.url }, listingFound: true, distanceMiles: 0, reviews: null, reviewSource: '', site, siteState: site.reachable ? 'read' : 'down', listingGivesWebsite: true, profile: { status: 'operational', hours: { days: 6, weeklyHours: 50 }, photos: 8, types: 2, editorialSummary: true, priceLevel: null, attributes: { acceptsCreditCards: true } }, earlier: null, market, local: { city: 'Austin', categoryWords: ['dentist', 'dental'] }, now: new Date('2026-11-27T12:00:00Z') });
const point = (c: SiteCase, key: string) => points[c].find((p) => p.key === key)!;
const WEBSITE = (p: DataPoint) => /^(site|tech|ads|social|engagement)\./.test(p.key) && !p.key.startsWith('engagement.response') && !p.key.startsWith('engagement.negative') && !p.key.startsWith('engagement.median');

beforeAll(async () => {
  sites = await startSiteStandins();
  // The trickle's subject is the time limit (3 s); every other case's is what its server answers,
  // so it gets a limit a busy machine cannot reach (reading the 10 MB page took over 3 s under load).
  const options = (c: SiteCase) => ({ allowLoopback: true, extraPorts: sites.ports, timeoutMs: c === 'trickle' ? 3000 : 45_000 });
  // The trickle alone first: parsing the 10 MB page in this process would hold its timers back.
  const one = async (c: SiteCase) => {
    read[c] = await analyseWebsite(sites.url[c], options(c));
    points[c] = collectDataPoints(subject(read[c]));
  };
  await one('trickle');
  await Promise.all(SITE_CASES.filter((c) => c !== 'trickle').map(one));
}, 120_000);
afterAll(() => sites.close());

describe('each state named for what it is', () => {
  it.each([
    ['ok', 'read'],
    ['bot-403', 'refused'],
    ['challenge', 'refused'],
    ['sucuri', 'refused'],
    ['trickle', 'slow'],
    ['huge', 'too_large'],
    ['js-shell', 'script_rendered'],
    ['down', 'down'],
    // The server answered, with an error page: scored as down, never worded "did not answer" (issue 46).
    ['error-5xx', 'error_page'],
  ] as const)('%s is %s', (c, state) => {
    expect(read[c].state).toBe(state);
    expect(read[c].reachable).toBe(state !== 'down' && state !== 'error_page');
    expect(point(c, 'site.reachable')).toMatchObject({ status: 'measured', value: state !== 'down' && state !== 'error_page' });
  });

  it('says why: the protection recognised, the time, the size, the tries', () => {
    expect(read['bot-403'].detail).toBe('a refusal (HTTP 403)');
    expect(read.challenge.detail).toBe('a Cloudflare block or challenge page (HTTP 503)');
    expect(read.sucuri.detail).toBe('a Sucuri block or challenge page (HTTP 403)');
    expect(read.trickle.detail).toMatch(/^still arriving after 3\.\d s$/);
    expect(read.huge.detail).toMatch(/^10\.\d MB of HTML; the first 2\.0 MB read$/);
    expect(read.down.detail).toBe('the connection was refused or dropped');
    expect(read['error-5xx'].detail).toBe('HTTP 503 on 3 tries');
    // A server error is asked again before the site counts as down; a refusal is not.
    expect(sites.hits['error-5xx']).toBe(3);
    expect(sites.hits.challenge).toBe(1);
  });
});

describe('a site refusing automated visitors', () => {
  it.each(['bot-403', 'challenge', 'sucuri'] as const)('%s: up, its status and HTTPS measured, its page not seen, nothing counted as missing', (c) => {
    expect(point(c, 'site.status')).toMatchObject({ status: 'measured', value: c === 'challenge' ? 503 : 403 });
    expect(point(c, 'site.https')).toMatchObject({ status: 'measured', value: false });
    for (const key of ['site.word_count', 'site.title_present', 'engagement.contact_form', 'engagement.tel_link', 'site.nap_phone', 'site.response_ms', 'site.page_weight_kb']) {
      expect(point(c, key), key).toMatchObject({ status: 'unknown', unseen: true, value: null });
    }
    // No website point is measured at its worst, none is "absent".
    expect(points[c].filter((p) => p.absentBecause)).toEqual([]);
    expect(recommend(points[c], 20).map((r) => r.title)).not.toContain('Get your website back up');
    expect(recommend(points[c], 20).map((r) => r.lever)).not.toContain('engagement.contact');
  });

  it('robots.txt and the sitemap a refusing site still serves are measured; refused ones are not seen', () => {
    // The 403 site lets everyone read robots.txt and its sitemap (as many firewalls do).
    expect(point('bot-403', 'site.robots_txt')).toMatchObject({ status: 'measured', value: true });
    expect(point('bot-403', 'site.sitemap')).toMatchObject({ status: 'measured', value: true });
    expect(point('challenge', 'site.robots_txt')).toMatchObject({ status: 'unknown', unseen: true });
    expect(point('challenge', 'site.sitemap')).toMatchObject({ status: 'unknown', unseen: true });
  });
});

describe('a slow page', () => {
  it('is a measured speed finding: at least the time limit, at the worst of the scale', () => {
    expect(point('trickle', 'site.response_ms')).toMatchObject({ status: 'measured', atLeast: true });
    expect(point('trickle', 'site.response_ms').value as number).toBeGreaterThanOrEqual(3000);
    const speed = breakdownOf(points.trickle, 'digitalPresence').parts.find((p) => p.key === 'site.response_ms')!;
    expect(speed).toMatchObject({ status: 'measured', normalised: 0 });
    expect(speed.raw).toMatch(/^at least 3\d{3} ms$/);
    expect(recommend(points.trickle, 20).map((r) => r.title)).not.toContain('Get your website back up');
  });

  it('what arrived is read; what had not is not seen', () => {
    // The head arrived within 3 s at 200 bytes a second: its title holds.
    expect(point('trickle', 'site.title_present')).toMatchObject({ status: 'measured', value: true });
    expect(point('trickle', 'engagement.testimonials')).toMatchObject({ status: 'unknown', unseen: true });
    expect(point('trickle', 'site.nap_address')).toMatchObject({ status: 'unknown', unseen: true });
    // A body that has not arrived is not a page a script draws.
    expect(read.trickle.scriptRendered).toBe(false);
  });
});

describe('a 10 MB page', () => {
  it('is read in its first part, weighed in full, and its weight is a finding', () => {
    expect(read.huge.truncated).toBe('size');
    expect(point('huge', 'site.page_weight_kb')).toMatchObject({ status: 'measured' });
    expect(point('huge', 'site.page_weight_kb').value as number).toBeGreaterThanOrEqual(10 * 1024);
    expect(recommend(points.huge, 20).map((r) => r.title)).toContain('Make your homepage lighter');
    // What the first part shows is measured, and its head is whole.
    expect(point('huge', 'site.title_present')).toMatchObject({ status: 'measured', value: true });
    expect(point('huge', 'engagement.tel_link')).toMatchObject({ status: 'measured', value: true });
    expect(point('huge', 'site.viewport')).toMatchObject({ status: 'measured', value: true });
    // What the first part does not show may be in the rest: not seen, never "no"; a count of a
    // part is not the page's count.
    expect(point('huge', 'engagement.sms_link')).toMatchObject({ status: 'unknown', unseen: true });
    expect(point('huge', 'site.word_count')).toMatchObject({ status: 'unknown', unseen: true });
  });
});

describe('a page drawn by JavaScript', () => {
  it('what its HTML shows is measured; what a script would draw is never claimed missing', () => {
    expect(point('js-shell', 'site.title_present')).toMatchObject({ status: 'measured', value: true });
    expect(point('js-shell', 'site.viewport')).toMatchObject({ status: 'measured', value: true });
    // The title found is whole: its length and the city in it hold.
    expect(point('js-shell', 'site.title_length')).toMatchObject({ status: 'measured', value: 50 });
    expect(point('js-shell', 'site.city_in_title')).toMatchObject({ status: 'measured', value: true });
    for (const key of ['site.word_count', 'site.h1_count', 'engagement.contact_form', 'engagement.tel_link', 'site.nap_phone', 'social.profiles', 'site.meta_description_present']) {
      expect(point('js-shell', key), key).toMatchObject({ status: 'unknown', unseen: true });
    }
    const titles = recommend(points['js-shell'], 20).map((r) => r.title);
    for (const t of ['Add a contact form', 'Make your number tap-to-call', 'Say more on your homepage', 'Write a meta description', 'Link your social profiles']) expect(titles).not.toContain(t);
  });
});

describe('a site that is down', () => {
  it.each(['down', 'error-5xx'] as const)('%s: "Get your website back up", its points at their worst', (c) => {
    expect(recommend(points[c], 5).slice(0, 3).map((r) => r.title)).toContain('Get your website back up');
    expect(point(c, 'site.word_count')).toMatchObject({ status: 'measured', absentBecause: 'site_down' });
  });

  it('a site that works outscores every other state on Digital Presence, and none of them scores as down', () => {
    const dp = (c: SiteCase) => scoreOf(points[c], 'digitalPresence');
    expect(dp('huge')!).toBeGreaterThan(dp('down')!);
    // Too little seen for a number is "Not enough data", never a number below a dead site's.
    for (const c of ['trickle', 'js-shell', 'bot-403', 'challenge', 'sucuri'] as const) if (dp(c) !== null) expect(dp(c)!, c).toBeGreaterThan(dp('down')!);
    // What could not be seen is left out of the mean: the website points that were measured for a
    // refusing site are its status, HTTPS and files, never a zero for its page.
    for (const c of ['bot-403', 'challenge', 'sucuri'] as const) {
      expect(points[c].filter((p) => WEBSITE(p) && p.score && p.status === 'measured').map((p) => p.key).sort()).toEqual(expect.arrayContaining(['site.https', 'site.reachable']));
    }
  });
});

// The whole report, on every surface: a business whose site refuses automated visitors, and
// competitors with each other state, against a Google Places stand-in.
describe('on every surface, for the business and each competitor', () => {
  const COMPETITOR_CASES = ['ok', 'challenge', 'sucuri', 'trickle', 'huge', 'js-shell', 'down', 'error-5xx'] as const;
  const NAMES: Record<(typeof COMPETITOR_CASES)[number], string> = { ok: 'Austin Family Dental', challenge: 'Capitol Smiles', sucuri: 'Lamar Dental Care', trickle: 'Riverside Dentistry', huge: 'Zilker Dental Studio', 'js-shell': 'Mueller Modern Dental', down: 'Eastside Dental', 'error-5xx': 'Barton Creek Dental' };
  let t: TestContext;
  let places: Standin;
  let data: ReportData;
  let ok: ReportData;
  const REVIEWS = [{ rating: 5, text: 'Great staff, friendly and on time.', daysAgo: 4 }, { rating: 4, text: 'Good care and fair prices.', daysAgo: 12 }, { rating: 5, text: 'Wonderful team, explained everything.', daysAgo: 40 }];
  const run = (website: string) =>
    analyseBusiness(t.ctx, { businessId: 'b-site', fullName: 'Ada', email: 'ada@example.com', company: 'Bright Smile Dental', website, address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' }, { now: new Date(), fetch: { allowLoopback: true, extraPorts: sites.ports, timeoutMs: 3000 } });

  beforeAll(async () => {
    const me: StandinPlace = { id: 'own', name: 'Bright Smile Dental', offset: [0, 0], phone: '(512) 555-0142', website: sites.url['bot-403'], address: '100 Congress Ave, Austin, TX 78701, USA', rating: 4.4, reviewCount: 120, reviews: REVIEWS };
    const competitors: StandinPlace[] = COMPETITOR_CASES.map((c, i) => ({ id: `c${i + 1}`, name: NAMES[c], offset: [0.01 * (i + 1), 0.005 * (i % 3)], phone: `(512) 555-02${10 + i}`, website: sites.url[c], address: `${300 + i} Oak Ave, Austin, TX 78701, USA`, rating: 4 + (i % 3) * 0.2, reviewCount: 40 + i * 15, reviews: REVIEWS }));
    places = await startStandin({ center: { latitude: 30.2713, longitude: -97.7426 }, searchHits: [me], nearby: [me, ...competitors] });
    t = await createTestContext({ PLACES_PROVIDER: 'google', GOOGLE_PLACES_KEY: 'g', GOOGLE_PLACES_BASE_URL: places.base, PROVIDER_TIMEOUT_MS: '10000', SITE_FETCH_CONCURRENCY: '9' });
    [data, ok] = await Promise.all([run(sites.url['bot-403']), run(sites.url.ok)]);
  }, 60_000);
  afterAll(async () => {
    await places?.close();
    await t?.close();
  });

  it('the business refusing automated visitors: named, never "Get your website back up", no page point scored as none', () => {
    expect(data.business.website).toMatchObject({ state: 'refused', detail: 'a refusal (HTTP 403)' });
    expect(data.recommendations.map((r) => r.title)).not.toContain('Get your website back up');
    expect(data.business.dataPoints.filter((p) => p.absentBecause === 'site_down')).toEqual([]);
    expect(data.business.dataPoints.find((p) => p.key === 'site.status')).toMatchObject({ status: 'measured', value: 403 });
    const sentence = findings(data).find((f) => f.startsWith('Your website refuses automated visitors (a refusal (HTTP 403))'));
    expect(sentence).toMatch(/\d+ website checks \(.+\) are not measured and are left out of the scores, not counted as missing\./);
    // Its scores: what could not be seen is not a zero. Digital Presence and Engagement either
    // have a number no lower than with the page at its worst, or say "Not enough data".
    expect(data.business.scores.reviews).toBe(ok.business.scores.reviews);
    for (const k of ['digitalPresence', 'engagement'] as const) {
      const b = data.business.breakdown[k];
      // HTTPS is a fact of its address (http://), measured; nothing of its page is.
      expect(b.parts.filter((p) => p.source === 'website' && p.normalised === 0 && p.status === 'measured').map((p) => p.key)).toEqual(k === 'digitalPresence' ? ['site.https'] : []);
    }
  });

  it('each competitor\'s state in the website column and, with its reason, in the notes', () => {
    const byName = new Map([data.business, ...data.competitors].map((p) => [p.place.name, websiteStatus(p, data)]));
    expect(Object.fromEntries(byName)).toEqual({
      'Bright Smile Dental': 'Refuses automated visitors',
      'Austin Family Dental': 'Works',
      'Capitol Smiles': 'Refuses automated visitors',
      'Lamar Dental Care': 'Refuses automated visitors',
      'Riverside Dentistry': 'Works, slowly',
      'Zilker Dental Studio': 'Works, very large page',
      'Mueller Modern Dental': 'Works, drawn by JavaScript',
      'Eastside Dental': 'Did not answer',
      'Barton Creek Dental': 'Answers with an error',
    });
    // The snapshot keeps each state for the dashboard's website column (its tech stack summary).
    expect(Object.fromEntries([data.business, ...data.competitors].map((p) => [p.place.name, p.techStack.state]))).toEqual({
      'Bright Smile Dental': 'refused',
      'Austin Family Dental': 'read',
      'Capitol Smiles': 'refused',
      'Lamar Dental Care': 'refused',
      'Riverside Dentistry': 'slow',
      'Zilker Dental Studio': 'too_large',
      'Mueller Modern Dental': 'script_rendered',
      'Eastside Dental': 'down',
      'Barton Creek Dental': 'error_page',
    });
    const note = data.notes.find((n) => n.startsWith('Competitors\' websites not read in full: '))!;
    expect(note).toContain('Capitol Smiles: refuses automated visitors (a Cloudflare block or challenge page (HTTP 503))');
    expect(note).toContain('Lamar Dental Care: refuses automated visitors (a Sucuri block or challenge page (HTTP 403))');
    expect(note).toMatch(/Riverside Dentistry: works, slowly \(still arriving after 3\.\d s\)/);
    expect(note).toMatch(/Zilker Dental Studio: works, very large page \(\d+\.\d MB of HTML; the first 1\.9 MB read\)/);
    expect(note).toMatch(/Mueller Modern Dental: works, drawn by javascript \(the HTML is a shell a script fills in\), \d+ website checks not seen/);
    expect(note).toContain('Eastside Dental: did not answer (the connection was refused or dropped)');
    // How many times the server was asked depends on what is left of the 3 s budget between tries
    // (two under load): the count itself is the subject of the cases above, with a budget no
    // machine uses up.
    expect(note).toMatch(/Barton Creek Dental: answers with an error \(HTTP 503 on [1-3] tr(y|ies)\)/);
  });

  it('the PDF, the e-mail and `npm run report` say it', async () => {
    const pdf = await extractText(await getDocumentProxy(new Uint8Array(await renderPdf(data, { methodologyUrl: 'https://example.test/methodology' }))), { mergePages: true });
    const text = pdf.text.replace(/\s+/g, ' ');
    expect(text).toContain('Your website refuses automated visitors');
    expect(text).toContain('Capitol Smiles: refuses automated visitors');
    expect(text).toContain('Eastside Dental: did not answer');
    expect(text).not.toContain('Get your website back up');
    const mail = reportEmail(t.ctx, { to: 'ada@example.com', fullName: 'Ada', data, token: 't', reportUrl: 'https://example.test/report/t', expiresAt: new Date(Date.now() + 86_400_000), messageId: '<m@x>', scoreCard: Buffer.alloc(0), pdf: Buffer.alloc(0) });
    expect(mail.text).toContain('Your website refuses automated visitors (a refusal (HTTP 403))');
    expect(mail.html).toContain('Your website refuses automated visitors (a refusal (HTTP 403))');
    expect(mail.text).not.toContain('Get your website back up');
    const lines = reportLines(data).join('\n');
    expect(lines).toMatch(/Bright Smile Dental \(you\) +\d\.\d{2} +Refuses automated visitors/);
    expect(lines).toMatch(/Eastside Dental +\d\.\d{2} +Did not answer/);
  });
});
