// Stage 1: where the business is. Offline by the ZIP centroid of the packaged US ZIP dataset; an
// online geocoder (Google Geocoding API shape) when GEOCODER_KEY is set, falling back to the ZIP
// centroid when it fails. An unknown ZIP runs on the city's centroid, with a note saying so.
import zipcodes from 'zipcodes';
import { PRECISION, round } from '../../../common/constants.ts';
import type { GeoPoint } from '../model/types.ts';

export interface GeocodeInput {
  address: string;
  city: string;
  state: string;
  zip: string;
}

export interface GeocodeSettings {
  GEOCODER_URL?: string;
  GEOCODER_KEY?: string;
  PROVIDER_TIMEOUT_MS?: number;
}

export interface Geocoded {
  point: GeoPoint;
  /** The ZIP whose centroid was used, or the city's first ZIP (the sample provider's anchor). */
  zip: string | null;
  city: string;
  state: string;
  notes: string[];
}

const EARTH_RADIUS_MILES = 3958.7613;

/** Great-circle distance in miles (haversine). */
export function distanceMiles(a: { latitude: number; longitude: number }, b: { latitude: number; longitude: number }): number {
  const rad = (d: number) => (d * Math.PI) / 180;
  const dLat = rad(b.latitude - a.latitude);
  const dLon = rad(b.longitude - a.longitude);
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(rad(a.latitude)) * Math.cos(rad(b.latitude)) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

export const roundMiles = (miles: number) => round(miles, PRECISION.distance);

function point(latitude: number, longitude: number, source: GeoPoint['source']): GeoPoint {
  return { latitude: round(latitude, PRECISION.latitude), longitude: round(longitude, PRECISION.longitude), source };
}

/** The ZIP's first five digits, or null when it is not a US ZIP. */
function zip5(zip: string): string | null {
  const m = /^\s*(\d{5})(?:-?\d{4})?\s*$/.exec(zip);
  return m ? m[1]! : null;
}

/** Offline: ZIP centroid, else the city's centroid (mean of its ZIP centroids). */
export function geocodeOffline(input: GeocodeInput): Geocoded {
  const code = zip5(input.zip);
  const info = code ? zipcodes.lookup(code) : undefined;
  if (info) return { point: point(info.latitude, info.longitude, 'zip'), zip: info.zip, city: info.city, state: info.state, notes: [] };

  const inCity = zipcodes.lookupByName(input.city.trim(), input.state.trim().toUpperCase()).filter((z) => Number.isFinite(z.latitude));
  if (inCity.length === 0) {
    throw new GeocodeError(`Neither the ZIP code ${input.zip} nor the city ${input.city}, ${input.state} could be found in the US ZIP code data.`);
  }
  const lat = inCity.reduce((s, z) => s + z.latitude, 0) / inCity.length;
  const lon = inCity.reduce((s, z) => s + z.longitude, 0) / inCity.length;
  const sorted = [...inCity].sort((a, b) => distanceMiles({ latitude: lat, longitude: lon }, a) - distanceMiles({ latitude: lat, longitude: lon }, b));
  return {
    point: point(lat, lon, 'city'),
    zip: sorted[0]!.zip,
    city: sorted[0]!.city,
    state: sorted[0]!.state,
    notes: [`The ZIP code ${input.zip} is not in the US ZIP code data, so the report is centred on ${sorted[0]!.city}, ${sorted[0]!.state} instead.`],
  };
}

export class GeocodeError extends Error {}

/** Whether the packaged ZIP data knows the ZIP code or, failing that, the city in its state. */
export function locatableOffline(input: GeocodeInput): boolean {
  try {
    geocodeOffline(input);
    return true;
  } catch (error) {
    if (error instanceof GeocodeError) return false;
    throw error;
  }
}

interface GoogleGeocodeBody {
  status?: string;
  results?: Array<{ geometry?: { location?: { lat?: unknown; lng?: unknown } } }>;
}

/** Online geocoder (Google Geocoding API response shape) when a key is set; the offline answer
 *  otherwise, or when the geocoder fails (with a note). */
export async function geocode(input: GeocodeInput, settings: GeocodeSettings, fetchImpl: typeof fetch = fetch): Promise<Geocoded> {
  let offline: Geocoded | null = null;
  let offlineError: Error | null = null;
  try {
    offline = geocodeOffline(input);
  } catch (error) {
    offlineError = error as Error;
  }
  if (!settings.GEOCODER_KEY || !settings.GEOCODER_URL) {
    if (offline) return offline;
    throw offlineError!;
  }
  const url = new URL(settings.GEOCODER_URL);
  url.searchParams.set('address', `${input.address}, ${input.city}, ${input.state} ${input.zip}`);
  url.searchParams.set('components', 'country:US');
  url.searchParams.set('key', settings.GEOCODER_KEY);
  // What the geocoder did, in words: it may have answered (no match, an error, an answer that
  // could not be read) or not (no connection, no answer in time); only the latter "did not answer".
  let said: string;
  try {
    const res = await fetchImpl(url, { signal: AbortSignal.timeout(settings.PROVIDER_TIMEOUT_MS ?? 8000) });
    let body: GoogleGeocodeBody | null = null;
    if (res.ok) body = (await res.json().catch(() => null)) as GoogleGeocodeBody | null;
    const loc = body?.results?.[0]?.geometry?.location;
    const lat = Number(loc?.lat);
    const lng = Number(loc?.lng);
    if (res.ok && body?.status === 'OK' && Number.isFinite(lat) && Number.isFinite(lng) && Math.abs(lat) <= 90 && Math.abs(lng) <= 180) {
      const near = offline ?? { zip: null, city: input.city, state: input.state.toUpperCase(), notes: [] };
      return { point: point(lat, lng, 'geocoder'), zip: near.zip, city: near.city, state: near.state, notes: [] };
    }
    said = !res.ok
      ? `answered with an error (HTTP ${res.status})`
      : body?.status === 'ZERO_RESULTS'
        ? 'found no match for the address'
        : body === null || body.status === undefined
          ? 'answered with something that could not be read'
          : `gave no usable result (${body.status})`;
  } catch (error) {
    said = `did not answer (${error instanceof Error ? error.message : String(error)})`;
  }
  if (offline) return { ...offline, notes: [...offline.notes, `The online geocoder ${said}; the location is the ZIP code's centre.`] };
  throw new GeocodeError(`${offlineError!.message} The online geocoder ${said}${said.startsWith('did not') ? ' either' : ''}.`);
}
