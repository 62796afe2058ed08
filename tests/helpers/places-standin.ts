// Local stand-ins for Google Places API (New) and Yelp Fusion, answering in their documented
// shapes from a market you describe, with any call made to fail (500, 429, never answering, a
// malformed body). Used by the integration tests, and runnable for `npm run report`:
//
//   node tests/helpers/places-standin.ts <case> <port>
//   PLACES_PROVIDER=google GOOGLE_PLACES_KEY=k GOOGLE_PLACES_BASE_URL=http://127.0.0.1:<port> npm run report -- …
//
// where <case> names one of MARKETS (tests/helpers/markets.ts). Listens on 127.0.0.1 only.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StandinReview {
  rating: number;
  /** The review as written. */
  text: string;
  /** Its language (BCP-47), as Google's `originalText.languageCode` gives it. */
  language?: string;
  /** Google's English translation, returned as `text` when the request asks for `languageCode=en`. */
  english?: string;
  daysAgo: number;
}

export interface StandinPlace {
  id: string;
  name: string;
  /** Degrees from the market's centre. */
  offset: [number, number];
  phone?: string | null;
  website?: string | null;
  address?: string;
  /** Omitted (as Google and Yelp omit it) when the place has no reviews. */
  rating?: number | null;
  reviewCount?: number;
  reviews?: StandinReview[];
  /** Google primaryType / Yelp category alias. */
  type?: string;
  typeLabel?: string;
  /** Place Details fields that replace the stand-in's defaults (businessStatus,
   *  regularOpeningHours, priceLevel...), as Google would send them. */
  details?: Record<string, unknown>;
  /** Ad pixels are on the website; nothing here. */
}

export interface StandinMarket {
  center: { latitude: number; longitude: number };
  /** What a text search for the business (Google) or a term search (Yelp) returns. */
  searchHits: StandinPlace[];
  /** What the competitor search returns, by prominence (may include the business's own listing). */
  nearby: StandinPlace[];
}

export type Failure = 'ok' | '500' | '429' | 'never' | 'malformed';
export type Route = 'searchText' | 'searchNearby' | 'details' | 'yelpTerm' | 'yelpSearch' | 'yelpReviews' | 'yelpDetails' | 'geocode';

export interface Standin {
  base: string;
  port: number;
  /** Make a route fail; 'ok' again to heal it. `times` fails only the next n calls. */
  fail: (route: Route, failure: Failure, times?: number) => void;
  hits: Partial<Record<Route, number>>;
  /** Query strings, bodies and Google field masks of the calls received. */
  seen: Array<{ route: Route; url: string; body: string; mask: string | null }>;
  close: () => Promise<void>;
}

const NOW = () => Date.now();

function gPlace(p: StandinPlace, center: StandinMarket['center']) {
  return {
    id: p.id,
    displayName: { text: p.name, languageCode: 'en' },
    formattedAddress: p.address ?? `${100 + p.id.length} Main St, Austin, TX 78701, USA`,
    ...(p.phone ? { nationalPhoneNumber: p.phone } : {}),
    ...(p.website ? { websiteUri: p.website } : {}),
    ...(p.rating !== null && p.rating !== undefined ? { rating: p.rating } : {}),
    ...((p.reviewCount ?? 0) > 0 ? { userRatingCount: p.reviewCount } : {}),
    location: { latitude: center.latitude + p.offset[0], longitude: center.longitude + p.offset[1] },
    primaryType: p.type ?? 'dentist',
    primaryTypeDisplayName: { text: p.typeLabel ?? 'Dentist', languageCode: 'en-US' },
  };
}

