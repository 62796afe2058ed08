// Robust figures: one review excerpt moves Online Reviews by at most 0.25, however few the
// excerpts (Yelp gives 3, Google 5), and the points read from them say so.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATA_POINTS } from '../../api/report/analysis/data-points.ts';
import { analyseReviews } from '../../api/report/analysis/reviews.ts';
import { breakdownOf, EXCERPT_MAX_SWING, excerptFactor } from '../../api/report/analysis/scoring.ts';
import type { DataPoint, Review } from '../../api/report/model/types.ts';

const NOW = new Date('2026-11-22T12:00:00Z');
const TEXTS = ['Wonderful team, explained everything.', 'Awful, rude and overpriced.', 'Terrible wait and rude front desk.', 'Great staff, friendly and on time.', 'It was fine.', 'Excellent service, would recommend.', 'Dirty and slow, the price was a rip-off.'];

const excerpt = fc.record({ rating: fc.integer({ min: 1, max: 5 }), text: fc.constantFrom(...TEXTS), days: fc.integer({ min: 1, max: 400 }) });

function points(excerpts: Array<{ rating: number; text: string; days: number }>, listing: { rating: number; count: number }): DataPoint[] {
  const reviews: Review[] = excerpts.map((e) => ({ rating: e.rating, text: e.text, author: null, date: new Date(NOW.getTime() - e.days * 86_400_000).toISOString(), url: null, ownerResponse: null }));
  const r = analyseReviews(reviews, { now: NOW, complete: false, ownerResponsesKnown: false, newestFirst: true });
  const values: Record<string, number | boolean | null> = {
    'reviews.rating': listing.rating,
    'reviews.count': listing.count,
    'reviews.share_5_star': r.starShare[5],
    'reviews.share_1_star': r.starShare[1],
    'reviews.sentiment_average': r.sentimentAverage,
    'reviews.positive_share': r.positiveShare,
    'reviews.negative_share': r.negativeShare,
    'reviews.negative_themes': r.negativeThemes.length,
    'reviews.sampled': r.sampled,
    'reviews.sample_complete': false,
  };
  return DATA_POINTS.filter((d) => d.key in values).map((d) => {
    const v = values[d.key] ?? null;
    return { key: d.key, label: d.label, unit: d.unit, score: d.score, value: v, status: v === null ? 'unknown' : 'measured' };
  });
}

describe('points read from review excerpts', () => {
  it(`move Online Reviews by at most ${EXCERPT_MAX_SWING} when any one excerpt changes`, () => {
    fc.assert(
      fc.property(
        fc.array(excerpt, { minLength: 1, maxLength: 5 }),
        fc.nat(),
        excerpt,
        fc.record({ rating: fc.double({ min: 1, max: 5, noNaN: true }), count: fc.integer({ min: 1, max: 2000 }) }),
        (excerpts, which, replacement, listing) => {
          const changed = excerpts.map((e, i) => (i === which % excerpts.length ? { ...replacement, days: e.days } : e));
          const before = breakdownOf(points(excerpts, listing), 'reviews').score;
          const after = breakdownOf(points(changed, listing), 'reviews').score;
          if (before === null || after === null) return;
          // Both rounded to hundredths.
          expect(Math.abs(after - before)).toBeLessThanOrEqual(EXCERPT_MAX_SWING + 0.01 + 1e-9);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('say how many reviews they come from, and weigh in full when every review was read', () => {
    const few = points([{ rating: 1, text: TEXTS[1]!, days: 3 }, { rating: 5, text: TEXTS[0]!, days: 9 }, { rating: 5, text: TEXTS[3]!, days: 30 }], { rating: 4.1, count: 120 });
    const parts = breakdownOf(few, 'reviews').parts;
    const share = parts.find((p) => p.key === 'reviews.share_5_star')!;
    expect(share.note).toBe('from 3 reviews read');
    expect(share.weight).toBeLessThan(3);
    expect(parts.find((p) => p.key === 'reviews.rating')).toMatchObject({ weight: 10 });
    expect(parts.find((p) => p.key === 'reviews.rating')!.note).toBeUndefined();
    const all = few.map((p) => (p.key === 'reviews.sample_complete' ? { ...p, value: true } : p));
    expect(excerptFactor(all).factor).toBe(1);
    expect(breakdownOf(all, 'reviews').parts.find((p) => p.key === 'reviews.share_5_star')).toMatchObject({ weight: 3 });
  });
});
