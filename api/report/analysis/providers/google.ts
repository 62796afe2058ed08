// Google Places API (New): Text Search to identify the business, Nearby Search (ranked by
// popularity) for competitors, Place Details for reviews (at most 5 per place, asked in English:
// Google translates where it can and keeps the original). Text fields are
// objects (`displayName.text`, `review.text.text`). The base URL is a setting so tests can point it
// at a local server answering in these shapes.
import { LISTING_ATTRIBUTES, ProviderError, providerJson, MILES_TO_METERS, weeklyHours, type DiscoverQuery, type IdentifyQuery, type Listing, type ListingProfile, type PlacesProvider, type RankQuery, type ReviewsResult } from './types.ts';
import { categoryById } from '../categories.ts';
import { findBusiness } from '../matching.ts';
import type { Review } from '../../model/types.ts';

export interface GoogleSettings {
  baseUrl: string;
  key: string;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
}

const PLACE_FIELDS = ['id', 'displayName', 'formattedAddress', 'nationalPhoneNumber', 'internationalPhoneNumber', 'websiteUri', 'rating', 'userRatingCount', 'location', 'primaryType', 'primaryTypeDisplayName'];
/** Place Details: the reviews and the profile fields the report measures. */
export const DETAIL_FIELDS = ['reviews', 'businessStatus', 'regularOpeningHours', 'photos', 'types', 'editorialSummary', 'priceLevel', 'accessibilityOptions', 'paymentOptions', 'parkingOptions', 'goodForChildren', 'allowsDogs', 'restroom'];
/** Nearby Search takes at most 50,000 m. */
const MAX_RADIUS_M = 50_000;

interface GPlace {
  id?: unknown;
  displayName?: { text?: unknown };
  formattedAddress?: unknown;
  nationalPhoneNumber?: unknown;
  internationalPhoneNumber?: unknown;
  websiteUri?: unknown;
  rating?: unknown;
  userRatingCount?: unknown;
  location?: { latitude?: unknown; longitude?: unknown };
  primaryType?: unknown;
  primaryTypeDisplayName?: { text?: unknown };
}

const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function toListing(p: GPlace): Listing | null {
  const id = str(p.id);
  const name = str(p.displayName?.text);
  const lat = num(p.location?.latitude);
  const lon = num(p.location?.longitude);
  if (!id || !name || lat === null || lon === null) return null;
  return {
    placeId: `google:${id}`,
    name,
    address: str(p.formattedAddress),
    phone: str(p.nationalPhoneNumber) ?? str(p.internationalPhoneNumber),
    website: str(p.websiteUri),
    rating: num(p.rating),
    reviewCount: num(p.userRatingCount) ?? 0,
    latitude: lat,
    longitude: lon,
    providerCategory: str(p.primaryType),
    categoryLabel: str(p.primaryTypeDisplayName?.text),
  };
}

function places(body: unknown, provider = 'google' as const): Listing[] {
  const list = (body as { places?: unknown } | null)?.places;
  if (list === undefined) return []; // Google omits `places` when nothing matched.
  if (!Array.isArray(list)) throw new ProviderError(provider, 'malformed', '`places` is not a list');
  return list.map((p) => toListing(p as GPlace)).filter((l): l is Listing => l !== null);
}

// businessStatus as Places API (New) documents it: FUTURE_OPENING is a place that is not open yet
// (never an unknown status); BUSINESS_STATUS_UNSPECIFIED and anything else is unknown.
const STATUS = { OPERATIONAL: 'operational', CLOSED_TEMPORARILY: 'closed_temporarily', CLOSED_PERMANENTLY: 'closed_permanently', FUTURE_OPENING: 'future_opening' } as const;
// priceLevel: PRICE_LEVEL_UNSPECIFIED says Google does not know it (no price level), never a level
// called "unspecified".
const PRICE_LEVELS = { PRICE_LEVEL_FREE: 'free', PRICE_LEVEL_INEXPENSIVE: 'inexpensive', PRICE_LEVEL_MODERATE: 'moderate', PRICE_LEVEL_EXPENSIVE: 'expensive', PRICE_LEVEL_VERY_EXPENSIVE: 'very expensive' } as const;
type Point = { day?: unknown; hour?: unknown; minute?: unknown };

