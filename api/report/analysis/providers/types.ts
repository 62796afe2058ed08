// One interface for places and reviews; three implementations (sample, google, yelp).
import type { BusinessContact } from '../../../../common/schemas/report-request.ts';
import type { GeoPoint, Listing, ProviderName, Review } from '../../model/types.ts';

// The listing is the report's contract (api/report/model/types.ts), where a report's Place extends it.
export type { Listing } from '../../model/types.ts';

export interface IdentifyQuery extends Pick<BusinessContact, 'company' | 'address' | 'city' | 'state' | 'zip' | 'website'> {
  point: GeoPoint;
  /** The geocoder's anchor ZIP (the sample provider builds its market around it). */
  anchorZip: string | null;
  /** Category inferred from the company name (and the website), when there is one. */
  categoryId: string;
}

export interface DiscoverQuery {
  point: GeoPoint;
  categoryId: string;
  providerCategory: string | null;
  radiusMiles: number;
  /** How many to return at most, best first (prominence). */
  limit: number;
  excludePlaceId: string | null;
  anchorZip: string | null;
  city: string;
  state: string;
  company: string;
}

/** Listing attributes a provider may state (accessibility, payment, parking, amenities). */
export const LISTING_ATTRIBUTES = [
  'wheelchairAccessibleEntrance', 'wheelchairAccessibleParking', 'wheelchairAccessibleRestroom', 'wheelchairAccessibleSeating',
  'acceptsCreditCards', 'acceptsDebitCards', 'acceptsNfc', 'acceptsCashOnly',
  'freeParkingLot', 'paidParkingLot', 'freeStreetParking', 'paidStreetParking', 'valetParking', 'freeGarageParking', 'paidGarageParking',
  'goodForChildren', 'allowsDogs', 'restroom',
] as const;
export type ListingAttribute = (typeof LISTING_ATTRIBUTES)[number];

/** The listing's profile as the provider gives it from its place details. A field left out
 *  (undefined) is one the provider does not give at all; null is one it gives, empty for this place. */
export interface ListingProfile {
  /** future_opening: listed, not open yet (Google's FUTURE_OPENING). */
  status?: 'operational' | 'closed_temporarily' | 'closed_permanently' | 'future_opening' | null;
  /** Regular opening hours: days open a week and hours open a week. */
  hours?: { days: number; weeklyHours: number } | null;
  photos?: number;
  types?: number;
  editorialSummary?: boolean;
  priceLevel?: string | null;
  claimed?: boolean;
  transactions?: number;
  specialHours?: boolean;
  /** Attributes the listing states (true or false); one not stated is absent. */
  attributes?: Partial<Record<ListingAttribute, boolean>>;
}

/** Days and hours open a week from opening periods given as day (0-6) and minutes from midnight. */
export function weeklyHours(periods: Array<{ day: number; open: number; close: number }>): { days: number; weeklyHours: number } | null {
  if (periods.length === 0) return null;
  const days = new Set(periods.map((p) => p.day)).size;
  const minutes = periods.reduce((s, p) => s + ((p.close - p.open + 24 * 60) % (24 * 60) || 24 * 60), 0);
  return { days, weeklyHours: Math.round((minutes / 60) * 10) / 10 };
}

export interface ReviewsResult {
  /** The listing's profile from the same place-details call (hours, photos, attributes...). */
  profile?: ListingProfile;
  reviews: Review[];
  /** True when the provider gives every review (sample); false when it gives a few excerpts. */
  complete: boolean;
  /** Whether the source reports owner responses at all (Google and Yelp's APIs do not). */
  ownerResponsesKnown: boolean;
  /** The reviews are the place's newest, newest first (Yelp with sort_by=newest, the sample);
   *  false for a provider's pick by relevance (Google). */
  newestFirst: boolean;
}

/** One local search of the visibility grid: a keyword as people type it, from one point. */
export interface RankQuery {
  keyword: string;
  point: { latitude: number; longitude: number };
  /** How far around the point the search leans (Google's locationBias circle). */
  radiusMeters: number;
  categoryId: string;
  /** The places of the report (the sample provider ranks these among others of its own; real
   *  providers rank every place they know). */
  places: Array<Pick<Listing, 'placeId' | 'latitude' | 'longitude' | 'rating' | 'reviewCount'>>;
}

export interface PlacesProvider {
  name: ProviderName;
  identify(query: IdentifyQuery): Promise<Listing | null>;
  discover(query: DiscoverQuery): Promise<Listing[]>;
  reviews(place: Listing): Promise<ReviewsResult>;
  /** The place ids a local search from the point lists, best first (at most 20), in the same id
   *  form as the listings (`google:…`, `yelp:…`, the sample's own ids). */
  rankAt?(query: RankQuery): Promise<string[]>;
}

