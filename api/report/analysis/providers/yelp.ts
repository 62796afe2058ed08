// Yelp Fusion: /v3/businesses/search to identify the business (by name near the point) and find
// competitors in its category (radius ≤ 40,000 m, limit ≤ 50), /v3/businesses/{id}/reviews for
// the newest review excerpts (sort_by=newest; 3 on most plans). Yelp gives no business website,
// so competitors' websites are unknown.
import { ProviderError, providerJson, MILES_TO_METERS, weeklyHours, type DiscoverQuery, type IdentifyQuery, type Listing, type ListingProfile, type PlacesProvider, type RankQuery, type ReviewsResult } from './types.ts';
import { categoryById } from '../categories.ts';
import { findBusiness } from '../matching.ts';
import type { Review } from '../../model/types.ts';

export interface YelpSettings {
  baseUrl: string;
  key: string;
  timeoutMs: number;
  fetchImpl?: typeof fetch;
}

const MAX_RADIUS_M = 40_000;
const str = (v: unknown) => (typeof v === 'string' && v.trim() ? v.trim() : null);
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function toListing(b: Record<string, unknown>): Listing | null {
  const id = str(b.id);
  const name = str(b.name);
  const coords = b.coordinates as { latitude?: unknown; longitude?: unknown } | undefined;
  const lat = num(coords?.latitude);
  const lon = num(coords?.longitude);
  if (!id || !name || lat === null || lon === null) return null;
  const location = b.location as { display_address?: unknown } | undefined;
  const address = Array.isArray(location?.display_address) ? location.display_address.filter((x) => typeof x === 'string').join(', ') : null;
  const categories = Array.isArray(b.categories) ? (b.categories as Array<{ alias?: unknown; title?: unknown }>) : [];
  return {
    placeId: `yelp:${id}`,
    name,
    address: address || null,
    phone: str(b.display_phone) ?? str(b.phone),
    website: null,
    rating: num(b.rating),
    reviewCount: num(b.review_count) ?? 0,
    latitude: lat,
    longitude: lon,
    providerCategory: str(categories[0]?.alias),
    categoryLabel: str(categories[0]?.title),
  };
}

/** Yelp's `time_created` reads "2016-08-29 00:41:13" in US Pacific time (PST/PDT). */
export function yelpTime(value: string): Date | null {
  const m = /^(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)$/.exec(value.trim());
  if (!m) {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? null : d;
  }
  const asUtc = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6]));
  // The Pacific offset at that moment (-7 or -8 hours), read from the time-zone database.
  const parts = new Intl.DateTimeFormat('en-US', { timeZone: 'America/Los_Angeles', timeZoneName: 'shortOffset' }).formatToParts(new Date(asUtc));
  const offset = /GMT([+-]\d+)/.exec(parts.find((p) => p.type === 'timeZoneName')?.value ?? '')?.[1];
  return new Date(asUtc - Number(offset ?? -8) * 3_600_000);
}

const hhmm = (v: unknown) => (typeof v === 'string' && /^\d{4}$/.test(v) ? Number(v.slice(0, 2)) * 60 + Number(v.slice(2)) : null);

/** The profile fields of a business-details answer (`/v3/businesses/{id}`). */
export function profileOf(b: Record<string, unknown>): ListingProfile {
  const regular = (Array.isArray(b.hours) ? (b.hours as Array<{ hours_type?: unknown; open?: unknown }>) : []).find((h) => h.hours_type === 'REGULAR' || h.hours_type === undefined);
  const open = Array.isArray(regular?.open) ? (regular.open as Array<Record<string, unknown>>) : [];
  const periods = open.map((o) => ({ day: num(o.day), open: hhmm(o.start), close: hhmm(o.end) })).filter((o): o is { day: number; open: number; close: number } => o.day !== null && o.open !== null && o.close !== null);
  return {
    status: typeof b.is_closed === 'boolean' ? (b.is_closed ? 'closed_permanently' : 'operational') : null,
    hours: weeklyHours(periods),
    photos: (Array.isArray(b.photos) ? b.photos.length : 0) || (str(b.image_url) ? 1 : 0),
    types: Array.isArray(b.categories) ? b.categories.length : 0,
    priceLevel: str(b.price),
    claimed: b.is_claimed === true,
    transactions: Array.isArray(b.transactions) ? b.transactions.length : 0,
    specialHours: Array.isArray(b.special_hours) && b.special_hours.length > 0,
  };
}

