import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPETITOR_COUNT, MIN_DATA_POINTS, SEARCH_RADIUS_MILES } from '../../common/constants.ts';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { independentMeasured } from '../../api/report/analysis/data-points.ts';
import { productionDeps } from '../../api/jobs/production.ts';
import type { ReportInput } from '../../api/report/model/types.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: 'http://localhost:4321' });
});
afterAll(() => t.close());

const NOW = new Date('2026-11-22T12:00:00Z');
const input: ReportInput = {
  businessId: 'b-1',
  fullName: 'Ada Owner',
  email: 'ada@example.com',
  company: 'Congress Avenue Dental',
  website: 'http://localhost:4321/api/sample-sites/not-a-site/',
  address: '100 Congress Ave',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
};

describe('analyseBusiness with the sample provider', () => {
  it('is what the production job runs', () => {
    expect(productionDeps.analyse).toBeTypeOf('function');
  });

  it('makes a full, plausible report offline', async () => {
    const data = await analyseBusiness(t.ctx, input, { now: NOW });
    expect(data.provider).toBe('sample');
    expect(data.sampleData).toBe(true);
    expect(data.category).toBe('Dentist');
    expect(data.location.source).toBe('zip');
    expect(data.radiusMiles).toBe(SEARCH_RADIUS_MILES);
    expect(data.competitors).toHaveLength(COMPETITOR_COUNT);
    expect(data.recommendations).toHaveLength(5);
    const everyone = [data.business, ...data.competitors];
    for (const p of everyone) {
      expect(p.dataPoints.length).toBeGreaterThanOrEqual(MIN_DATA_POINTS);
      expect(p.place.distanceMiles).toBeLessThanOrEqual(SEARCH_RADIUS_MILES);
      expect(Math.round(p.place.distanceMiles * 100) / 100).toBe(p.place.distanceMiles);
      expect(p.rank).toBe(everyone.filter((o) => (o.scores.overall ?? -1) > (p.scores.overall ?? -1)).length + 1);
    }
    const names = new Set(data.competitors.map((c) => c.place.name));
    expect(names.size).toBe(COMPETITOR_COUNT);
    expect(data.competitors.every((c) => c.place.phone && c.place.address && c.place.rating && c.place.reviewCount)).toBe(true);
    // The competitors' sample websites were really read.
    const read = data.competitors.filter((c) => c.dataPoints.find((d) => d.key === 'site.reachable')?.value === true);
    expect(read.length).toBeGreaterThanOrEqual(5);
    // The business's own site is an unknown sample id: it answers with an error page, which is
    // measured as down (a visitor gets none of it), and said so, never as "did not answer".
    expect(data.business.dataPoints.find((d) => d.key === 'site.reachable')).toMatchObject({ status: 'measured', value: false });
    expect(data.business.dataPoints.find((d) => d.key === 'site.https')).toMatchObject({ status: 'measured', value: null });
    expect(data.notes.join(' ')).toMatch(/answered with an error page when we visited \(HTTP 404: the homepage answers with an error page\)/);
    // A business with a readable (sample) website: 90+ independent measured data points.
    const withSite = data.competitors.find((c) => c.dataPoints.find((d) => d.key === 'site.reachable')?.value === true)!;
    expect(independentMeasured(withSite.dataPoints).length).toBeGreaterThanOrEqual(MIN_DATA_POINTS);
    // Sample reviews read like reviews: no sentence says the same thing twice.
    for (const r of data.ownReviews!) expect(r.text, r.text).not.toMatch(/\b(.{12,})\b.*\b\1\b/i);
    // Sentiment varies across a year of reviews.
    const sentiments = data.competitors.map((c) => c.sentiment.positive as number);
    expect(Math.max(...sentiments)).toBeGreaterThan(Math.min(...sentiments));
    expect(data.competitors.some((c) => (c.reviewVelocity.last90Days as number) > 0)).toBe(true);
    // The business's own reviews, for the Early Warning alerts.
    expect(data.ownReviews!.length).toBeGreaterThan(0);
  });

  it('is deterministic for the same input and time', async () => {
    const a = await analyseBusiness(t.ctx, input, { now: NOW });
    const b = await analyseBusiness(t.ctx, input, { now: NOW });
    const strip = (d: typeof a) => JSON.stringify({ ...d, business: { ...d.business, dataPoints: d.business.dataPoints.filter((p) => p.key !== 'site.response_ms') }, competitors: d.competitors.map((c) => ({ ...c.place, s: c.scores.reviews })) });
    expect(strip(a)).toBe(strip(b));
  });

  it('runs on the city, with a note, when the ZIP is unknown', async () => {
    const data = await analyseBusiness(t.ctx, { ...input, zip: '00000' }, { now: NOW });
    expect(data.location.source).toBe('city');
    expect(data.notes[0]).toMatch(/ZIP code 00000/);
    expect(data.competitors).toHaveLength(COMPETITOR_COUNT);
  });

  it('infers the category from the company name', async () => {
    const data = await analyseBusiness(t.ctx, { ...input, company: 'Hometown Plumbing & Drain' }, { now: NOW });
    expect(data.category).toBe('Plumber');
    expect(data.competitors.every((c) => c.place.category === 'Plumber')).toBe(true);
  });

  it('serves the sample websites over HTTP, the same pages the analyser reads', async () => {
    const data = await analyseBusiness(t.ctx, input, { now: NOW });
    const site = data.competitors.find((c) => c.place.website)!.place.website!;
    const path = new URL(site).pathname;
    const res = await t.app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    const html = await res.text();
    expect(html).toContain(data.competitors.find((c) => c.place.website === site)!.place.name.replace(/&/g, '&amp;'));
    expect((await t.app.request(`${path}robots.txt`)).status).toBeOneOf([200, 404]);
    expect((await t.app.request('/api/sample-sites/%00bad/')).status).toBe(404);
  });
});
