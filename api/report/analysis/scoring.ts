// Scores, rank and recommendations: pure functions of the data points (deterministic).
// A score is 1 + 9 × (weighted mean of the normalised values of its MEASURED data points). Points
// that do not apply leave the score's weight; unknown points stay in it but are not measured, so
// they lower the coverage (measured weight ÷ weight that applies) without counting as a best or a
// worst value. Below COVERAGE_FLOOR the score is null: "Not enough data". Decision 0080.
import { COVERAGE_FLOOR, round, SCORE_KEYS, SCORE_MAX, SCORE_MIN } from '../../../common/constants.ts';
import type { AbsentBecause, DataPoint, Recommendation, ScoreBreakdown, ScoreKey, ScorePart, Scores } from '../model/types.ts';
import { dataPointDef, normalise } from './data-points.ts';
import { isSampleSiteUrl } from './sample-sites.ts';
import { languageName } from './language.ts';

/** How a sample business's homepage address reads: what it is, not the long address on the server
 *  that makes it up (which, in a white-label report, would be ours). */
const SAMPLE_HOMEPAGE = 'Example homepage (sample data)';

export { SCORE_KEYS };
/** Weights of the four scores in the overall. */
export const OVERALL_WEIGHTS: Record<ScoreKey, number> = { reviews: 0.3, digitalPresence: 0.25, engagement: 0.2, marketShare: 0.25 };

const clampScore = (x: number) => Math.min(SCORE_MAX, Math.max(SCORE_MIN, round(x, 2)));
const SPAN = SCORE_MAX - SCORE_MIN;

/** The value as the report writes it, with its unit; 'Unknown' / 'Not applicable' when not
 *  measured ('Not seen' for a part of a website that could not be seen), 'None' for a measured
 *  absence (no website, a site that did not answer). */
export function rawValue(point: DataPoint): string {
  if (point.status === 'unknown') return point.unseen ? 'Not seen' : 'Unknown';
  if (point.status === 'not_applicable') return 'Not applicable';
  if (point.value === null) return 'None';
  if (typeof point.value === 'boolean') return point.value ? 'Yes' : 'No';
  if (typeof point.value === 'string' && point.unit === 'URL' && isSampleSiteUrl(point.value)) return SAMPLE_HOMEPAGE;
  if (typeof point.value === 'string') return point.unit && point.unit !== 'text' && point.unit !== 'URL' ? `${point.value} ${point.unit}` : point.value;
  const n = Number.isInteger(point.value) ? String(point.value) : point.value.toFixed(2);
  const shown = point.unit === 'yes/no' || !point.unit ? n : withUnit(n, point.unit);
  return point.atLeast ? `at least ${shown}` : shown;
}

/** The most one review among `n` excerpts can move each excerpt-based point's normalised value:
 *  a share moves by 100/n percent (over its ramp's span); the sentiment average and the recurring
 *  themes can turn over entirely. */
const EXCERPT_SWING: Record<string, (n: number, span: number) => number> = {
  'reviews.share_5_star': (n, span) => Math.min(1, 100 / n / span),
  'reviews.share_1_star': (n, span) => Math.min(1, 100 / n / span),
  'reviews.positive_share': (n, span) => Math.min(1, 100 / n / span),
  'reviews.negative_share': (n, span) => Math.min(1, 100 / n / span),
  'reviews.sentiment_average': () => 1,
  'reviews.negative_themes': () => 1,
};
/** The most one review excerpt may move Online Reviews. */
export const EXCERPT_MAX_SWING = 0.25;

/** The factor (0-1) on the weights of the points read from review excerpts, so that changing any
 *  one excerpt moves the score by at most EXCERPT_MAX_SWING: with A the weights times each point's
 *  largest swing, E their weights and B the other weight that applies, 9·f·A / (B + f·E) ≤ 0.25
 *  (exact when the points that apply are measured). Every review read (the sample's), or no
 *  excerpts: 1. Decision 0151. */
