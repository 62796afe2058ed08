// The calls to Google: OAuth 2.0 for web-server apps (code with PKCE, refresh, revoke) and the
// Business Profile APIs (accounts, locations, reviews, replies, performance), each at the address
// its setting names. Every refusal becomes a GoogleError with Google's own message.
import { createHash, randomBytes } from 'node:crypto';
import type { Env } from '../../env.ts';

export const GBP_SCOPE = 'https://www.googleapis.com/auth/business.manage';

export type GoogleErrorKind = 'invalid_grant' | 'unauthenticated' | 'unverified' | 'quota' | 'denied' | 'invalid' | 'unavailable';

export class GoogleError extends Error {
  readonly kind: GoogleErrorKind;
  readonly status: number;
  constructor(kind: GoogleErrorKind, message: string, status: number) {
    super(message);
    this.kind = kind;
    this.status = status;
  }
}

type GoogleEnv = Pick<Env, 'GOOGLE_OAUTH_CLIENT_ID' | 'GOOGLE_OAUTH_CLIENT_SECRET' | 'GOOGLE_OAUTH_AUTHORIZE_URL' | 'GOOGLE_OAUTH_TOKEN_URL' | 'GOOGLE_OAUTH_REVOKE_URL' | 'GBP_ACCOUNTS_BASE_URL' | 'GBP_INFO_BASE_URL' | 'GBP_REVIEWS_BASE_URL' | 'GBP_PERFORMANCE_BASE_URL' | 'PROVIDER_TIMEOUT_MS' | 'PUBLIC_BASE_URL'>;

export const redirectUri = (env: Pick<Env, 'PUBLIC_BASE_URL'>) => `${env.PUBLIC_BASE_URL}/connect/google/callback`;

export function pkcePair() {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function authorizeUrl(env: GoogleEnv, state: string, challenge: string): string {
  const url = new URL(env.GOOGLE_OAUTH_AUTHORIZE_URL);
  const q = url.searchParams;
  q.set('client_id', env.GOOGLE_OAUTH_CLIENT_ID ?? '');
  q.set('redirect_uri', redirectUri(env));
  q.set('response_type', 'code');
  q.set('scope', GBP_SCOPE);
  q.set('access_type', 'offline');
  // Google gives a refresh token only on consent: a reconnect after a revoke must get a new one.
  q.set('prompt', 'consent');
  q.set('include_granted_scopes', 'true');
  q.set('state', state);
  q.set('code_challenge', challenge);
  q.set('code_challenge_method', 'S256');
  return url.toString();
}

async function call(env: GoogleEnv, url: string, init: RequestInit): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(env.PROVIDER_TIMEOUT_MS) });
  } catch (error) {
    throw new GoogleError('unavailable', `Google did not answer (${(error as Error).name === 'TimeoutError' ? 'timed out' : 'unreachable'}).`, 0);
  }
  const text = await res.text();
  let body: Record<string, unknown> = {};
  try {
    body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  } catch {
    if (res.ok) throw new GoogleError('unavailable', 'Google answered with something other than JSON.', res.status);
  }
  if (res.ok) return body;
  // OAuth endpoints answer { error: 'invalid_grant', error_description }; the APIs { error: { code, message, status } }.
  const oauth = typeof body.error === 'string' ? body.error : null;
  const api = typeof body.error === 'object' && body.error ? (body.error as { message?: string; status?: string }) : null;
  const message = api?.message ?? (typeof body.error_description === 'string' ? body.error_description : null) ?? oauth ?? `HTTP ${res.status}`;
  if (oauth === 'invalid_grant') throw new GoogleError('invalid_grant', message, res.status);
  if (res.status === 401) throw new GoogleError('unauthenticated', message, res.status);
  if (res.status === 403) throw new GoogleError('unverified', message, res.status);
  if (res.status === 429) throw new GoogleError('quota', message, res.status);
  if (res.status === 400 || res.status === 404) throw new GoogleError('invalid', message, res.status);
  throw new GoogleError('unavailable', message, res.status);
}

const form = (fields: Record<string, string>) => ({ method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });
const bearer = (token: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), Authorization: `Bearer ${token}` } });

export interface Tokens {
  accessToken: string;
  expiresAt: Date;
  refreshToken: string | null;
}

