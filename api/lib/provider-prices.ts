// What each provider call costs, at list price, and which SKU a call is billed as (decision 0270).
// Google bills a Places API (New) call by its endpoint and by the costliest field its field mask
// asks for; Yelp by the call (its plans are a monthly fee for a daily number of calls); the
// Geocoding API by the call. One table, overridable by PROVIDER_PRICES (JSON: { sku: { usdPer1000,
// freePerMonth } }) when the account has other prices.
//
// Sources, read 2026-12-02:
// - Google Maps Platform core services pricing list (developers.google.com/maps/billing-and-pricing/pricing),
//   list prices in force since 2025-03-01, first volume band, US dollars per 1,000 billable events,
//   with each SKU's free monthly events.
// - Places API (New) usage and billing (developers.google.com/maps/documentation/places/web-service/usage-and-billing):
//   "you are billed at the highest SKU applicable to your request" by the fields of the mask.
//   Each field's tier: the Place Details (New) and Text Search (New) pages' field lists (IDs Only,
//   Essentials, Pro, Enterprise, Enterprise + Atmosphere); a search's photos are Pro, Place
//   Details' are IDs Only.
// - Yelp Places API plans (docs.developer.yelp.com/docs/plans): $229 a month for 1,000 calls a day
//   (Starter), so $229 / 30,000 calls = $7.63 per 1,000; the daily cap answers 429 ACCESS_LIMIT_REACHED
//   and resets at midnight UTC (docs.developer.yelp.com/docs/fusion-rate-limiting).
// - The AI engines (issue 50, decision 0303), billed per call and per token:
//   OpenAI API pricing (developers.openai.com/api/docs/pricing): web search tool calls $10 per
//   1,000; gpt-4.1-mini $0.40 per million input tokens, $1.60 per million output tokens.
//   Perplexity pricing (docs.perplexity.ai/getting-started/pricing): Sonar $1 per million input
//   and output tokens, request fee $5 per 1,000 at low search context (the default).
//   Gemini API pricing (ai.google.dev/gemini-api/docs/pricing): gemini-2.5-flash $0.30 per million
//   input tokens, $2.50 per million output tokens; grounding with Google Search $35 per 1,000
//   grounded prompts past the daily free ones (counted here as paid: the estimate errs safe).

import { priceOverrides, type Env } from '../env.ts';

export interface SkuPrice {
  label: string;
  provider: 'google' | 'yelp' | 'geocoder' | 'openai' | 'perplexity' | 'gemini' | (string & {});
  usdPer1000: number;
  /** Billable events free each calendar month (Google); 0 when none. */
  freePerMonth: number;
  /** Dollars per million tokens in and out, for SKUs billed by the token as well. */
  usdPerMillionInput?: number;
  usdPerMillionOutput?: number;
}

