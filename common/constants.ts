// Business constants of the spec (section 9), shared by the site and the API. One place each.

export const COMPETITOR_COUNT = 9;
export const SEARCH_RADIUS_MILES = 20;
export const SCORE_MIN = 1;
export const SCORE_MAX = 10;
export const MIN_DATA_POINTS = 90;
/** A score is a number only when at least this share of the weight that applies to it was
 *  measured; below it the score reads "Not enough data" (decision 0080). */
export const COVERAGE_FLOOR = 0.5;
export const NOT_ENOUGH_DATA = 'Not enough data';
/** The fewest competitors within the radius a rank, a share of the market and the Market Share
 *  score need (decision 0216): with fewer, the report compares the business with each competitor it
 *  found but gives no rank, no share and no Market Share score. */
export const MIN_MARKET_COMPETITORS = 3;
/** Whether a report with this many competitors has a market to rank the business in and share. */
export const isMarket = (competitors: number) => competitors >= MIN_MARKET_COMPETITORS;
/** What a rank, a share or the Market Share score reads without a market. */
export const NO_MARKET = 'No market';

/** What every surface showing sample data says, in an owner's words (label and one sentence). */
export const SAMPLE_DATA_LABEL = 'Example figures, not your real listings';
export const SAMPLE_DATA_NOTE = 'These are example figures made up to show how LocalRank works, not your real listings, reviews or competitors.';
/** A business of the sample provider (its place ids start `sample-`): its reviews and figures are made up. */
export const isSamplePlace = (placeId: unknown) => typeof placeId === 'string' && placeId.startsWith('sample-');

export const DASHBOARD_COMPETITOR_LIMIT = 10;
export const DASHBOARD_DETAIL_LIMIT = 5;
export const EARLY_WARNING_ALERT_LIMIT = 10;

export const ALERT_THRESHOLD = { min: 1.0, max: 5.0, step: 0.1, default: 3.0 } as const;

export const MIN_PASSWORD_LENGTH = 8;
/** The longest e-mail address (RFC 5321): every form bounds its address by it. */
export const EMAIL_MAX_LENGTH = 254;
export const MIN_AGE = 18;

export const SESSION_CACHE_MS = 5 * 60 * 1000;
export const HERO_ROTATION_MS = 8000;
export const REPORT_DELIVERY_TEXT = '15-30 minutes';

export const TOAST = {
  limit: 1,
  removeDelayMs: 1_000_000,
  durationMs: 5000,
  swipeDirection: 'right',
  swipeThresholdPx: 50,
  hotkey: 'F8',
} as const;
export const TOOLTIP = { delayMs: 700, skipDelayMs: 300 } as const;

export const TIERS = ['free', 'pro', 'enterprise', 'agency'] as const;
export type Tier = (typeof TIERS)[number];
export const PAID_PLANS = ['pro', 'enterprise', 'agency'] as const;
export type PaidPlan = (typeof PAID_PLANS)[number];
export const SUBSCRIPTION_STATUSES = ['active', 'trialing', 'past_due', 'canceled', 'suspended'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** Statuses whose paid tier counts: past_due only exists during the billing grace period (decision 0095). */
export const inGoodStanding = (status: string) => status === 'active' || status === 'past_due';

export const ACCOUNT_ROLES = ['consultant', 'client'] as const;
export type AccountRole = (typeof ACCOUNT_ROLES)[number];

/** Prices in US dollars per month; yearly is the per-month price when billed annually. */
export const PRICES = {
  free: { monthly: 0, yearly: 0 },
  pro: { monthly: 49, yearly: 39 },
  enterprise: { monthly: 109, yearly: 87 },
  agency: null,
} as const;
export const ANNUAL_SAVINGS_PERCENT = 20;

export const BRAND_COLOURS = { primary: '#3B82F6', secondary: '#1F2937', accent: '#059669' } as const;

/** Score badge bands: 8.5 or more, 7.5 or more, 7 or more, otherwise the lowest band. */
export const SCORE_BANDS = [
  { min: 8.5, band: 'excellent' },
  { min: 7.5, band: 'good' },
  { min: 7, band: 'fair' },
  { min: -Infinity, band: 'poor' },
] as const;
export type ScoreBand = (typeof SCORE_BANDS)[number]['band'];
export const BAND_LABELS: Record<ScoreBand, string> = { excellent: 'Excellent', good: 'Good', fair: 'Fair', poor: 'Needs work' };

/** The four scores, in the order every surface lists them, with the names they go by. */
export const SCORE_LABELS = {
  reviews: 'Online Reviews',
  digitalPresence: 'Digital Presence',
  engagement: 'Customer Engagement',
  marketShare: 'Market Share',
} as const;
export type ScoreKey = keyof typeof SCORE_LABELS;
export const SCORE_KEYS = Object.keys(SCORE_LABELS) as ScoreKey[];

export function scoreBand(score: number | string | null | undefined): ScoreBand {
  const value = Number(score ?? 0);
  return SCORE_BANDS.find((b) => value >= b.min)!.band;
}

/** Progress bar width: score × 10 as a percent, capped 0-100. Market share is a percent already. */
export function progressPercent(score: number | string | null | undefined, kind: 'score' | 'percent' = 'score'): number {
  const value = Number(score ?? 0);
  if (!Number.isFinite(value)) return 0;
  return Math.min(100, Math.max(0, kind === 'score' ? value * 10 : value));
}

export type RatingColour = 'green' | 'yellow' | 'red';
export function ratingColour(rating: number | string | null | undefined): RatingColour {
  const value = Number(rating ?? 0);
  if (value >= 4) return 'green';
  if (value >= 3) return 'yellow';
  return 'red';
}

/** Market rank: the number of rows scoring higher, plus one (minimum 1). */
export function marketRank(score: number | string, all: Array<number | string>): number {
  const own = Number(score);
  return all.filter((s) => Number(s) > own).length + 1;
}

/** An alert is low when the rating is at or below the threshold. */
export const isLowRating = (rating: number, threshold: number) => rating <= threshold;

/** Decimal precisions of spec section 3, applied where numbers enter or leave the database. */
export const PRECISION = { score: 2, reviewRating: 1, rating: 2, latitude: 8, longitude: 8, distance: 2 } as const;
export function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round((value + Number.EPSILON) * factor) / factor;
}

