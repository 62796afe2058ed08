// Names and formats every rendering of a report shares (PNG, PDF, e-mail, online page).
import { BAND_LABELS, isMarket, MIN_MARKET_COMPETITORS, NO_MARKET, NOT_ENOUGH_DATA, SAMPLE_DATA_LABEL, SAMPLE_DATA_NOTE, SCORE_KEYS, SCORE_LABELS, scoreBand, type ScoreBand } from '../../../common/constants.ts';
import { OVERALL_WEIGHTS, overallBasis, rawValue, shareBase } from '../analysis/scoring.ts';
import type { AnalysedPlace, DataPoint, Recommendation, ReportData, ScoreKey } from '../model/types.ts';

export { BAND_LABELS, SCORE_KEYS, SCORE_LABELS };

export const BAND_COLOURS: Record<ScoreBand, string> = { excellent: '#047857', good: '#1d4ed8', fair: '#b45309', poor: '#c2410c' };
/** The bands as the legends print them, best first. */
export const BAND_RANGES: Array<{ band: ScoreBand; range: string; meaning: string }> = [
  { band: 'excellent', range: '8.5-10', meaning: 'ahead of most of the market' },
  { band: 'good', range: '7.5-8.49', meaning: 'solid, with a few gaps' },
  { band: 'fair', range: '7.0-7.49', meaning: 'clear gains within reach' },
  { band: 'poor', range: 'below 7.0', meaning: 'the most room to grow' },
];
/** Grey for a score that could not be computed. */
export const NO_SCORE_COLOUR = '#64748b';
export { NO_MARKET, NOT_ENOUGH_DATA, SAMPLE_DATA_LABEL, SAMPLE_DATA_NOTE };
export const bandColour = (score: number | null) => (score === null ? NO_SCORE_COLOUR : BAND_COLOURS[scoreBand(score)]);
export const bandLabel = (score: number | null) => (score === null ? NOT_ENOUGH_DATA : BAND_LABELS[scoreBand(score)]);

/** A 1-10 score with two decimals, or "Not enough data" when too little of it was measured. */
export const fmtScore = (n: number | null) => (n === null ? NOT_ENOUGH_DATA : n.toFixed(2));

/** The business's share of the market's reviews, in words; "Not enough data" when its review
 *  count is unknown (never 0.00%). */
export const shareText = (percent: number | null, data?: ReportData) =>
  data && !hasMarket(data) ? `Share of the reviews in this market: ${NO_MARKET}` : percent === null ? `Share of the reviews in this market: ${NOT_ENOUGH_DATA}` : `${percent.toFixed(2)}% of the reviews in this market are yours`;

/** Whether the report has a market to rank and share: at least MIN_MARKET_COMPETITORS competitors
 *  within the radius (decision 0216). */
export const hasMarket = (data: ReportData) => isMarket(data.competitors.length);

/** The sentence every surface gives a report without a market: what was found, what is not given,
 *  what can still be compared. Null when there is a market. */
export function noMarketText(data: ReportData): string | null {
  if (hasMarket(data)) return null;
  const n = data.competitors.length;
  const kind = data.category.toLowerCase();
  if (n === 0) {
    return `No market to rank you in: no other ${kind} was found within ${data.radiusMiles} miles, so there is no rank, no share of the market and no Market Share score. Your own findings below still stand; compare yourself with the same kind of business in the nearest town, or with your own next report.`;
  }
  return `Too few competitors to rank you: ${n} other ${kind}${n === 1 ? ' was' : 's were'} found within ${data.radiusMiles} miles, and a rank or a share of the market needs at least ${MIN_MARKET_COMPETITORS}. You are compared with ${n === 1 ? 'it' : 'each of them'} side by side, with no rank, no share and no Market Share score.`;
}

