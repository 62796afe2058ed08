// A website read the way a visitor meets it (issue 38, decision 0217), against local stand-ins
// of what the real web does (tests/helpers/site-standins.ts): a site refusing non-browsers (403),
// a challenge page (503) and a firewall block page (403), a page trickling in, a 10 MB page, a
// page drawn by JavaScript, a port nothing listens on and a server answering 503 every time.
// Only the last two are down; the others are named for what they are, what could be measured
// without the page is measured, and nothing that could not be seen counts as missing.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectDataPoints, type Subject } from '../../api/report/analysis/data-points.ts';
import type { Listing } from '../../api/report/analysis/providers/types.ts';
import { recommend, scoreOf } from '../../api/report/analysis/scoring.ts';
import { analyseWebsite, type WebsiteAnalysis } from '../../api/report/analysis/website.ts';
import type { DataPoint } from '../../api/report/types.ts';
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
  const options = { allowLoopback: true, extraPorts: sites.ports, timeoutMs: 3000 };
  await Promise.all(SITE_CASES.map(async (c) => {
    read[c] = await analyseWebsite(sites.url[c], options);
    points[c] = collectDataPoints(subject(read[c]));
  }));
}, 30_000);
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
    ['error-5xx', 'down'],
  ] as const)('%s is %s', (c, state) => {
    expect(read[c].state).toBe(state);
    expect(read[c].reachable).toBe(state !== 'down');
    expect(point(c, 'site.reachable')).toMatchObject({ status: 'measured', value: state !== 'down' });
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
    expect(recommend(points.trickle, 20).map((r) => r.title)).toContain('Speed up your website');
    expect(recommend(points.trickle, 20).map((r) => r.title)).not.toContain('Get your website back up');
  });

  it('what arrived is read; what had not is not seen', () => {
    // The head arrived within 3 s at 200 bytes a second: its title holds.
    expect(point('trickle', 'site.title_present')).toMatchObject({ status: 'measured', value: true });
    expect(point('trickle', 'engagement.testimonials')).toMatchObject({ status: 'unknown', unseen: true });
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
    for (const c of ['trickle', 'huge', 'js-shell'] as const) expect(dp(c)!, c).toBeGreaterThan(dp('down')!);
    // What could not be seen is left out of the mean: the website points that were measured for a
    // refusing site are its status, HTTPS and files, never a zero for its page.
    for (const c of ['bot-403', 'challenge', 'sucuri'] as const) {
      expect(points[c].filter((p) => WEBSITE(p) && p.score && p.status === 'measured').map((p) => p.key).sort()).toEqual(expect.arrayContaining(['site.https', 'site.reachable']));
    }
  });
});
