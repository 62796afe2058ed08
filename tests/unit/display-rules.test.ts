// Spec section 9's display rules, at their boundaries: score badge bands, progress bars, rating
// colours, the market rank and the low-rating rule.
import { describe, expect, it } from 'vitest';
import { isLowRating, marketRank, progressPercent, ratingColour, scoreBand } from '../../common/constants.ts';

describe('display rules', () => {
  it('bands scores at 8.5, 7.5 and 7, strings included', () => {
    expect([10, 8.5, 8.49, 7.5, 7.49, 7, 6.99, 1, '8.50', '7.00', '6.99'].map(scoreBand)).toEqual([
      'excellent', 'excellent', 'good', 'good', 'fair', 'fair', 'poor', 'poor', 'excellent', 'fair', 'poor',
    ]);
  });

  it('draws bars at score × 10 percent capped to 0-100, and market share as its percent', () => {
    expect(progressPercent(7.25)).toBe(72.5);
    expect(progressPercent('8.50')).toBe(85);
    expect(progressPercent(12)).toBe(100);
    expect(progressPercent(-1)).toBe(0);
    expect(progressPercent('n/a')).toBe(0);
    expect(progressPercent(14.23, 'percent')).toBe(14.23);
    expect(progressPercent(140, 'percent')).toBe(100);
  });

  it('colours ratings green from 4, yellow from 3, else red', () => {
    expect([5, 4, 3.99, 3, 2.99, 1, '4.0'].map(ratingColour)).toEqual(['green', 'green', 'yellow', 'yellow', 'red', 'red', 'green']);
  });

  it('ranks by the rows scoring higher plus one, ties sharing a rank', () => {
    expect(marketRank(7, [9, 8, 7, 7, 6])).toBe(3);
    expect(marketRank('9.00', ['9.00', '8.5'])).toBe(1);
    expect(marketRank(1, [])).toBe(1);
    expect(marketRank(5, [5, 5, 5])).toBe(1);
  });

  it('calls a rating low at or below the threshold', () => {
    expect(isLowRating(3, 3)).toBe(true);
    expect(isLowRating(3.1, 3)).toBe(false);
  });
});