/** Days and hours open a week from regularOpeningHours.periods. A place open 24/7 is one period
 *  opening on day 0 at 00:00 with no close (Places API (New)): 7 days, 168 hours, not "1 day". A
 *  period with no close that is not that one says nothing Google documents, so it is left out. */
export function openingHoursOf(periods: unknown): { days: number; weeklyHours: number } | null {
  if (!Array.isArray(periods)) return null;
  const list = (periods as Array<{ open?: Point; close?: Point } | null>).filter((x) => x !== null && typeof x === 'object' && num(x.open?.day) !== null);
  const at = (t: Point | undefined) => (num(t?.hour) ?? 0) * 60 + (num(t?.minute) ?? 0);
  const alwaysOpen = list.some((x) => !x!.close && num(x!.open!.day) === 0 && at(x!.open) === 0);
  if (alwaysOpen) return { days: 7, weeklyHours: 168 };
  return weeklyHours(list.filter((x) => x!.close && num(x!.close.day) !== null).map((x) => ({ day: num(x!.open!.day)!, open: at(x!.open), close: at(x!.close) })));
}

/** The profile fields of a Place Details answer. A field Google leaves out is empty for the place. */
export function profileOf(p: Record<string, unknown>): ListingProfile {
  const hours = openingHoursOf((p.regularOpeningHours as { periods?: unknown } | undefined)?.periods ?? []);
  const attributes: ListingProfile['attributes'] = {};
  const groups = [p.accessibilityOptions, p.paymentOptions, p.parkingOptions, { goodForChildren: p.goodForChildren, allowsDogs: p.allowsDogs, restroom: p.restroom }];
  for (const g of groups) {
    if (!g || typeof g !== 'object') continue;
    for (const [k, v] of Object.entries(g as Record<string, unknown>)) if (typeof v === 'boolean' && (LISTING_ATTRIBUTES as readonly string[]).includes(k)) attributes[k as keyof typeof attributes] = v;
  }
  return {
    status: STATUS[str(p.businessStatus) as keyof typeof STATUS] ?? null,
    hours,
    photos: Array.isArray(p.photos) ? p.photos.length : 0,
    types: Array.isArray(p.types) ? p.types.length : 0,
    editorialSummary: Boolean(str((p.editorialSummary as { text?: unknown } | undefined)?.text)),
    priceLevel: PRICE_LEVELS[str(p.priceLevel) as keyof typeof PRICE_LEVELS] ?? null,
    attributes,
  };
}