export const OPERATOR = {
  name: 'Lone Star Management Solutions',
  legalName: 'Lone Star Management Solutions LLC',
  postalAddress: '600 Congress Avenue, Suite 1400, Austin, TX 78701',
  supportEmail: 'support@localrank.app',
  salesEmail: 'sales@localrank.app',
  privacyEmail: 'privacy@localrank.app',
  hours: 'Mon-Fri 9am-6pm EST',
  replyTime: '24-48 hours',
} as const;
export const PRODUCT_NAME = 'LocalRank';
export const LEGAL_LAST_UPDATED = 'October 1, 2025';

/** Support answers within these hours, by plan (spec section 9; Agency has Enterprise's features). */
export const SUPPORT_RESPONSE_HOURS = { free: 48, pro: 48, enterprise: 24, agency: 24 } as const;

/** Default of FREE_REPORT_RETENTION_MONTHS, the figure the privacy policy quotes. */
export const FREE_REPORT_RETENTION_DEFAULT_MONTHS = 12;

/** The policy constants of spec section 9 that the terms, privacy policy, FAQ and help quote. */
export const POLICY = {
  moneyBackDays: 30,
  refundProcessing: '5-10 business days',
  priceChangeNoticeDays: 30,
  dataExportDaysAfterTermination: 30,
  liabilityCapMonths: 12,
  governingLaw: 'Texas',
  arbitrationCity: 'Austin, Texas',
} as const;

/** Billing intervals a paid plan can be bought on (the pricing toggle's monthly/annual). */
export const BILLING_INTERVALS = ['monthly', 'annual'] as const;
export type BillingInterval = (typeof BILLING_INTERVALS)[number];
/** The plans sold online; Agency is priced by sales. */
export const SELF_SERVE_PLANS = ['pro', 'enterprise'] as const;
export type SelfServePlan = (typeof SELF_SERVE_PLANS)[number];

/** What one billing period costs, in US dollars: annual is the per-month price × 12. */
export function periodPrice(plan: SelfServePlan, interval: BillingInterval): number {
  return interval === 'monthly' ? PRICES[plan].monthly : PRICES[plan].yearly * 12;
}

/** The Stripe Price lookup key of a plan and interval (`npm run admin -- billing-setup` creates them). */
export const priceLookupKey = (plan: SelfServePlan, interval: BillingInterval) => `localrank_${plan}_${interval}`;

export function planFromLookupKey(key: string | null | undefined): { plan: SelfServePlan; interval: BillingInterval } | null {
  const match = /^localrank_([a-z]+)_([a-z]+)$/.exec(key ?? '');
  if (!match) return null;
  const [, plan, interval] = match;
  if (!(SELF_SERVE_PLANS as readonly string[]).includes(plan!) || !(BILLING_INTERVALS as readonly string[]).includes(interval!)) return null;
  return { plan: plan as SelfServePlan, interval: interval as BillingInterval };
}

/** Whole US dollars with thousands separators: $49, $1,044. */
/** A US phone number's ten digits, whatever the punctuation and the leading country code 1. */
export const digitsOnly = (s: string) => s.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');

export const formatUsd = (dollars: number) => `$${dollars.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;