export function excerptFactor(points: DataPoint[]): { factor: number; excerpts: number | null } {
  const n = points.find((p) => p.key === 'reviews.sampled');
  const complete = points.find((p) => p.key === 'reviews.sample_complete');
  if (n?.status !== 'measured' || typeof n.value !== 'number' || n.value <= 0 || complete?.value === true) return { factor: 1, excerpts: null };
  let a = 0;
  let e = 0;
  let b = 0;
  for (const point of points) {
    const def = dataPointDef(point.key);
    if (point.score !== 'reviews' || !def?.norm || def.weight <= 0) continue;
    const swing = EXCERPT_SWING[point.key];
    // The other weight that applies (measured or unknown, as coverage counts it); the excerpt
    // points whatever their status: no one point's status reweighs the others.
    if (!swing) {
      if (point.status !== 'not_applicable') b += def.weight;
      continue;
    }
    const span = def.norm.kind === 'ramp' || def.norm.kind === 'inverse' ? def.norm.hi - def.norm.lo : 1;
    a += def.weight * swing(n.value, span);
    e += def.weight;
  }
  const denominator = SPAN * a - EXCERPT_MAX_SWING * e;
  const factor = e === 0 || denominator <= 0 ? 1 : Math.min(1, (EXCERPT_MAX_SWING * b) / denominator);
  return { factor: Math.floor(factor * 100) / 100, excerpts: n.value };
}

