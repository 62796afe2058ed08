// What each score is made of, as the report shows it: every data point with its source, raw
// value, normalised value (0-1), weight and the points it adds to the 1-10 score.
import type { AnalysedPlace, ScoreBreakdown, ScoreKey, ScorePart } from '../model/types.ts';

/** The analysis's breakdown of a score. A report stored before the analysis recorded breakdowns
 *  has none: its score is shown with no parts, and the report says so. */
export function breakdownOf(place: AnalysedPlace, key: ScoreKey): ScoreBreakdown {
  return (place.breakdown as Partial<Record<ScoreKey, ScoreBreakdown>> | undefined)?.[key] ?? { score: place.scores[key], measuredWeight: 0, totalWeight: 0, coverage: 0, parts: [] };
}

export const SOURCE_LABELS: Record<ScorePart['source'], string> = { listing: 'Listing', reviews: 'Reviews', website: 'Website', market: 'Market', search: 'Local search' };

/** "18 of 24 weight measured". */
export const coverageText = (b: ScoreBreakdown) => `${fmtWeight(b.measuredWeight)} of ${fmtWeight(b.totalWeight)} weight measured`;
/** A weight as the tables write it: at most two decimals (excerpt-based weights are fractions). */
export const fmtWeight = (w: number) => String(Number(w.toFixed(2)));