function gDetails(p: StandinPlace, english: boolean) {
  return {
    reviews: (p.reviews ?? []).map((r, k) => {
      const original = { text: r.text, languageCode: r.language ?? 'en' };
      // Google translates into the requested language where it can; the original stays.
      const shown = english && r.english ? { text: r.english, languageCode: 'en' } : original;
      return {
        name: `places/${p.id}/reviews/r${k}`,
        rating: r.rating,
        text: shown,
        originalText: original,
        authorAttribution: { displayName: `Author ${k + 1}`, uri: '', photoUri: '' },
        publishTime: new Date(NOW() - r.daysAgo * 86_400_000).toISOString(),
      };
    }),
    businessStatus: 'OPERATIONAL',
    regularOpeningHours: { periods: [1, 2, 3, 4, 5].map((day) => ({ open: { day, hour: 8, minute: 0 }, close: { day, hour: 17, minute: 0 } })) },
    photos: Array.from({ length: 4 }, (_, k) => ({ name: `places/${p.id}/photos/${k}` })),
    types: [p.type ?? 'dentist', 'establishment'],
    paymentOptions: { acceptsCreditCards: true },
    ...p.details,
  };
}

function yBusiness(p: StandinPlace, center: StandinMarket['center']) {
  return {
    id: p.id,
    alias: p.id,
    name: p.name,
    is_closed: false,
    url: `https://www.yelp.com/biz/${p.id}`,
    review_count: p.reviewCount ?? 0,
    categories: [{ alias: p.type ?? 'generaldentistry', title: p.typeLabel ?? 'General Dentistry' }],
    ...(p.rating !== null && p.rating !== undefined ? { rating: p.rating } : {}),
    coordinates: { latitude: center.latitude + p.offset[0], longitude: center.longitude + p.offset[1] },
    location: { display_address: [p.address ?? `${200 + p.id.length} Oak Ave`, 'Austin, TX 78701'] },
    phone: p.phone ? `+1${p.phone.replace(/\D/g, '')}` : '',
    display_phone: p.phone ?? '',
  };
}

const yTime = (daysAgo: number) => new Date(NOW() - daysAgo * 86_400_000 - 8 * 3_600_000).toISOString().slice(0, 19).replace('T', ' ');

