// What a web address is, before it is scored (issue 46, decision 0230), against the local site
// stand-ins (tests/helpers/site-standins.ts) and a Google Places stand-in: a social page, a
// link-in-bio page and a marketplace page given as the website (decided from the address, never
// fetched); a parked domain, a placeholder, a web server's default page and a password prompt (not
// a website yet); a meta refresh and a script sending the visitor on (followed, named); a
// self-signed, an expired and a wrong-name certificate (the server answered; a browser warns); an
// error page. Each has its own words on every surface, its own scoring and its own advice, and
// none of them reads "did not answer".
import { lookup } from 'node:dns';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportEmail } from '../../api/email/report-email.ts';
import { reportSchema } from '../../api/routes/v1/schemas.ts';
import { websiteMet } from '../../api/services/api-reports.ts';
import { analyseBusiness, siteStateOf } from '../../api/report/analyse.ts';
import { collectDataPoints, type Subject } from '../../api/report/analysis/data-points.ts';
import type { Listing } from '../../api/report/analysis/providers/types.ts';
import { recommend, scoreOf } from '../../api/report/analysis/scoring.ts';
import { analyseWebsite, type WebsiteAnalysis } from '../../api/report/analysis/website.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { scoreCardTree } from '../../api/report/render/score-card.ts';
import { findings, reportLines, websiteStatus } from '../../api/report/render/summary.ts';
import type { DataPoint, ReportData } from '../../api/report/model/types.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { startStandin, type Standin, type StandinPlace } from '../helpers/places-standin.ts';
import { startSiteStandins, type SiteCase, type SiteStandins } from '../helpers/site-standins.ts';

let sites: SiteStandins;
const CASES = ['ok', 'parked', 'placeholder', 'server-default', 'meta-refresh', 'script-redirect', 'password-401', 'password-form', 'not-found', 'tls-self-signed', 'tls-expired', 'tls-wrong-name'] as const;
type Case = (typeof CASES)[number] | 'facebook' | 'linktree' | 'etsy';
const ADDRESS: Record<'facebook' | 'linktree' | 'etsy', string> = { facebook: 'https://m.facebook.com/BrightSmileATX/', linktree: 'https://linktr.ee/brightsmileatx', etsy: 'https://www.etsy.com/shop/BrightSmileGifts' };
const read = {} as Record<Case, WebsiteAnalysis>;
const points = {} as Record<Case | 'none', DataPoint[]>;

const listing: Listing = { placeId: 'p', name: 'Bright Smile Dental', address: '100 Congress Ave, Austin, TX 78701', phone: '(512) 555-0142', website: null, rating: 4.4, reviewCount: 120, latitude: 30.27, longitude: -97.74, providerCategory: 'dentist', categoryLabel: 'Dentist' };
const market = { places: 1, totalReviews: 120, totalLast90: null, medianReviewCount: 120, averageRating: 4.4, nearestOtherMiles: null, othersWithin5: 0, prominencePosition: 1, reviewPosition: 1 };
const subject = (site: WebsiteAnalysis | null): Subject => ({ listing: { ...listing, website: site?.url ?? null }, listingFound: true, distanceMiles: 0, reviews: null, reviewSource: '', site, siteState: site ? siteStateOf(site) : 'none', listingGivesWebsite: true, profile: { status: 'operational', hours: { days: 6, weeklyHours: 50 }, photos: 8, types: 2, editorialSummary: true, priceLevel: null, attributes: { acceptsCreditCards: true } }, earlier: null, market, local: { city: 'Austin', categoryWords: ['dentist', 'dental'] }, now: new Date('2026-11-27T12:00:00Z') });
const point = (c: Case, key: string) => points[c].find((p) => p.key === key)!;
const titles = (c: Case, n = 5) => recommend(points[c], n).map((r) => r.title);

