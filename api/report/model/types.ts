// The contract between the analysis pipeline (geocode → identify → discover → reviews →
// websites → data points → scores → rank → recommendations) and what consumes its result
// (persist, render, deliver, the online report, the dashboard).

export type { ScoreKey } from '../../../common/constants.ts';
import type { ScoreKey, Tier } from '../../../common/constants.ts';
import type { ReportAiAnswers } from '../../../common/ai-visibility.ts';
import { type BusinessContact, contactOf } from '../../../common/schemas/report-request.ts';
export type ProviderName = 'sample' | 'google' | 'yelp';

/** What the analysis reads of a business: its contact fields, as the request form named them. */
export interface ReportInput extends BusinessContact {
  businessId: string;
}

/** What the analysis reads of a stored business (a `businesses` row). */
export function reportInput(business: BusinessContact & { id: string }): ReportInput {
  return { businessId: business.id, ...contactOf(business) };
}

export interface GeoPoint {
  latitude: number;
  longitude: number;
  /** zip: ZIP centroid; city: the ZIP was unknown and the city was used; geocoder: an online geocoder. */
  source: 'zip' | 'city' | 'geocoder';
}

/** A place as a provider lists it (distance is computed by the analysis). */
export interface Listing {
  placeId: string;
  name: string;
  address: string | null;
  phone: string | null;
  website: string | null;
  rating: number | null;
  reviewCount: number | null;
  latitude: number;
  longitude: number;
  /** The provider's own category id (Google type, Yelp alias), used to search for competitors. */
  providerCategory: string | null;
  /** Human-readable category as the provider names it. */
  categoryLabel: string | null;
}

/** A place in the report: a provider's listing, its category named for people. */
export interface Place extends Omit<Listing, 'providerCategory' | 'categoryLabel'> {
  category: string | null;
  /** Great-circle miles from the business, 2 decimals; 0 for the business itself. */
  distanceMiles: number;
}

export interface Review {
  rating: number;
  text: string;
  author: string | null;
  date: string; // ISO 8601
  url: string | null;
  ownerResponse: { date: string | null; text: string } | null;
  /** The language of `text` as the provider states it (BCP-47), when it does. */
  language?: string | null;
  /** The provider's English translation of `text`, when it gives one; `text` stays the original
   *  (the words quoted). */
  translation?: string | null;
}

/** measured: read from the source; not_applicable: does not apply to this business or to anyone in
 *  this report (no low reviews to answer; a figure the provider gives for nobody); unknown: could
 *  not be measured for this business (provider failure, a source that does not give it). */
export type PointStatus = 'measured' | 'not_applicable' | 'unknown';

export interface DataPoint {
  /** Stable key, defined once in docs/methodology.md. */
  key: string;
  label: string;
  value: number | string | boolean | null;
  unit: string;
  /** The score it feeds, or null when it is shown but not scored. */
  score: ScoreKey | null;
  status: PointStatus;
  /** Computed from other data points (a sum, a ratio, a restatement) or equal for every business
   *  compared (a figure of the market): shown, but not counted as an independent measurement. */
  derived?: boolean;
  /** How this value was measured, in one sentence. */
  how?: string;
  /** A scored point measured at its worst because of one fact behind it: the website did not
   *  answer, there is no website, the provider does not list the business, it has no reviews.
   *  Recommendations fold such points into the one action that fixes that fact. */
  absentBecause?: AbsentBecause;
  /** The value is a lower bound that scores as the value itself (a page still arriving after the
   *  time limit: "at least 8000 ms"). */
  atLeast?: boolean;
  /** Unknown because that part of the website could not be seen (a site refusing automated
   *  visitors, a page cut short or drawn by JavaScript), never because it is missing. */
  unseen?: boolean;
  /** A figure read from some of the texts only (sentiment: texts in a language not measured, or
   *  whose language could not be told, are left out): how many were measured, of how many. */
  measuredOf?: { measured: number; texts: number; notMeasured?: UnmeasuredText[] };
}

/** A review text whose sentiment was not measured: its language (ISO 639-1, "unknown" when it
 *  could not be told) and its stars, which still count in the star figures. */
export interface UnmeasuredText {
  language: string;
  rating: number;
}

/** not_own_site: the website given is a page of another platform (decision 0230); not_published:
 *  a parked domain, a placeholder or a password prompt; bad_certificate / certificate_name: HTTPS
 *  at its worst because browsers warn about the certificate. */
export type AbsentBecause = 'site_down' | 'no_site' | 'not_listed' | 'no_reviews' | 'not_own_site' | 'not_published' | 'bad_certificate' | 'certificate_name';

export interface ScorePart {
  key: string;
  label: string;
  source: 'listing' | 'reviews' | 'website' | 'market' | 'search';
  /** The value formatted with its unit, or 'Unknown' / 'Not applicable'. */
  raw: string;
  /** 0-1; null when not measured. */
  normalised: number | null;
  weight: number;
  /** Points this part adds to the 1-10 score; null when not measured. */
  contribution: number | null;
  status: PointStatus;
  /** Read from a few review excerpts: "from 3 reviews read" (its weight is scaled down for it). */
  note?: string;
}

export interface ScoreBreakdown {
  /** null = "Not enough data": less than COVERAGE_FLOOR of the weight was measured. */
  score: number | null;
  /** Weight of the measured parts. */
  measuredWeight: number;
  /** Weight of the parts that apply (measured + unknown; not-applicable parts are left out). */
  totalWeight: number;
  /** measuredWeight / totalWeight, 0-1 (0 when nothing applies). */
  coverage: number;
  parts: ScorePart[];
}

/** Each 1-10 with 2 decimals; null = "Not enough data" (see ScoreBreakdown). */
export interface Scores {
  reviews: number | null;
  digitalPresence: number | null;
  engagement: number | null;
  marketShare: number | null;
  /** Weighted mean of the scores that have a number (their weights rescaled); null when none has. */
  overall: number | null;
  /** Share of the local market's reviews, as a percent with 2 decimals (not a 1-10 score); null
   *  when the place's review count is unknown ("Not enough data"). */
  marketSharePercent: number | null;
}

export interface AnalysedPlace {
  place: Place;
  isMainBusiness: boolean;
  scores: Scores;
  /** How each score was computed: every data point feeding it, its weight and contribution. */
  breakdown: Record<ScoreKey, ScoreBreakdown>;
  /** Rows scoring higher on overall, plus one; places with no overall (not enough data) rank
   *  after every place that has one, sharing the last rank. */
  rank: number;
  dataPoints: DataPoint[];
  techStack: Record<string, unknown>;
  reviewVelocity: Record<string, unknown>;
  sentiment: Record<string, unknown>;
  ads: Record<string, unknown>;
  /** How its website was met (decision 0217); absent on reports made before it, and when no
   *  website was read. */
  website?: WebsiteRead;
  /** A competitor that is another location of the business's brand, and what told it (its
   *  website's domain, a phone line both list, its name): marked "your brand" (decision 0235). */
  brand?: 'website' | 'phone' | 'name';
}

/** The competitors that are other locations of the business's brand, and whether the rank counts
 *  them: by default it does not (independent competitors first), an owner may choose to
 *  ('chosen'), and it must when without them there are too few competitors to rank against
 *  ('too_few'). Decision 0235. */
export interface BrandBranches {
  count: number;
  counted: boolean;
  why: 'default' | 'chosen' | 'too_few';
}

/** down: no connection, no DNS answer, no answer in time; error_page: the server answered with
 *  an error page (4xx, or a 5xx on every try); refused: the server refuses automated visitors
 *  (403/429, a bot-protection challenge); too_large: only the first part read; slow: answered
 *  slowly; script_rendered: the page's content is drawn by JavaScript; read: read in full
 *  (decision 0217). Decision 0230: social, link_in_bio, marketplace: the address is a page of
 *  someone else's platform, not an own website; parked: a parked or for-sale domain; placeholder:
 *  under construction, coming soon, a web server's default page; password: a password prompt;
 *  cert_error: the server answered, and a browser warns about its certificate. */
export type SiteReadState = 'read' | 'down' | 'error_page' | 'refused' | 'too_large' | 'slow' | 'script_rendered' | 'social' | 'link_in_bio' | 'marketplace' | 'parked' | 'placeholder' | 'password' | 'cert_error';

export interface WebsiteRead {
  state: SiteReadState;
  /** Why, in words ("a Cloudflare challenge page (HTTP 503)", "no DNS answer for its domain"). */
  detail: string | null;
  /** Besides the headline: also slow, also drawn by JavaScript. */
  slow: boolean;
  scriptRendered: boolean;
  /** Website data points that could not be seen (unknown, not missing). */
  unseen: number;
  /** The page forwarded the visitor by a meta refresh or a script to this address (followed). */
  via?: { by: 'meta refresh' | 'script'; to: string };
}

export interface Recommendation {
  /** What the owner would do (one id per action: "reviews.ask", "site.fix"...); no two
   *  recommendations of a report share a lever. */
  lever: string;
  title: string;
  detail: string;
  score: ScoreKey;
  /** Points the score would gain (1-10 scale), the order key. */
  gain: number;
  /** Keys of the data points that justify it. */
  evidence: string[];
}

export interface ReportData {
  generatedAt: string;
  provider: ProviderName;
  /** True when made from the offline sample provider: every rendering of the report says so. */
  sampleData: boolean;
  /** Plain-language notes on what was missing or approximated (unknown ZIP, provider failure...). */
  notes: string[];
  /** AI answers (issue 50): the latest scans, added when the report is drawn; absent without any. */
  aiAnswers?: ReportAiAnswers | null;
  location: GeoPoint;
  category: string;
  radiusMiles: number;
  business: AnalysedPlace;
  /** Up to 9, by prominence. */
  competitors: AnalysedPlace[];
  /** Five, ordered by gain. */
  recommendations: Recommendation[];
  /** The local visibility grid (reports made before it existed have none). */
  visibility?: VisibilityScan;
  /** Other locations of the business's brand among the competitors; absent when there are none
   *  (and on reports made before decision 0235). */
  branches?: BrandBranches;
  /** The business's own reviews as the provider gave them. Persisting records the low ones as
   *  Early Warning alerts (api/services/review-alerts.ts); they are not kept in the report snapshot. */
  ownReviews?: Review[];
}

// ---- local visibility (the geo-grid scan, analysis/visibility.ts) -------------------------

export interface Point {
  latitude: number;
  longitude: number;
}

export interface KeywordGrid {
  keyword: string;
  /** By place id: the rank at each grid point (same order as the points), null = not in the top 20. */
  ranks: Record<string, Array<number | null>>;
}

/** What the report keeps of the scan (ReportData.visibility). */
export interface VisibilityScan {
  status: 'measured' | 'not_measured';
  /** Why it was not measured, or what was cut (keywords beyond the call budget). */
  reason: string | null;
  provider: ProviderName;
  sampleData: boolean;
  tier: Tier;
  size: number;
  radiusMiles: number;
  spacingMiles: number;
  basis: string;
  center: Point;
  points: Point[];
  /** Only the keywords whose every point was searched. */
  keywords: KeywordGrid[];
  /** Searches sent to the provider for this report, and those answered from the cache. */
  calls: number;
  cached: number;
}

