// THE registry of data points: every data point the analysis reports is defined here once, with
// its label, source, unit, the score it feeds, its weight and how it is normalised. The scores,
// the recommendations and docs/methodology.md (`npm run docs:methodology`) are all derived from it.
import { COMPETITOR_COUNT, digitsOnly, isMarket, MIN_MARKET_COMPETITORS, SEARCH_RADIUS_MILES } from '../../../common/constants.ts';
import type { AbsentBecause, DataPoint, ProviderName, ScoreKey } from '../model/types.ts';
import { LISTING_ATTRIBUTES, type Listing, type ListingAttribute, type ListingProfile } from './providers/types.ts';
import { languageName, MEASURED_LANGUAGES } from './language.ts';
import { containsPhrase, nameCoverage } from './matching.ts';
import type { ReviewAnalysis } from './reviews.ts';
import type { GridMetrics } from './visibility.ts';
import { SLOW_MS, type WebsiteAnalysis } from './website.ts';

export type Value = number | string | boolean | null;
/** Could not be measured for this place (a provider failure, a source that does not give it). */
export const UNKNOWN = Symbol('unknown');
/** Does not apply to this place (no low reviews to answer, no images to describe). */
export const NA = Symbol('not applicable');
/** The website is listed but did not answer, or there is none: a visitor gets none of it. A scored
 *  point counts this as measured at its worst; a descriptive point does not apply. */
export const ABSENT = Symbol('absent');
/** The source does not give it for this place (owner replies, counts of recent reviews from a
 *  few excerpts, Yelp's websites): unknown, and left out for every place when no place has it. */
export const NOT_GIVEN = Symbol('not given');
type Got = Value | typeof UNKNOWN | typeof NA | typeof ABSENT | typeof NOT_GIVEN | typeof BAD_CERT | PartialGot;

/** The provider does not list the business: its listing's points are measured as absent (what a
 *  customer searching finds), one fact behind them all. */
const LISTING_SCORED = (key: string) => key.startsWith('listing.') && key !== 'listing.found';
/** A listing with no reviews (a count of 0 the provider gives): zero is measured, the worst case,
 *  not missing data. The points that need at least one review are measured at their worst when
 *  they describe the business to a customer (rating, five-star share, latest review, rating
 *  against the market) and do not apply when they describe what reviews say. */
const NO_REVIEWS_WORST = new Set(['reviews.rating', 'reviews.share_5_star', 'reviews.days_since_latest']);
const NO_REVIEWS_NA = new Set(['reviews.share_1_star', 'reviews.sentiment_average', 'reviews.positive_share', 'reviews.negative_share', 'reviews.negative_themes', 'reviews.velocity_trend']);
const NOT_LISTED = Symbol('not listed');
const NO_REVIEWS = Symbol('no reviews');
const hasNoReviews = (s: Subject) => s.listingFound && s.listing.reviewCount === 0;
const ABSENT_WHY: Record<AbsentBecause, string> = {
  site_down: 'The website did not answer, so a visitor gets none of this.',
  no_site: 'There is no website, so a visitor finds none of this.',
  not_listed: 'The business is not listed on the source, so a customer searching there finds none of this.',
  no_reviews: 'The business has no reviews yet: counted at the worst value.',
  not_own_site: 'The website given is a page of another platform, not the business\'s own: nothing of that platform\'s page is credited to it.',
  not_published: 'The address shows no website yet (a parked domain, a placeholder or a password prompt), so a visitor gets none of this.',
  bad_certificate: 'A visitor\'s browser warns that the site is not secure: its certificate is expired, self-signed or not trusted.',
  certificate_name: 'A visitor\'s browser warns that the site is not secure: its certificate is made for another name.',
};
/** HTTPS a browser warns about: measured at its worst, because of the certificate. */
const BAD_CERT = Symbol('bad certificate');

export type Source = 'listing' | 'reviews' | 'website' | 'market' | 'search';

/** How a value becomes 0-1 for its score. */
export type Norm =
  | { kind: 'bool' }
  | { kind: 'ramp'; lo: number; hi: number }
  | { kind: 'inverse'; lo: number; hi: number }
  | { kind: 'band'; zeroLo: number; idealLo: number; idealHi: number; zeroHi: number }
  /** Linear in log10(1 + value): each tenfold counts the same. */
  | { kind: 'log'; lo: number; hi: number };

export interface MarketView {
  places: number;
  totalReviews: number;
  /** null unless every place's last-90-day count is exact. */
  totalLast90: number | null;
  medianReviewCount: number;
  averageRating: number | null;
  nearestOtherMiles: number | null;
  othersWithin5: number;
  /** 1 = the most prominent place in the market. */
  prominencePosition: number;
  /** Position by review count (1 = the most; ties share); null when the place's count is unknown. */
  reviewPosition: number | null;
  /** Competitors of the report's business within the radius (left out: a market, as before
   *  decision 0216). Below MIN_MARKET_COMPETITORS there is no position, no share and no Market
   *  Share score; with none, no figure of a market at all. */
  competitors?: number;
}

/** Points that place the business in its market: a position or a share needs a market
 *  (MIN_MARKET_COMPETITORS competitors); the market's figures need at least one competitor. */
const MARKET_POSITIONS = new Set(['market.review_share', 'market.review_position', 'market.prominence_position']);
const MARKET_FIGURES = new Set(['market.review_count_vs_median', 'market.rating_vs_average', 'market.total_reviews', 'market.average_rating', 'market.median_reviews', 'market.nearest_other_miles', 'market.others_within_5_miles']);
/** Why a market point does not apply, or null when it does. */
function noMarketWhy(key: string, def: DataPointDef, competitors: number | undefined): string | null {
  if (competitors === undefined || isMarket(competitors)) return null;
  const found = competitors === 0 ? `no competitor was found within ${SEARCH_RADIUS_MILES} miles` : `only ${competitors} competitor${competitors === 1 ? ' was' : 's were'} found within ${SEARCH_RADIUS_MILES} miles`;
  if (MARKET_POSITIONS.has(key)) return `No market: ${found}, and a position or a share needs at least ${MIN_MARKET_COMPETITORS} (decision 0216).`;
  if (MARKET_FIGURES.has(key) && competitors === 0) return `No market: ${found}, so there is nothing to compare with.`;
  if (def.score === 'marketShare') return `Shown, not scored: ${found}, and the Market Share score needs at least ${MIN_MARKET_COMPETITORS} (decision 0216).`;
  return null;
}

/** read: the homepage answered; down: listed but did not answer, or answered with an error page;
 *  none: no website listed; unknown: the source does not say whether there is one (Yelp gives no
 *  websites); platform: the address is a page of another platform (a social page, a link-in-bio
 *  page, a marketplace), not an own website; unpublished: a parked domain, a placeholder or a
 *  password prompt (decision 0230). */
export type SiteState = 'read' | 'down' | 'none' | 'unknown' | 'platform' | 'unpublished';

/** Why website points are absent, by how the site was met. */
const SITE_ABSENT: Partial<Record<SiteState, AbsentBecause>> = { none: 'no_site', platform: 'not_own_site', unpublished: 'not_published', down: 'site_down' };

/** The place's review count at an earlier run, for velocity from the change in the count. */
export interface EarlierCount {
  reviewCount: number;
  at: Date;
}

export interface Subject {
  listing: Listing;
  /** False when the provider could not identify the business (listing built from the request). */
  listingFound: boolean;
  /** The lookup itself failed (a malformed answer, a refused key): whether the provider lists the
   *  business is unknown, and so is everything its listing would say. */
  lookupFailed?: boolean;
  distanceMiles: number;
  /** null when the provider's reviews could not be read. */
  reviews: ReviewAnalysis | null;
  /** In words: which reviews the excerpt-based figures come from ("the 5 reviews Google shares"). */
  reviewSource: string;
  /** Its reviews come from a source of its own (the connected Google Business Profile), not the
   *  market's: it does not keep a point the market's source gives for nobody else. */
  ownSource?: boolean;
  site: WebsiteAnalysis | null;
  siteState: SiteState;
  /** False when the source gives no websites at all (Yelp). */
  listingGivesWebsite: boolean;
  /** The listing's profile from the provider's place details; null when they could not be read. */
  profile: ListingProfile | null;
  /** The latest earlier snapshot of this place's review count, when there is one. */
  earlier: EarlierCount | null;
  market: MarketView;
  /** The market's city and the words of its category, for the on-page local signals. */
  local?: { city: string; categoryWords: string[] };
  /** The place's local visibility over the grid's keywords; null when the grid was not measured. */
  visibility?: GridMetrics | null;
  now: Date;
}

export interface DataPointDef {
  key: string;
  label: string;
  source: Source;
  unit: string;
  score: ScoreKey | null;
  /** Relative weight within its score (0 for points that are shown, not scored). */
  weight: number;
  norm: Norm | null;
  /** What it measures, for the methodology and each data point's "how". */
  how: string;
  /** Computed from other data points, or equal for every business compared: not an
   *  independent measurement (not counted toward the 90+). */
  derived: boolean;
  /** What the owner would do to move it: recommendations are one per lever. */
  lever: string | null;
  /** The recommendation when this point holds the score back: [title, detail]. */
  advice: [string, string] | null;
  get: (s: Subject) => Got;
}

// ---- helpers -----------------------------------------------------------------------------
const BOOL: Norm = { kind: 'bool' };
const ramp = (lo: number, hi: number): Norm => ({ kind: 'ramp', lo, hi });
const inverse = (lo: number, hi: number): Norm => ({ kind: 'inverse', lo, hi });
const log = (lo: number, hi: number): Norm => ({ kind: 'log', lo, hi });
const band = (zeroLo: number, idealLo: number, idealHi: number, zeroHi: number): Norm => ({ kind: 'band', zeroLo, idealLo, idealHi, zeroHi });

/** Website points: read from the homepage; worst (scored) or not applicable (descriptive) when
 *  the site is down or there is none; unknown when the source does not say. */