/** "compared with its top 9 competitors within 20 miles" / "no competitor within 20 miles". */
export function comparedWithText(data: ReportData): string {
  const n = data.competitors.length;
  if (n === 0) return `no ${data.category.toLowerCase()} competitor within ${data.radiusMiles} miles`;
  if (!hasMarket(data)) return `compared with ${n === 1 ? 'the only competitor' : `the ${n} competitors`} within ${data.radiusMiles} miles (too few for a rank)`;
  return `compared with the top ${n} competitors within ${data.radiusMiles} miles`;
}

/** A score as the report writes it: Market Share reads "No market" without one. */
export const scoreText = (data: ReportData, key: ScoreKey | 'overall', value: number | null) => (key === 'marketShare' && value === null && !hasMarket(data) ? NO_MARKET : fmtScore(value));
/** A score's band as the report writes it: Market Share reads "No market" without one. */
export const bandText = (data: ReportData, key: ScoreKey | 'overall', value: number | null) => (key === 'marketShare' && value === null && !hasMarket(data) ? NO_MARKET : bandLabel(value));

/** What a number on the 1-10 scale says, in an owner's words. */
export function scaleMeaning(score: number | null): string {
  if (score === null) return 'Too little of this score could be measured to give it a number.';
  const share = Math.round(((score - 1) / 9) * 100);
  return `${score.toFixed(2)} of 10 means you reach about ${share}% of the best value on what we measured (1 = none of it, 10 = all of it).`;
}

/** The legend's sentence under "How to read the scores": the overall's meaning, or the scale's
 *  in general when there is no overall (never an example number standing in for it). */
export const legendText = (overall: number | null) =>
  `Every score runs from 1 to 10. ${overall === null ? 'A score says how much of the best value a business reaches on what we measured (1 = none of it, 10 = all of it).' : scaleMeaning(overall)}`;

/** What each score is, why an owner should care, and how it is made, for its section of the report. */
export const SCORE_ABOUT: Record<ScoreKey, { means: string; matters: string }> = {
  reviews: {
    means: 'How customers rate you and how steadily new reviews arrive: your star rating, how many reviews you have, how recent they are and what they say.',
    matters: 'Most people read reviews before choosing a local business, and search engines rank businesses with more, fresher and better reviews higher in local results.',
  },
  digitalPresence: {
    means: 'How complete your listing is and how well your website works: whether it answers, is secure, reads well on a phone and tells search engines who and where you are.',
    matters: 'A customer who cannot find your hours, phone or a working website on a phone calls the next business in the list.',
  },
  engagement: {
    means: 'How easy you make it for a customer to reach you and how you answer them: contact paths, booking, social profiles and replies to reviews where the source shows them.',
    matters: 'Every extra step between finding you and contacting you loses customers; visible replies to reviews show you listen.',
  },
  marketShare: {
    means: 'How much of your local market\'s attention you hold: your share of all reviews among the businesses compared, and your standing against the market on volume and rating.',
    matters: 'Share of reviews follows share of customers; it shows whether you are gaining or losing ground to the businesses around you.',
  },
};
export const fmtDate = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric', timeZone: 'UTC' });

/** A data point's value as a table prints it; a share read from some texts only, with its base. */
export const fmtValue = (point: DataPoint): string => {
  const base = point.status === 'measured' ? shareBase(point) : null;
  return base ? `${rawValue(point)} ${base}` : rawValue(point);
};

/** Places in rank order (the business among them), as the competitor tables show them. */
export function ranked(data: ReportData) {
  return [data.business, ...data.competitors].sort((a, b) => a.rank - b.rank || orZero(b.scores.overall) - orZero(a.scores.overall));
}
const orZero = (n: number | null) => n ?? 0;

/** The recommendations that move a score: those it gains most on, and those citing one of its data
 *  points (a dead website's "Get your website back up" gains most on Engagement, and moves Digital
 *  Presence too). */
export function fixesFor(data: ReportData, key: ScoreKey): Recommendation[] {
  const ofScore = new Set(data.business.dataPoints.filter((p) => p.score === key).map((p) => p.key));
  return data.recommendations.filter((r) => r.score === key || r.evidence.some((k) => ofScore.has(k)));
}
/** "+2.10 points" on the score's own section; "+9.00 on Customer Engagement" when it gains most on another. */
export const gainText = (r: Recommendation, key: ScoreKey) => (r.score === key ? `+${r.gain.toFixed(2)} points` : `+${r.gain.toFixed(2)} on ${SCORE_LABELS[r.score]}`);

