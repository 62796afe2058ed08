// The dashboard answer turned into what the screen shows: numbers (scores may arrive as strings),
// ranks by the spec's rule, deltas and trends from the business's own snapshots, the market
// average for the radar. Pure functions, unit-tested.
import { SITE_STATE_LABELS } from '../../../api/report/words/website-state.ts';
import type { SiteReadState } from '../../../api/report/model/types.ts';
import { DASHBOARD_COMPETITOR_LIMIT, DASHBOARD_DETAIL_LIMIT, isMarket, marketRank, NOT_ENOUGH_DATA, SCORE_KEYS, type ScoreKey } from '../../../common/constants.ts';

import type { VisibilitySummary } from '../../../api/report/words/visibility.ts';
import type { DashboardProfile } from '../../../common/google-profile.ts';

type Num = number | string | null | undefined;

export interface MetricRow {
  id?: string;
  competitorId?: string | null;
  isMainBusiness?: boolean | number | string;
  reviewScore?: Num;
  digitalPresenceScore?: Num;
  engagementScore?: Num;
  marketShareScore?: Num;
  marketSharePercent?: Num;
  overallScore?: Num;
  /** Share of Local Voice (percent) of the run; null when the grid was not measured. */
  localVoiceShare?: Num;
  reportedAt?: Num;
  /** Another location of the business's brand: what told it ('website', 'phone', 'name'). */
  yourBrand?: string | null;
}

export interface CompetitorRow {
  id: string;
  name: string;
  address?: string | null;
  phone?: string | null;
  website?: string | null;
  rating?: Num;
  reviewCount?: Num;
  distanceFromBusiness?: Num;
  /** Another location of the business's brand: what told it ('website', 'phone', 'name'). */
  yourBrand?: string | null;
}

export interface DashboardResponse {
  access?: { trends?: boolean; earlyWarning?: boolean };
  /** Days between the scheduled re-analyses (the REANALYSIS_INTERVAL_DAYS setting). */
  reanalysisDays?: Num;
  business: { id: string; company: string; city: string; state: string; website?: string | null; category?: string | null; sampleData?: boolean; visibilityKeywords?: string[]; rankWithBranches?: boolean };
  competitors: CompetitorRow[];
  metrics: MetricRow[];
  history?: MetricRow[];
  /** The business's own listing figures from its latest analysis, for its row in the table;
   *  null where they were not measured. siteReachable: whether its website answered; siteState:
   *  how it was met (decision 0217). */
  self?: { rating?: Num; reviewCount?: Num; siteReachable?: boolean | number | null; siteState?: string | null } | null;
  /** The latest analysis's local visibility grid; null before one was scanned. */
  visibility?: VisibilitySummary | null;
  /** The Google Business Profile (Early Warning plans); null or absent on other plans. */
  googleProfile?: DashboardProfile | null;
}

export { SCORE_KEYS };
export const SCORE_FIELD = {
  reviews: 'reviewScore',
  digitalPresence: 'digitalPresenceScore',
  engagement: 'engagementScore',
  marketShare: 'marketShareScore',
} as const satisfies Record<ScoreKey, keyof MetricRow>;

