// The landing page's sample dashboard is demo data, but it must read like a real report: the
// business and its top 9 competitors within 20 miles, a market share that is its share of the
// market's reviews, and a rank by the spec's rule.
import { describe, expect, it } from 'vitest';
import { COMPETITOR_COUNT, marketRank, SEARCH_RADIUS_MILES } from '../../common/constants.ts';
import { DEMO_DASHBOARD } from '../../site/content/landing.ts';

describe('the sample dashboard on the landing page', () => {
  const { business, scores, competitors } = DEMO_DASHBOARD;

  it(`compares the business with its top ${COMPETITOR_COUNT} competitors within ${SEARCH_RADIUS_MILES} miles`, () => {
    expect(competitors).toHaveLength(COMPETITOR_COUNT);
    expect(new Set(competitors.map((c) => c.name)).size).toBe(COMPETITOR_COUNT);
    for (const c of competitors) expect(c.distance, c.name).toBeLessThanOrEqual(SEARCH_RADIUS_MILES);
  });

  it('shows a market share that is the business\'s share of the market\'s reviews', () => {
    const total = business.reviews + competitors.reduce((s, c) => s + c.reviews, 0);
    expect(Math.round((business.reviews / total) * 100)).toBe(scores.marketSharePercent);
  });

  it('ranks the business third of ten by the overall score', () => {
    expect(marketRank(scores.overall, [scores.overall, ...competitors.map((c) => c.overall)])).toBe(3);
  });
});
