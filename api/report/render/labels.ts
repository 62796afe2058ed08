// Names and formats every rendering of a report shares (PNG, PDF, e-mail, online page).
import { NOT_ENOUGH_DATA, scoreBand, type ScoreBand } from '../../../common/constants.ts';
import { rawValue } from '../analysis/scoring.ts';
import type { DataPoint, ReportData, ScoreKey } from '../types.ts';

export const SCORE_LABELS: Record<ScoreKey, string> = {
  reviews: 'Online Reviews',
  digitalPresence: 'Digital Presence',
  engagement: 'Customer Engagement',
  marketShare: 'Market Share',
};
export const SCORE_KEYS = Object.keys(SCORE_LABELS) as ScoreKey[];

export const BAND_COLOURS: Record<ScoreBand, string> = { excellent: '#047857', good: '#1d4ed8', fair: '#b45309', poor: '#b91c1c' };
export const BAND_LABELS: Record<ScoreBand, string> = { excellent: 'Excellent', good: 'Good', fair: 'Fair', poor: 'Needs work' };
/** Grey for "Not enough data". */
export const bandColour = (score: number | null) => (score === null ? '#64748b' : BAND_COLOURS[scoreBand(score)]);

export const fmtScore = (n: number | null) => (n === null ? NOT_ENOUGH_DATA : n.toFixed(2));
export const fmtDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

export const fmtValue = (point: DataPoint): string => rawValue(point);

/** Places in rank order (the business among them), as the competitor tables show them. */
export function ranked(data: ReportData) {
  return [data.business, ...data.competitors].sort((a, b) => a.rank - b.rank || (b.scores.overall ?? -1) - (a.scores.overall ?? -1));
}
export const marketSize = (data: ReportData) => data.competitors.length + 1;

export const SAMPLE_DATA_NOTICE = 'Sample data: this report was made by the offline sample provider, not from live listings.';

export const METHODOLOGY_SUMMARY = [
  'We find your business and its top competitors within the search radius, by prominence, and read their listings, reviews and websites.',
  'Each place gets 90+ data points. Each of the four scores is a weighted blend of its data points, scaled 1-10 with two decimals; the overall score blends the four.',
  'Market share is your share of all reviews in the local market, also shown as a percent. Rank is the number of places scoring higher overall, plus one.',
  'Recommendations are the changes that would raise a score the most, ordered by the points they would gain. Every data point, its source, unit and weight is listed in the data points section.',
];
