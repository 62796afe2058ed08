// The places provider PLACES_PROVIDER names, for the analysis and for the review checks alike.
import type { AppContext } from '../../../context.ts';
import type { Env } from '../../../env.ts';
import { meteredFetch } from '../../../lib/provider-calls.ts';
import { googleProvider } from './google.ts';
import { sampleProvider } from './sample.ts';
import type { PlacesProvider } from './types.ts';
import { yelpProvider } from './yelp.ts';

/** The provider PLACES_PROVIDER names. */
export function createProvider(env: Env, now: Date, fetchImpl?: typeof fetch): PlacesProvider {
  if (env.PLACES_PROVIDER === 'google') return googleProvider({ baseUrl: env.GOOGLE_PLACES_BASE_URL, key: env.GOOGLE_PLACES_KEY ?? '', timeoutMs: env.PROVIDER_TIMEOUT_MS, fetchImpl });
  if (env.PLACES_PROVIDER === 'yelp') return yelpProvider({ baseUrl: env.YELP_BASE_URL, key: env.YELP_API_KEY ?? '', timeoutMs: env.PROVIDER_TIMEOUT_MS, fetchImpl });
  return sampleProvider({ origin: env.PUBLIC_BASE_URL, now });
}

/** The fetch the providers and the geocoder use: each call recorded in the provider-call ledger. */
export function providerFetch(ctx: Pick<AppContext, 'db' | 'env' | 'log'>, base: typeof fetch = fetch): typeof fetch {
  return meteredFetch(ctx.db, { geocoderUrl: ctx.env.GEOCODER_KEY ? ctx.env.GEOCODER_URL : null, onRecordError: (error) => ctx.log.warn('provider call not recorded', { error: error instanceof Error ? error.message : String(error) }) }, base);
}
