// Market Share's scale (decision 0151): a new competitor with more reviews than everyone cannot
// lift any business's rank. Market Share scores the position by review count (a new leader moves
// everyone down one place alike) and the business's own review volume on a log scale (which no
// competitor changes), so every other business's overall falls by the same amount or not at all.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DATA_POINTS, reviewPositions } from '../../api/report/analysis/data-points.ts';
import { overallOf, ranks, scoreOf } from '../../api/report/analysis/scoring.ts';
import type { DataPoint } from '../../api/report/model/types.ts';

const MS = DATA_POINTS.filter((d) => d.score === 'marketShare');

function marketShare(position: number, count: number): number | null {
  // Share of Local Voice (issue 27) is read from the provider's search results, which rank every
  // place the provider knows whichever competitors the report compares: a competitor joining the
  // comparison leaves it as it was, so it is held fixed here.
  const points: DataPoint[] = MS.map((d) => ({ key: d.key, label: d.label, unit: d.unit, score: d.score, status: 'measured', value: d.key === 'market.review_position' ? position : d.key === 'visibility.solv' ? 25 : count }));
  return scoreOf(points, 'marketShare');
}

const other = fc.double({ min: 1, max: 10, noNaN: true }).map((x) => Math.round(x * 100) / 100);
const place = fc.record({ count: fc.integer({ min: 0, max: 3000 }), reviews: other, digitalPresence: other, engagement: other });

function overalls(places: Array<{ count: number; reviews: number; digitalPresence: number; engagement: number }>) {
  const positions = reviewPositions(places.map((p) => p.count));
  return places.map((p, i) => overallOf({ reviews: p.reviews, digitalPresence: p.digitalPresence, engagement: p.engagement, marketShare: marketShare(positions[i]!, p.count) })!);
}

describe('the Market Share scale', () => {
  it('scores only what a new competitor cannot reorder', () => {
    expect(MS.map((d) => d.key).sort()).toEqual(['market.review_position', 'market.review_volume', 'visibility.solv']);
  });

  it('never lifts a business\'s rank when a competitor with more reviews than all of them enters', () => {
    fc.assert(
      fc.property(fc.array(place, { minLength: 1, maxLength: 9 }), place, fc.integer({ min: 1, max: 100_000 }), (market, giant, extra) => {
        const before = overalls(market);
        const after = overalls([...market, { ...giant, count: Math.max(...market.map((p) => p.count)) + extra }]);
        // Every score is rounded to hundredths, so two places within 0.02 may come to share a
        // rank; beyond that, whoever was ahead stays ahead: no rank is lifted.
        for (let i = 0; i < market.length; i++)
          for (let j = 0; j < market.length; j++) if (before[j]! > before[i]! + 0.02) expect(after[j]!, `${j} ahead of ${i}`).toBeGreaterThan(after[i]!);
        const r0 = ranks(before);
        const r1 = ranks(after);
        market.forEach((_, i) => {
          if (before.every((o, j) => j === i || Math.abs(o - before[i]!) > 0.02)) expect(r1[i]!, `place ${i}`).toBeGreaterThanOrEqual(r0[i]!);
        });
      }),
      { numRuns: 1000 },
    );
  });
});
