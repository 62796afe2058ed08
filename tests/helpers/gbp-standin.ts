// A local stand-in of Google's side of a connected Business Profile, written from Google's
// documentation: the OAuth 2.0 web-server flow (consent screen, token endpoint with PKCE S256,
// refresh, revoke; a revoked or unknown grant answers `invalid_grant`), Account Management
// (accounts.list), Business Information (accounts.locations.list, `readMask` required, `pageSize` at
// most 100, `metadata.placeId`), the v4 reviews (list: `pageSize` at most 50, `pageToken`, `orderBy`
// `updateTime desc` (default) | `rating` | `rating desc`, `totalReviewCount` and `averageRating` on every page; reply PUT and DELETE; 403 for an unverified
// location; 10 edits a minute per location) and the Performance API
// (`locations/{id}:fetchMultiDailyMetricsTimeSeries`, daily values as strings, zero days omitted).
// Every API call needs a live bearer token (401 otherwise); `quotaZero` makes every API call 429
// RESOURCE_EXHAUSTED, as for an application not yet approved. Listens on 127.0.0.1 only.
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const STANDIN_CLIENT_ID = 'standin-client.apps.example';
export const STANDIN_CLIENT_SECRET = 'standin-client-secret';
const SCOPE = 'https://www.googleapis.com/auth/business.manage';
const STARS = ['ONE', 'TWO', 'THREE', 'FOUR', 'FIVE'] as const;

export interface GbpReview {
  reviewId: string;
  author: string;
  rating: number;
  comment: string;
  createTime: number;
  updateTime: number;
  reply: { comment: string; updateTime: number } | null;
}

export interface GbpLocation {
  /** The id in `locations/{id}`. */
  id: string;
  account: string;
  title: string;
  placeId: string | null;
  verified: boolean;
  reviews: GbpReview[];
  /** Per metric, per day (YYYY-MM-DD), the value; a missing day is 0. */
  metrics: Record<string, Record<string, number>>;
  edits: number[];
}

export type GbpRoute = 'consent' | 'token' | 'refresh' | 'revoke' | 'accounts' | 'locations' | 'reviews' | 'reply' | 'performance';

export interface GbpStandin {
  base: string;
  /** The settings that point the product at this stand-in. */
  env: Record<string, string>;
  locations: GbpLocation[];
  addLocation: (l: Partial<GbpLocation> & { id: string; title: string }) => GbpLocation;
  addReview: (locationId: string, r: { rating: number; comment?: string; author?: string; at?: number }) => GbpReview;
  /** What the user does on the consent screen: the redirect Google would send (Location header). */
  consent: (authorizeUrl: string, choice: 'allow' | 'deny') => Promise<string>;
  /** Every refresh token given out stops working (the user removed access in their Google account). */
  revokeAll: () => void;
  /** Access tokens given out so far expire now. */
  expireAccessTokens: () => void;
  quotaZero: boolean;
  /** Calls received, per route, and in order with their URL. */
  hits: Partial<Record<GbpRoute, number>>;
  calls: Array<{ route: GbpRoute; method: string; url: string; body: string }>;
  /** Refresh tokens that are still valid, and the ones revoked through /revoke. */
  liveRefreshTokens: () => string[];
  revoked: string[];
  /** Fails the next `times` calls of a route with this status and Google's error body. */
  fail: (route: GbpRoute, status: number, times?: number, message?: string) => void;
  close: () => Promise<void>;
}

const b64url = (b: Buffer) => b.toString('base64url');