const web = (f: (a: WebsiteAnalysis) => Value | typeof NA | typeof UNKNOWN) => (s: Subject): Got => {
  if (s.siteState !== 'read' || !s.site) return s.siteState === 'unknown' ? UNKNOWN : ABSENT;
  const site = s.site;
  if (!site.unseen?.length && !site.atLeast?.length) return f(site);
  // Which fields the point reads: a field not (all) seen, or a lower bound, qualifies its value.
  const touched = new Set<string>();
  const value = f(new Proxy(site, { get: (t, k) => (touched.add(String(k)), t[k as keyof WebsiteAnalysis]) }));
  const unseen = [...touched].filter((k) => site.unseen.includes(k));
  const atLeast = [...touched].some((k) => site.atLeast.includes(k));
  if (unseen.length === 0 && !atLeast) return value;
  // A title or a description found is found whole: it holds, and so does what is measured of it
  // (its length, the city in it). The page's text is only what was read.
  const onlyText = unseen.every((k) => (k === 'title' || k === 'metaDescription') && typeof site[k] === 'string');
  return { partial: true, value, emptyUnseen: unseen.some((k) => isEmpty(site[k as keyof WebsiteAnalysis])), unseen: unseen.length > 0 && !onlyText, atLeast, why: site.unseenWhy ?? '' };
};
/** A value read from part of a page (or from nothing), as `web` qualifies it; `resolvePartial` decides. */
interface PartialGot {
  partial: true;
  value: Value | typeof NA | typeof UNKNOWN;
  /** A field it reads was not seen whole and holds nothing: its absence is not known. */
  emptyUnseen: boolean;
  unseen: boolean;
  /** It reads a lower bound (the time to a page still arriving, a size not all counted). */
  atLeast: boolean;
  why: string;
}
const isEmpty = (v: unknown): boolean =>
  v === null || v === undefined || v === false || v === 0 || v === '' || (Array.isArray(v) ? v.length === 0 : typeof v === 'object' ? Object.values(v as object).every(isEmpty) : false);
const isPartial = (g: unknown): g is PartialGot => typeof g === 'object' && g !== null && (g as PartialGot).partial === true;
/** Whether a normalisation gives the same for `v` as for any larger value (a lower bound is then exact). */
const saturated = (norm: Norm, v: number) => (norm.kind === 'bool' ? false : norm.kind === 'band' ? v >= norm.zeroHi : v >= norm.hi);
/** A value from a page not seen whole: what was found holds (a title, a "yes"), what was not found
 *  is unknown (it may be in the part not read, or drawn by a script), and so is a count or a
 *  measure of a part; a lower bound holds where the point's scale reaches its end before it. Never
 *  a claim that something is missing from a page that was not read. */
function resolvePartial(def: DataPointDef, g: PartialGot): { value: Value; atLeast: boolean } | { unknown: string } {
  if (g.emptyUnseen) return { unknown: g.why };
  const v = g.value;
  if (v === UNKNOWN || v === NA) return { unknown: g.why };
  if (g.atLeast && typeof v === 'number') {
    if (!g.unseen && def.norm && saturated(def.norm, v)) return { value: v, atLeast: true };
    return { unknown: g.why || 'Only a lower bound was measured.' };
  }
  if (g.unseen && (v === false || v === null || typeof v === 'number')) return { unknown: g.why };
  return { value: v, atLeast: false };
}
/** Review points are unknown when the provider's reviews could not be read. */
const rev = (f: (r: ReviewAnalysis) => Value | typeof NA | typeof UNKNOWN | typeof NOT_GIVEN) => (s: Subject): Got => (s.reviews ? f(s.reviews) : UNKNOWN);
/** Counts within the last `days` need every review of that window: exact when the source gives
 *  every review, or its newest ones back past the window; unknown from excerpts picked by relevance. */
const windowed = (days: number, f: (r: ReviewAnalysis) => Value) => rev((r) => (r.exactDays >= days ? f(r) : NOT_GIVEN));
/** Owner-response points are unknown when the source does not report responses. */
const resp = (f: (r: ReviewAnalysis) => Value | typeof NA) => (s: Subject): Got => (!s.reviews ? UNKNOWN : s.reviews.ownerResponsesKnown ? f(s.reviews) : NOT_GIVEN);

/** Listing-profile points: unknown when the details could not be read, not given when the
 *  provider has no such field. */
const prof = <K extends keyof ListingProfile>(field: K, f: (v: NonNullable<ListingProfile[K]> | null) => Value | typeof UNKNOWN | typeof NA) => (s: Subject): Got => {
  if (!s.profile) return UNKNOWN;
  if (!(field in s.profile)) return NOT_GIVEN;
  const v = s.profile[field];
  return f((v ?? null) as NonNullable<ListingProfile[K]> | null);
};
/** A stated attribute (true or false); unknown when the listing does not state it. */
const attr = (name: ListingAttribute) => prof('attributes', (a) => a?.[name] ?? UNKNOWN);
const ATTRIBUTE_LABELS: Record<ListingAttribute, string> = {
  wheelchairAccessibleEntrance: 'Wheelchair-accessible entrance', wheelchairAccessibleParking: 'Wheelchair-accessible parking', wheelchairAccessibleRestroom: 'Wheelchair-accessible restroom', wheelchairAccessibleSeating: 'Wheelchair-accessible seating',
  acceptsCreditCards: 'Accepts credit cards', acceptsDebitCards: 'Accepts debit cards', acceptsNfc: 'Accepts contactless payment', acceptsCashOnly: 'Cash only',
  freeParkingLot: 'Free parking lot', paidParkingLot: 'Paid parking lot', freeStreetParking: 'Free street parking', paidStreetParking: 'Paid street parking', valetParking: 'Valet parking', freeGarageParking: 'Free garage parking', paidGarageParking: 'Paid garage parking',
  goodForChildren: 'Good for children', allowsDogs: 'Dogs allowed', restroom: 'Restroom',
};
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** Reviews gained per 30 days from the change in the listing's review count since an earlier run. */
function gainedPerMonth(s: Subject): Value | typeof NOT_GIVEN {
  if (!s.earlier || s.listing.reviewCount === null) return NOT_GIVEN;
  const days = (s.now.getTime() - s.earlier.at.getTime()) / 86_400_000;
  return days > 0 ? Math.round(((s.listing.reviewCount - s.earlier.reviewCount) / days) * 30 * 100) / 100 : NOT_GIVEN;
}

type Spec = [key: string, label: string, source: Source, unit: string, score: ScoreKey | null, weight: number, norm: Norm | null, how: string, get: (s: Subject) => Got, advice?: [string, string]];
const d = (...[key, label, source, unit, score, weight, norm, how, get, advice]: Spec): DataPointDef => ({ key, label, source, unit, score, weight: score ? weight : 0, norm: score ? norm : null, how, get, advice: advice ?? null, derived: false, lever: null });

/** The business's name on its page: at least three quarters of the name's words (any script). */
export function nameOnPage(name: string, a: WebsiteAnalysis): boolean {
  return (nameCoverage(name, `${a.title ?? ''} ${a.h1.join(' ')} ${a.pageText}`) ?? 0) >= 0.75;
}

export function phoneOnPage(phone: string | null, a: WebsiteAnalysis): boolean | null {
  if (!phone) return null;
  const target = digitsOnly(phone);
  return a.phonesOnPage.some((p) => digitsOnly(p) === target) || (a.schemaPhone !== null && digitsOnly(a.schemaPhone) === target);
}

export function addressOnPage(address: string | null, a: WebsiteAnalysis): boolean | null {
  if (!address) return null;
  const street = address.split(',')[0]!.trim();
  const m = /^(\d+[a-z]?)\s+(\S+)/i.exec(street);
  if (!m) return null;
  const text = a.pageText.toLowerCase();
  return text.includes(`${m[1]!.toLowerCase()} ${m[2]!.toLowerCase()}`);
}

/** Whether the text names one of the words (folded: any case, accents and script, as the
 *  category words are matched; a plural "s"/"es" allowed). */
export function mentions(text: string | null | undefined, words: string[]): boolean {
  if (!text) return false;
  return words.some((w) => w.trim() !== '' && [w, `${w}s`, `${w}es`].some((form) => containsPhrase(text, form.trim())));
}

/** On-page local signals: the market's city or its category named in a part of the homepage. */
const localSignal = (part: (a: WebsiteAnalysis) => string | null, what: 'city' | 'category') => (s: Subject): Got =>
  s.local ? web((a) => mentions(part(a), what === 'city' ? [s.local!.city] : s.local!.categoryWords))(s) : UNKNOWN;
const LOCAL_ADVICE: [string, string] = ['Say where you are and what you do', 'Name your city and your category ("dentist in Austin") in your page title, main heading and meta description: that is how search engines match your site to local searches.'];

/** Grid points are unknown when the grid could not be measured (quota, no provider search). */
const grid = (f: (v: GridMetrics) => Value | typeof NA) => (s: Subject): Got => (s.visibility ? f(s.visibility) : UNKNOWN);
/** "Spanish 3, English 2": languages by name (Intl's English names), most texts first. */
const languageList = (languages: Record<string, number>) => Object.entries(languages).sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([l, c]) => `${languageName(l)} ${c}`).join(', ') || null;

const pct = (n: number, of: number) => (of > 0 ? Math.round((n / of) * 10000) / 100 : null);
const theme = (list: Array<{ theme: string }>) => list[0]?.theme ?? null;