/** The source's name as the report writes it. */
export const sourceName = (data: ReportData) => (data.sampleData ? 'the sample data' : data.provider === 'google' ? 'Google Places' : 'Yelp');

const percent = (x: number) => `${Number((x * 100).toFixed(2))}%`;

/** How the overall is made, on page 1, the online page and the e-mail: its weights, and when a
 *  score could not be measured for most businesses, which scores it compares and their weights. */
export function overallWeightsText(data: ReportData): string {
  const basis = overallBasis([data.business, ...data.competitors].map((p) => p.scores));
  const full = SCORE_KEYS.map((k) => `${SCORE_LABELS[k]} ${percent(OVERALL_WEIGHTS[k])}`).join(', ');
  if (basis.length === 0) return `No overall score: too little could be measured for most businesses compared (it would weigh ${full}).`;
  if (basis.length === SCORE_KEYS.length) return `The overall score weighs ${full}.`;
  const total = basis.reduce((s, k) => s + OVERALL_WEIGHTS[k], 0);
  const left = SCORE_KEYS.filter((k) => !basis.includes(k));
  if (!hasMarket(data) && left.length === 1 && left[0] === 'marketShare') {
    return `The overall score weighs ${basis.map((k) => `${SCORE_LABELS[k]} ${percent(OVERALL_WEIGHTS[k] / total)}`).join(', ')}: with fewer than ${MIN_MARKET_COMPETITORS} competitors there is no Market Share score, so its ${percent(OVERALL_WEIGHTS.marketShare)} is shared among the other three in proportion to their weights (usually ${full}).`;
  }
  const why = data.provider === 'yelp' && left.every((k) => k === 'digitalPresence' || k === 'engagement') ? ' because Yelp does not give the businesses\' websites' : '';
  return `The overall score compares ${basis.map((k) => `${SCORE_LABELS[k]} (${percent(OVERALL_WEIGHTS[k] / total)})`).join(' and ')} only: ${left.map((k) => SCORE_LABELS[k]).join(' and ')} could not be measured for most businesses${why}, so every business is compared without ${left.length === 1 ? 'it' : 'them'} (usually ${full}).`;
}

/** "X was not found on Google Places…" when the provider does not list the business, else null. */
export function notFoundText(data: ReportData): string | null {
  const found = data.business.dataPoints.find((p) => p.key === 'listing.found');
  if (found?.status !== 'measured' || found.value !== false) return null;
  return `${data.business.place.name} was not found on ${sourceName(data)}: customers searching there do not find it, and its rating, reviews and share of the market could not be measured. Create or claim the listing first.`;
}

/** The business against its market on one score: the median of every place with a score, the
 *  leader, and the business's position among the places with a score. */
export function marketOn(data: ReportData, key: ScoreKey | 'overall') {
  const all = [data.business, ...data.competitors];
  const scored = all.map((p) => ({ p, s: p.scores[key] as number | null })).filter((x): x is { p: AnalysedPlace; s: number } => x.s !== null);
  const sorted = scored.map((x) => x.s).sort((a, b) => a - b);
  const mid = sorted.length / 2;
  // A median of one value is that value: no market median unless at least two places have a number.
  const median = sorted.length < 2 ? null : sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
  const leader = scored.reduce<{ p: AnalysedPlace; s: number } | null>((best, x) => (!best || x.s > best.s ? x : best), null);
  const you = data.business.scores[key] as number | null;
  // Without a market there is no position; with no competitor, no leader either (decision 0216).
  const position = you === null || !hasMarket(data) ? null : scored.filter((x) => x.s > you).length + 1;
  const lead = leader && data.competitors.length > 0 ? { name: leader.p.place.name, score: leader.s, isYou: leader.p.isMainBusiness } : null;
  return { you, median, leader: lead, position, scoredCount: scored.length };
}
/** The places the rank compares: the business and its competitors, less its brand's other
 *  locations unless they count (decision 0235). */