function googleError(res: ServerResponse, status: number, message: string) {
  const names: Record<number, string> = { 400: 'INVALID_ARGUMENT', 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED', 404: 'NOT_FOUND', 429: 'RESOURCE_EXHAUSTED', 500: 'INTERNAL' };
  res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' }).end(JSON.stringify({ error: { code: status, message, status: names[status] ?? 'UNKNOWN' } }));
}

const json = (res: ServerResponse, body: unknown, status = 200) => res.writeHead(status, { 'Content-Type': 'application/json; charset=UTF-8' }).end(JSON.stringify(body));

async function bodyOf(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

function reviewJson(l: GbpLocation, r: GbpReview) {
  return {
    name: `accounts/${l.account}/locations/${l.id}/reviews/${r.reviewId}`,
    reviewId: r.reviewId,
    reviewer: { displayName: r.author, profilePhotoUrl: 'https://lh3.example/photo.png' },
    starRating: STARS[r.rating - 1],
    ...(r.comment ? { comment: r.comment } : {}),
    createTime: new Date(r.createTime).toISOString(),
    updateTime: new Date(r.updateTime).toISOString(),
    ...(r.reply ? { reviewReply: { comment: r.reply.comment, updateTime: new Date(r.reply.updateTime).toISOString() } } : {}),
  };
}

/** Another process's hold on the stand-in (the browser tests: it runs in the server's process). */
export async function controlGbp(base: string, action: 'location' | 'review' | 'show', body: Record<string, unknown>): Promise<unknown> {
  const res = await fetch(`${base}/_control/${action}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!res.ok) throw new Error(`stand-in control ${action}: ${res.status} ${await res.text()}`);
  return res.json();
}

export async function startGbpStandin(options: { now?: () => number; control?: boolean } = {}): Promise<GbpStandin> {
  const now = options.now ?? Date.now;
  const codes = new Map<string, { challenge: string; redirectUri: string; refresh: string }>();
  const access = new Map<string, { refresh: string; expires: number }>();
  const refreshTokens = new Set<string>();
  const failures = new Map<GbpRoute, { status: number; times: number; message: string }>();
  const s: GbpStandin = {
    base: '',
    env: {},
    locations: [],
    quotaZero: false,
    hits: {},
    calls: [],
    revoked: [],
    addLocation(l) {
      const location: GbpLocation = { account: '1001', placeId: null, verified: true, reviews: [], metrics: {}, edits: [], ...l };
      s.locations.push(location);
      return location;
    },
    addReview(locationId, r) {
      const l = s.locations.find((x) => x.id === locationId)!;
      const at = r.at ?? now();
      const review: GbpReview = { reviewId: b64url(randomBytes(12)), author: r.author ?? 'A Google user', rating: r.rating, comment: r.comment ?? '', createTime: at, updateTime: at, reply: null };
      l.reviews.push(review);
      return review;
    },
    async consent(authorizeUrl, choice) {
      const url = new URL(authorizeUrl);
      const res = await fetch(`${s.base}/o/oauth2/v2/auth${url.search}&choice=${choice}`, { redirect: 'manual' });
      const location = res.headers.get('location');
      if (res.status !== 302 || !location) throw new Error(`consent refused: ${res.status} ${await res.text()}`);
      return location;
    },
    revokeAll() {
      refreshTokens.clear();
      access.clear();
    },
    expireAccessTokens() {
      for (const t of access.values()) t.expires = 0;
    },
    liveRefreshTokens: () => [...refreshTokens],
    fail(route, status, times = 1, message = 'The stand-in was told to fail.') {
      failures.set(route, { status, times, message });
    },
    close: () => new Promise((done) => server.close(() => done())),
  };

  const issueAccess = (refresh: string) => {
    const token = `ya29.${b64url(randomBytes(24))}`;
    access.set(token, { refresh, expires: now() + 3600_000 });
    return token;
  };

  function consentRoute(url: URL, res: ServerResponse) {
    const q = url.searchParams;
    const redirectUri = q.get('redirect_uri') ?? '';
    const problems = [
      q.get('client_id') !== STANDIN_CLIENT_ID && 'client_id',
      q.get('response_type') !== 'code' && 'response_type',
      !(q.get('scope') ?? '').split(' ').includes(SCOPE) && 'scope',
      q.get('code_challenge_method') !== 'S256' && 'code_challenge_method',
      !q.get('code_challenge') && 'code_challenge',
      !/^https?:\/\//.test(redirectUri) && 'redirect_uri',
    ].filter(Boolean);
    if (problems.length) return res.writeHead(400, { 'Content-Type': 'text/plain' }).end(`Error 400: invalid_request (${problems.join(', ')})`);
    const choice = q.get('choice');
    if (!choice) {
      // The consent screen a browser sees: two links, as Google's "Allow" and "Cancel".
      const link = (c: string) => `${url.pathname}?${q.toString()}&choice=${c}`;
      const html = `<!doctype html><title>Sign in - Google Accounts (stand-in)</title><h1>LocalRank wants to access your Google Account</h1><p>See, edit, create and delete your Google business listings.</p><a id="deny" href="${link('deny')}">Cancel</a> <a id="allow" href="${link('allow')}">Allow</a>`;
      return res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' }).end(html);
    }
    const back = new URL(redirectUri);
    if (choice === 'allow') {
      const code = `4/${b64url(randomBytes(16))}`;
      const refresh = `1//${b64url(randomBytes(24))}`;
      codes.set(code, { challenge: q.get('code_challenge')!, redirectUri, refresh });
      back.searchParams.set('code', code);
      back.searchParams.set('scope', SCOPE);
    } else back.searchParams.set('error', 'access_denied');
    if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
    res.writeHead(302, { Location: back.toString() }).end();
  }

  function tokenRoute(form: URLSearchParams, res: ServerResponse) {
    if (form.get('client_id') !== STANDIN_CLIENT_ID || form.get('client_secret') !== STANDIN_CLIENT_SECRET) return json(res, { error: 'invalid_client', error_description: 'The OAuth client was not found.' }, 401);
    if (form.get('grant_type') === 'authorization_code') {
      const grant = codes.get(form.get('code') ?? '');
      codes.delete(form.get('code') ?? '');
      if (!grant) return json(res, { error: 'invalid_grant', error_description: 'Malformed auth code.' }, 400);
      if (grant.redirectUri !== form.get('redirect_uri')) return json(res, { error: 'redirect_uri_mismatch', error_description: 'Bad Request' }, 400);
      const verifier = form.get('code_verifier') ?? '';
      if (b64url(createHash('sha256').update(verifier).digest()) !== grant.challenge) return json(res, { error: 'invalid_grant', error_description: 'Invalid code verifier.' }, 400);
      refreshTokens.add(grant.refresh);
      return json(res, { access_token: issueAccess(grant.refresh), expires_in: 3599, refresh_token: grant.refresh, scope: SCOPE, token_type: 'Bearer' });
    }
    if (form.get('grant_type') === 'refresh_token') {
      const refresh = form.get('refresh_token') ?? '';
      if (!refreshTokens.has(refresh)) return json(res, { error: 'invalid_grant', error_description: 'Token has been expired or revoked.' }, 400);
      return json(res, { access_token: issueAccess(refresh), expires_in: 3599, scope: SCOPE, token_type: 'Bearer' });
    }
    return json(res, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type' }, 400);
  }

  function revokeRoute(form: URLSearchParams, res: ServerResponse) {
    const token = form.get('token') ?? '';
    const refresh = refreshTokens.has(token) ? token : access.get(token)?.refresh;
    if (!refresh) return json(res, { error: 'invalid_token', error_description: 'Token expired or revoked' }, 400);
    refreshTokens.delete(refresh);
    for (const [k, v] of access) if (v.refresh === refresh) access.delete(k);
    s.revoked.push(refresh);
    json(res, {});
  }

  function page<T>(items: T[], url: URL, max: number) {
    const size = Math.min(Math.max(Number(url.searchParams.get('pageSize') ?? max) || max, 1), max);
    const start = Number(url.searchParams.get('pageToken') ? Buffer.from(url.searchParams.get('pageToken')!, 'base64url').toString() : 0);
    const next = start + size < items.length ? Buffer.from(String(start + size)).toString('base64url') : undefined;
    return { items: items.slice(start, start + size), next };
  }

  async function apiRoute(req: IncomingMessage, url: URL, body: string, res: ServerResponse, route: GbpRoute) {
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const grant = bearer ? access.get(bearer) : undefined;
    if (!grant || grant.expires <= now() || !refreshTokens.has(grant.refresh)) return googleError(res, 401, 'Request had invalid authentication credentials. Expected OAuth 2 access token.');
    if (s.quotaZero) return googleError(res, 429, "Quota exceeded for quota metric 'Requests' and limit 'Requests per minute' of service 'mybusiness.googleapis.com'.");
    const path = decodeURIComponent(url.pathname);
    if (route === 'accounts') {
      const accounts = [...new Set(s.locations.map((l) => l.account))].map((a) => ({ name: `accounts/${a}`, accountName: `Account ${a}`, type: 'PERSONAL', verificationState: 'VERIFIED' }));
      return json(res, { accounts });
    }
    if (route === 'locations') {
      const account = /^\/v1\/accounts\/([^/]+)\/locations$/.exec(path)![1];
      if (!url.searchParams.get('readMask')) return googleError(res, 400, 'Request contains an invalid argument.');
      if (Number(url.searchParams.get('pageSize') ?? 10) > 100) return googleError(res, 400, 'Request contains an invalid argument.');
      const { items, next } = page(s.locations.filter((l) => l.account === account), url, 100);
      return json(res, { locations: items.map((l) => ({ name: `locations/${l.id}`, title: l.title, metadata: l.placeId ? { placeId: l.placeId } : {} })), ...(next ? { nextPageToken: next } : {}) });
    }
    if (route === 'performance') {
      const id = /^\/v1\/locations\/([^/:]+):fetchMultiDailyMetricsTimeSeries$/.exec(path)![1];
      const l = s.locations.find((x) => x.id === id);
      if (!l) return googleError(res, 404, 'Requested entity was not found.');
      const q = url.searchParams;
      const day = (side: string) => Date.UTC(Number(q.get(`dailyRange.${side}Date.year`)), Number(q.get(`dailyRange.${side}Date.month`)) - 1, Number(q.get(`dailyRange.${side}Date.day`)));
      const from = day('start');
      const to = day('end');
      if (!Number.isFinite(from) || !Number.isFinite(to) || q.getAll('dailyMetrics').length === 0) return googleError(res, 400, 'Request contains an invalid argument.');
      const series = q.getAll('dailyMetrics').map((metric) => {
        const datedValues = [];
        for (let t = from; t <= to; t += 86_400_000) {
          const d = new Date(t);
          const v = l.metrics[metric]?.[d.toISOString().slice(0, 10)] ?? 0;
          datedValues.push({ date: { year: d.getUTCFullYear(), month: d.getUTCMonth() + 1, day: d.getUTCDate() }, ...(v ? { value: String(v) } : {}) });
        }
        return { dailyMetric: metric, timeSeries: { datedValues } };
      });
      return json(res, { multiDailyMetricTimeSeries: [{ dailyMetricTimeSeries: series }] });
    }
    const m = /^\/v4\/accounts\/([^/]+)\/locations\/([^/]+)\/reviews(?:\/([^/]+)\/reply)?$/.exec(path)!;
    const l = s.locations.find((x) => x.account === m[1] && x.id === m[2]);
    if (!l) return googleError(res, 404, 'Requested entity was not found.');
    if (!l.verified) return googleError(res, 403, 'The caller does not have permission: the location is not verified.');
    if (route === 'reviews') {
      const order = url.searchParams.get('orderBy') ?? 'updateTime desc';
      if (!['updateTime desc', 'rating', 'rating desc'].includes(order)) return googleError(res, 400, 'Request contains an invalid argument.');
      if (Number(url.searchParams.get('pageSize') ?? 50) > 50) return googleError(res, 400, 'Request contains an invalid argument.');
      const sorted = [...l.reviews].sort((a, b) => (order === 'rating' ? a.rating - b.rating : order === 'rating desc' ? b.rating - a.rating : 0) || b.updateTime - a.updateTime);
      const { items, next } = page(sorted, url, 50);
      const average = l.reviews.length ? l.reviews.reduce((n, r) => n + r.rating, 0) / l.reviews.length : 0;
      return json(res, { reviews: items.map((r) => reviewJson(l, r)), averageRating: Math.round(average * 10) / 10, totalReviewCount: l.reviews.length, ...(next ? { nextPageToken: next } : {}) });
    }
    const review = l.reviews.find((r) => r.reviewId === m[3]);
    if (!review) return googleError(res, 404, 'Requested entity was not found.');
    l.edits = l.edits.filter((t) => t > now() - 60_000);
    if (l.edits.length >= 10) return googleError(res, 429, 'Quota exceeded: at most 10 edits a minute per profile.');
    l.edits.push(now());
    if (req.method === 'DELETE') {
      review.reply = null;
      return json(res, {});
    }
    let comment: unknown;
    try {
      comment = (JSON.parse(body) as { comment?: unknown }).comment;
    } catch {
      return googleError(res, 400, 'Invalid JSON payload received.');
    }
    if (typeof comment !== 'string' || !comment.trim()) return googleError(res, 400, 'Request contains an invalid argument.');
    if (comment.length > 4096) return googleError(res, 400, 'The reply is longer than 4096 bytes.');
    if (/\bhttps?:\/\/\S*spam/i.test(comment)) return googleError(res, 400, 'The reply violates the review reply policy (links to spam).');
    review.reply = { comment, updateTime: now() };
    return json(res, { comment, updateTime: new Date(now()).toISOString() });
  }

  // The browser tests' hold on the stand-in: add a location (with n reviews), post a review, read one back.
  function controlRoute(action: string, b: Record<string, unknown>, res: ServerResponse) {
    if (action === 'location') {
      const l = s.addLocation({ id: String(b.id), account: String(b.account ?? '1001'), title: String(b.title), placeId: (b.placeId as string | null) ?? null });
      for (let d = 1; d <= 95; d++) {
        const day = new Date(now() - d * 86_400_000).toISOString().slice(0, 10);
        for (const [metric, base] of [['CALL_CLICKS', 4], ['WEBSITE_CLICKS', 11], ['BUSINESS_DIRECTION_REQUESTS', 7], ['BUSINESS_IMPRESSIONS_MOBILE_MAPS', 180]] as const) (l.metrics[metric] ??= {})[day] = d % 6 === 0 ? 0 : base + (d % 5);
      }
      for (let i = 0; i < Number(b.reviews ?? 0); i++) s.addReview(l.id, { rating: 5 - (i % 4), comment: `Review number ${i + 1}.`, author: `Reviewer ${i + 1}`, at: now() - (i + 1) * 3_600_000 });
      return json(res, { id: l.id, reviews: l.reviews.length });
    }
    const l = s.locations.find((x) => x.id === String(b.locationId));
    if (!l) return json(res, { error: 'no such location' }, 404);
    if (action === 'review') return json(res, s.addReview(l.id, { rating: Number(b.rating), comment: String(b.comment ?? ''), author: String(b.author ?? 'A Google user') }));
    return json(res, { reviews: l.reviews });
  }

  function routeOf(method: string, path: string): GbpRoute | null {
    if (method === 'GET' && path === '/o/oauth2/v2/auth') return 'consent';
    if (method === 'POST' && path === '/token') return 'token';
    if (method === 'POST' && path === '/revoke') return 'revoke';
    if (method === 'GET' && path === '/v1/accounts') return 'accounts';
    if (method === 'GET' && /^\/v1\/accounts\/[^/]+\/locations$/.test(path)) return 'locations';
    if (method === 'GET' && /^\/v1\/locations\/[^/]+:fetchMultiDailyMetricsTimeSeries$/.test(path)) return 'performance';
    if (method === 'GET' && /^\/v4\/accounts\/[^/]+\/locations\/[^/]+\/reviews$/.test(path)) return 'reviews';
    if ((method === 'PUT' || method === 'DELETE') && /^\/v4\/accounts\/[^/]+\/locations\/[^/]+\/reviews\/[^/]+\/reply$/.test(path)) return 'reply';
    return null;
  }

  const server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const body = await bodyOf(req);
      if (options.control && req.method === 'POST' && url.pathname.startsWith('/_control/')) return controlRoute(url.pathname.slice('/_control/'.length), JSON.parse(body || '{}') as Record<string, unknown>, res);
      let route = routeOf(req.method ?? 'GET', decodeURIComponent(url.pathname));
      if (!route) return googleError(res, 404, 'Not found');
      const form = new URLSearchParams(body);
      if (route === 'token' && form.get('grant_type') === 'refresh_token') route = 'refresh';
      s.hits[route] = (s.hits[route] ?? 0) + 1;
      s.calls.push({ route, method: req.method ?? 'GET', url: req.url ?? '', body });
      const failure = failures.get(route);
      if (failure && failure.times > 0) {
        failure.times--;
        return route === 'token' || route === 'refresh' ? json(res, { error: 'server_error' }, failure.status) : googleError(res, failure.status, failure.message);
      }
      if (route === 'consent') return consentRoute(url, res);
      if (route === 'token' || route === 'refresh') return tokenRoute(form, res);
      if (route === 'revoke') return revokeRoute(form, res);
      return apiRoute(req, url, body, res, route);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500).end(String(error));
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  s.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  s.env = {
    GOOGLE_OAUTH_CLIENT_ID: STANDIN_CLIENT_ID,
    GOOGLE_OAUTH_CLIENT_SECRET: STANDIN_CLIENT_SECRET,
    GOOGLE_OAUTH_AUTHORIZE_URL: `${s.base}/o/oauth2/v2/auth`,
    GOOGLE_OAUTH_TOKEN_URL: `${s.base}/token`,
    GOOGLE_OAUTH_REVOKE_URL: `${s.base}/revoke`,
    GBP_ACCOUNTS_BASE_URL: s.base,
    GBP_INFO_BASE_URL: s.base,
    GBP_REVIEWS_BASE_URL: s.base,
    GBP_PERFORMANCE_BASE_URL: s.base,
    TOKEN_SECRET_KEY: 'a-token-secret-key-for-the-tests-only-0123456789',
  };
  return s;
}