const list = (items: string[]) => (items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`);

/** The stars of texts not measured: "1-star", "both 1-star", "all 5-star", "rated 1, 2 and 4 stars". */
function starsOf(ratings: number[]): string {
  const stars = ratings.map((r) => Math.min(5, Math.max(1, Math.round(r)))).sort((a, b) => a - b);
  if (stars.every((n) => n === stars[0])) return `${stars.length === 1 ? '' : stars.length === 2 ? 'both ' : 'all '}${stars[0]}-star`;
  return `rated ${list(stars.map(String))} stars`;
}

/** The base of a share read from some of the review texts only: "of the 3 reviews we could
 *  measure; 2 more in Polish and Japanese (both 1-star) not measured". Null when every text was
 *  measured (the share's base is then the reviews read). Every surface that shows such a share
 *  gives it this base (issue 46). */
export function shareBase(point: DataPoint): string | null {
  const m = point.measuredOf;
  if (!m || m.measured >= m.texts) return null;
  const left = m.texts - m.measured;
  const head = `of the ${m.measured} review${m.measured === 1 ? '' : 's'} we could measure`;
  const texts = m.notMeasured ?? [];
  if (texts.length !== left) return `${head}; ${left} more not measured`;
  const named = [...new Set(texts.filter((t) => t.language !== 'unknown').map((t) => languageName(t.language)))];
  const untold = texts.some((t) => t.language === 'unknown');
  const languages = named.length === 0 ? `in ${left === 1 ? 'a language' : 'languages'} we could not tell` : `in ${list([...named, ...(untold ? ['a language we could not tell'] : [])])}`;
  return `${head}; ${left} more ${languages} (${starsOf(texts.map((t) => t.rating))}) not measured`;
}

/** How one score was computed from the data points of one place. */
export function breakdownOf(points: DataPoint[], key: ScoreKey): ScoreBreakdown {
  const rows: Array<{ point: DataPoint; weight: number; normalised: number | null; source: ScorePart['source']; note?: string }> = [];
  const excerpts = key === 'reviews' ? excerptFactor(points) : { factor: 1, excerpts: null };
  for (const point of points) {
    if (point.score !== key) continue;
    const def = dataPointDef(point.key);
    if (!def?.norm || def.weight <= 0) continue;
    const fromExcerpts = excerpts.excerpts !== null && point.key in EXCERPT_SWING;
    // Floored to hundredths, and never 0: a point read from excerpts still counts a little.
    const weight = fromExcerpts ? Math.max(0.01, round(def.weight * excerpts.factor, 2)) : def.weight;
    // A share read from some of the texts says so, rather than the number of reviews read.
    const note = shareBase(point) ?? (fromExcerpts ? `from ${excerpts.excerpts} review${excerpts.excerpts === 1 ? '' : 's'} read` : undefined);
    rows.push({ point, weight, source: def.source, normalised: point.status === 'measured' ? round(normalise(def.norm, point.value), 4) : null, ...(note ? { note } : {}) });
  }
  const totalWeight = rows.filter((r) => r.point.status !== 'not_applicable').reduce((s, r) => s + r.weight, 0);
  const measuredWeight = rows.filter((r) => r.normalised !== null).reduce((s, r) => s + r.weight, 0);
  const coverage = totalWeight > 0 ? round(measuredWeight / totalWeight, 4) : 0;
  const enough = measuredWeight > 0 && coverage >= COVERAGE_FLOOR;
  const mean = measuredWeight > 0 ? rows.reduce((s, r) => s + (r.normalised === null ? 0 : r.weight * r.normalised), 0) / measuredWeight : 0;
  const parts: ScorePart[] = rows.map((r) => ({
    key: r.point.key,
    label: r.point.label,
    source: r.source,
    raw: rawValue(r.point),
    normalised: r.normalised,
    weight: r.weight,
    contribution: r.normalised === null || !enough ? null : round((SPAN * r.weight * r.normalised) / measuredWeight, 2),
    status: r.point.status,
    ...(r.note ? { note: r.note } : {}),
  }));
  return { score: enough ? clampScore(SCORE_MIN + SPAN * mean) : null, measuredWeight: round(measuredWeight, 2), totalWeight: round(totalWeight, 2), coverage, parts };
}

/** One score; null when not enough of its weight was measured. */
export function scoreOf(points: DataPoint[], key: ScoreKey): number | null {
  return breakdownOf(points, key).score;
}

/** The weighted mean of the given scores over `basis`; null when any of them has no number. */
export function overallOf(scores: Record<ScoreKey, number | null>, basis: ScoreKey[] = SCORE_KEYS): number | null {
  if (basis.length === 0 || basis.some((k) => scores[k] === null)) return null;
  const weight = basis.reduce((s, k) => s + OVERALL_WEIGHTS[k], 0);
  return clampScore(basis.reduce((s, k) => s + OVERALL_WEIGHTS[k] * scores[k]!, 0) / weight);
}

/** The four scores of one place, their breakdowns and its overall on its own (the report's
 *  overall puts every place on one basis: see `overallBasis`). */
export function scorePlace(points: DataPoint[]): { scores: Scores; breakdown: Record<ScoreKey, ScoreBreakdown> } {
  const breakdown = {} as Record<ScoreKey, ScoreBreakdown>;
  const each = {} as Record<ScoreKey, number | null>;
  for (const key of SCORE_KEYS) {
    breakdown[key] = breakdownOf(points, key);
    each[key] = breakdown[key].score;
  }
  const own = SCORE_KEYS.filter((k) => each[k] !== null);
  const ownWeight = own.reduce((s, k) => s + OVERALL_WEIGHTS[k], 0);
  const overall = ownWeight >= COVERAGE_FLOOR ? overallOf(each, own) : null;
  const share = points.find((p) => p.key === 'market.review_share');
  const marketSharePercent = typeof share?.value === 'number' && share.status === 'measured' ? round(share.value, 2) : null;
  return { scores: { ...each, overall, marketSharePercent }, breakdown };
}

/** The scores every place is compared on: those with a number for more than half of the places
 *  (all of them for a market of one or two). Empty when they weigh less than COVERAGE_FLOOR of
 *  the overall: then no place has an overall. */
export function overallBasis(all: Array<Record<ScoreKey, number | null>>): ScoreKey[] {
  const basis = SCORE_KEYS.filter((k) => all.filter((s) => s[k] !== null).length * 2 > all.length || (all.length <= 2 && all.every((s) => s[k] !== null)));
  return basis.reduce((s, k) => s + OVERALL_WEIGHTS[k], 0) >= COVERAGE_FLOOR ? basis : [];
}

/** Rank of each row: rows with a higher overall, plus one (ties share a rank). Rows with no
 *  overall ("Not enough data") come after every row that has one, sharing the last rank. */
export function ranks(overalls: Array<number | null>): number[] {
  const numbers = overalls.filter((o): o is number => o !== null);
  return overalls.map((o) => (o === null ? numbers.length + 1 : numbers.filter((n) => n > o).length + 1));
}

/** `ranks` among the rows `counted` only (a brand's other locations left out, decision 0235):
 *  the counted rows with a higher overall, plus one. A row not counted gets the place it would
 *  take among them, so the tables list it in order, and shows no rank of its own. */
export function ranksAmong(overalls: Array<number | null>, counted: boolean[]): number[] {
  const numbers = overalls.filter((o, i): o is number => o !== null && counted[i] !== false);
  return overalls.map((o) => (o === null ? numbers.length + 1 : numbers.filter((n) => n > o).length + 1));
}

/** The value as the recommendation's evidence quotes it, written as the data-point tables write
 *  it: two decimals at most, a percent sign against the number ("36.67%", not "36.67 %"). */
export function formatValue(point: DataPoint): string {
  if (point.value === null) return 'none';
  if (typeof point.value === 'boolean') return point.value ? 'yes' : 'no';
  if (point.unit === 'yes/no' || point.unit === 'text') return String(point.value);
  if (point.atLeast) return `at least ${withUnit(typeof point.value === 'number' && !Number.isInteger(point.value) ? point.value.toFixed(2) : String(point.value), point.unit)}`;
  return withUnit(typeof point.value === 'number' && !Number.isInteger(point.value) ? point.value.toFixed(2) : String(point.value), point.unit);
}

/** A number as the report writes it with its unit: "36.67%", "#4" for a position, "12 reviews". */
export function withUnit(n: string, unit: string): string {
  if (unit === '%') return `${n}%`;
  if (unit === 'position') return `#${n}`;
  return `${n} ${unit}`;
}