// ---- the registry ------------------------------------------------------------------------
const REGISTRY: DataPointDef[] = [
  // Listing (the places provider)
  d('listing.found', 'Business found on the listing source', 'listing', 'yes/no', 'digitalPresence', 3, BOOL, 'Whether the places provider knows the business (matched by name near the address).', (s) => s.listingFound, ['Claim your business listing', 'Your business could not be matched on the listing source. Claim and verify the listing so customers searching nearby find you.']),
  d('listing.category', 'Listing category', 'listing', 'text', null, 0, null, 'The category the provider (or the name and website) gives the business.', (s) => s.listing.categoryLabel),
  d('listing.has_address', 'Address on the listing', 'listing', 'yes/no', 'digitalPresence', 2, BOOL, 'The listing shows a street address.', (s) => Boolean(s.listing.address), ['Complete your listing address', 'Add your full street address to your listing so maps and directions work.']),
  d('listing.has_phone', 'Phone on the listing', 'listing', 'yes/no', 'digitalPresence', 2, BOOL, 'The listing shows a phone number.', (s) => Boolean(s.listing.phone), ['Add a phone number to your listing', 'Listings with a phone number get calls straight from search results.']),
  d('listing.has_website', 'Website on the listing', 'listing', 'yes/no', 'digitalPresence', 4, BOOL, 'The listing links to a website (unknown where the source gives no websites).', (s) => (s.listingGivesWebsite ? Boolean(s.listing.website) : NOT_GIVEN), ['Link a website from your listing', 'A listing without a website loses the customers who want to read more before they call.']),
  d('listing.operational', 'Listed as open for business', 'listing', 'yes/no', 'digitalPresence', 3, BOOL, 'The provider lists the business as operating (not temporarily or permanently closed); not applicable to a business it lists as not open yet.', prof('status', (v) => (v === null ? UNKNOWN : v === 'future_opening' ? NA : v === 'operational')), ['Mark your business as open', 'Your listing says the business is closed; customers skip it. Correct the status on the listing.']),
  d('listing.has_hours', 'Opening hours on the listing', 'listing', 'yes/no', 'digitalPresence', 3, BOOL, 'The listing gives regular opening hours.', prof('hours', (v) => v !== null), ['Complete your listing', 'Add your opening hours, photos and a description to your listing: complete listings are shown more and chosen more.']),
  d('listing.open_days', 'Days open a week', 'listing', 'days', null, 0, null, 'Days with opening hours on the listing.', prof('hours', (v) => (v === null ? UNKNOWN : v.days))),
  d('listing.weekly_hours', 'Hours open a week', 'listing', 'hours', null, 0, null, 'Hours open a week from the listing\'s opening hours.', prof('hours', (v) => (v === null ? UNKNOWN : v.weeklyHours))),
  d('listing.photos', 'Photos on the listing', 'listing', 'photos', 'digitalPresence', 2, ramp(0, 10), 'Photos the provider shows for the listing (Google gives up to 10, Yelp up to 3).', prof('photos', (v) => v ?? 0), ['Complete your listing', 'Add recent photos of your premises, team and work to your listing.']),
  d('listing.types', 'Categories on the listing', 'listing', 'categories', null, 0, null, 'Categories (types) the listing is filed under.', prof('types', (v) => v ?? 0)),
  d('listing.editorial_summary', 'Description on the listing', 'listing', 'yes/no', 'digitalPresence', 1, BOOL, 'The listing has a summary describing the business (Google\'s editorial summary).', prof('editorialSummary', (v) => v === true), ['Complete your listing', 'Add a description of what you do to your listing.']),
  d('listing.price_level', 'Price level on the listing', 'listing', 'text', null, 0, null, 'The price level the listing shows (unknown when it shows none, or the provider does not know it).', prof('priceLevel', (v) => v ?? UNKNOWN)),
  d('listing.claimed', 'Listing claimed by the owner', 'listing', 'yes/no', 'digitalPresence', 2, BOOL, 'The owner has claimed the listing (Yelp\'s is_claimed).', prof('claimed', (v) => v === true), ['Claim your business listing', 'Claim your listing so you can correct it, add photos and answer reviews.']),
  d('listing.transactions', 'Online services on the listing', 'listing', 'services', null, 0, null, 'Online services the listing offers (Yelp transactions: pickup, delivery, reservations).', prof('transactions', (v) => v ?? 0)),
  d('listing.special_hours', 'Holiday hours on the listing', 'listing', 'yes/no', null, 0, null, 'The listing gives special (holiday) hours.', prof('specialHours', (v) => v === true)),
  d('listing.attributes_stated', 'Amenities stated on the listing', 'listing', 'attributes', 'digitalPresence', 2, ramp(0, 8), 'Accessibility, payment, parking and amenity attributes the listing states (yes or no).', prof('attributes', (v) => Object.keys(v ?? {}).length), ['Complete your listing', 'State your accessibility, payment and parking options on your listing: customers filter by them.']),
  ...LISTING_ATTRIBUTES.map((name) => d(`listing.${snake(name)}`, ATTRIBUTE_LABELS[name], 'listing', 'yes/no', null, 0, null, `The listing states "${ATTRIBUTE_LABELS[name].toLowerCase()}" (unknown when it does not say).`, attr(name))),
  d('reviews.gained_per_month', 'Reviews gained per month', 'listing', 'reviews/month', 'reviews', 4, ramp(0, 8), 'Change in the listing\'s review count since the last report at least a week old, per 30 days (unknown on a first report).', gainedPerMonth, ['Keep reviews coming every month', 'A steady flow of fresh reviews tells customers and search engines you are active: aim for two a week.']),
  d('listing.distance_miles', 'Distance from your business', 'listing', 'miles', null, 0, null, 'Great-circle distance from the business, 2 decimals.', (s) => s.distanceMiles),
  d('listing.latitude', 'Latitude', 'listing', 'degrees', null, 0, null, 'The listing\'s latitude (8 decimals).', (s) => s.listing.latitude),
  d('listing.longitude', 'Longitude', 'listing', 'degrees', null, 0, null, 'The listing\'s longitude (8 decimals).', (s) => s.listing.longitude),

  // Reviews
  d('reviews.rating', 'Average rating', 'listing', 'stars', 'reviews', 10, ramp(3, 5), 'The listing\'s average star rating (1-5).', (s) => (s.listing.rating === null ? UNKNOWN : s.listing.rating), ['Lift your average rating', 'Ask every happy customer for a review and fix the issue behind the low ones: a few tenths of a star move you up the local results.']),
  d('reviews.count', 'Review count', 'listing', 'reviews', 'reviews', 7, ramp(0, 250), 'Total reviews on the listing.', (s) => (s.listing.reviewCount === null ? (s.listingFound ? 0 : UNKNOWN) : s.listing.reviewCount), ['Collect more reviews', 'Send a review link after every visit; review volume is one of the strongest local ranking signals.']),
  d('reviews.last_30_days', 'Reviews in the last 30 days', 'reviews', 'reviews', 'reviews', 5, ramp(0, 8), 'Reviews dated within the last 30 days (needs every review: unknown from a few excerpts).', windowed(30, (r) => r.last30), ['Keep reviews coming every month', 'A steady flow of fresh reviews tells customers and search engines you are active: aim for two a week.']),
  d('reviews.last_90_days', 'Reviews in the last 90 days', 'reviews', 'reviews', 'reviews', 4, ramp(0, 20), 'Reviews dated within the last 90 days (needs every review).', windowed(90, (r) => r.last90), ['Build review velocity', 'Make asking for a review part of checkout or the follow-up e-mail so the 90-day count grows.']),
  d('reviews.last_365_days', 'Reviews in the last 12 months', 'reviews', 'reviews', null, 0, null, 'Reviews dated within the last 365 days.', windowed(365, (r) => r.last365)),
  d('reviews.previous_90_days', 'Reviews 91-180 days ago', 'reviews', 'reviews', null, 0, null, 'Reviews dated 91 to 180 days ago (the base of the trend).', windowed(180, (r) => r.previous90)),
  d('reviews.days_since_latest', 'Days since the latest review', 'reviews', 'days', 'reviews', 4, inverse(7, 120), 'Days since the most recent review (needs the newest review: unknown from excerpts picked by relevance).', rev((r) => (r.complete || r.newestFirst ? r.daysSinceLatest : NOT_GIVEN)), ['Get a fresh review this week', 'Your latest review is old; customers read recency as a sign the business is still good.']),
  d('reviews.days_since_oldest', 'Age of the oldest review read', 'reviews', 'days', null, 0, null, 'Days since the oldest review the source gave.', rev((r) => r.daysSinceOldest)),
  d('reviews.sampled', 'Reviews read', 'reviews', 'reviews', null, 0, null, 'How many review texts the source gave for analysis (Google gives 5, Yelp 3).', rev((r) => r.sampled)),
  d('reviews.sample_complete', 'All reviews read', 'reviews', 'yes/no', null, 0, null, 'Whether the source gave every review or only excerpts.', rev((r) => r.complete)),
  d('reviews.sampled_average', 'Average of the reviews read', 'reviews', 'stars', null, 0, null, 'Mean stars of the reviews read.', rev((r) => r.sampledAverage)),
  d('reviews.share_5_star', 'Five-star share', 'reviews', '%', 'reviews', 3, ramp(30, 80), 'Share of reviews read with 5 stars.', rev((r) => r.starShare[5]), ['Turn good visits into five-star reviews', 'Follow up with customers who had a good experience and ask them directly for a five-star review.']),
  d('reviews.share_4_star', 'Four-star share', 'reviews', '%', null, 0, null, 'Share of reviews read with 4 stars.', rev((r) => r.starShare[4])),
  d('reviews.share_3_star', 'Three-star share', 'reviews', '%', null, 0, null, 'Share of reviews read with 3 stars.', rev((r) => r.starShare[3])),
  d('reviews.share_2_star', 'Two-star share', 'reviews', '%', null, 0, null, 'Share of reviews read with 2 stars.', rev((r) => r.starShare[2])),
  d('reviews.share_1_star', 'One-star share', 'reviews', '%', 'reviews', 3, inverse(2, 20), 'Share of reviews read with 1 star.', rev((r) => r.starShare[1]), ['Reduce one-star experiences', 'Read your one-star reviews for the common cause and fix it; answer each one publicly.']),
  d('reviews.sentiment_average', 'Average sentiment', 'reviews', 'score per word', 'reviews', 3, ramp(-0.2, 0.4), 'Mean comparative sentiment (-5 to +5 per word) of the review texts in a language it is measured in: English with AFINN-165 (the `sentiment` package\'s list; Google\'s English translation where it gives one); Spanish, French, Portuguese, German, Italian, Dutch, Swedish, Danish and Norwegian with LocalRank\'s own lexicons on the same scale; negation and idioms are read clause by clause. Texts in other languages, or whose language could not be told with confidence, are not measured, not counted as neutral.', rev((r) => r.sentimentAverage), ['Improve what customers write about', 'The tone of your reviews is cooler than the market. The recurring negative theme below is where to start.']),
  d('reviews.positive_share', 'Positive review share', 'reviews', '%', 'reviews', 3, ramp(40, 90), 'Share of review texts with positive sentiment.', rev((r) => r.positiveShare), ['Earn more positive reviews', 'Fewer than most of your reviews read as positive; fix the top complaint and ask satisfied customers to write.']),
  d('reviews.negative_share', 'Negative review share', 'reviews', '%', 'reviews', 3, inverse(5, 40), 'Share of review texts with negative sentiment.', rev((r) => r.negativeShare), ['Cut the share of negative reviews', 'Negative reviews stand out; resolve complaints before customers leave and reply to each negative review.']),
  d('reviews.languages', 'Languages of the reviews read', 'reviews', 'text', null, 0, null, `The languages of the review texts read, as the provider states them or as detected ("not recognised" when they could not be told with confidence); sentiment is measured in ${MEASURED_LANGUAGES.join(', ')}.`, rev((r) => languageList(r.languages) ?? NA)),
  d('reviews.neutral_share', 'Neutral review share', 'reviews', '%', null, 0, null, 'Share of review texts with neutral sentiment.', rev((r) => r.neutralShare)),
  d('reviews.average_words', 'Average review length', 'reviews', 'words', null, 0, null, 'Mean words per review text.', rev((r) => r.averageWords)),
  d('reviews.with_text_share', 'Reviews with text', 'reviews', '%', null, 0, null, 'Share of reviews read that have text.', rev((r) => r.withTextShare)),
  d('reviews.monthly_velocity', 'Reviews per month (12-month average)', 'reviews', 'reviews/month', null, 0, null, 'Reviews in the last 12 months divided by 12.', windowed(365, (r) => r.monthlyVelocity)),
  d('reviews.velocity_trend', 'Review trend (90 days vs the 90 before)', 'reviews', 'ratio', 'reviews', 2, ramp(-0.5, 0.5), 'Change in reviews from the previous 90 days to the last 90 days, as a ratio (0.5 = +50%).', windowed(180, (r) => r.velocityTrend), ['Reverse the slowing review trend', 'Fewer reviews arrived this quarter than the one before; restart your review requests.']),
  d('reviews.top_positive_theme', 'Most praised', 'reviews', 'text', null, 0, null, 'The theme (staff, wait time, price, quality, communication, cleanliness, booking) most mentioned in positive reviews.', rev((r) => theme(r.positiveThemes))),
  d('reviews.top_negative_theme', 'Most criticised', 'reviews', 'text', null, 0, null, 'The theme most mentioned in negative reviews.', rev((r) => theme(r.negativeThemes))),
  d('reviews.positive_themes', 'Recurring positive themes', 'reviews', 'themes', null, 0, null, 'Themes named in at least two positive reviews.', rev((r) => r.positiveThemes.length)),
  d('reviews.negative_themes', 'Recurring negative themes', 'reviews', 'themes', 'reviews', 2, inverse(0, 4), 'Themes named in at least two negative reviews.', rev((r) => r.negativeThemes.length), ['Fix the recurring complaint', 'The same complaint shows up again and again in your reviews; fixing it removes a steady source of low ratings.']),

  // Engagement: owner responses
  d('engagement.response_rate', 'Owner response rate', 'reviews', '%', 'engagement', 8, ramp(0, 80), 'Share of reviews read with an owner response (where the source reports responses).', resp((r) => r.responseRate), ['Reply to every review', 'Answer every review within a day or two, the good and the bad: customers read the replies.']),
  d('engagement.negative_response_rate', 'Response rate to 1-2 star reviews', 'reviews', '%', 'engagement', 5, ramp(0, 100), 'Share of 1-2 star reviews with an owner response (not applicable when there are no low reviews).', resp((r) => r.negativeResponseRate ?? NA), ['Answer every negative review', 'An unanswered negative review is the first thing a prospective customer reads. Reply calmly and offer to fix it.']),
  d('engagement.median_response_hours', 'Median owner response time', 'reviews', 'hours', 'engagement', 4, inverse(12, 168), 'Median hours from a review to the owner\'s response (not applicable when there are no responses).', resp((r) => r.medianResponseHours ?? NA), ['Reply to reviews faster', 'Aim to answer reviews within 24 hours; set up alerts for new reviews.']),
  d('engagement.responses_last_90_days', 'Owner responses in the last 90 days', 'reviews', 'responses', null, 0, null, 'Owner responses dated within the last 90 days.', resp((r) => r.responsesLast90)),

  // Website: basics and performance
  d('site.reachable', 'Website reachable', 'website', 'yes/no', 'digitalPresence', 6, BOOL, 'The website\'s server answered: with its homepage, or with a refusal of automated visitors (bot protection), which is not a site that is down. No: no connection, no DNS answer, no answer in time, an error page, or a server error (5xx) on each of 3 tries (not applicable without a website).', (s) => ({ read: true, down: false, none: NA, unknown: UNKNOWN, platform: NA, unpublished: ABSENT } as const)[s.siteState], ['Fix your website', 'Your website did not answer when we visited. Check your hosting and domain; an unreachable site loses every visitor.']),
  d('site.https', 'HTTPS', 'website', 'yes/no', 'digitalPresence', 4, BOOL, 'The final homepage URL uses HTTPS with a certificate browsers accept (one they warn about counts as no).', (s) => (s.siteState === 'read' && s.site?.certificate ? BAD_CERT : web((a) => a.https)(s)), ['Serve your site over HTTPS', 'Browsers mark plain-HTTP sites "Not secure". Turn on a free certificate with your host.']),
  d('site.status', 'Homepage HTTP status', 'website', 'code', null, 0, null, 'HTTP status of the homepage.', web((a) => a.status)),
  d('site.response_ms', 'Response time', 'website', 'ms', 'digitalPresence', 3, inverse(300, SLOW_MS), 'Time to the full homepage body, milliseconds; a page still arriving at the time limit counts the limit, at least (slow at 3000 or more). Not measured when the site refuses automated visitors.', web((a) => a.responseMs), ['Speed up your website', 'Your homepage is slow to load. Compress images, cache pages and consider faster hosting.']),
  d('site.page_weight_kb', 'Page weight', 'website', 'KB', 'digitalPresence', 2, inverse(200, 3000), 'Size of the homepage HTML, KB: the declared length, else every byte counted (a page cut at the size limit is still counted, not kept, while the time lasts).', web((a) => a.pageWeightKb), ['Make your homepage lighter', 'Your homepage is heavy; trim unused scripts and inline content.']),
  d('site.redirects', 'Redirects to the homepage', 'website', 'redirects', null, 0, null, 'Redirects followed to reach the homepage (at most 5).', web((a) => a.redirects)),
  d('site.final_url', 'Homepage address', 'website', 'URL', null, 0, null, 'The homepage URL after redirects.', web((a) => a.finalUrl)),
  d('site.hsts', 'HSTS header', 'website', 'yes/no', null, 0, null, 'The homepage sends Strict-Transport-Security.', web((a) => a.hsts)),
  d('site.compressed', 'Compressed response', 'website', 'yes/no', null, 0, null, 'The homepage was sent compressed (Content-Encoding).', web((a) => a.compressed)),
  d('site.cache_control', 'Cache-Control header', 'website', 'yes/no', null, 0, null, 'The homepage sends Cache-Control.', web((a) => a.cacheControl)),
  d('site.mixed_content', 'Insecure resources on an HTTPS page', 'website', 'resources', 'digitalPresence', 1, inverse(0, 5), 'http:// images, scripts, styles or frames on an HTTPS page (not applicable to a plain-HTTP page).', web((a) => (a.https ? a.mixedContent : NA)), ['Remove insecure resources', 'Some images or scripts load over plain HTTP on your HTTPS page; browsers may block them.']),

  // Website: search basics
  d('site.title_present', 'Page title', 'website', 'yes/no', 'digitalPresence', 3, BOOL, 'The homepage has a <title>.', web((a) => Boolean(a.title)), ['Add a page title', 'Give your homepage a title with your business name, category and city.']),
  d('site.title_length', 'Title length', 'website', 'characters', 'digitalPresence', 2, band(5, 30, 65, 110), 'Characters in the <title>; 30-65 is ideal (not applicable without a title).', web((a) => a.title?.length ?? NA), ['Rewrite your page title', 'Your title is too short or too long for search results. Use 30-65 characters: name, service, city.']),
  d('site.title', 'Title text', 'website', 'text', null, 0, null, 'The homepage <title>.', web((a) => a.title)),
  d('site.meta_description_present', 'Meta description', 'website', 'yes/no', 'digitalPresence', 3, BOOL, 'The homepage has a meta description.', web((a) => Boolean(a.metaDescription)), ['Write a meta description', 'Add a one-sentence description of what you do and where; it is the text under your link in search results.']),
  d('site.meta_description_length', 'Meta description length', 'website', 'characters', 'digitalPresence', 1, band(20, 70, 160, 320), 'Characters in the meta description; 70-160 is ideal (not applicable without one).', web((a) => a.metaDescription?.length ?? NA), ['Tune your meta description', 'Keep the description between 70 and 160 characters so it shows in full.']),
  d('site.h1_count', 'H1 headings', 'website', 'headings', 'digitalPresence', 2, band(0, 1, 1, 4), 'Number of <h1> headings; exactly one is ideal.', web((a) => a.h1.length), ['Use one clear H1 heading', 'Give the homepage exactly one main heading that says what you do and where.']),
  d('site.h1', 'Main heading', 'website', 'text', null, 0, null, 'Text of the first <h1>.', web((a) => a.h1[0] ?? null)),
  d('site.h2_count', 'H2 headings', 'website', 'headings', null, 0, null, 'Number of <h2> headings.', web((a) => a.h2Count)),
  d('site.viewport', 'Mobile viewport', 'website', 'yes/no', 'digitalPresence', 4, BOOL, 'A viewport meta tag (the page is built for phones).', web((a) => a.viewport), ['Make your site mobile-friendly', 'Most local searches happen on phones; add a responsive viewport and test the site on a phone.']),
  d('site.lang', 'Language declared', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The <html> element has a lang attribute.', web((a) => a.lang), ['Declare the page language', 'Add lang="en" to your page so screen readers and search engines read it right.']),
  d('site.canonical', 'Canonical link', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'A rel=canonical link.', web((a) => a.canonical), ['Add a canonical link', 'A canonical link tells search engines which address is the real homepage.']),
  d('site.charset', 'Character set declared', 'website', 'yes/no', null, 0, null, 'A charset in a meta tag or the Content-Type header.', web((a) => a.charset)),
  d('site.word_count', 'Words on the homepage', 'website', 'words', 'digitalPresence', 2, ramp(80, 600), 'Words of visible text on the homepage.', web((a) => a.wordCount), ['Say more on your homepage', 'Describe your services, area and what makes you different: thin pages rank poorly.']),
  d('site.internal_links', 'Internal links', 'website', 'links', null, 0, null, 'Links to pages of the same site.', web((a) => a.internalLinks)),
  d('site.external_links', 'External links', 'website', 'links', null, 0, null, 'Links to other sites.', web((a) => a.externalLinks)),
  d('site.images', 'Images', 'website', 'images', null, 0, null, 'Images on the homepage.', web((a) => a.images)),
  d('site.image_alt_coverage', 'Image alt text coverage', 'website', '%', 'digitalPresence', 2, ramp(20, 100), 'Share of images with alt text (not applicable without images).', web((a) => (a.images ? pct(a.imagesWithAlt, a.images) : NA)), ['Describe your images', 'Add alt text to every image: it helps accessibility and image search.']),
  d('site.scripts', 'Scripts', 'website', 'scripts', null, 0, null, 'Script elements on the homepage.', web((a) => a.scripts)),
  d('site.stylesheets', 'Stylesheets', 'website', 'stylesheets', null, 0, null, 'Linked stylesheets.', web((a) => a.stylesheets)),
  d('site.copyright_year', 'Copyright year', 'website', 'year', null, 0, null, 'The latest year in a copyright notice.', web((a) => a.copyrightYear)),
  d('site.copyright_current', 'Copyright notice up to date', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The copyright year is this year or last year.', (s) => web((a) => a.copyrightYear !== null && a.copyrightYear >= s.now.getUTCFullYear() - 1)(s), ['Update your footer', 'An old copyright year makes the site look abandoned; update it (or make it automatic).']),

  // Website: structured data and sharing
  d('site.schema_local_business', 'LocalBusiness structured data', 'website', 'yes/no', 'digitalPresence', 3, BOOL, 'schema.org LocalBusiness (or a subtype) in JSON-LD or microdata.', web((a) => a.schemaLocalBusiness), ['Add LocalBusiness structured data', 'Mark up your name, address, phone and hours with schema.org LocalBusiness so search engines show them.']),
  d('site.schema_types', 'Structured data types', 'website', 'text', null, 0, null, 'schema.org types found.', web((a) => (a.schemaTypes.length ? a.schemaTypes.join(', ') : null))),
  d('site.schema_address', 'Address in structured data', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The structured data has an address.', web((a) => a.schemaAddress), ['Put your address in structured data', 'Add your postal address to the LocalBusiness markup.']),
  d('site.schema_opening_hours', 'Opening hours in structured data', 'website', 'yes/no', null, 0, null, 'The structured data has opening hours.', web((a) => a.schemaOpeningHours)),
  d('site.og_title', 'Open Graph title', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'An og:title tag (how links to the site look when shared).', web((a) => a.ogTitle), ['Add Open Graph tags', 'Add og:title, og:description and og:image so your links look good when shared on social media.']),
  d('site.og_description', 'Open Graph description', 'website', 'yes/no', null, 0, null, 'An og:description tag.', web((a) => a.ogDescription)),
  d('site.og_image', 'Open Graph image', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'An og:image tag.', web((a) => a.ogImage), ['Add a share image', 'Set an og:image so shared links show your photo or logo.']),
  d('site.twitter_card', 'Twitter/X card', 'website', 'yes/no', null, 0, null, 'A twitter:card tag.', web((a) => a.twitterCard)),
  d('site.favicon', 'Favicon', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'An icon link, or /favicon.ico answers.', web((a) => a.favicon), ['Add a favicon', 'A small icon in the browser tab makes the site look finished and recognisable.']),
  d('site.robots_txt', 'robots.txt', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'robots.txt answers 200 with text.', web((a) => a.robotsTxt), ['Add a robots.txt', 'A robots.txt file points search engines to your sitemap.']),
  d('site.sitemap', 'XML sitemap', 'website', 'yes/no', 'digitalPresence', 2, BOOL, 'A sitemap (from robots.txt, else /sitemap.xml) answers with a urlset.', web((a) => a.sitemap), ['Publish a sitemap', 'An XML sitemap helps search engines find every page of your site.']),
  d('site.sitemap_in_robots', 'Sitemap named in robots.txt', 'website', 'yes/no', null, 0, null, 'robots.txt names the sitemap.', web((a) => a.sitemapInRobots)),

  // Website: name, address, phone versus the listing
  d('site.nap_name', 'Business name on the site matches the listing', 'website', 'yes/no', 'digitalPresence', 2, BOOL, 'At least 3/4 of the listing name\'s words appear in the title, headings or text.', (s) => web((a) => nameOnPage(s.listing.name, a))(s), ['Use the same business name everywhere', 'Your site and your listing name the business differently; consistent names help search engines connect them.']),
  d('site.nap_phone', 'Phone on the site matches the listing', 'website', 'yes/no', 'digitalPresence', 3, BOOL, 'The listing\'s phone number appears on the page, in a tel: link or in structured data.', (s) => web((a) => phoneOnPage(s.listing.phone, a) ?? NA)(s), ['Make your phone number consistent', 'The phone number on your website differs from your listing. Use one number everywhere.']),
  d('site.nap_address', 'Address on the site matches the listing', 'website', 'yes/no', 'digitalPresence', 2, BOOL, 'The listing\'s street number and street name appear on the page.', (s) => web((a) => addressOnPage(s.listing.address, a) ?? NA)(s), ['Show your address on your site', 'Put the same street address as on your listing in your site\'s footer.']),
  d('site.phones_on_page', 'Phone numbers on the page', 'website', 'numbers', null, 0, null, 'Distinct phone numbers found on the page.', web((a) => a.phonesOnPage.length)),

  // Website: more structured data, security headers, technical signals, contact paths
  d('site.schema_phone', 'Phone in structured data', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The structured data has a telephone.', web((a) => a.schemaPhone !== null), ['Put your phone number in structured data', 'Add your telephone to the LocalBusiness markup.']),
  d('site.schema_nap_match', 'Structured-data phone matches the listing', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The telephone in the structured data is the listing\'s number (not applicable without both).', (s) => web((a) => (a.schemaPhone && s.listing.phone ? digitsOnly(a.schemaPhone) === digitsOnly(s.listing.phone) : NA))(s), ['Use one phone number everywhere', 'The number in your structured data differs from your listing.']),
  d('site.schema_geo', 'Coordinates in structured data', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The structured data has geo coordinates.', web((a) => a.schemaGeo), ['Add your coordinates to structured data', 'Geo coordinates in your markup pin you on the map precisely.']),
  d('site.schema_same_as', 'Profiles named in structured data', 'website', 'links', 'digitalPresence', 1, ramp(0, 3), 'sameAs links (social and directory profiles) in the structured data.', web((a) => a.schemaSameAs), ['Connect your profiles in structured data', 'List your social and directory profiles as sameAs in your markup so search engines join them up.']),
  d('site.schema_price_range', 'Price range in structured data', 'website', 'yes/no', null, 0, null, 'The structured data has a priceRange.', web((a) => a.schemaPriceRange)),
  d('site.csp', 'Content-Security-Policy', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The homepage sends a Content-Security-Policy header (or meta tag).', web((a) => a.csp), ['Add security headers', 'Ask your host to send the standard security headers (Content-Security-Policy, X-Content-Type-Options, Referrer-Policy).']),
  d('site.x_content_type_options', 'X-Content-Type-Options', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The homepage sends X-Content-Type-Options: nosniff.', web((a) => a.xContentTypeOptions), ['Add security headers', 'Ask your host to send X-Content-Type-Options: nosniff.']),
  d('site.frame_protection', 'Protection against framing', 'website', 'yes/no', null, 0, null, 'X-Frame-Options or a frame-ancestors policy.', web((a) => a.frameProtection)),
  d('site.referrer_policy', 'Referrer-Policy', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The homepage sends a Referrer-Policy header (or meta tag).', web((a) => a.referrerPolicy), ['Add security headers', 'Ask your host to send a Referrer-Policy header.']),
  d('site.permissions_policy', 'Permissions-Policy', 'website', 'yes/no', null, 0, null, 'The homepage sends a Permissions-Policy header.', web((a) => a.permissionsPolicy)),
  d('site.doctype', 'HTML5 doctype', 'website', 'yes/no', null, 0, null, 'The page starts with <!doctype html>.', web((a) => a.doctype)),
  d('site.indexable', 'Open to search engines', 'website', 'yes/no', 'digitalPresence', 3, BOOL, 'No "noindex" in a robots meta tag or X-Robots-Tag header.', web((a) => !a.noindex), ['Let search engines index your homepage', 'Your homepage tells search engines not to list it (noindex). Remove that tag.']),
  d('site.render_blocking_scripts', 'Render-blocking scripts', 'website', 'scripts', 'digitalPresence', 1, inverse(0, 6), 'Scripts in <head> without async or defer.', web((a) => a.renderBlockingScripts), ['Speed up your website', 'Load scripts with defer or async so the page shows before they run.']),
  d('site.lazy_images', 'Lazy-loaded images', 'website', 'images', null, 0, null, 'Images with loading="lazy".', web((a) => a.lazyImages)),
  d('site.modern_images', 'Modern image formats', 'website', 'images', null, 0, null, 'WebP or AVIF images.', web((a) => a.modernImages)),
  d('site.resource_hints', 'Resource hints', 'website', 'hints', null, 0, null, 'preconnect, preload and dns-prefetch links.', web((a) => a.preconnectHints)),
  d('site.inline_script_kb', 'Inline script size', 'website', 'KB', null, 0, null, 'Kilobytes of script written into the page.', web((a) => a.inlineScriptKb)),
  d('site.theme_color', 'Theme colour', 'website', 'yes/no', null, 0, null, 'A theme-color meta tag (colours the browser bar on phones).', web((a) => a.themeColor)),
  d('site.apple_touch_icon', 'Home-screen icon', 'website', 'yes/no', null, 0, null, 'An apple-touch-icon link.', web((a) => a.appleTouchIcon)),
  d('site.deprecated_tags', 'Obsolete HTML tags', 'website', 'tags', 'digitalPresence', 1, inverse(0, 3), '<font>, <center>, <marquee>, <blink> or <frameset> elements (signs of a site not updated in years).', web((a) => a.deprecatedTags), ['Modernise your website', 'Your homepage uses HTML from the 1990s; a current template looks better and works on phones.']),
  d('site.landmarks', 'Page landmarks', 'website', 'yes/no', null, 0, null, 'A <main> and a <nav> region (helps screen readers).', web((a) => a.landmarks)),
  d('site.skip_link', 'Skip-to-content link', 'website', 'yes/no', null, 0, null, 'A "skip to content" link for keyboard users.', web((a) => a.skipLink)),
  d('site.contact_page', 'Contact page linked', 'website', 'yes/no', 'engagement', 2, BOOL, 'The homepage links to a contact page.', web((a) => a.contactPage), ['Add a contact page', 'Link a contact page with your phone, e-mail, address and a form from every page.']),
  d('site.about_page', 'About page linked', 'website', 'yes/no', null, 0, null, 'The homepage links to an about page.', web((a) => a.aboutPage)),
  d('site.privacy_page', 'Privacy policy linked', 'website', 'yes/no', null, 0, null, 'The homepage links to a privacy policy.', web((a) => a.privacyPage)),
  d('engagement.sms_link', 'Text-us link', 'website', 'yes/no', null, 0, null, 'An sms: link.', web((a) => a.smsLink)),
  d('engagement.whatsapp_link', 'WhatsApp link', 'website', 'yes/no', null, 0, null, 'A WhatsApp chat link.', web((a) => a.whatsappLink)),
  d('engagement.directions_link', 'Directions link', 'website', 'yes/no', 'engagement', 1, BOOL, 'A link to directions on a map.', web((a) => a.directionsLink), ['Link to directions', 'Add a "Get directions" link to your map listing so visitors find you.']),
  d('engagement.review_link', 'Leave-a-review link', 'website', 'yes/no', 'engagement', 2, BOOL, 'A link asking visitors to review the business (Google or Yelp review page).', web((a) => a.reviewLink), ['Ask for reviews on your site', 'Add a "Leave us a review" link to your Google or Yelp page on your site and in your e-mails.']),
  d('engagement.email_on_page', 'E-mail address shown', 'website', 'yes/no', null, 0, null, 'An e-mail address written on the page.', web((a) => a.emailOnPage)),
  d('engagement.video', 'Video on the site', 'website', 'yes/no', null, 0, null, 'A video (a <video>, YouTube or Vimeo player).', web((a) => a.videoEmbed)),

  // Tech stack, analytics and ads
  d('tech.cms', 'Website platform', 'website', 'text', null, 0, null, 'CMS or site builder recognised by signature (WordPress, Squarespace, Wix, Shopify...).', web((a) => a.tech.cms)),
  d('tech.ecommerce', 'E-commerce platform', 'website', 'text', null, 0, null, 'Online shop platform recognised by signature.', web((a) => a.tech.ecommerce)),
  d('tech.booking', 'Online booking', 'website', 'yes/no', 'engagement', 4, BOOL, 'A booking tool (Calendly, Zocdoc, Square Appointments, OpenTable...) is linked or embedded.', web((a) => Boolean(a.tech.booking)), ['Offer online booking', 'Let customers book from your site at any hour with a scheduling tool; competitors that do win the after-hours customers.']),
  d('tech.booking_tool', 'Booking tool', 'website', 'text', null, 0, null, 'Which booking tool.', web((a) => a.tech.booking)),
  d('tech.chat', 'Live chat', 'website', 'yes/no', 'engagement', 2, BOOL, 'A chat widget (Intercom, Tidio, Drift, LiveChat...).', web((a) => Boolean(a.tech.chat)), ['Add live chat or text-us', 'A chat widget catches visitors who will not call.']),
  d('tech.chat_tool', 'Chat tool', 'website', 'text', null, 0, null, 'Which chat tool.', web((a) => a.tech.chat)),
  d('tech.analytics', 'Web analytics', 'website', 'yes/no', 'digitalPresence', 2, BOOL, 'An analytics tool (Google Analytics, Plausible, Matomo, Clarity, Hotjar).', web((a) => a.tech.analytics.length > 0), ['Measure your visitors', 'Install web analytics so you know where customers come from and what they read.']),
  d('tech.analytics_tools', 'Analytics tools', 'website', 'text', null, 0, null, 'Which analytics tools.', web((a) => (a.tech.analytics.length ? a.tech.analytics.join(', ') : null))),
  d('tech.tag_manager', 'Google Tag Manager', 'website', 'yes/no', null, 0, null, 'A GTM container id.', web((a) => a.tech.tagManager)),
  d('ads.google_ads', 'Google Ads tag', 'website', 'yes/no', null, 0, null, 'A Google Ads conversion tag (AW-…).', web((a) => a.ads.googleAds)),
  d('ads.meta_pixel', 'Meta (Facebook) pixel', 'website', 'yes/no', null, 0, null, 'The Meta pixel (fbq).', web((a) => a.ads.metaPixel)),
  d('ads.tiktok_pixel', 'TikTok pixel', 'website', 'yes/no', null, 0, null, 'The TikTok pixel.', web((a) => a.ads.tiktokPixel)),
  d('ads.linkedin_insight', 'LinkedIn Insight tag', 'website', 'yes/no', null, 0, null, 'The LinkedIn Insight tag.', web((a) => a.ads.linkedinInsight)),
  d('ads.bing_ads', 'Microsoft Ads tag', 'website', 'yes/no', null, 0, null, 'The Microsoft (Bing) UET tag.', web((a) => a.ads.bingAds)),
  d('ads.pixel_count', 'Advertising pixels', 'website', 'pixels', 'engagement', 1, ramp(0, 2), 'Advertising pixels found (a sign of paid acquisition).', web((a) => Object.values(a.ads).filter(Boolean).length), ['Advertise where your competitors do', 'Competitors run ads with conversion tracking; a small, tracked local campaign can win share.']),

  // Engagement: social and contact
  d('social.profiles', 'Social profiles linked', 'website', 'profiles', 'engagement', 4, ramp(0, 3), 'Social networks linked from the homepage.', web((a) => Object.values(a.socials).filter(Boolean).length), ['Link your social profiles', 'Link your Facebook, Instagram and other profiles from your site, and keep them active.']),
  d('social.facebook', 'Facebook', 'website', 'yes/no', null, 0, null, 'A facebook.com link.', web((a) => a.socials.facebook)),
  d('social.instagram', 'Instagram', 'website', 'yes/no', null, 0, null, 'An instagram.com link.', web((a) => a.socials.instagram)),
  d('social.linkedin', 'LinkedIn', 'website', 'yes/no', null, 0, null, 'A linkedin.com link.', web((a) => a.socials.linkedin)),
  d('social.x', 'X (Twitter)', 'website', 'yes/no', null, 0, null, 'An x.com or twitter.com link.', web((a) => a.socials.x)),
  d('social.youtube', 'YouTube', 'website', 'yes/no', null, 0, null, 'A youtube.com link.', web((a) => a.socials.youtube)),
  d('social.tiktok', 'TikTok', 'website', 'yes/no', null, 0, null, 'A tiktok.com link.', web((a) => a.socials.tiktok)),
  d('engagement.contact_form', 'Contact form', 'website', 'yes/no', 'engagement', 4, BOOL, 'A form with a message box or an e-mail field and at least three fields.', web((a) => a.contactForm), ['Add a contact form', 'A short contact form turns visitors who are not ready to call into leads.']),
  d('engagement.tel_link', 'Click-to-call link', 'website', 'yes/no', 'engagement', 4, BOOL, 'A tel: link (one tap to call on a phone).', web((a) => a.telLinks.length > 0), ['Make your number tap-to-call', 'Wrap your phone number in a tel: link so mobile visitors can call with one tap.']),
  d('engagement.mailto_link', 'E-mail link', 'website', 'yes/no', 'engagement', 1, BOOL, 'A mailto: link.', web((a) => a.mailtoLinks > 0), ['Show an e-mail address', 'Some customers prefer e-mail; add a mailto link.']),
  d('engagement.call_to_action', 'Call to action', 'website', 'yes/no', 'engagement', 3, BOOL, 'A clear call to action ("Book now", "Call us today", "Get a quote"...).', web((a) => a.callToAction), ['Add a clear call to action', 'Put one obvious next step ("Book now", "Call today") at the top of the homepage.']),
  d('engagement.opening_hours', 'Opening hours on the site', 'website', 'yes/no', 'engagement', 2, BOOL, 'Opening hours in the text or structured data.', web((a) => a.openingHours), ['Show your opening hours', 'Visitors check the hours before they come; show them on the homepage.']),
  d('engagement.testimonials', 'Testimonials on the site', 'website', 'yes/no', 'engagement', 1, BOOL, 'Testimonials or quoted reviews on the homepage.', web((a) => a.testimonials), ['Show testimonials', 'Quote your best reviews on the homepage: social proof converts visitors.']),
  d('engagement.newsletter', 'Newsletter sign-up', 'website', 'yes/no', null, 0, null, 'A newsletter or subscribe form.', web((a) => a.newsletter)),
  d('engagement.map_embed', 'Map on the site', 'website', 'yes/no', null, 0, null, 'An embedded map.', web((a) => a.mapEmbed)),

  // Market (computed across the business and its competitors)
  d('market.review_share', 'Share of local reviews', 'market', '%', null, 0, null, 'The place\'s reviews as a share of all reviews of the business and its competitors.', (s) => (s.listing.reviewCount === null ? UNKNOWN : pct(s.listing.reviewCount, s.market.totalReviews) ?? 0)),
  d('market.review_position', 'Position by review count', 'market', 'position', 'marketShare', 8, inverse(1, COMPETITOR_COUNT + 1), 'Position among the businesses compared by number of reviews, 1 = the most (ties share a position), on a fixed scale from 1st to the last of the most businesses a report compares. A position, not a share: a new competitor with more reviews than everyone moves every business down one place alike, so it can never lift anyone\'s rank (decision 0151).', (s) => s.market.reviewPosition ?? UNKNOWN, ['Grow your share of local reviews', 'Competitors hold more reviews than you; a review request after every visit closes the gap.']),
  d('market.review_volume', 'Review volume', 'market', 'reviews', 'marketShare', 4, log(0, 1000), 'The listing\'s review count on a logarithmic scale (0 reviews = 0, 1,000 or more = 1, each tenfold counting the same): how much attention the business holds, whatever the market around it.', (s) => (s.listing.reviewCount === null ? (s.listingFound ? 0 : UNKNOWN) : s.listing.reviewCount), ['Build your review volume', 'Each tenfold in reviews counts the same: going from 10 to 100 lifts you as much as from 100 to 1,000. Ask for a review after every visit.']),
  // On-page local signals (the homepage already fetched).
  d('site.city_in_title', 'City in the page title', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The <title> names the market\'s city.', localSignal((a) => a.title, 'city'), LOCAL_ADVICE),
  d('site.category_in_title', 'Category in the page title', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The <title> names the business\'s category ("dentist", "dental"...).', localSignal((a) => a.title, 'category'), LOCAL_ADVICE),
  d('site.city_in_h1', 'City in the main heading', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'An <h1> names the market\'s city.', localSignal((a) => a.h1.join(' · '), 'city'), LOCAL_ADVICE),
  d('site.category_in_h1', 'Category in the main heading', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'An <h1> names the business\'s category.', localSignal((a) => a.h1.join(' · '), 'category'), LOCAL_ADVICE),
  d('site.city_in_description', 'City in the meta description', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The meta description names the market\'s city.', localSignal((a) => a.metaDescription, 'city'), LOCAL_ADVICE),
  d('site.category_in_description', 'Category in the meta description', 'website', 'yes/no', 'digitalPresence', 1, BOOL, 'The meta description names the business\'s category.', localSignal((a) => a.metaDescription, 'category'), LOCAL_ADVICE),
  // Local visibility (the geo-grid scan, visibility.ts): SoLV enters Market Share beside the review share.
  d('visibility.solv', 'Share of Local Voice', 'search', '%', 'marketShare', 8, ramp(0, 60), 'Share of the visibility grid\'s points where a local search for the report\'s keywords lists the place in the top 3 (the local pack).', grid((v) => v.solv), ['Win the local pack around you', 'Searchers near you see competitors in the top 3 at most points of the grid: a complete listing, more reviews and your city and category on your site move you up where customers search.']),
  d('visibility.arp', 'Average rank position', 'search', 'rank', null, 0, null, 'Mean rank of the place over the grid points where a local search lists it in the top 20 (not applicable when it is listed at none).', grid((v) => v.arp ?? NA)),
  d('visibility.atrp', 'Average total rank position', 'search', 'rank', null, 0, null, 'Mean rank of the place over every grid point, a point where it is not in the top 20 counted as 21.', grid((v) => v.atrp)),
  d('market.review_count_vs_median', 'Review count versus the market median', 'market', 'ratio', null, 0, null, 'Review count divided by the market\'s median review count.', (s) => (s.listing.reviewCount === null ? UNKNOWN : s.market.medianReviewCount > 0 ? Math.round((s.listing.reviewCount / s.market.medianReviewCount) * 100) / 100 : 0)),
  d('market.rating_vs_average', 'Rating versus the market average', 'market', 'stars', null, 0, null, 'Rating minus the market\'s average rating.', (s) => (s.listing.rating === null || s.market.averageRating === null ? UNKNOWN : Math.round((s.listing.rating - s.market.averageRating) * 100) / 100)),
  d('market.prominence_position', 'Prominence position', 'market', 'position', null, 0, null, 'Position among the business and its competitors by prominence (reviews and rating), 1 = most prominent.', (s) => s.market.prominencePosition),
  d('market.velocity_share', 'Share of the market\'s recent reviews', 'market', '%', null, 0, null, 'The place\'s reviews in the last 90 days as a share of the market\'s (needs every review).', (s) => (s.market.totalLast90 === null ? UNKNOWN : windowed(90, (r) => pct(r.last90, s.market.totalLast90!) ?? 0)(s))),
  d('market.places', 'Businesses compared', 'market', 'businesses', null, 0, null, 'The business plus the competitors found.', (s) => s.market.places),
  d('market.total_reviews', 'Reviews in the market', 'market', 'reviews', null, 0, null, 'Total reviews of the business and its competitors.', (s) => s.market.totalReviews),
  d('market.average_rating', 'Market average rating', 'market', 'stars', null, 0, null, 'Mean rating of the business and its competitors.', (s) => s.market.averageRating),
  d('market.median_reviews', 'Market median review count', 'market', 'reviews', null, 0, null, 'Median review count.', (s) => s.market.medianReviewCount),
  d('market.nearest_other_miles', 'Nearest other business compared', 'market', 'miles', null, 0, null, 'Distance to the nearest other business in the comparison.', (s) => s.market.nearestOtherMiles),
  d('market.others_within_5_miles', 'Others within 5 miles', 'market', 'businesses', null, 0, null, 'Other compared businesses within 5 miles.', (s) => s.market.othersWithin5),
];

/** Points computed from other points (sums, ratios, restatements, tool names behind a yes/no) or
 *  equal for every business compared (figures of the market). */
const DERIVED = new Set([
  'reviews.monthly_velocity', 'reviews.velocity_trend', 'reviews.neutral_share', 'reviews.sample_complete', 'reviews.sampled_average',
  'reviews.sampled', 'tech.booking_tool', 'tech.chat_tool', 'tech.analytics_tools', 'social.profiles', 'ads.pixel_count', 'site.title', 'site.title_present', 'site.meta_description_present', 'site.copyright_current',
  'listing.attributes_stated', 'market.places', 'market.total_reviews', 'market.average_rating', 'market.median_reviews',
  'market.review_share', 'market.review_count_vs_median', 'market.rating_vs_average', 'market.prominence_position', 'market.velocity_share', 'market.review_position', 'market.review_volume',
  'visibility.arp', 'visibility.atrp',
]);

/** What the owner would do, by data point: one recommendation per lever. A point not named here
 *  is its own lever. */
const LEVERS: Record<string, string[]> = {
  'reviews.ask': ['reviews.count', 'reviews.last_30_days', 'reviews.last_90_days', 'reviews.days_since_latest', 'reviews.velocity_trend', 'reviews.gained_per_month', 'market.review_position', 'market.review_volume'],
  'reviews.experience': ['reviews.rating', 'reviews.share_5_star', 'reviews.share_1_star', 'reviews.sentiment_average', 'reviews.positive_share', 'reviews.negative_share', 'reviews.negative_themes'],
  'reviews.reply': ['engagement.response_rate', 'engagement.negative_response_rate', 'engagement.median_response_hours'],
  'site.speed': ['site.response_ms', 'site.page_weight_kb', 'site.compressed', 'site.cache_control', 'site.render_blocking_scripts'],
  'site.title': ['site.title_present', 'site.title_length'],
  'site.description': ['site.meta_description_present', 'site.meta_description_length'],
  'site.structured_data': ['site.schema_local_business', 'site.schema_address', 'site.schema_phone', 'site.schema_opening_hours', 'site.schema_geo', 'site.schema_same_as'],
  'site.modernise': ['site.deprecated_tags', 'site.viewport'],
  'site.share_tags': ['site.og_title', 'site.og_image', 'site.og_description', 'site.twitter_card'],
  'site.crawl': ['site.robots_txt', 'site.sitemap', 'site.canonical'],
  'site.https': ['site.https', 'site.mixed_content', 'site.http_redirects_to_https'],
  'site.security_headers': ['site.hsts', 'site.csp', 'site.x_content_type_options', 'site.frame_protection', 'site.referrer_policy'],
  'reviews.ask_on_site': ['engagement.review_link'],
  'site.nap': ['site.nap_name', 'site.nap_phone', 'site.nap_address', 'site.schema_nap_match'],
  'site.local_signals': ['site.city_in_title', 'site.category_in_title', 'site.city_in_h1', 'site.category_in_h1', 'site.city_in_description', 'site.category_in_description'],
  'listing.complete': ['listing.has_address', 'listing.has_phone', 'listing.has_hours', 'listing.photos', 'listing.editorial_summary', 'listing.attributes_stated'],
  'listing.claim': ['listing.found', 'listing.claimed'],
  'engagement.contact': ['engagement.contact_form', 'engagement.mailto_link', 'site.contact_page'],
};
const LEVER_OF = new Map(Object.entries(LEVERS).flatMap(([lever, keys]) => keys.map((k) => [k, lever] as const)));

const WINDOWED = ['reviews.last_30_days', 'reviews.last_90_days', 'reviews.last_365_days', 'reviews.previous_90_days', 'reviews.monthly_velocity', 'reviews.velocity_trend', 'market.velocity_share'];
const OWNER_REPLIES = ['engagement.response_rate', 'engagement.negative_response_rate', 'engagement.median_response_hours', 'engagement.responses_last_90_days'];
const YELP_ONLY = ['listing.claimed', 'listing.transactions', 'listing.special_hours'];
const ATTRIBUTE_KEYS = ['listing.attributes_stated', ...LISTING_ATTRIBUTES.map((a) => `listing.${snake(a)}`)];
/** Data points a provider never gives (the methodology's count per provider; the analysis finds
 *  the same at run time, as "not given", and leaves them out for every business). */
export const NOT_FROM: Record<ProviderName, Set<string>> = {
  sample: new Set(YELP_ONLY),
  google: new Set([...YELP_ONLY, ...OWNER_REPLIES, ...WINDOWED, 'reviews.days_since_latest']),
  yelp: new Set(['listing.has_website', 'listing.editorial_summary', ...ATTRIBUTE_KEYS, ...OWNER_REPLIES]),
};
/** Needs an earlier report of the same business. */
export const NEEDS_HISTORY = new Set(['reviews.gained_per_month']);

export const DATA_POINTS: DataPointDef[] = REGISTRY.map((def) => ({ ...def, derived: DERIVED.has(def.key), lever: def.advice ? (LEVER_OF.get(def.key) ?? def.key) : null }));

export function normalise(norm: Norm, value: Value): number {
  if (norm.kind === 'bool') return value === true ? 1 : 0;
  const v = typeof value === 'number' && Number.isFinite(value) ? value : null;
  if (v === null) return 0;
  const clamp = (x: number) => Math.min(1, Math.max(0, x));
  if (norm.kind === 'ramp') return clamp((v - norm.lo) / (norm.hi - norm.lo));
  if (norm.kind === 'inverse') return clamp((norm.hi - v) / (norm.hi - norm.lo));
  if (norm.kind === 'log') return clamp((Math.log10(1 + Math.max(0, v)) - Math.log10(1 + norm.lo)) / (Math.log10(1 + norm.hi) - Math.log10(1 + norm.lo)));
  if (v < norm.idealLo) return clamp((v - norm.zeroLo) / (norm.idealLo - norm.zeroLo));
  if (v > norm.idealHi) return clamp((norm.zeroHi - v) / (norm.zeroHi - norm.idealHi));
  return 1;
}

export function describeNorm(norm: Norm | null): string {
  if (!norm) return '';
  if (norm.kind === 'bool') return 'yes = 1, no = 0';
  if (norm.kind === 'ramp') return `0 at ≤ ${norm.lo}, 1 at ≥ ${norm.hi}, linear between`;
  if (norm.kind === 'inverse') return `1 at ≤ ${norm.lo}, 0 at ≥ ${norm.hi}, linear between`;
  if (norm.kind === 'log') return `0 at ≤ ${norm.lo}, 1 at ≥ ${norm.hi}, linear in the logarithm between`;
  return `1 from ${norm.idealLo} to ${norm.idealHi}, falling to 0 at ${norm.zeroLo} and ${norm.zeroHi}`;
}

/** The data points of one place, in registry order, each with its status. */
export function collectDataPoints(subject: Subject): DataPoint[] {
  return collectMarket([subject], '', { wholeMarket: false })[0]!;
}

/** The data points of every place compared, on one basis: a point the source gives for none of
 *  them (owner replies, Yelp's websites) does not apply to any of them. A point that could not be
 *  read because a call failed stays unknown. */
export function collectMarket(subjects: Subject[], sourceLabel: string, options: { wholeMarket?: boolean } = {}): DataPoint[][] {
  // Every place of the report (a market of one, without competitors, too); one place alone
  // (collectDataPoints) cannot tell a point the source never gives from one it lacks for this place.
  const wholeMarket = options.wholeMarket ?? true;
  const gots = subjects.map((s) =>
    DATA_POINTS.map((def): Got | typeof NOT_LISTED | typeof NO_REVIEWS => {
      if (!s.listingFound && def.score && (LISTING_SCORED(def.key) || def.key === 'listing.found')) return s.lookupFailed ? UNKNOWN : def.key === 'listing.found' ? false : NOT_LISTED;
      if (hasNoReviews(s) && NO_REVIEWS_WORST.has(def.key)) return NO_REVIEWS;
      if (hasNoReviews(s) && NO_REVIEWS_NA.has(def.key)) return NA;
      return def.get(s);
    }),
  );
  // An unlisted business's points do not stop a point no listing gives from being left out for all.
  const market = gots.filter((_, si) => !subjects[si]!.ownSource);
  const droppedForAll = DATA_POINTS.map((_, i) => wholeMarket && market.some((g) => g[i] === NOT_GIVEN) && market.every((g) => g[i] === NOT_GIVEN || g[i] === NA || g[i] === NOT_LISTED));
  return subjects.map((subject, si) =>
    DATA_POINTS.map((def, i) => {
      const got = gots[si]![i]!;
      const noMarket = noMarketWhy(def.key, def, subject.market.competitors);
      // Without a market its positions and shares do not apply, and the Market Share points are
      // the place's own findings, shown but feeding no score.
      const base = { key: def.key, label: def.label, unit: def.unit, score: noMarket && def.score === 'marketShare' ? null : def.score, ...(def.derived ? { derived: true } : {}) };
      if (noMarket && (MARKET_POSITIONS.has(def.key) || MARKET_FIGURES.has(def.key))) return { ...base, value: null, status: 'not_applicable' as const, how: noMarket };
      if (droppedForAll[i]) return { ...base, value: null, status: 'not_applicable' as const, how: `${sourceLabel} gives this for none of the businesses compared, so it is left out for all of them.` };
      if (isPartial(got)) {
        const r = resolvePartial(def, got);
        if ('unknown' in r) return { ...base, value: null, status: 'unknown' as const, unseen: true, how: `${def.how} Not seen: ${r.unknown}` };
        return { ...base, value: r.value, status: 'measured' as const, ...(r.atLeast ? { atLeast: true } : {}), how: howMeasured(def, subject) };
      }
      if (got === NOT_GIVEN) return { ...base, value: null, status: 'unknown' as const, how: `${def.how} ${sourceLabel || 'The source'} does not give it for this business.` };
      // A scored point with no value is unknown, never its worst value.
      if (got === UNKNOWN || (got === null && def.score)) return { ...base, value: null, status: 'unknown' as const, how: def.how };
      if (got === NA) return { ...base, value: null, status: 'not_applicable' as const, how: def.how };
      if (got === BAD_CERT) {
        const because: AbsentBecause = subject.site?.certificate?.problem === 'name' ? 'certificate_name' : 'bad_certificate';
        return { ...base, value: false, status: 'measured' as const, how: `${def.how} ${ABSENT_WHY[because]}`, absentBecause: because };
      }
      if (got === ABSENT || got === NOT_LISTED || got === NO_REVIEWS) {
        const because: AbsentBecause = got === NOT_LISTED ? 'not_listed' : got === NO_REVIEWS ? 'no_reviews' : SITE_ABSENT[subject.siteState] ?? 'site_down';
        // One fact (no site to visit, no listing, no reviews) behind every such point: derived
        // from it, not counted apart.
        if (!def.score) return { ...base, value: null, status: 'not_applicable' as const, derived: true, how: ABSENT_WHY[because] };
        return { ...base, value: null, status: 'measured' as const, derived: true, how: ABSENT_WHY[because], absentBecause: because };
      }
      return { ...base, value: got, status: 'measured' as const, how: noMarket ? `${howMeasured(def, subject)} ${noMarket}` : howMeasured(def, subject), ...sentimentBasis(def, subject) };
    }),
  );
}

/** The registry's sentence, plus where excerpt-based review figures come from. */
function howMeasured(def: DataPointDef, subject: Subject): string {
  const r = subject.reviews;
  const measured = r ? Object.values(r.languages).reduce((a, b) => a + b, 0) - r.sentimentNotMeasured : 0;
  const skipped = r && SENTIMENT_KEYS.has(def.key) && r.sentimentNotMeasured > 0 ? ` ${measured} review${measured === 1 ? '' : 's'} measured; ${r.sentimentNotMeasured} not measured (${languageList(r.notMeasuredLanguages)}) left out.` : '';
  if (def.source === 'reviews' && r && (!r.complete || subject.ownSource)) return `${def.how} From ${subject.reviewSource}.${skipped}`;
  return `${def.how}${skipped}`;
}
/** A sentiment figure read from some of the texts: how many were measured and how many not. */
function sentimentBasis(def: DataPointDef, subject: Subject): Pick<DataPoint, 'measuredOf'> {
  const r = subject.reviews;
  if (!r || !SENTIMENT_KEYS.has(def.key) || r.sentimentNotMeasured === 0) return {};
  const texts = Object.values(r.languages).reduce((a, b) => a + b, 0);
  return { measuredOf: { measured: texts - r.sentimentNotMeasured, texts, notMeasured: r.notMeasuredTexts } };
}
const SENTIMENT_KEYS = new Set(['reviews.sentiment_average', 'reviews.positive_share', 'reviews.negative_share', 'reviews.neutral_share']);

/** Data points that count toward the 90+: measured and not derived. */
export const independentMeasured = (points: DataPoint[]) => points.filter((p) => p.status === 'measured' && !p.derived);

export const dataPointDef = (key: string) => DATA_POINTS.find((d) => d.key === key);

/** Each place's position by review count among the places compared: the number with more reviews,
 *  plus one (ties share a position); null where the count is unknown. Market Share scores this
 *  position, not the share itself: a competitor with more reviews than all others moves every
 *  place down one position alike, so it cannot reorder them (decision 0151). */
export function reviewPositions(counts: Array<number | null>): Array<number | null> {
  return counts.map((c) => (c === null ? null : counts.filter((o) => o !== null && o > c).length + 1));
}