export const LIST_PRICES: Record<string, SkuPrice> = {
  'google.text_search.ids_only': { label: 'Text Search Essentials (IDs Only)', provider: 'google', usdPer1000: 0, freePerMonth: Infinity },
  'google.text_search.pro': { label: 'Text Search Pro', provider: 'google', usdPer1000: 32, freePerMonth: 5_000 },
  'google.text_search.enterprise': { label: 'Text Search Enterprise', provider: 'google', usdPer1000: 35, freePerMonth: 1_000 },
  'google.text_search.atmosphere': { label: 'Text Search Enterprise + Atmosphere', provider: 'google', usdPer1000: 40, freePerMonth: 1_000 },
  'google.nearby_search.pro': { label: 'Nearby Search Pro', provider: 'google', usdPer1000: 32, freePerMonth: 5_000 },
  'google.nearby_search.enterprise': { label: 'Nearby Search Enterprise', provider: 'google', usdPer1000: 35, freePerMonth: 1_000 },
  'google.nearby_search.atmosphere': { label: 'Nearby Search Enterprise + Atmosphere', provider: 'google', usdPer1000: 40, freePerMonth: 1_000 },
  'google.place_details.ids_only': { label: 'Place Details Essentials (IDs Only)', provider: 'google', usdPer1000: 0, freePerMonth: Infinity },
  'google.place_details.essentials': { label: 'Place Details Essentials', provider: 'google', usdPer1000: 5, freePerMonth: 10_000 },
  'google.place_details.pro': { label: 'Place Details Pro', provider: 'google', usdPer1000: 17, freePerMonth: 5_000 },
  'google.place_details.enterprise': { label: 'Place Details Enterprise', provider: 'google', usdPer1000: 20, freePerMonth: 1_000 },
  'google.place_details.atmosphere': { label: 'Place Details Enterprise + Atmosphere', provider: 'google', usdPer1000: 25, freePerMonth: 1_000 },
  'google.other': { label: 'Places API, other call', provider: 'google', usdPer1000: 0, freePerMonth: 0 },
  'yelp.search': { label: 'Yelp business search', provider: 'yelp', usdPer1000: 7.63, freePerMonth: 0 },
  'yelp.reviews': { label: 'Yelp reviews', provider: 'yelp', usdPer1000: 7.63, freePerMonth: 0 },
  'yelp.details': { label: 'Yelp business details', provider: 'yelp', usdPer1000: 7.63, freePerMonth: 0 },
  'geocoder.geocode': { label: 'Geocoding', provider: 'geocoder', usdPer1000: 5, freePerMonth: 10_000 },
  'openai.web_search': { label: 'OpenAI Responses with web search', provider: 'openai', usdPer1000: 10, freePerMonth: 0, usdPerMillionInput: 0.4, usdPerMillionOutput: 1.6 },
  'perplexity.sonar': { label: 'Perplexity Sonar', provider: 'perplexity', usdPer1000: 5, freePerMonth: 0, usdPerMillionInput: 1, usdPerMillionOutput: 1 },
  'gemini.grounded': { label: 'Gemini grounded with Google Search', provider: 'gemini', usdPer1000: 35, freePerMonth: 0, usdPerMillionInput: 0.3, usdPerMillionOutput: 2.5 },
};

// The Places API (New) fields of each tier above Essentials (the usage-and-billing page's lists,
// the ones this product can ask for and their neighbours). A field in none of them is Essentials.
const PRO = new Set(['accessibilityOptions', 'businessStatus', 'containingPlaces', 'displayName', 'googleMapsLinks', 'googleMapsUri', 'iconBackgroundColor', 'iconMaskBaseUri', 'openingDate', 'primaryType', 'primaryTypeDisplayName', 'pureServiceAreaBusiness', 'searchUri', 'subDestinations', 'timeZone', 'utcOffsetMinutes']);
const ENTERPRISE = new Set(['currentOpeningHours', 'currentSecondaryOpeningHours', 'internationalPhoneNumber', 'nationalPhoneNumber', 'priceLevel', 'priceRange', 'rating', 'regularOpeningHours', 'regularSecondaryOpeningHours', 'userRatingCount', 'websiteUri']);
const ATMOSPHERE = new Set(['allowsDogs', 'curbsidePickup', 'delivery', 'dineIn', 'editorialSummary', 'evChargeAmenitySummary', 'evChargeOptions', 'fuelOptions', 'goodForChildren', 'goodForGroups', 'goodForWatchingSports', 'liveMusic', 'menuForChildren', 'neighborhoodSummary', 'outdoorSeating', 'parkingOptions', 'paymentOptions', 'reservable', 'restroom', 'reviews', 'reviewSummary', 'generativeSummary', 'routingSummaries', 'servesBeer', 'servesBreakfast', 'servesBrunch', 'servesCocktails', 'servesCoffee', 'servesDessert', 'servesDinner', 'servesLunch', 'servesVegetarianFood', 'servesWine', 'takeout']);
// IDs Only: Place Details' list; a search's page token too. A search's photos are Pro, Place Details' free.
const IDS_ONLY = new Set(['id', 'name', 'attributions', 'movedPlace', 'movedPlaceId', 'nextPageToken']);