function businesses(body: unknown): Listing[] {
  const list = (body as { businesses?: unknown } | null)?.businesses;
  if (!Array.isArray(list)) throw new ProviderError('yelp', 'malformed', '`businesses` is not a list');
  return list.map((b) => toListing(b as Record<string, unknown>)).filter((l): l is Listing => l !== null);
}

export function yelpProvider(settings: YelpSettings): PlacesProvider {
  const base = settings.baseUrl.replace(/\/$/, '');
  const get = (path: string, params: Record<string, string | number>) => {
    const url = new URL(`${base}${path}`);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, String(v));
    return providerJson('yelp', url.href, { method: 'GET', headers: { authorization: `Bearer ${settings.key}`, accept: 'application/json' } }, { timeoutMs: settings.timeoutMs, fetchImpl: settings.fetchImpl });
  };

  return {
    name: 'yelp',

    async identify(q: IdentifyQuery) {
      const body = await get('/v3/businesses/search', { term: q.company, latitude: q.point.latitude, longitude: q.point.longitude, radius: 10_000, sort_by: 'best_match', limit: 10 });
      const hit = findBusiness(businesses(body), { name: q.company, address: q.address });
      return hit ? { ...hit, website: q.website || null } : null;
    },

    async discover(q: DiscoverQuery) {
      const alias = q.providerCategory ?? categoryById(q.categoryId).yelp;
      const body = await get('/v3/businesses/search', {
        categories: alias,
        latitude: q.point.latitude,
        longitude: q.point.longitude,
        radius: Math.min(MAX_RADIUS_M, Math.round(q.radiusMiles * MILES_TO_METERS)),
        sort_by: 'best_match',
        limit: 20,
      });
      return businesses(body).filter((b) => b.placeId !== q.excludePlaceId);
    },

    async reviews(place: Listing): Promise<ReviewsResult> {
      const id = place.placeId.replace(/^yelp:/, '');
      // Two calls; a failed details call loses the profile (unknown), never the reviews already read.
      const [reviewsCall, detailsCall] = await Promise.allSettled([
        get(`/v3/businesses/${encodeURIComponent(id)}/reviews`, { limit: 20, sort_by: 'newest' }) as Promise<{ reviews?: unknown } | null>,
        get(`/v3/businesses/${encodeURIComponent(id)}`, {}) as Promise<Record<string, unknown> | null>,
      ]);
      if (reviewsCall.status === 'rejected') throw reviewsCall.reason;
      const details = detailsCall.status === 'fulfilled' && detailsCall.value !== null && typeof detailsCall.value === 'object' ? detailsCall.value : null;
      const list = reviewsCall.value?.reviews;
      if (!Array.isArray(list)) throw new ProviderError('yelp', 'malformed', '`reviews` is not a list');
      const reviews: Review[] = [];
      for (const r of list as Array<Record<string, unknown>>) {
        const rating = num(r.rating);
        const created = str(r.time_created);
        const date = created ? yelpTime(created) : null;
        if (rating === null || !date || Number.isNaN(date.getTime())) continue;
        reviews.push({ rating, text: str(r.text) ?? '', author: str((r.user as { name?: unknown } | undefined)?.name), date: date.toISOString(), url: str(r.url), ownerResponse: null });
      }
      // Newest first: Yelp's excerpts (3 on most plans) are the latest reviews, in order.
      reviews.sort((a, b) => b.date.localeCompare(a.date));
      return { reviews, complete: place.reviewCount !== null && reviews.length >= place.reviewCount, ownerResponsesKnown: false, newestFirst: true, ...(details ? { profile: profileOf(details) } : {}) };
    },

    // The grid: a term search from the point, Yelp's best match order, 20 results.
    async rankAt(q: RankQuery) {
      const body = await get('/v3/businesses/search', { term: q.keyword, latitude: q.point.latitude, longitude: q.point.longitude, sort_by: 'best_match', limit: 20 });
      const list = (body as { businesses?: unknown } | null)?.businesses;
      if (!Array.isArray(list)) throw new ProviderError('yelp', 'malformed', '`businesses` is not a list');
      // Every listed business keeps its position, whatever else it lacks.
      return list.map((b) => str((b as Record<string, unknown> | null)?.id)).filter((id): id is string => id !== null).map((id) => `yelp:${id}`);
    },
  };
}
