import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COVERAGE_FLOOR, MIN_DATA_POINTS, marketRank } from '../../common/constants.ts';
import { collectDataPoints, DATA_POINTS, normalise, type Subject } from '../../api/report/analysis/data-points.ts';
import type { Listing } from '../../api/report/analysis/providers/types.ts';
import { unreachable, type WebsiteAnalysis } from '../../api/report/analysis/website.ts';
import { renderMethodology } from '../../api/report/analysis/methodology.ts';
import { breakdownOf, formatValue, overallBasis, overallOf, ranks, recommend, scoreOf, scorePlace, SCORE_KEYS } from '../../api/report/analysis/scoring.ts';
import { createRng } from '../../api/report/analysis/random.ts';
import type { DataPoint } from '../../api/report/model/types.ts';

function randomPoints(seed: number, unknownShare = 0): DataPoint[] {
  const r = createRng(seed);
  return DATA_POINTS.map((d) => {
    const unknown = r.chance(unknownShare);
    const value = d.unit === 'yes/no' ? r.chance(0.5) : d.unit === 'text' ? 'x' : Math.round((r.next() * 400 - 50) * 100) / 100;
    return { key: d.key, label: d.label, value: unknown ? null : value, unit: d.unit, score: d.score, status: unknown ? 'unknown' : 'measured' };
  });
}

const at = (points: DataPoint[], key: string, change: Partial<DataPoint>) => points.map((p) => (p.key === key ? { ...p, ...change } : p));
/** The value that normalises to 1 (best) or 0 (worst). */
function extreme(key: string, best: boolean): DataPoint['value'] {
  const n = DATA_POINTS.find((d) => d.key === key)!.norm!;
  if (n.kind === 'bool') return best;
  if (n.kind === 'ramp' || n.kind === 'log') return best ? n.hi : n.lo;
  if (n.kind === 'inverse') return best ? n.lo : n.hi;
  return best ? n.idealLo : n.zeroHi;
}

describe('the data-point registry', () => {
  it(`defines at least ${MIN_DATA_POINTS} data points, each key once`, () => {
    expect(DATA_POINTS.length).toBeGreaterThanOrEqual(MIN_DATA_POINTS);
    expect(new Set(DATA_POINTS.map((d) => d.key)).size).toBe(DATA_POINTS.length);
  });

  it('gives every scored point a weight, a normalisation and advice; unscored points none', () => {
    for (const d of DATA_POINTS) {
      if (d.score) {
        expect(d.weight, d.key).toBeGreaterThan(0);
        expect(d.norm, d.key).not.toBeNull();
        expect(d.advice, d.key).not.toBeNull();
      } else {
        expect(d.weight, d.key).toBe(0);
      }
    }
    // Market Share is scored on what a new competitor cannot reorder (decision 0151): two points.
    for (const k of SCORE_KEYS) expect(DATA_POINTS.filter((d) => d.score === k).length, k).toBeGreaterThanOrEqual(k === 'marketShare' ? 2 : 5);
  });

  it('normalises into 0-1', () => {
    expect(normalise({ kind: 'bool' }, true)).toBe(1);
    expect(normalise({ kind: 'bool' }, false)).toBe(0);
    expect(normalise({ kind: 'ramp', lo: 0, hi: 10 }, 5)).toBe(0.5);
    expect(normalise({ kind: 'ramp', lo: 0, hi: 10 }, 50)).toBe(1);
    expect(normalise({ kind: 'inverse', lo: 0, hi: 10 }, 2)).toBe(0.8);
    expect(normalise({ kind: 'band', zeroLo: 0, idealLo: 10, idealHi: 20, zeroHi: 40 }, 30)).toBe(0.5);
    expect(normalise({ kind: 'ramp', lo: 0, hi: 10 }, null)).toBe(0);
  });

  it('docs/methodology.md is current (run `npm run docs:methodology`)', () => {
    expect(readFileSync(new URL('../../docs/methodology.md', import.meta.url), 'utf8')).toBe(renderMethodology());
  });

  it('and the methodology agree: every data point once, with its weight, lever and derived mark, and the count per source', () => {
    const doc = renderMethodology();
    for (const d of DATA_POINTS) {
      const rows = doc.split('\n').filter((l) => l.startsWith(`| \`${d.key}\` |`));
      expect(rows, d.key).toHaveLength(1);
      const cells = rows[0]!.split(' | ');
      expect(cells[5], d.key).toBe(d.weight ? String(d.weight) : '-');
      expect(cells[7], d.key).toBe(d.lever ?? '-');
      expect(cells[8], d.key).toBe(d.derived ? 'derived' : '-');
    }
    for (const p of ['sample', 'google', 'yelp'] as const) {
      const n = Number(new RegExp(`^\\| ${p} \\| (\\d+) \\|$`, 'm').exec(doc)![1]);
      expect(n, p).toBeGreaterThanOrEqual(MIN_DATA_POINTS);
    }
  });
});