/** What the recommendations may check their premises against: the competitors' data points and
 *  the source's name (for "not found on Google Places"). */
export interface RecommendContext {
  competitors?: DataPoint[][];
  sourceLabel?: string;
}

const valueOf = (points: DataPoint[] | Map<string, DataPoint>, key: string): number | boolean | string | null => {
  const p = points instanceof Map ? points.get(key) : points.find((x) => x.key === key);
  return p?.status === 'measured' && !p.absentBecause ? p.value : null;
};
const numberOf = (points: DataPoint[] | Map<string, DataPoint>, key: string) => {
  const v = valueOf(points, key);
  return typeof v === 'number' ? v : null;
};
const middle = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  return s.length === 0 ? null : s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

/** What each recommendation's words claim beyond "this point is below its best", checked against
 *  the report's own data: a recommendation whose claim is false is not made. (A yes/no point
 *  below its best is "no", which is what its advice says.) */
export const PREMISES: Record<string, (own: Map<string, DataPoint>, competitors: DataPoint[][]) => boolean> = {
  // "Competitors run ads with conversion tracking"
  'ads.pixel_count': (_, c) => c.some((p) => (numberOf(p, 'ads.pixel_count') ?? 0) > 0),
  // "competitors that do win the after-hours customers"
  'tech.booking': (_, c) => c.some((p) => valueOf(p, 'tech.booking') === true),
  // "Competitors hold more reviews than you"
  'market.review_position': (o) => (numberOf(o, 'market.review_position') ?? 1) > 1,
  // "Fewer reviews arrived this quarter than the one before"
  'reviews.velocity_trend': (o) => (numberOf(o, 'reviews.velocity_trend') ?? 0) < 0,
  // "The tone of your reviews is cooler than the market"
  'reviews.sentiment_average': (o, c) => {
    const market = middle(c.map((p) => numberOf(p, 'reviews.sentiment_average')).filter((n): n is number => n !== null));
    const own = numberOf(o, 'reviews.sentiment_average');
    return market !== null && own !== null && own < market;
  },
  // "Fewer than most of your reviews read as positive"
  'reviews.positive_share': (o) => (numberOf(o, 'reviews.positive_share') ?? 100) < 50,
  // "Your latest review is old"
  'reviews.days_since_latest': (o) => (numberOf(o, 'reviews.days_since_latest') ?? 0) > 30,
  // "The same complaint shows up again and again"
  'reviews.negative_themes': (o) => (numberOf(o, 'reviews.negative_themes') ?? 0) > 0,
  // "Read your one-star reviews"
  'reviews.share_1_star': (o) => (numberOf(o, 'reviews.share_1_star') ?? 0) > 0,
  // "Negative reviews stand out"
  'reviews.negative_share': (o) => (numberOf(o, 'reviews.negative_share') ?? 0) > 0,
};