function tokensOf(body: unknown, now: number): Tokens {
  const b = body as { access_token?: unknown; expires_in?: unknown; refresh_token?: unknown };
  if (typeof b.access_token !== 'string') throw new GoogleError('unavailable', 'Google gave no access token.', 200);
  return { accessToken: b.access_token, expiresAt: new Date(now + (Number(b.expires_in) || 3600) * 1000), refreshToken: typeof b.refresh_token === 'string' ? b.refresh_token : null };
}

export async function exchangeCode(env: GoogleEnv, code: string, verifier: string): Promise<Tokens> {
  const body = await call(env, env.GOOGLE_OAUTH_TOKEN_URL, form({ grant_type: 'authorization_code', code, code_verifier: verifier, client_id: env.GOOGLE_OAUTH_CLIENT_ID ?? '', client_secret: env.GOOGLE_OAUTH_CLIENT_SECRET ?? '', redirect_uri: redirectUri(env) }));
  return tokensOf(body, Date.now());
}

export async function refreshAccess(env: GoogleEnv, refreshToken: string): Promise<Tokens> {
  const body = await call(env, env.GOOGLE_OAUTH_TOKEN_URL, form({ grant_type: 'refresh_token', refresh_token: refreshToken, client_id: env.GOOGLE_OAUTH_CLIENT_ID ?? '', client_secret: env.GOOGLE_OAUTH_CLIENT_SECRET ?? '' }));
  return tokensOf(body, Date.now());
}

/** Revokes the grant; one already gone at Google counts as revoked. */
export async function revokeGrant(env: GoogleEnv, token: string): Promise<void> {
  try {
    await call(env, env.GOOGLE_OAUTH_REVOKE_URL, form({ token }));
  } catch (error) {
    if (error instanceof GoogleError && (error.kind === 'invalid' || error.kind === 'invalid_grant')) return;
    throw error;
  }
}

export interface GoogleLocation {
  accountName: string;
  locationName: string;
  title: string;
  placeId: string | null;
}

/** Every location of every account the grant reaches (accounts.list, then locations.list per account). */
export async function listLocations(env: GoogleEnv, token: string): Promise<GoogleLocation[]> {
  const out: GoogleLocation[] = [];
  const accounts = ((await call(env, `${env.GBP_ACCOUNTS_BASE_URL}/v1/accounts`, bearer(token))) as { accounts?: Array<{ name: string }> }).accounts ?? [];
  for (const account of accounts) {
    let pageToken: string | undefined;
    do {
      const url = new URL(`${env.GBP_INFO_BASE_URL}/v1/${account.name}/locations`);
      url.searchParams.set('readMask', 'name,title,metadata');
      url.searchParams.set('pageSize', '100');
      if (pageToken) url.searchParams.set('pageToken', pageToken);
      const page = (await call(env, url.toString(), bearer(token))) as { locations?: Array<{ name: string; title?: string; metadata?: { placeId?: string } }>; nextPageToken?: string };
      for (const l of page.locations ?? []) out.push({ accountName: account.name, locationName: l.name, title: l.title ?? l.name, placeId: l.metadata?.placeId ?? null });
      pageToken = page.nextPageToken;
    } while (pageToken);
  }
  return out;
}

export interface GoogleReview {
  reviewId: string;
  author: string | null;
  rating: number;
  text: string | null;
  createdAt: Date;
  updatedAt: Date;
  reply: { text: string; updatedAt: Date } | null;
}

const STARS: Record<string, number> = { ONE: 1, TWO: 2, THREE: 3, FOUR: 4, FIVE: 5 };

/** `accounts/{a}/locations/{l}`: the v4 reviews' parent, from the account and the v1 location name. */
export const reviewsParent = (accountName: string, locationName: string) => `${accountName}/${locationName}`;

/** One page of reviews, newest first (orderBy updateTime desc, 50 a page, Google's most), and
 *  Google's count of the location's reviews (`totalReviewCount`, on every page). */