beforeAll(async () => {
  sites = await startSiteStandins();
  const options = { allowLoopback: true, extraPorts: sites.ports, timeoutMs: 3000 };
  await Promise.all([
    ...CASES.map(async (c) => void (read[c] = await analyseWebsite(sites.url[c as SiteCase], options))),
    ...(['facebook', 'linktree', 'etsy'] as const).map(async (c) => void (read[c] = await analyseWebsite(ADDRESS[c], {}))),
  ]);
  for (const c of Object.keys(read) as Case[]) points[c] = collectDataPoints(subject(read[c]));
  points.none = collectDataPoints(subject(null));
}, 30_000);
afterAll(() => sites.close());

describe('each kind of address named for what it is', () => {
  it.each([
    ['facebook', 'social', 'a Facebook page'],
    ['linktree', 'link_in_bio', 'a Linktree link-in-bio page'],
    ['etsy', 'marketplace', 'an Etsy page'],
    ['parked', 'parked', 'a parked or for-sale domain page'],
    ['placeholder', 'placeholder', 'a placeholder page ("Próximamente")'],
    ['server-default', 'placeholder', 'a web server\'s default page ("Welcome to nginx!")'],
    ['password-401', 'password', 'HTTP 401, a login box (Basic)'],
    ['password-form', 'password', 'HTTP 200, a page asking for a password'],
    ['not-found', 'error_page', 'HTTP 404: the homepage answers with an error page'],
    ['tls-self-signed', 'cert_error', 'a self-signed certificate, which browsers do not trust'],
    ['tls-expired', 'cert_error', 'an expired certificate (expired 2021-01-01)'],
    ['tls-wrong-name', 'cert_error', 'a certificate made for another name (shop.example.net)'],
  ] as const)('%s is %s: %s', (c, state, detail) => {
    expect(read[c]).toMatchObject({ state, detail });
  });

  it('a platform\'s page is decided from its address: never fetched, nothing of it credited', () => {
    for (const c of ['facebook', 'linktree', 'etsy'] as const) {
      expect(read[c].status).toBeNull();
      expect(read[c].https).toBe(false);
    }
  });

  it.each([['meta-refresh', 'meta refresh'], ['script-redirect', 'script']] as const)('a %s is followed as a browser would, and named', (c, by) => {
    expect(read[c].state).toBe('read');
    expect(read[c].clientRedirect).toEqual({ by, to: `${sites.url[c]}home/` });
    expect(read[c].url).toBe(sites.url[c]);
    expect(read[c].finalUrl).toBe(`${sites.url[c]}home/`);
    // The page it sends the visitor to is the one read: the well-kept page, not a five-word one.
    expect(point(c, 'site.word_count').value as number).toBe(point('ok', 'site.word_count').value);
    // Its response time and redirects are its own; what its page shows is the well-kept page's.
    for (const key of ['site.title_length', 'engagement.contact_form', 'engagement.tel_link', 'site.schema_local_business', 'site.nap_phone']) expect(point(c, key).value, key).toEqual(point('ok', key).value);
    expect(point(c, 'site.redirects').value).toBe(1);
  });

  it('no server that answered reads "did not answer"', () => {
    for (const c of CASES) expect(read[c].state, c).not.toBe('down');
  });
});