/** What a figure read from some texts only was read from: " (of the 3 reviews we could measure;
 *  2 more in Polish and Japanese (both 1-star) not measured)". */
const basis = (p: DataPoint) => {
  const base = shareBase(p);
  return base ? ` (${base})` : '';
};

/** Points measured at their worst because of one fact are one action: the fact's. */
const ABSENT_LEVER: Record<AbsentBecause, string> = { site_down: 'site.reachable', no_site: 'site.create', not_listed: 'listing.claim', no_reviews: 'reviews.ask', not_own_site: 'site.own', not_published: 'site.publish', bad_certificate: 'site.certificate', certificate_name: 'site.certificate' };
/** Facts about the website a visitor meets first: their action is among the first three. */
const WEBSITE_FACT_LEVERS = ['site.reachable', 'site.create', 'site.own', 'site.publish', 'site.certificate'];
/** The advice of the action that fixes such a fact (its title and why). */
function absentAdvice(because: AbsentBecause, sourceLabel: string): [string, string] {
  if (because === 'site_down') return ['Get your website back up', 'When we visited, your website gave a visitor no site (no answer, or an error page). Check your hosting and domain: until it shows your homepage, every visitor leaves and every website point below counts as none.'];
  if (because === 'not_own_site') return ['Give your business a website of its own', 'The website you gave is a page on another platform (a social profile, a link-in-bio page or a marketplace): the platform decides what visitors see and search engines credit it, not you. A simple site of your own with your services, hours and phone number, linked from that page and your listing, is yours to keep; until then every website point below counts as none.'];
  if (because === 'not_published') return ['Finish and publish your website', 'Your address shows no website yet (a parked or for-sale domain, a placeholder page or a password prompt), so visitors who follow it leave. Publish your site there: until you do, every website point below counts as none.'];
  if (because === 'bad_certificate') return ['Renew your certificate', 'Visitors\' browsers warn that your site is not secure before they see it (its certificate is expired, self-signed or not trusted), and most turn back. Renew it, or turn on a free certificate with your host.'];
  if (because === 'certificate_name') return ['Fix your certificate\'s name', 'Visitors\' browsers warn that your site is not secure before they see it: its certificate is made for another address. Have your host issue one that names your domain (free with most hosts).'];
  if (because === 'no_site') return ['Put up a website', 'You have no website, so customers who want to read more before they call go elsewhere. A simple site with your services, hours and phone number wins them back.'];
  if (because === 'not_listed') return ['Create or claim your listing', `Your business was not found on ${sourceLabel || 'the listing source'}. Create its listing, or claim it if it is listed under another name, so customers searching nearby find you.`];
  return ['Get your first reviews', 'You have no reviews yet: customers choose between businesses by their reviews. Send a review link to your next customers.'];
}

/** The changes that would raise the business's scores most: one per lever (what the owner would
 *  do), each citing the lever's data points. A lever's gain is what it would add to the one score
 *  it moves most (1-10 scale) if its data points there reached their best values, so a gain never
 *  takes a score past 10; gains on different scores are not added up. Only measured points of
 *  scores that have a number take part, and only those whose advice's claim holds (PREMISES).
 *  Points measured at their worst because of one fact (a site that did not answer, no listing, no
 *  reviews) are that fact's action, with their summed gain: a business the source does not list is
 *  told to create or claim its listing first, and a dead site to get it back up in the first three. */