export function googleProvider(settings: GoogleSettings): PlacesProvider {
  const base = settings.baseUrl.replace(/\/$/, '');
  const headers = (mask: string) => ({ 'content-type': 'application/json', 'X-Goog-Api-Key': settings.key, 'X-Goog-FieldMask': mask });
  const call = (path: string, init: RequestInit) => providerJson('google', `${base}${path}`, init, { timeoutMs: settings.timeoutMs, fetchImpl: settings.fetchImpl });
  const mask = PLACE_FIELDS.map((f) => `places.${f}`).join(',');

  return {
    name: 'google',

    async identify(q: IdentifyQuery) {
      const body = await call('/v1/places:searchText', {
        method: 'POST',
        headers: headers(mask),
        body: JSON.stringify({
          textQuery: `${q.company}, ${q.address}, ${q.city}, ${q.state} ${q.zip}`,
          pageSize: 5,
          locationBias: { circle: { center: { latitude: q.point.latitude, longitude: q.point.longitude }, radius: 5000 } },
        }),
      });
      return findBusiness(places(body), { name: q.company, website: q.website, address: q.address });
    },

    async discover(q: DiscoverQuery) {
      const type = q.providerCategory ?? categoryById(q.categoryId).google;
      const body = await call('/v1/places:searchNearby', {
        method: 'POST',
        headers: headers(mask),
        body: JSON.stringify({
          includedTypes: [type],
          maxResultCount: 20,
          rankPreference: 'POPULARITY',
          locationRestriction: { circle: { center: { latitude: q.point.latitude, longitude: q.point.longitude }, radius: Math.min(MAX_RADIUS_M, Math.round(q.radiusMiles * MILES_TO_METERS)) } },
        }),
      });
      return places(body).filter((p) => p.placeId !== q.excludePlaceId);
    },

    async reviews(place: Listing): Promise<ReviewsResult> {
      const id = place.placeId.replace(/^google:/, '');
      const body = (await call(`/v1/places/${encodeURIComponent(id)}?languageCode=en`, { method: 'GET', headers: headers(DETAIL_FIELDS.join(',')) })) as { reviews?: unknown } | null;
      if (body === null || typeof body !== 'object') throw new ProviderError('google', 'malformed', 'place details is not an object');
      const list = body.reviews ?? [];
      if (!Array.isArray(list)) throw new ProviderError('google', 'malformed', '`reviews` is not a list');
      const reviews: Review[] = [];
      for (const r of list as Array<Record<string, unknown>>) {
        const rating = num(r.rating);
        const date = str(r.publishTime);
        if (rating === null || !date || Number.isNaN(Date.parse(date))) continue;
        // Asked with languageCode=en, `text` is Google's English translation where it made one and
        // `originalText` what the reviewer wrote: the original is quoted, the English is read.
        const shown = r.text as { text?: unknown; languageCode?: unknown } | undefined;
        const original = r.originalText as { text?: unknown; languageCode?: unknown } | undefined;
        const lang = (v: unknown) => str(v)?.toLowerCase().split(/[-_]/)[0] ?? null;
        const translated = str(original?.text) !== null && lang(original?.languageCode) !== null && lang(shown?.languageCode) === 'en' && lang(original?.languageCode) !== 'en';
        const author = (r.authorAttribution as { displayName?: unknown } | undefined)?.displayName;
        reviews.push({
          rating,
          text: (translated ? str(original?.text) : (str(shown?.text) ?? str(original?.text))) ?? '',
          language: translated ? lang(original?.languageCode) : (lang(shown?.languageCode) ?? lang(original?.languageCode)),
          translation: translated ? str(shown?.text) : null,
          author: str(author),
          date: new Date(date).toISOString(),
          url: str(r.googleMapsUri),
          ownerResponse: null,
        });
      }
      // Google shares at most 5, picked by relevance: all of them only when the place has no more.
      return { reviews, complete: place.reviewCount !== null && reviews.length >= place.reviewCount, ownerResponsesKnown: false, newestFirst: false, profile: profileOf(body as Record<string, unknown>) };
    },

    // The grid: Text Search with the ids only (the cheapest field mask), 20 results, leaning on a
    // circle around the grid point as a searcher standing there would.
    async rankAt(q: RankQuery) {
      const body = await call('/v1/places:searchText', {
        method: 'POST',
        headers: headers('places.id'),
        body: JSON.stringify({ textQuery: q.keyword, pageSize: 20, locationBias: { circle: { center: { latitude: q.point.latitude, longitude: q.point.longitude }, radius: q.radiusMeters } } }),
      });
      const list = (body as { places?: unknown } | null)?.places;
      if (list === undefined) return [];
      if (!Array.isArray(list)) throw new ProviderError('google', 'malformed', '`places` is not a list');
      return list.map((p) => str((p as GPlace | null)?.id)).filter((id): id is string => id !== null).map((id) => `google:${id}`);
    },
  };
}
