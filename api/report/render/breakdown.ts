// What each score is made of, as the report shows it: every data point with its source, raw
// value, normalised value (0-1), weight and the points it adds to the 1-10 score.
import { SCORE_MAX, SCORE_MIN } from '../../../common/constants.ts';
import { dataPointDef, normalise } from '../analysis/data-points.ts';
import type { AnalysedPlace, ScoreKey } from '../types.ts';
import { fmtValue } from './labels.ts';

export type PointStatus = 'measured' | 'not_applicable' | 'unknown';
export interface ScorePart {
  key: string;
  label: string;
  source: 'listing' | 'reviews' | 'website' | 'market';
  raw: string;
  normalised: number | null;
  weight: number;
  contribution: number | null;
  status: PointStatus;
}
export interface ScoreBreakdown {
  score: number | null;
  measuredWeight: number;
  totalWeight: number;
  coverage: number;
  parts: ScorePart[];
}

type WithBreakdown = AnalysedPlace & { breakdown?: Partial<Record<ScoreKey, ScoreBreakdown>> };

/** The analysis's breakdown of a score; for a report stored before the analysis recorded one,
 *  the same figures rebuilt from its data points and the registry's weights. */
export function breakdownOf(place: AnalysedPlace, key: ScoreKey): ScoreBreakdown {
  const recorded = (place as WithBreakdown).breakdown?.[key];
  if (recorded) return recorded;
  const parts: ScorePart[] = [];
  for (const point of place.dataPoints) {
    const def = point.score === key ? dataPointDef(point.key) : undefined;
    if (!def?.norm || def.weight <= 0) continue;
    const measured = !point.missing;
    parts.push({
      key: point.key,
      label: point.label,
      source: def.source,
      raw: fmtValue(point),
      normalised: measured ? normalise(def.norm, point.value) : null,
      weight: def.weight,
      contribution: null,
      status: measured ? 'measured' : 'unknown',
    });
  }
  const measuredWeight = parts.reduce((s, p) => s + (p.status === 'measured' ? p.weight : 0), 0);
  const totalWeight = parts.reduce((s, p) => s + p.weight, 0);
  for (const p of parts) if (p.normalised !== null) p.contribution = ((SCORE_MAX - SCORE_MIN) * p.weight * p.normalised) / measuredWeight;
  return { score: parts.length ? place.scores[key] : null, measuredWeight, totalWeight, coverage: totalWeight ? measuredWeight / totalWeight : 0, parts };
}

export const SOURCE_LABELS: Record<ScorePart['source'], string> = { listing: 'Listing', reviews: 'Reviews', website: 'Website', market: 'Market' };

/** "18 of 24 weight measured". */
export const coverageText = (b: ScoreBreakdown) => `${fmtWeight(b.measuredWeight)} of ${fmtWeight(b.totalWeight)} weight measured`;
const fmtWeight = (w: number) => (Number.isInteger(w) ? String(w) : w.toFixed(1));