export async function startStandin(market: StandinMarket, port = 0): Promise<Standin> {
  const failures = new Map<Route, { failure: Failure; times: number }>();
  const hits: Standin['hits'] = {};
  const seen: Standin['seen'] = [];
  const hanging = new Set<ServerResponse>();
  const all = () => [...market.searchHits, ...market.nearby];
  const byId = (id: string) => all().find((p) => p.id === id);

  function send(res: ServerResponse, route: Route, body: unknown) {
    hits[route] = (hits[route] ?? 0) + 1;
    const f = failures.get(route);
    const failure = f && f.times !== 0 ? f.failure : 'ok';
    if (f && f.times > 0) f.times--;
    if (failure === '500') return res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"code":500,"status":"INTERNAL"}}');
    // Each provider's own words for its cap: Google's quota, Yelp's daily access limit.
    if (failure === '429' && route.startsWith('yelp')) return res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"code":"ACCESS_LIMIT_REACHED","description":"You\'ve reached the access limit for this client."}}');
    if (failure === '429') return res.writeHead(429, { 'content-type': 'application/json' }).end('{"error":{"code":429,"status":"RESOURCE_EXHAUSTED"}}');
    if (failure === 'never') return void hanging.add(res);
    if (failure === 'malformed') return res.writeHead(200, { 'content-type': 'application/json' }).end('{"places": [{"id": ');
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  }

  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://x');
      const mask = req.headers['x-goog-fieldmask'];
      const record = (route: Route) => seen.push({ route, url: url.pathname + url.search, body, mask: typeof mask === 'string' ? mask : null });
      // The Geocoding API's shape (GEOCODER_URL=<base>/maps/api/geocode/json): the market's centre.
      if (url.pathname === '/maps/api/geocode/json') {
        record('geocode');
        return send(res, 'geocode', { status: 'OK', results: [{ geometry: { location: { lat: market.center.latitude, lng: market.center.longitude } } }] });
      }
      if (url.pathname === '/v1/places:searchText') {
        record('searchText');
        return send(res, 'searchText', market.searchHits.length ? { places: market.searchHits.map((p) => gPlace(p, market.center)) } : {});
      }
      if (url.pathname === '/v1/places:searchNearby') {
        record('searchNearby');
        return send(res, 'searchNearby', market.nearby.length ? { places: market.nearby.map((p) => gPlace(p, market.center)) } : {});
      }
      const g = /^\/v1\/places\/([^/]+)$/.exec(url.pathname);
      if (g) {
        record('details');
        const p = byId(decodeURIComponent(g[1]!));
        if (!p) return res.writeHead(404).end('{}');
        return send(res, 'details', gDetails(p, url.searchParams.get('languageCode') === 'en'));
      }
      if (url.pathname === '/v3/businesses/search') {
        const term = url.searchParams.get('term');
        record(term ? 'yelpTerm' : 'yelpSearch');
        const list = (term ? market.searchHits : market.nearby).map((p) => yBusiness(p, market.center));
        return send(res, term ? 'yelpTerm' : 'yelpSearch', { businesses: list, total: list.length, region: { center: market.center } });
      }
      const yr = /^\/v3\/businesses\/([^/]+)\/reviews$/.exec(url.pathname);
      if (yr) {
        record('yelpReviews');
        const p = byId(decodeURIComponent(yr[1]!));
        if (!p) return res.writeHead(404).end('{}');
        const reviews = [...(p.reviews ?? [])].sort((a, b) => a.daysAgo - b.daysAgo).slice(0, 3);
        return send(res, 'yelpReviews', { reviews: reviews.map((r, k) => ({ id: `r${k}`, url: '', text: r.text, rating: r.rating, time_created: yTime(r.daysAgo), user: { name: `User ${k + 1}.` } })), total: p.reviewCount ?? 0, possible_languages: ['en', 'es'] });
      }
      const yd = /^\/v3\/businesses\/([^/]+)$/.exec(url.pathname);
      if (yd) {
        record('yelpDetails');
        const p = byId(decodeURIComponent(yd[1]!));
        if (!p) return res.writeHead(404).end('{}');
        return send(res, 'yelpDetails', { ...yBusiness(p, market.center), is_claimed: true, photos: ['a', 'b'], hours: [{ hours_type: 'REGULAR', open: [0, 1, 2, 3, 4].map((day) => ({ day, start: '0800', end: '1700' })) }], special_hours: [] });
      }
      res.writeHead(404).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  const bound = (server.address() as AddressInfo).port;
  return {
    base: `http://127.0.0.1:${bound}`,
    port: bound,
    fail: (route, failure, times = -1) => void failures.set(route, { failure, times }),
    hits,
    seen,
    close: () =>
      new Promise<void>((r) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

// `node tests/helpers/places-standin.ts <case> <port> [route=failure ...]`
if (import.meta.url === `file://${process.argv[1]}`) {
  const { MARKETS } = await import('./markets.ts');
  const [name, portArg, ...failArgs] = process.argv.slice(2);
  const market = MARKETS[name as keyof typeof MARKETS];
  if (!market) {
    console.error(`usage: node tests/helpers/places-standin.ts <${Object.keys(MARKETS).join('|')}> <port> [route=500|429|never|malformed ...]`);
    process.exit(2);
  }
  const m = market.market(process.env.PUBLIC_BASE_URL ?? 'http://localhost:4321');
  const s = await startStandin(m, Number(portArg ?? 0));
  for (const arg of failArgs) {
    const [route, failure] = arg.split('=') as [Route, Failure];
    s.fail(route, failure);
  }
  const own = [...m.searchHits, ...m.nearby].find((p) => p.id === 'own');
  console.log(`${name}: Google and Yelp stand-in on ${s.base}`);
  console.log(`--company ${JSON.stringify(market.company)} --address ${JSON.stringify(market.address)} --website ${own?.website ?? (market.website || 'http://127.0.0.1:9/')}`);
  process.on('SIGTERM', () => void s.close().then(() => process.exit(0)));
  process.on('SIGINT', () => void s.close().then(() => process.exit(0)));
}