export type ProviderFailure = 'rate_limited' | 'timeout' | 'malformed' | 'http' | 'network' | 'not_configured';

export class ProviderError extends Error {
  readonly kind: ProviderFailure;
  readonly provider: ProviderName;
  /** The HTTP status, for kind 'http'. */
  readonly status: number | null;
  /** A 429 that is the provider's own cap on the account (Yelp's daily ACCESS_LIMIT_REACHED,
   *  Google's RESOURCE_EXHAUSTED quota), not a burst: reports wait for it (decision 0271). */
  readonly cap: boolean;
  constructor(provider: ProviderName, kind: ProviderFailure, message: string, status: number | null = null, cap = false) {
    super(message);
    this.name = 'ProviderError';
    this.kind = kind;
    this.provider = provider;
    this.status = status;
    this.cap = cap;
  }
}

/** The provider's cap behind an error (along its causes), or null. */
export function providerCapOf(error: unknown): ProviderError | null {
  for (let e: unknown = error, depth = 0; e && depth < 6; e = (e as { cause?: unknown }).cause, depth++) if (e instanceof ProviderError && e.cap) return e;
  return null;
}

/** A failure that may well not happen a minute later: a quota (429), a timeout, a network error,
 *  a server error (5xx). */
export const isTransient = (error: unknown) =>
  error instanceof ProviderError && (error.kind === 'rate_limited' || error.kind === 'timeout' || error.kind === 'network' || (error.kind === 'http' && (error.status ?? 0) >= 500));

/** A call the report cannot stand without failed (the business lookup, a transient failure; the
 *  competitor discovery, any failure): the stage fails and the job retries with its back-off, so
 *  a provider's bad minute never becomes a fact about the market. The message is one line. */
export class ProviderStageError extends Error {
  readonly stage: 'identify' | 'discover';
  constructor(stage: 'identify' | 'discover', message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ProviderStageError';
    this.stage = stage;
  }
}

/** Plain-language cause for the report's notes. */
export function describeFailure(error: unknown): string {
  if (error instanceof ProviderError) {
    const label = { rate_limited: 'its request quota was exhausted (429)', timeout: 'it did not answer in time', malformed: 'its answer could not be read', http: 'it answered with an error', network: 'it could not be reached', not_configured: 'it is not configured' }[error.kind];
    return `${label}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** JSON over HTTP with a time limit and one retry on 429 (honouring a short Retry-After). Every
 *  failure becomes a ProviderError: the analysis marks what is missing and goes on, or, for the
 *  calls it cannot stand without, fails the stage (ProviderStageError). */
export async function providerJson(
  provider: ProviderName,
  url: string,
  init: RequestInit,
  options: { timeoutMs: number; fetchImpl?: typeof fetch; retryOn429?: boolean },
): Promise<unknown> {
  const doFetch = options.fetchImpl ?? fetch;
  for (let attempt = 0; ; attempt++) {
    let res: Response;
    try {
      res = await doFetch(url, { ...init, signal: AbortSignal.timeout(options.timeoutMs) });
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new ProviderError(provider, 'timeout', `no answer within ${options.timeoutMs} ms`);
      throw new ProviderError(provider, 'network', (error as Error).message);
    }
    if (res.status === 429) {
      const retryAfter = Number(res.headers.get('retry-after'));
      const said = await res.text().catch(() => '');
      const cap = /ACCESS_LIMIT_REACHED|RESOURCE_EXHAUSTED/.test(said);
      if (!cap && attempt === 0 && options.retryOn429 !== false && Number.isFinite(retryAfter) && retryAfter >= 0 && retryAfter <= 2) {
        await new Promise((r) => setTimeout(r, retryAfter * 1000));
        continue;
      }
      throw new ProviderError(provider, 'rate_limited', `HTTP 429${cap ? ` (${/ACCESS_LIMIT_REACHED/.test(said) ? 'ACCESS_LIMIT_REACHED' : 'RESOURCE_EXHAUSTED'})` : ''} from ${new URL(url).pathname}`, 429, cap);
    }
    let text: string;
    try {
      text = await res.text();
    } catch (error) {
      const name = (error as Error).name;
      if (name === 'TimeoutError' || name === 'AbortError') throw new ProviderError(provider, 'timeout', `no answer within ${options.timeoutMs} ms`);
      throw new ProviderError(provider, 'network', (error as Error).message);
    }
    if (!res.ok) throw new ProviderError(provider, 'http', `HTTP ${res.status} from ${new URL(url).pathname}`, res.status);
    try {
      return JSON.parse(text);
    } catch {
      throw new ProviderError(provider, 'malformed', `not JSON from ${new URL(url).pathname}`);
    }
  }
}

export const MILES_TO_METERS = 1609.344;
