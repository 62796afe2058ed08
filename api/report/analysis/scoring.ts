// Scores, rank and recommendations: pure functions of the data points (deterministic).
// Each score = 1 + 9 × (weighted mean of its data points' normalised values), over the points that
// are not missing; the overall is the weighted mean of the four scores. Both 2 decimals, 1-10.
import { marketRank, round, SCORE_MAX, SCORE_MIN } from '../../../common/constants.ts';
import type { DataPoint, Recommendation, ScoreKey, Scores } from '../types.ts';
import { dataPointDef, normalise } from './data-points.ts';

export const SCORE_KEYS: ScoreKey[] = ['reviews', 'digitalPresence', 'engagement', 'marketShare'];
/** Weights of the four scores in the overall. */
export const OVERALL_WEIGHTS: Record<ScoreKey, number> = { reviews: 0.3, digitalPresence: 0.25, engagement: 0.2, marketShare: 0.25 };

interface Contribution {
  point: DataPoint;
  weight: number;
  normalised: number;
}

function contributions(points: DataPoint[], key: ScoreKey): Contribution[] {
  const out: Contribution[] = [];
  for (const point of points) {
    if (point.score !== key || point.missing) continue;
    const def = dataPointDef(point.key);
    if (!def?.norm || def.weight <= 0) continue;
    out.push({ point, weight: def.weight, normalised: normalise(def.norm, point.value) });
  }
  return out;
}

const clampScore = (x: number) => Math.min(SCORE_MAX, Math.max(SCORE_MIN, round(x, 2)));

/** One score; null when every point feeding it is missing. */
export function scoreOf(points: DataPoint[], key: ScoreKey): number | null {
  const parts = contributions(points, key);
  const total = parts.reduce((s, c) => s + c.weight, 0);
  if (total === 0) return null;
  const mean = parts.reduce((s, c) => s + c.weight * c.normalised, 0) / total;
  return clampScore(SCORE_MIN + (SCORE_MAX - SCORE_MIN) * mean);
}

export function scorePlace(points: DataPoint[]): { scores: Scores; unscored: ScoreKey[] } {
  const unscored: ScoreKey[] = [];
  const each = {} as Record<ScoreKey, number>;
  for (const key of SCORE_KEYS) {
    const s = scoreOf(points, key);
    if (s === null) unscored.push(key);
    each[key] = s ?? SCORE_MIN;
  }
  const overall = clampScore(SCORE_KEYS.reduce((s, k) => s + OVERALL_WEIGHTS[k] * each[k], 0));
  const share = points.find((p) => p.key === 'market.review_share');
  const marketSharePercent = typeof share?.value === 'number' && !share.missing ? round(share.value, 2) : 0;
  return { scores: { ...each, overall, marketSharePercent }, unscored };
}

/** Rank of each row among all: rows scoring higher on overall, plus one (ties share a rank). */
export function ranks(overalls: number[]): number[] {
  return overalls.map((o) => marketRank(o, overalls));
}

/** The value as the recommendation's evidence quotes it, written as the data-point tables write
 *  it: two decimals at most, a percent sign against the number ("36.67%", not "36.67 %"). */
export function formatValue(point: DataPoint): string {
  if (point.value === null) return 'none';
  if (typeof point.value === 'boolean') return point.value ? 'yes' : 'no';
  if (point.unit === 'yes/no' || point.unit === 'text') return String(point.value);
  return withUnit(typeof point.value === 'number' && !Number.isInteger(point.value) ? point.value.toFixed(2) : String(point.value), point.unit);
}

/** A number as the report writes it with its unit: "36.67%", "#4" for a position, "12 reviews". */
export function withUnit(n: string, unit: string): string {
  if (unit === '%') return `${n}%`;
  if (unit === 'position') return `#${n}`;
  return `${n} ${unit}`;
}

/** The five changes that would raise the business's scores most, by the points they would add
 *  to their score (1-10 scale) if the data point reached its best value. */
export function recommend(points: DataPoint[], count = 5): Recommendation[] {
  const candidates: Recommendation[] = [];
  for (const key of SCORE_KEYS) {
    const parts = contributions(points, key);
    const total = parts.reduce((s, c) => s + c.weight, 0);
    if (total === 0) continue;
    for (const c of parts) {
      const def = dataPointDef(c.point.key)!;
      if (!def.advice) continue;
      const gain = round(((SCORE_MAX - SCORE_MIN) * c.weight * (1 - c.normalised)) / total, 2);
      candidates.push({ title: def.advice[0], detail: `${def.advice[1]} (${def.label}: ${formatValue(c.point)}.)`, score: key, gain });
    }
  }
  candidates.sort((a, b) => b.gain - a.gain || a.title.localeCompare(b.title));
  const seen = new Set<string>();
  const out: Recommendation[] = [];
  for (const c of candidates) {
    if (seen.has(c.title)) continue;
    seen.add(c.title);
    out.push(c);
    if (out.length === count) break;
  }
  return out;
}