export function recommend(points: DataPoint[], count = 5, context: RecommendContext = {}): Recommendation[] {
  const byKey = new Map(points.map((p) => [p.key, p]));
  const competitors = context.competitors ?? [];
  const noSite = points.some((p) => p.absentBecause === 'no_site');
  const levers = new Map<string, { byScore: Map<ScoreKey, number>; parts: Array<{ key: string; gain: number; score: ScoreKey }>; because?: AbsentBecause }>();
  for (const score of SCORE_KEYS) {
    const b = breakdownOf(points, score);
    if (b.score === null) continue;
    for (const part of b.parts) {
      const def = dataPointDef(part.key)!;
      const point = byKey.get(part.key)!;
      if (part.normalised === null) continue;
      const because = point.absentBecause ?? (noSite && part.key === 'listing.has_website' ? 'no_site' : undefined);
      const lever = because ? ABSENT_LEVER[because] : def.lever;
      if (!lever || (!because && !def.advice)) continue;
      if (!because && PREMISES[part.key] && !PREMISES[part.key]!(byKey, competitors)) continue;
      const gain = (SPAN * part.weight * (1 - part.normalised)) / b.measuredWeight;
      if (gain < 0.005) continue;
      const entry = levers.get(lever) ?? { byScore: new Map<ScoreKey, number>(), parts: [] };
      entry.byScore.set(score, (entry.byScore.get(score) ?? 0) + gain);
      entry.parts.push({ key: part.key, gain, score });
      if (because) entry.because = because;
      levers.set(lever, entry);
    }
  }
  const out: Recommendation[] = [...levers.entries()].map(([lever, e]) => {
    const [score, gain] = [...e.byScore.entries()].sort((a, b) => b[1] - a[1] || SCORE_KEYS.indexOf(a[0]) - SCORE_KEYS.indexOf(b[0]))[0]!;
    // The facts first (the site did not answer, not found), then the rest by gain.
    const isFact = (key: string) => !byKey.get(key)!.absentBecause;
    e.parts.sort((a, b) => Number(isFact(b.key)) - Number(isFact(a.key)) || Number(b.score === score) - Number(a.score === score) || b.gain - a.gain || a.key.localeCompare(b.key));
    const advice = e.because ? absentAdvice(e.because, context.sourceLabel ?? '') : dataPointDef(e.parts[0]!.key)!.advice!;
    const evidence = [...new Set(e.parts.map((p) => p.key))];
    // A certificate's one point is the fact itself: quoted.
    const certificate = e.because === 'bad_certificate' || e.because === 'certificate_name';
    const quotedKeys = e.because ? evidence.filter((k) => isFact(k) || certificate).slice(0, 3) : evidence.slice(0, 3);
    const quoted = quotedKeys.map((k) => `${byKey.get(k)!.label}: ${formatValue(byKey.get(k)!)}${basis(byKey.get(k)!)}`).join('; ');
    const spread = e.because && evidence.length > quotedKeys.length ? `${evidence.length - quotedKeys.length} ${e.because === 'no_reviews' ? 'review' : e.because === 'not_listed' ? 'listing' : 'website'} data point${evidence.length - quotedKeys.length === 1 ? '' : 's'} at their worst because of it` : '';
    const cited = [quoted, spread].filter(Boolean).join('; ');
    return { lever, title: advice[0], detail: `${advice[1]} (${cited}.)`, score, gain: round(gain, 2), evidence };
  });
  out.sort((a, b) => b.gain - a.gain || a.lever.localeCompare(b.lever));
  // Not listed: nothing else matters until customers can find the business. A dead site: in the
  // first three whatever the other gains.
  const move = (lever: string, to: number) => {
    const i = out.findIndex((r) => r.lever === lever);
    if (i > to) out.splice(to, 0, ...out.splice(i, 1));
  };
  if (valueOf(byKey, 'listing.found') === false) move('listing.claim', 0);
  if (valueOf(byKey, 'site.reachable') === false) move('site.reachable', 2);
  for (const lever of WEBSITE_FACT_LEVERS.slice(1)) move(lever, 2);
  return out.slice(0, count);
}