export const marketSize = (data: ReportData) => data.competitors.filter((c) => !outOfRank(c, data)).length + 1;
/** A competitor that is another location of the business's brand and is left out of the rank. */
const outOfRank = (p: AnalysedPlace, data?: ReportData) => Boolean(p.brand && data?.branches && !data.branches.counted);

/** The mark of a competitor that is another location of the business's brand. */
export const YOUR_BRAND = 'your brand';
/** A place's name as the competitor tables write it: "(you)" for the business, "(your brand)" for
 *  its other locations. */
export const rowName = (p: AnalysedPlace) => `${p.place.name}${p.isMainBusiness ? ' (you)' : p.brand ? ` (${YOUR_BRAND})` : ''}`;

/** The sentence every surface gives a report whose competitors include the brand's other
 *  locations: how many, that they stay listed, and whether the rank counts them. Null without. */
export function branchesText(data: ReportData): string | null {
  const b = data.branches;
  if (!b) return null;
  const n = data.competitors.length;
  const head = `${b.count} of the ${n} competitors ${b.count === 1 ? 'is another location' : 'are other locations'} of your brand, marked "${YOUR_BRAND}".`;
  if (b.counted) return `${head} ${b.why === 'chosen' ? 'They count in your rank, as chosen for this business.' : `They count in your rank: without them fewer than ${MIN_MARKET_COMPETITORS} independent competitors are left.`}`;
  const independents = n - b.count;
  return `${head} Your rank is among the ${independents} independent competitor${independents === 1 ? '' : 's'} first; ${b.count === 1 ? 'it is' : 'they are'} listed without a rank.`;
}

/** What a place without an overall score ("Not enough data") shows for its rank: ranks compare
 *  overall scores only, so it is listed after the ranked places, without a number. */
export const NOT_RANKED = 'Not ranked';
/** "#3", or null for a place without an overall score or in a report without a market. */
export const rankNo = (p: AnalysedPlace, data?: ReportData) => (p.scores.overall === null || (data && !hasMarket(data)) || outOfRank(p, data) ? null : `#${p.rank}`);
/** "#3 of 10", "Not ranked", or "No market" when there are too few competitors for a rank. */
export const rankOf = (p: AnalysedPlace, data: ReportData) => (!hasMarket(data) ? NO_MARKET : p.scores.overall === null ? NOT_RANKED : `#${p.rank} of ${marketSize(data)}`);
/** The business's rank for an API or a card: null without a market or an overall score. */
export const rankValue = (p: AnalysedPlace, data: ReportData) => (!hasMarket(data) || p.scores.overall === null || outOfRank(p, data) ? null : p.rank);

/** Where the served methodology page lives (generated from docs/methodology.md at build time). */
export const METHODOLOGY_PATH = '/methodology';

/** The one paragraph each score section prints under "How this score is computed". */
export const HOW_COMPUTED =
  'Each data point is turned into a value from 0 (worst) to 1 (best), its normalised value. The score is 1 plus 9 times the weighted average of those values, over the data points that could be measured; a point the source could not give is left out rather than counted as worst, and the coverage says how much of the weight was measured. Each point\'s contribution is the part of the score it adds above 1, so the contributions add up to the score minus 1.';

export const METHODOLOGY_SUMMARY = [
  'We find your business and its top competitors within the search radius, by prominence, and read their listings, reviews and websites.',
  'Each of the four scores is a weighted blend of its data points, scaled 1-10 with two decimals; the overall score blends the four. A score with too little measured data reads "Not enough data" instead of a number.',
  'Market share is a 1-10 score; your share of all reviews in the local market is shown beside it as a percent. Rank is the number of places scoring higher overall, plus one.',
  'Recommendations are the changes that would raise a score the most, ordered by the points they would gain. Each score\'s section lists every data point with its source, raw value, normalised value, weight and contribution.',
];