/** The tier a field mask is billed at: the costliest field's. */
export function maskTier(mask: string, call: 'details' | 'search' = 'details'): 'ids_only' | 'essentials' | 'pro' | 'enterprise' | 'atmosphere' {
  const fields = mask.split(',').map((f) => f.trim().replace(/^places\./, '')).filter(Boolean);
  const top = (f: string) => f.split('.')[0]!;
  if (fields.some((f) => f === '*' || ATMOSPHERE.has(top(f)))) return 'atmosphere';
  if (fields.some((f) => ENTERPRISE.has(top(f)))) return 'enterprise';
  if (fields.some((f) => PRO.has(top(f)) || (call === 'search' && top(f) === 'photos'))) return 'pro';
  if (fields.every((f) => IDS_ONLY.has(top(f)) || top(f) === 'photos')) return 'ids_only';
  return 'essentials';
}

/** The SKU of a call by its URL and headers; null for a call to no provider this table knows. */
export function skuOf(url: URL, headers: Headers, geocoderUrl: string | null): { provider: string; sku: string } | null {
  if (geocoderUrl && url.href.startsWith(geocoderUrl.split('?')[0]!)) return { provider: 'geocoder', sku: 'geocoder.geocode' };
  const path = url.pathname;
  if (path.startsWith('/v1/places')) {
    const tier = maskTier(headers.get('x-goog-fieldmask') ?? '*', /:search(Text|Nearby)$/.test(path) ? 'search' : 'details');
    if (path.endsWith(':searchText')) return { provider: 'google', sku: tier === 'essentials' ? 'google.text_search.pro' : `google.text_search.${tier}` };
    if (path.endsWith(':searchNearby')) return { provider: 'google', sku: tier === 'essentials' || tier === 'ids_only' ? 'google.nearby_search.pro' : `google.nearby_search.${tier}` };
    if (/^\/v1\/places\/[^/:]+$/.test(path)) return { provider: 'google', sku: `google.place_details.${tier}` };
    return { provider: 'google', sku: 'google.other' };
  }
  if (path.startsWith('/v3/businesses/')) {
    if (path === '/v3/businesses/search') return { provider: 'yelp', sku: 'yelp.search' };
    if (path.endsWith('/reviews')) return { provider: 'yelp', sku: 'yelp.reviews' };
    return { provider: 'yelp', sku: 'yelp.details' };
  }
  return null;
}

/** What one call costs at a price: its fee, and its tokens where the SKU bills them. */
export function callUsd(price: Pick<SkuPrice, 'usdPer1000' | 'usdPerMillionInput' | 'usdPerMillionOutput'> | undefined, calls: number, inputTokens = 0, outputTokens = 0): number {
  if (!price) return 0;
  return (calls * price.usdPer1000) / 1000 + (inputTokens * (price.usdPerMillionInput ?? 0) + outputTokens * (price.usdPerMillionOutput ?? 0)) / 1_000_000;
}

/** The prices in force: the list's, with PROVIDER_PRICES over them. */
export const pricesFor = (env: Pick<Env, 'PROVIDER_PRICES'>) => priceTable(env.PROVIDER_PRICES ? (priceOverrides(env.PROVIDER_PRICES) ?? {}) : {});

/** The list prices with the operator's overrides. */
export function priceTable(overrides: Record<string, Partial<Pick<SkuPrice, 'usdPer1000' | 'freePerMonth' | 'usdPerMillionInput' | 'usdPerMillionOutput'>>> = {}): Record<string, SkuPrice> {
  const table: Record<string, SkuPrice> = { ...LIST_PRICES };
  for (const [sku, o] of Object.entries(overrides)) {
    const base = table[sku] ?? { label: sku, provider: sku.split('.')[0]!, usdPer1000: 0, freePerMonth: 0 };
    table[sku] = { ...base, ...o };
  }
  return table;
}