describe('scored fairly, with advice that fits', () => {
  it.each(['facebook', 'linktree', 'etsy'] as const)('%s: not an own website; the listing\'s facts count; "Give your business a website of its own"', (c) => {
    // Nothing of the platform's page: no HTTPS, no markup credited; the website points count as none.
    expect(point(c, 'site.https')).toMatchObject({ status: 'measured', value: null, absentBecause: 'not_own_site' });
    expect(point(c, 'site.title_present')).toMatchObject({ status: 'measured', absentBecause: 'not_own_site' });
    expect(point(c, 'listing.has_website')).toMatchObject({ status: 'measured', value: true });
    expect(point(c, 'site.reachable').status).toBe('not_applicable');
    expect(titles(c).slice(0, 3)).toContain('Give your business a website of its own');
    expect(titles(c, 20)).not.toContain('Get your website back up');
    expect(titles(c, 20)).not.toContain('Serve your site over HTTPS');
    // It keeps a score: below a working site of its own, never below having no website at all.
    const dp = scoreOf(points[c], 'digitalPresence')!;
    expect(dp).not.toBeNull();
    expect(dp).toBeLessThan(scoreOf(points.ok, 'digitalPresence')!);
    expect(dp).toBeGreaterThanOrEqual(scoreOf(points.none, 'digitalPresence')!);
    expect(scoreOf(points[c], 'engagement')).not.toBeNull();
  });

  it.each(['parked', 'placeholder', 'server-default', 'password-401', 'password-form'] as const)('%s: not a website yet; "Finish and publish your website"', (c) => {
    expect(point(c, 'site.word_count')).toMatchObject({ status: 'measured', absentBecause: 'not_published' });
    expect(point(c, 'site.reachable')).toMatchObject({ status: 'measured', absentBecause: 'not_published' });
    expect(titles(c).slice(0, 3)).toContain('Finish and publish your website');
    for (const t of ['Get your website back up', 'Add a contact form', 'Say more on your homepage']) expect(titles(c, 20)).not.toContain(t);
    expect(scoreOf(points[c], 'digitalPresence')).not.toBeNull();
    expect(scoreOf(points[c], 'digitalPresence')!).toBeLessThan(scoreOf(points.ok, 'digitalPresence')!);
  });

  it.each([['tls-self-signed', 'Renew your certificate', 'bad_certificate'], ['tls-expired', 'Renew your certificate', 'bad_certificate'], ['tls-wrong-name', 'Fix your certificate\'s name', 'certificate_name']] as const)('%s: HTTPS at its worst because of the certificate, the page read; "%s"', (c, title, because) => {
    expect(point(c, 'site.https')).toMatchObject({ status: 'measured', value: false, absentBecause: because });
    expect(point(c, 'site.reachable')).toMatchObject({ status: 'measured', value: true });
    expect(point(c, 'site.title_present')).toMatchObject({ status: 'measured', value: true });
    expect(titles(c).slice(0, 3)).toContain(title);
    const advice = recommend(points[c], 5).find((r) => r.title === title)!;
    expect(advice.detail).toContain('(HTTPS: no.)');
    expect(titles(c, 20)).not.toContain('Serve your site over HTTPS');
    expect(titles(c, 20)).not.toContain('Get your website back up');
  });

  it('an error page is scored as down but worded as an answer', () => {
    expect(point('not-found', 'site.reachable')).toMatchObject({ status: 'measured', value: false });
    expect(titles('not-found').slice(0, 3)).toContain('Get your website back up');
    const advice = recommend(points['not-found'], 5).find((r) => r.title === 'Get your website back up')!;
    expect(advice.detail).not.toMatch(/did not answer/);
  });
});