export async function reviewsPage(env: GoogleEnv, token: string, parent: string, pageToken?: string): Promise<{ reviews: GoogleReview[]; next: string | null; total: number | null }> {
  const url = new URL(`${env.GBP_REVIEWS_BASE_URL}/v4/${parent}/reviews`);
  url.searchParams.set('pageSize', '50');
  url.searchParams.set('orderBy', 'updateTime desc');
  if (pageToken) url.searchParams.set('pageToken', pageToken);
  const body = (await call(env, url.toString(), bearer(token))) as { reviews?: Array<Record<string, unknown>>; nextPageToken?: string; totalReviewCount?: unknown };
  const reviews = (body.reviews ?? []).flatMap((r): GoogleReview[] => {
    const rating = STARS[String(r.starRating)];
    if (typeof r.reviewId !== 'string' || !rating) return [];
    const reply = r.reviewReply as { comment?: string; updateTime?: string } | undefined;
    return [
      {
        reviewId: r.reviewId,
        author: (r.reviewer as { displayName?: string } | undefined)?.displayName ?? null,
        rating,
        text: typeof r.comment === 'string' ? r.comment : null,
        createdAt: new Date(String(r.createTime)),
        updatedAt: new Date(String(r.updateTime ?? r.createTime)),
        reply: reply?.comment ? { text: reply.comment, updatedAt: new Date(String(reply.updateTime)) } : null,
      },
    ];
  });
  return { reviews, next: body.nextPageToken ?? null, total: typeof body.totalReviewCount === 'number' ? body.totalReviewCount : null };
}

export async function putReply(env: GoogleEnv, token: string, parent: string, reviewId: string, text: string): Promise<void> {
  await call(env, `${env.GBP_REVIEWS_BASE_URL}/v4/${parent}/reviews/${encodeURIComponent(reviewId)}/reply`, bearer(token, { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ comment: text }) }));
}

export async function deleteReply(env: GoogleEnv, token: string, parent: string, reviewId: string): Promise<void> {
  await call(env, `${env.GBP_REVIEWS_BASE_URL}/v4/${parent}/reviews/${encodeURIComponent(reviewId)}/reply`, bearer(token, { method: 'DELETE' }));
}

export const PERFORMANCE_METRICS = { CALL_CLICKS: 'calls', WEBSITE_CLICKS: 'websiteClicks', BUSINESS_DIRECTION_REQUESTS: 'directionRequests' } as const;
const IMPRESSIONS = ['BUSINESS_IMPRESSIONS_DESKTOP_MAPS', 'BUSINESS_IMPRESSIONS_DESKTOP_SEARCH', 'BUSINESS_IMPRESSIONS_MOBILE_MAPS', 'BUSINESS_IMPRESSIONS_MOBILE_SEARCH'];

export interface DayMetrics {
  day: string;
  calls: number;
  websiteClicks: number;
  directionRequests: number;
  impressions: number;
}

/** Daily values from `from` to `to` (YYYY-MM-DD, inclusive); a day Google omits is 0. */
export async function dailyMetrics(env: GoogleEnv, token: string, locationName: string, from: string, to: string): Promise<DayMetrics[]> {
  const url = new URL(`${env.GBP_PERFORMANCE_BASE_URL}/v1/${locationName}:fetchMultiDailyMetricsTimeSeries`);
  for (const m of [...Object.keys(PERFORMANCE_METRICS), ...IMPRESSIONS]) url.searchParams.append('dailyMetrics', m);
  for (const [side, day] of [['start', from], ['end', to]] as const) {
    const [y, m, d] = day.split('-');
    url.searchParams.set(`dailyRange.${side}Date.year`, String(Number(y)));
    url.searchParams.set(`dailyRange.${side}Date.month`, String(Number(m)));
    url.searchParams.set(`dailyRange.${side}Date.day`, String(Number(d)));
  }
  const body = (await call(env, url.toString(), bearer(token))) as { multiDailyMetricTimeSeries?: Array<{ dailyMetricTimeSeries?: Array<{ dailyMetric: string; timeSeries?: { datedValues?: Array<{ date: { year: number; month: number; day: number }; value?: string }> } }> }> };
  const days = new Map<string, DayMetrics>();
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += 86_400_000) {
    const day = new Date(t).toISOString().slice(0, 10);
    days.set(day, { day, calls: 0, websiteClicks: 0, directionRequests: 0, impressions: 0 });
  }
  for (const group of body.multiDailyMetricTimeSeries ?? []) {
    for (const series of group.dailyMetricTimeSeries ?? []) {
      const field = (PERFORMANCE_METRICS as Record<string, keyof DayMetrics>)[series.dailyMetric] ?? (IMPRESSIONS.includes(series.dailyMetric) ? 'impressions' : null);
      if (!field) continue;
      for (const v of series.timeSeries?.datedValues ?? []) {
        const day = `${v.date.year}-${String(v.date.month).padStart(2, '0')}-${String(v.date.day).padStart(2, '0')}`;
        const row = days.get(day);
        if (row && v.value) (row[field] as number) += Number(v.value);
      }
    }
  }
  return [...days.values()];
}