describe('scores', () => {
  it('are within 1-10 with two decimals, or null ("Not enough data"), for any data', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { scores } = scorePlace(randomPoints(seed, seed % 3 === 0 ? 0.4 : 0));
      for (const k of [...SCORE_KEYS, 'overall'] as const) {
        if (scores[k] === null) continue;
        expect(scores[k]).toBeGreaterThanOrEqual(1);
        expect(scores[k]).toBeLessThanOrEqual(10);
        expect(Math.round(scores[k]! * 100) / 100).toBe(scores[k]);
      }
    }
  });

  it('are deterministic', () => {
    expect(scorePlace(randomPoints(42))).toEqual(scorePlace(randomPoints(42)));
  });

  it('reach 10 when every point is at its best and 1 at its worst', () => {
    const all = (best: boolean): DataPoint[] => DATA_POINTS.map((d) => ({ key: d.key, label: d.label, unit: d.unit, score: d.score, status: 'measured', value: d.norm ? extreme(d.key, best) : null }));
    expect(scorePlace(all(true)).scores.overall).toBe(10);
    expect(scorePlace(all(false)).scores.overall).toBe(1);
    expect(recommend(all(true))).toEqual([]);
  });

  it('carry their breakdown: contributions add up to the score, coverage is measured ÷ applicable weight', () => {
    for (let seed = 1; seed <= 50; seed++) {
      const { scores, breakdown } = scorePlace(randomPoints(seed, 0.2));
      for (const k of SCORE_KEYS) {
        const b = breakdown[k];
        expect(b.score).toBe(scores[k]);
        expect(b.measuredWeight).toBeCloseTo(b.parts.filter((p) => p.status === 'measured').reduce((s, p) => s + p.weight, 0), 2);
        expect(b.totalWeight).toBeCloseTo(b.parts.filter((p) => p.status !== 'not_applicable').reduce((s, p) => s + p.weight, 0), 2);
        if (b.score === null) {
          expect(b.coverage < COVERAGE_FLOOR || b.measuredWeight === 0).toBe(true);
          expect(b.parts.every((p) => p.contribution === null)).toBe(true);
        } else {
          expect(b.coverage).toBeGreaterThanOrEqual(COVERAGE_FLOOR);
          const sum = b.parts.reduce((s, p) => s + (p.contribution ?? 0), 0);
          expect(Math.abs(1 + sum - b.score)).toBeLessThan(0.01 * b.parts.length + 0.011);
        }
        for (const p of b.parts) if (p.status !== 'measured') expect([p.normalised, p.contribution, p.raw]).toEqual([null, null, p.status === 'unknown' ? 'Unknown' : 'Not applicable']);
      }
    }
  });

  // Property: an unknown (or not applicable) point is never counted as a best or a worst value.
  // Taking a point out leaves the score at the weighted mean of the rest: strictly between what it
  // would be with that point at its worst and at its best (when those differ), never equal to the
  // worst. Fails on the old scoring, which counted an empty value as 0.
  it('never move a score as if a removed point were its worst (or best) value', () => {
    let checked = 0;
    for (let seed = 1; seed <= 150; seed++) {
      const points = randomPoints(seed);
      const scored = DATA_POINTS.filter((d) => d.score && d.norm);
      const def = scored[seed % scored.length]!;
      for (const status of ['unknown', 'not_applicable'] as const) {
        const removed = scoreOf(at(points, def.key, { status, value: null }), def.score!);
        const worst = scoreOf(at(points, def.key, { value: extreme(def.key, false) }), def.score!);
        const best = scoreOf(at(points, def.key, { value: extreme(def.key, true) }), def.score!);
        if (removed === null || worst === null || best === null || best - worst < 0.05) continue;
        expect(removed, `${def.key} ${status}`).toBeGreaterThanOrEqual(worst);
        expect(removed, `${def.key} ${status}`).toBeLessThanOrEqual(best);
        // Exactly the weighted mean of the measured rest: above the worst unless the rest is all at
        // its worst too.
        const rest = breakdownOf(at(points, def.key, { status, value: null }), def.score!);
        const mean = rest.parts.reduce((s, p) => s + (p.normalised ?? 0) * (p.normalised === null ? 0 : p.weight), 0) / rest.measuredWeight;
        expect(Math.abs(removed - (1 + 9 * mean))).toBeLessThanOrEqual(0.006);
        if (mean > 0.01) expect(removed, `${def.key} ${status}`).toBeGreaterThan(worst);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  it('read "Not enough data" (null) below the coverage floor, and a number at or above it', () => {
    const points = randomPoints(7);
    const engagement = DATA_POINTS.filter((d) => d.score === 'engagement');
    const total = engagement.reduce((s, d) => s + d.weight, 0);
    // Make points unknown, heaviest first, until less than the floor is measured.
    let measured = total;
    let thin = points;
    for (const d of [...engagement].sort((a, b) => b.weight - a.weight)) {
      if (measured / total < COVERAGE_FLOOR) break;
      thin = at(thin, d.key, { status: 'unknown', value: null });
      measured -= d.weight;
    }
    expect(breakdownOf(thin, 'engagement')).toMatchObject({ score: null, measuredWeight: measured, totalWeight: total });
    // The same points not applicable leave the basis: the rest is fully covered.
    const na = thin.map((p) => (p.status === 'unknown' ? { ...p, status: 'not_applicable' as const } : p));
    expect(breakdownOf(na, 'engagement')).toMatchObject({ measuredWeight: measured, totalWeight: measured, coverage: 1 });
    expect(breakdownOf(na, 'engagement').score).not.toBeNull();
  });
});

describe('overall and rank', () => {
  it('is the number of rows scoring higher, plus one; ties share a rank; no overall ranks last', () => {
    expect(ranks([7.5, 8.25, 6, 8.25, 1])).toEqual([3, 1, 4, 1, 5]);
    expect(ranks([7.5, null, 6, null])).toEqual([1, 3, 2, 3]);
    expect(marketRank(5, [5, 5, 5])).toBe(1);
  });

  it('compares every place on the scores most places have', () => {
    const s = (reviews: number | null, digitalPresence: number | null, engagement: number | null, marketShare: number | null) => ({ reviews, digitalPresence, engagement, marketShare });
    // A Yelp market: competitors have no websites, so no Digital Presence or Engagement.
    const market = [s(7, 8, 6, 5), ...Array.from({ length: 9 }, () => s(6, null, null, 4))];
    const basis = overallBasis(market);
    expect(basis).toEqual(['reviews', 'marketShare']);
    expect(overallOf(market[0]!, basis)).toBe(Math.round(((0.3 * 7 + 0.25 * 5) / 0.55) * 100) / 100);
    expect(overallOf(s(6, null, 3, null), ['reviews', 'marketShare'])).toBeNull();
    expect(overallBasis([s(null, null, 3, null), s(null, null, 4, null)])).toEqual([]);
  });
});

describe('recommendations', () => {
  it('are at most five, ordered by gain, one per lever, each citing its data points, never past 10, and deterministic', () => {
    for (let seed = 1; seed <= 100; seed++) {
      const points = randomPoints(seed, 0.1);
      const recs = recommend(points);
      expect(recs.length).toBeLessThanOrEqual(5);
      // By gain, but for the two facts that come first whatever the gains: no listing, a dead site.
      const moved = (r: (typeof recs)[number]) => (r.lever === 'listing.claim' && points.find((p) => p.key === 'listing.found')?.value === false) || (r.lever === 'site.reachable' && points.find((p) => p.key === 'site.reachable')?.value === false);
      const byGain = recs.filter((r) => !moved(r));
      for (let i = 1; i < byGain.length; i++) expect(byGain[i - 1]!.gain).toBeGreaterThanOrEqual(byGain[i]!.gain);
      expect(new Set(recs.map((r) => r.lever)).size).toBe(recs.length);
      const scores = scorePlace(points).scores;
      for (const r of recs) {
        // A gain is on one score's 1-10 scale: it never takes that score past 10.
        expect(scores[r.score]! + r.gain).toBeLessThanOrEqual(10 + 0.01 + 1e-9); // both figures rounded to 0.01
        expect(r.evidence.length).toBeGreaterThan(0);
        for (const key of r.evidence) {
          const def = DATA_POINTS.find((d) => d.key === key)!;
          expect(def.lever, key).toBe(r.lever);
          expect(points.find((p) => p.key === key)!.status).toBe('measured');
        }
      }
      expect(recommend(points)).toEqual(recs);
    }
  });

  it('never repeat a lever: "Lift your average rating" and "Turn good visits into five-star reviews" are one', () => {
    const points = DATA_POINTS.map((d): DataPoint => ({ key: d.key, label: d.label, unit: d.unit, score: d.score, status: 'measured', value: d.norm ? extreme(d.key, true) : null }));
    const low = at(at(at(points, 'reviews.rating', { value: 3 }), 'reviews.share_5_star', { value: 10 }), 'reviews.count', { value: 0 });
    const recs = recommend(at(low, 'market.review_position', { value: 10 }), 50);
    const titles = recs.map((r) => r.title);
    expect(titles.filter((t) => t === 'Lift your average rating' || t === 'Turn good visits into five-star reviews')).toHaveLength(1);
    expect(titles.filter((t) => t === 'Collect more reviews' || t === 'Grow your share of local reviews')).toHaveLength(1);
    const experience = recs.find((r) => r.lever === 'reviews.experience')!;
    expect(experience.evidence).toEqual(expect.arrayContaining(['reviews.rating', 'reviews.share_5_star']));
  });

  it('quote their evidence as the data-point tables write it: "36.67%", never "36.67 %"', () => {
    const point = (key: string, value: number | boolean): DataPoint => { const d = DATA_POINTS.find((x) => x.key === key)!; return { key, label: d.label, unit: d.unit, score: d.score, value, status: 'measured' }; };
    expect(formatValue(point('engagement.response_rate', 36.67))).toBe('36.67%');
    expect(formatValue(point('engagement.response_rate', 0))).toBe('0%');
    expect(formatValue(point('reviews.count', 42))).toBe('42 reviews');
    expect(formatValue(point('market.prominence_position', 4))).toBe('#4');
    expect(formatValue(point('market.review_count_vs_median', 0.5714285))).toBe('0.57 ratio');
    expect(formatValue(point('site.reachable', false))).toBe('no');
    const rest = DATA_POINTS.filter((d) => d.score && d.key !== 'engagement.response_rate').map((d): DataPoint => ({ key: d.key, label: d.label, unit: d.unit, score: d.score, status: 'measured', value: extreme(d.key, true) }));
    const recs = recommend([...rest, point('engagement.response_rate', 0)], 200);
    const reply = recs.find((r) => r.lever === 'reviews.reply')!;
    expect(reply.title).toBe('Reply to every review');
    expect(reply.detail).toMatch(/\(Owner response rate: 0%\.\)$/);
    for (const r of recs) expect(r.detail).not.toMatch(/\d %/);
  });
});

describe('a website that does not answer', () => {
  // Property: all else equal (the same listing, reviews and market), a business whose site does
  // not answer never outscores one with a working site, whatever that site shows.
  it('never outscores a working site on Digital Presence', () => {
    const listing: Listing = { placeId: 'p', name: 'Acme Dental', address: '100 Main St, Austin, TX 78701', phone: '(512) 555-0100', website: 'https://acme.example', rating: 4.2, reviewCount: 80, latitude: 30, longitude: -97, providerCategory: 'dentist', categoryLabel: 'Dentist' };
    const market = { places: 2, totalReviews: 160, totalLast90: null, medianReviewCount: 80, averageRating: 4.2, nearestOtherMiles: 1, othersWithin5: 1, prominencePosition: 1, reviewPosition: 1 };
    const subject = (site: WebsiteAnalysis): Subject => ({ listing, listingFound: true, distanceMiles: 0, reviews: null, reviewSource: '', site, siteState: site.reachable ? 'read' : 'down', listingGivesWebsite: true, profile: null, earlier: null, market, now: new Date('2026-11-22T12:00:00Z') });
    const dead = unreachable('https://acme.example', 'timeout');
    for (let seed = 1; seed <= 200; seed++) {
      const r = createRng(seed);
      const site = unreachable('https://acme.example', '') as unknown as Record<string, unknown>;
      for (const [k, v] of Object.entries(site)) {
        if (typeof v === 'boolean') site[k] = r.chance(0.5);
        else if (typeof v === 'number') site[k] = r.int(0, 5000);
      }
      Object.assign(site, { reachable: true, error: null, title: r.chance(0.7) ? 'Acme Dental in Austin' : null, metaDescription: r.chance(0.5) ? 'x'.repeat(r.int(1, 300)) : null, h1: r.chance(0.5) ? ['Acme'] : [], schemaPhone: null });
      const [working, down] = [collectDataPoints(subject(site as unknown as WebsiteAnalysis)), collectDataPoints(subject(dead))];
      const a = scoreOf(working, 'digitalPresence');
      const b = scoreOf(down, 'digitalPresence');
      expect(b, `seed ${seed}`).not.toBeNull();
      expect(a!, `seed ${seed}`).toBeGreaterThanOrEqual(b!);
      expect(scoreOf(working, 'engagement')!).toBeGreaterThanOrEqual(scoreOf(down, 'engagement')!);
    }
  });
});
