// Advice that follows the facts: over many generated markets (fast-check), no recommendation
// appears whose premise is false. The premises are written here from the advice's own words,
// independently of the code's PREMISES: "competitors run ads" needs a competitor with an ad
// pixel, "get the website back up" a site that did not answer, website fixes a site that answered.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATA_POINTS } from '../../api/report/analysis/data-points.ts';
import { recommend } from '../../api/report/analysis/scoring.ts';
import type { AbsentBecause, DataPoint, Recommendation } from '../../api/report/model/types.ts';

const SCORED = DATA_POINTS.filter((d) => d.score && d.norm);
/** Where a number may fall for a point: around its normalisation's range, past both ends. */
function range(key: string): [number, number] {
  const norm = DATA_POINTS.find((d) => d.key === key)!.norm!;
  if (norm.kind === 'ramp' || norm.kind === 'inverse' || norm.kind === 'log') {
    const span = norm.hi - norm.lo;
    return [norm.lo - span / 2, norm.hi + span / 2];
  }
  if (norm.kind === 'band') return [norm.zeroLo - 5, norm.zeroHi + 5];
  return [0, 1];
}

interface Place {
  site: 'read' | 'down' | 'none';
  listed: boolean;
  noReviews: boolean;
  values: Record<string, number | boolean | null>;
}

const value = (key: string) => {
  const def = DATA_POINTS.find((d) => d.key === key)!;
  if (def.norm!.kind === 'bool') return fc.oneof(fc.boolean(), fc.constant(null));
  const [lo, hi] = range(key);
  return fc.oneof({ weight: 5, arbitrary: fc.double({ min: lo, max: hi, noNaN: true }).map((x) => Math.round(x * 100) / 100) }, { weight: 1, arbitrary: fc.constant(null) });
};
const place: fc.Arbitrary<Place> = fc.record({
  site: fc.constantFrom('read', 'down', 'none'),
  listed: fc.boolean(),
  noReviews: fc.boolean(),
  values: fc.record(Object.fromEntries(SCORED.map((d) => [d.key, value(d.key)]))) as fc.Arbitrary<Record<string, number | boolean | null>>,
});

/** A place's data points as the analysis states them: a dead or missing site measures its website
 *  points as absent; an unlisted business its listing points; no reviews the rating. */
function points(p: Place, main: boolean): DataPoint[] {
  return SCORED.map((def) => {
    const base = { key: def.key, label: def.label, unit: def.unit, score: def.score };
    const absent = (because: AbsentBecause): DataPoint => ({ ...base, value: null, status: 'measured', derived: true, absentBecause: because });
    if (def.key === 'site.reachable') return p.site === 'none' ? { ...base, value: null, status: 'not_applicable' } : { ...base, value: p.site === 'read', status: 'measured' };
    if (def.source === 'website' && p.site !== 'read') return absent(p.site === 'down' ? 'site_down' : 'no_site');
    if (main && !p.listed && def.key === 'listing.found') return { ...base, value: false, status: 'measured' };
    if (main && !p.listed && def.key.startsWith('listing.')) return absent('not_listed');
    if (def.key === 'listing.found') return { ...base, value: true, status: 'measured' };
    if (p.noReviews && def.key === 'reviews.count') return { ...base, value: 0, status: 'measured' };
    if (p.noReviews && (def.key === 'reviews.rating' || def.key === 'reviews.share_5_star')) return absent('no_reviews');
    const v = p.values[def.key] ?? null;
    return v === null ? { ...base, value: null, status: 'unknown' } : { ...base, value: v, status: 'measured' };
  });
}

const num = (pts: DataPoint[], key: string) => {
  const p = pts.find((x) => x.key === key);
  return p?.status === 'measured' && typeof p.value === 'number' && !p.absentBecause ? p.value : null;
};
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** Each title's claim, from its words, against the generated facts. */
function premise(r: Recommendation, own: Place, mine: DataPoint[], rivals: DataPoint[][]): boolean {
  const ownNum = (k: string) => num(mine, k);
  switch (r.title) {
    case 'Advertise where your competitors do': return rivals.some((c) => (num(c, 'ads.pixel_count') ?? 0) > 0);
    case 'Offer online booking': return rivals.some((c) => c.find((p) => p.key === 'tech.booking')?.value === true);
    case 'Grow your share of local reviews': return ownNum('market.review_position')! > 1;
    case 'Reverse the slowing review trend': return ownNum('reviews.velocity_trend')! < 0;
    case 'Improve what customers write about': {
      const m = median(rivals.map((c) => num(c, 'reviews.sentiment_average')).filter((x): x is number => x !== null));
      return m !== null && ownNum('reviews.sentiment_average')! < m;
    }
    case 'Earn more positive reviews': return ownNum('reviews.positive_share')! < 50;
    case 'Get a fresh review this week': return ownNum('reviews.days_since_latest')! > 30;
    case 'Fix the recurring complaint': return ownNum('reviews.negative_themes')! > 0;
    case 'Get your website back up': return own.site === 'down';
    case 'Put up a website': return own.site === 'none';
    case 'Create or claim your listing': return !own.listed;
    case 'Get your first reviews': return own.noReviews;
    default:
      // Advice about the website's pages needs pages a visitor can open.
      if (r.evidence.some((k) => DATA_POINTS.find((d) => d.key === k)!.source === 'website')) return own.site === 'read';
      return true;
  }
}

describe('recommendations over generated markets', () => {
  it('never make a claim the report\'s data contradicts; a missing listing comes first, a dead site in the first three', () => {
    fc.assert(
      fc.property(place, fc.array(place, { minLength: 1, maxLength: 9 }), (own, rivals) => {
        const mine = points(own, true);
        const theirs = rivals.map((r) => points({ ...r, listed: true }, false));
        const recs = recommend(mine, 5, { competitors: theirs, sourceLabel: 'Google Places' });
        for (const r of recs) expect(premise(r, own, mine, theirs), `${r.title}: ${r.detail}`).toBe(true);
        const titles = recs.map((r) => r.title);
        const claim = recommend(mine, 100, { competitors: theirs, sourceLabel: 'Google Places' }).map((r) => r.title);
        if (claim.includes('Create or claim your listing')) expect(titles[0]).toBe('Create or claim your listing');
        if (claim.includes('Get your website back up')) expect(titles.slice(0, 3)).toContain('Get your website back up');
      }),
      { numRuns: 400 },
    );
  });
});