// Whole reports: a Facebook-only business and a parked domain, each against competitors with the
// other kinds, on every surface.
describe('on every surface', () => {
  const COMPETITORS: Array<[Case, string]> = [['ok', 'Austin Family Dental'], ['linktree', 'Capitol Smiles'], ['etsy', 'Lamar Dental Gifts'], ['placeholder', 'Riverside Dentistry'], ['password-401', 'Zilker Dental Studio'], ['tls-expired', 'Mueller Modern Dental'], ['meta-refresh', 'Eastside Dental'], ['not-found', 'Barton Creek Dental'], ['tls-wrong-name', 'Hyde Park Dental']];
  const address = (c: Case) => (c in ADDRESS ? ADDRESS[c as keyof typeof ADDRESS] : sites.url[c as SiteCase]);
  let t: TestContext;
  let places: Standin;
  let facebook: ReportData;
  let parked: ReportData;
  const REVIEWS = [{ rating: 5, text: 'Great staff, friendly and on time.', daysAgo: 4 }, { rating: 4, text: 'Good care and fair prices.', daysAgo: 12 }, { rating: 5, text: 'Wonderful team, explained everything.', daysAgo: 40 }];
  // Every host name the website fetcher looked up: a platform's page is never among them.
  const looked: string[] = [];
  const resolver = ((host: string, options: object, callback: (...args: unknown[]) => void) => (looked.push(host), lookup(host, options, callback))) as unknown as typeof lookup;
  const run = (website: string) =>
    analyseBusiness(t.ctx, { businessId: 'b-kind', fullName: 'Ada', email: 'ada@example.com', company: 'Bright Smile Dental', website, address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' }, { now: new Date(), fetch: { allowLoopback: true, extraPorts: sites.ports, timeoutMs: 3000, resolver } });
  const surfaces = async (data: ReportData) => {
    const pdf = (await extractText(await getDocumentProxy(new Uint8Array(await renderPdf(data, { methodologyUrl: 'https://example.test/methodology' }))), { mergePages: true })).text.replace(/\s+/g, ' ');
    const mail = reportEmail(t.ctx, { to: 'ada@example.com', fullName: 'Ada', data, token: 't', reportUrl: 'https://example.test/report/t', expiresAt: new Date(Date.now() + 86_400_000), messageId: '<m@x>', scoreCard: Buffer.alloc(0), pdf: Buffer.alloc(0) });
    const card = JSON.stringify(scoreCardTree(data));
    return { pdf, mail, card, lines: reportLines(data).join('\n'), summary: findings(data).join('\n') };
  };

  beforeAll(async () => {
    const me: StandinPlace = { id: 'own', name: 'Bright Smile Dental', offset: [0, 0], phone: '(512) 555-0142', website: ADDRESS.facebook, address: '100 Congress Ave, Austin, TX 78701, USA', rating: 4.4, reviewCount: 120, reviews: REVIEWS };
    const competitors: StandinPlace[] = COMPETITORS.map(([c, name], i) => ({ id: `c${i + 1}`, name, offset: [0.01 * (i + 1), 0.005 * (i % 3)], phone: `(512) 555-02${10 + i}`, website: address(c), address: `${300 + i} Oak Ave, Austin, TX 78701, USA`, rating: 4 + (i % 3) * 0.2, reviewCount: 40 + i * 15, reviews: REVIEWS }));
    places = await startStandin({ center: { latitude: 30.2713, longitude: -97.7426 }, searchHits: [me], nearby: [me, ...competitors] });
    t = await createTestContext({ PLACES_PROVIDER: 'google', GOOGLE_PLACES_KEY: 'g', GOOGLE_PLACES_BASE_URL: places.base, PROVIDER_TIMEOUT_MS: '2000', SITE_FETCH_CONCURRENCY: '9' });
    [facebook, parked] = await Promise.all([run(ADDRESS.facebook), run(sites.url.parked)]);
    // A name that says no trade: the category would be guessed from the website, were it fetched.
    await analyseBusiness(t.ctx, { businessId: 'b-kind-2', fullName: 'Ada', email: 'ada@example.com', company: 'Rosa Hernández', website: ADDRESS.facebook, address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' }, { now: new Date(), fetch: { allowLoopback: true, extraPorts: sites.ports, timeoutMs: 3000, resolver } });
  }, 60_000);
  afterAll(async () => {
    await places?.close();
    await t?.close();
  });

  it('the website column, the snapshot the dashboard reads, and the competitors\' note name every kind', () => {
    expect(Object.fromEntries([facebook.business, ...facebook.competitors].map((p) => [p.place.name, websiteStatus(p, facebook)]))).toEqual({
      'Bright Smile Dental': 'Social page, no own site',
      'Austin Family Dental': 'Works',
      'Capitol Smiles': 'Link-in-bio, no own site',
      'Lamar Dental Gifts': 'Marketplace, no own site',
      'Riverside Dentistry': 'Placeholder page',
      'Zilker Dental Studio': 'Password protected',
      'Mueller Modern Dental': 'Certificate warning',
      'Eastside Dental': 'Works',
      'Barton Creek Dental': 'Answers with an error',
      'Hyde Park Dental': 'Certificate warning',
    });
    expect(websiteStatus(parked.business, parked)).toBe('Parked domain');
    expect(facebook.business.techStack).toMatchObject({ read: false, state: 'social' });
    expect(parked.business.techStack).toMatchObject({ read: false, state: 'parked' });
    const note = facebook.notes.find((n) => n.startsWith('Competitors\' websites not read in full: '))!;
    expect(note).toContain('Capitol Smiles: link-in-bio, no own site (a Linktree link-in-bio page)');
    expect(note).toContain('Riverside Dentistry: placeholder page (a placeholder page ("Próximamente"))');
    expect(note).toContain('Mueller Modern Dental: certificate warning (an expired certificate (expired 2021-01-01))');
    expect(note).toContain(`Eastside Dental: works, reached by a meta refresh forwarding to ${sites.url['meta-refresh']}home/`);
    expect(note).toContain('Barton Creek Dental: answers with an error (HTTP 404: the homepage answers with an error page)');
    expect([...facebook.notes, ...parked.notes].join(' ')).not.toMatch(/Your website .*did not answer/);
  });

  it('no platform page is fetched: not the business\'s, not a competitor\'s, not to guess the category', () => {
    expect(looked.filter((h) => /facebook|linktr|etsy/.test(h))).toEqual([]);
  });

  it('a Facebook-only business keeps its overall score and rank, and is told to get a website of its own', async () => {
    expect(facebook.business.scores.overall).not.toBeNull();
    expect(facebook.business.rank).toBeLessThanOrEqual(facebook.competitors.length + 1);
    expect(facebook.business.scores.digitalPresence).not.toBeNull();
    expect(facebook.recommendations.slice(0, 3).map((r) => r.title)).toContain('Give your business a website of its own');
    const s = await surfaces(facebook);
    const sentence = 'The website you gave is a Facebook page, not a website of your own';
    expect(s.summary).toContain(sentence);
    expect(s.pdf).toContain(sentence);
    expect(s.pdf).toContain('Give your business a website of its own');
    expect(s.mail.text).toContain(sentence);
    expect(s.mail.html).toContain(sentence);
    expect(s.card).toContain('Website: Social page, no own site');
    expect(s.lines).toMatch(/Bright Smile Dental \(you\) +\d\.\d{2} +Social page, no own site/);
    expect(s.lines).toContain('Give your business a website of its own');
    for (const text of [s.pdf, s.mail.text, s.lines]) expect(text).not.toMatch(/Get your website back up|did not answer when we visited/);
  });

  it('the API names each place\'s website the same way, in its documented shape', () => {
    const met = reportSchema.shape.result.unwrap().shape.websiteMet;
    expect(met.parse(websiteMet(facebook.business, facebook))).toEqual({ state: 'social', label: 'Social page, no own site', detail: 'a Facebook page' });
    expect(met.parse(websiteMet(parked.business, parked))).toEqual({ state: 'parked', label: 'Parked domain', detail: 'a parked or for-sale domain page' });
    const byName = Object.fromEntries(facebook.competitors.map((c) => [c.place.name, met.parse(websiteMet(c, facebook))]));
    expect(byName['Hyde Park Dental']).toEqual({ state: 'cert_error', label: 'Certificate warning', detail: 'a certificate made for another name (shop.example.net)' });
    expect(byName['Eastside Dental']).toEqual({ state: 'read', label: 'Works', detail: null, forwardedTo: `${sites.url['meta-refresh']}home/` });
    expect(byName['Zilker Dental Studio']).toMatchObject({ state: 'password', label: 'Password protected' });
  });

  it('a parked domain is told to finish and publish its website', async () => {
    expect(parked.business.website).toMatchObject({ state: 'parked', detail: 'a parked or for-sale domain page' });
    expect(parked.business.scores.overall).not.toBeNull();
    expect(parked.recommendations.slice(0, 3).map((r) => r.title)).toContain('Finish and publish your website');
    const s = await surfaces(parked);
    const sentence = 'Your address shows a parked or for-sale domain page, not a website';
    expect(s.summary).toContain(sentence);
    expect(s.pdf).toContain(sentence);
    expect(s.mail.text).toContain(sentence);
    expect(s.card).toContain('Website: Parked domain');
    expect(s.lines).toMatch(/Bright Smile Dental \(you\) +\d\.\d{2} +Parked domain/);
    expect(s.lines).toContain('Finish and publish your website');
    for (const text of [s.pdf, s.mail.text, s.lines]) expect(text).not.toMatch(/Add a contact form|Get your website back up/);
  });
});