/** A number from a number or a numeric string; null when there is none. */
export function num(value: Num): number | null {
  if (value === null || value === undefined || value === '') return null;
  const n = typeof value === 'number' ? value : Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Milliseconds since the epoch from a number, a numeric string or an ISO date. */
export function timeOf(value: Num): number | null {
  if (typeof value === 'string' && !/^\d+(\.\d+)?$/.test(value)) {
    const t = Date.parse(value);
    return Number.isNaN(t) ? null : t;
  }
  return num(value);
}

const isMain = (m: MetricRow) => m.isMainBusiness === true || m.isMainBusiness === 1 || m.isMainBusiness === 'true' || m.isMainBusiness === '1';

/** 1-10 each; null = "Not enough data" (stored as NULL by the analysis). */
export interface Scores {
  overall: number | null;
  reviews: number | null;
  digitalPresence: number | null;
  engagement: number | null;
  marketShare: number | null;
  /** The share of local reviews, a percent (not a score). */
  marketSharePercent: number | null;
}

export function scoresOf(m: MetricRow): Scores {
  return {
    overall: num(m.overallScore),
    reviews: num(m.reviewScore),
    digitalPresence: num(m.digitalPresenceScore),
    engagement: num(m.engagementScore),
    marketShare: num(m.marketShareScore),
    marketSharePercent: num(m.marketSharePercent),
  };
}

export interface MetricCard {
  key: ScoreKey;
  /** null = "Not enough data". */
  score: number | null;
  rank: number | null;
  /** Change since the previous snapshot; null without one. */
  delta: number | null;
  /** Market share only: the share of local reviews, a percent. */
  percent: number | null;
}

export interface TrendPoint extends Scores {
  at: number;
}

export interface CompetitorView extends CompetitorRow {
  rating: number | null;
  reviewCount: number | null;
  distance: number | null;
  scores: Scores | null;
  rank: number | null;
  /** The business itself, highlighted in the table (its website column says whether it answered). */
  isYou?: boolean;
  siteReachable?: boolean | null;
  /** The business itself: how its website was met, where the snapshot kept it (decision 0217).
   *  Competitors' websites show only Available or N/A (spec section 2). */
  siteState?: SiteReadState | null;
  /** The business itself: its rating and count come from the connected Google Business Profile. */
  fromProfile?: boolean;
}

/** A website state the dashboard can name, or null (older snapshots, no website). */
export const siteStateOf = (value: unknown): SiteReadState | null => (typeof value === 'string' && Object.hasOwn(SITE_STATE_LABELS, value) ? (value as SiteReadState) : null);

export interface DashboardView {
  business: DashboardResponse['business'];
  /** False while the first analysis is still running: no metrics of the business yet. */
  analysed: boolean;
  scores: Scores;
  /** null when the business has no overall score ("Not enough data"). */
  overallRank: number | null;
  total: number;
  /** Competitors in the latest run: a rank and a share need a market (decision 0216). */
  hasMarket: boolean;
  /** Other locations of the business's brand among them, and whether the rank counts them
   *  (decision 0235); null without any. */
  branches: Branches | null;
  overallDelta: number | null;
  /** The snapshot the deltas compare with. */
  previousAt: number | null;
  latestAt: number | null;
  cards: MetricCard[];
  /** Average of the competitors' scores in the latest run; null without competitors. */
  marketAverage: Record<ScoreKey, number | null> | null;
  trend: TrendPoint[];
  /** The latest grid and the Share of Local Voice at each analysis of the trend window. */
  visibility: VisibilitySummary | null;
  solvTrend: Array<{ at: number; solv: number }>;
  competitors: CompetitorView[];
  /** The business and its competitors by rank (no overall last), so the ranks never skip a number. */
  table: CompetitorView[];
  details: CompetitorView[];
  trendsIncluded: boolean;
  earlyWarning: boolean;
  /** Days between the scheduled re-analyses; 7 when the server does not say. */
  reanalysisDays: number;
  /** The Google Business Profile block; null on plans without Early Warning. */
  profile: DashboardProfile | null;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

export interface Branches {
  count: number;
  counted: boolean;
  /** chosen: the owner's setting; too_few: without them fewer than a market's competitors are left. */
  why: 'default' | 'chosen' | 'too_few';
}

/** Whether the rank counts the brand's other locations: the owner's choice, else not unless
 *  fewer than a market's competitors would be left (the report's rule, api/report/analyse.ts). */
export function branchesOf(competitorCount: number, brandCount: number, chosen: boolean): Branches | null {
  if (brandCount === 0) return null;
  if (chosen) return { count: brandCount, counted: true, why: 'chosen' };
  if (isMarket(competitorCount) && !isMarket(competitorCount - brandCount)) return { count: brandCount, counted: true, why: 'too_few' };
  return { count: brandCount, counted: false, why: 'default' };
}

export function buildDashboard(res: DashboardResponse): DashboardView {
  const metrics = Array.isArray(res.metrics) ? res.metrics : [];
  const main = metrics.find(isMain);
  const scores = main ? scoresOf(main) : scoresOf({});
  const trend = (Array.isArray(res.history) ? res.history : [])
    .map((h) => ({ at: timeOf(h.reportedAt), ...scoresOf(h) }))
    .filter((p): p is TrendPoint => p.at !== null)
    .sort((a, b) => a.at - b.at);
  const latest = trend.at(-1);
  const previous = trend.length >= 2 ? trend.at(-2)! : null;
  const delta = (key: keyof Scores) => {
    const now = latest?.[key];
    const before = previous?.[key];
    return typeof now === 'number' && typeof before === 'number' ? round2(now - before) : null;
  };

  const others = metrics.filter((m) => !isMain(m)).map(scoresOf);
  const marketAverage = others.length
    ? (Object.fromEntries(SCORE_KEYS.map((k) => {
        const known = others.map((s) => s[k]).filter((v): v is number => v !== null);
        return [k, known.length ? round2(known.reduce((sum, v) => sum + v, 0) / known.length) : null];
      })) as Record<ScoreKey, number | null>)
    : null;

  const byCompetitor = new Map(metrics.filter((m) => m.competitorId).map((m) => [m.competitorId!, scoresOf(m)]));
  // No rank without a market: fewer than MIN_MARKET_COMPETITORS competitors in the latest run.
  const market = isMarket(Math.max(0, metrics.length - 1));
  const brandIds = new Set(metrics.filter((m) => m.competitorId && m.yourBrand).map((m) => m.competitorId!));
  const branches = branchesOf(Math.max(0, metrics.length - 1), brandIds.size, res.business.rankWithBranches === true);
  // The rows the ranks compare: the brand's other locations only where they count.
  const ranked = metrics.filter((m) => !(m.competitorId && brandIds.has(m.competitorId) && branches && !branches.counted)).map(scoresOf);
  const overallAll = ranked.map((s) => s.overall).filter((v): v is number => v !== null);
  const marketRankOf = (v: number, among: number[]) => (market ? marketRank(v, among) : null);
  const competitors = (Array.isArray(res.competitors) ? res.competitors : []).slice(0, DASHBOARD_COMPETITOR_LIMIT).map((c): CompetitorView => {
    const s = byCompetitor.get(c.id) ?? null;
    return {
      ...c,
      rating: num(c.rating),
      reviewCount: num(c.reviewCount),
      distance: num(c.distanceFromBusiness),
      scores: s,
      yourBrand: brandIds.has(c.id) ? (c.yourBrand ?? 'name') : null,
      rank: s && s.overall !== null && !(brandIds.has(c.id) && !branches?.counted) ? marketRankOf(s.overall, overallAll) : null,
    };
  });

  const overallRank = scores.overall === null ? null : marketRankOf(scores.overall, overallAll);
  const self = res.self ?? null;
  const reachable = self?.siteReachable;
  // A connected profile's figures are every review's; without one, the latest analysis's listing.
  const fromProfile = res.googleProfile?.reviews ?? null;
  const you: CompetitorView = {
    id: res.business.id,
    name: res.business.company,
    address: [res.business.city, res.business.state].filter(Boolean).join(', '),
    website: res.business.website ?? null,
    rating: fromProfile ? fromProfile.average : num(self?.rating),
    reviewCount: fromProfile ? fromProfile.count : num(self?.reviewCount),
    ...(fromProfile ? { fromProfile: true } : {}),
    distance: null,
    scores,
    rank: overallRank,
    isYou: true,
    siteReachable: reachable === null || reachable === undefined ? null : reachable === true || reachable === 1,
    siteState: siteStateOf(self?.siteState),
  };
  // A brand location left out of the rank sits where its overall places it, without a number.
  const order = (c: CompetitorView) => c.rank ?? (c.scores?.overall != null ? marketRank(c.scores.overall, overallAll) - 0.5 : Infinity);
  const byRank = (a: CompetitorView, b: CompetitorView) => order(a) - order(b) || Number(Boolean(b.isYou)) - Number(Boolean(a.isYou));

  return {
    business: res.business,
    analysed: Boolean(main),
    scores,
    overallRank,
    total: Math.max(1, ranked.length),
    hasMarket: market,
    branches,
    overallDelta: delta('overall'),
    previousAt: previous?.at ?? null,
    latestAt: latest?.at ?? timeOf(main?.reportedAt),
    cards: SCORE_KEYS.map((key) => ({
      key,
      score: scores[key],
      rank: scores[key] === null ? null : marketRankOf(scores[key]!, ranked.map((s) => s[key]).filter((v): v is number => v !== null)),
      delta: delta(key),
      percent: key === 'marketShare' ? scores.marketSharePercent : null,
    })),
    marketAverage,
    trend,
    visibility: res.visibility ?? null,
    solvTrend: (Array.isArray(res.history) ? res.history : [])
      .map((h) => ({ at: timeOf(h.reportedAt), solv: num(h.localVoiceShare) }))
      .filter((p): p is { at: number; solv: number } => p.at !== null && p.solv !== null)
      .sort((a, b) => a.at - b.at),
    competitors,
    table: main ? [you, ...competitors].sort(byRank) : competitors,
    details: competitors.filter((c) => c.scores).slice(0, DASHBOARD_DETAIL_LIMIT),
    trendsIncluded: res.access?.trends !== false,
    earlyWarning: res.access?.earlyWarning === true,
    reanalysisDays: Math.max(1, Math.round(num(res.reanalysisDays) ?? 7)),
    profile: res.googleProfile ?? null,
  };
}

/** How often a business is re-analysed, in words: 'every day', 'every week', 'every 2 weeks', 'every 10 days'. */
export function everyInterval(days: number): string {
  if (days === 1) return 'every day';
  if (days === 7) return 'every week';
  if (days % 7 === 0) return `every ${days / 7} weeks`;
  return `every ${days} days`;
}

export type DashboardError = 'login' | 'no-business' | 'not-found';

/** Spec section 8: the message decides the error state. */
export function errorStateOf(message: string): DashboardError {
  if (message.includes('Not authenticated') || message.includes('401')) return 'login';
  if (message.includes('No business found') || message.includes('404')) return 'no-business';
  return 'not-found';
}

export const fmtScore = (n: number | null) => (n === null ? NOT_ENOUGH_DATA : n.toFixed(2));
export const fmtDelta = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n).toFixed(2)}`;
export const fmtDay = (t: number) => new Date(t).toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
export const fmtDate = (t: number) => new Date(t).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });
