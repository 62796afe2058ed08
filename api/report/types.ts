// The contract between the analysis pipeline (geocode → identify → discover → reviews →
// websites → data points → scores → rank → recommendations) and what consumes its result
// (persist, render, deliver, the online report, the dashboard).

export type ScoreKey = 'reviews' | 'digitalPresence' | 'engagement' | 'marketShare';
export type ProviderName = 'sample' | 'google' | 'yelp';

export interface ReportInput {
  businessId: string;
  fullName: string;
  email: string;
  company: string;
  website: string;
  address: string;
  city: string;
  state: string;
  zip: string;
}

/** What the analysis reads of a stored business (a `businesses` row). */
export function reportInput(business: Omit<ReportInput, 'businessId'> & { id: string }): ReportInput {
  const { id, fullName, email, company, website, address, city, state, zip } = business;
  return { businessId: id, fullName, email, company, website, address, city, state, zip };
}

export interface GeoPoint {
  latitude: number;
  longitude: number;
  /** zip: ZIP centroid; city: the ZIP was unknown and the city was used; geocoder: an online geocoder. */
  source: 'zip' | 'city' | 'geocoder';
}

export interface Place {
  placeId: string;
  name: string;
  address: string | null;
  phone: string | null;
  website: string | null;
  rating: number | null;
  reviewCount: number | null;
  latitude: number;
  longitude: number;
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
}

export interface DataPoint {
  /** Stable key, defined once in docs/methodology.md. */
  key: string;
  label: string;
  value: number | string | boolean | null;
  unit: string;
  /** The score it feeds, or null when it is shown but not scored. */
  score: ScoreKey | null;
  /** True when the source could not give it (provider failure, site unreachable): shown as missing. */
  missing?: boolean;
}

export interface Scores {
  reviews: number; // 1-10, 2 decimals
  digitalPresence: number;
  engagement: number;
  marketShare: number;
  overall: number;
  /** Share of the local market's reviews, as a percent with 2 decimals. */
  marketSharePercent: number;
}

export interface AnalysedPlace {
  place: Place;
  isMainBusiness: boolean;
  scores: Scores;
  /** Rows scoring higher on overall, plus one. */
  rank: number;
  dataPoints: DataPoint[];
  techStack: Record<string, unknown>;
  reviewVelocity: Record<string, unknown>;
  sentiment: Record<string, unknown>;
  ads: Record<string, unknown>;
}

export interface Recommendation {
  title: string;
  detail: string;
  score: ScoreKey;
  /** Points the score would gain (1-10 scale), the order key. */
  gain: number;
}

export interface ReportData {
  generatedAt: string;
  provider: ProviderName;
  /** True when made from the offline sample provider: every rendering of the report says so. */
  sampleData: boolean;
  /** Plain-language notes on what was missing or approximated (unknown ZIP, provider failure...). */
  notes: string[];
  location: GeoPoint;
  category: string;
  radiusMiles: number;
  business: AnalysedPlace;
  /** Up to 9, by prominence. */
  competitors: AnalysedPlace[];
  /** Five, ordered by gain. */
  recommendations: Recommendation[];
  /** The business's own reviews as the provider gave them. Persisting records the low ones as
   *  Early Warning alerts (api/services/review-alerts.ts); they are not kept in the report snapshot. */
  ownReviews?: Review[];
}
