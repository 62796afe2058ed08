// Connecting a business's Google Business Profile (issue 48, decision 0280): a signed-in viewer
// who may monitor the business (its owner, or the agency whose client it is) starts at
// GET /connect/google?businessId=…; the state is bound to that session (a hash of its token) and
// carries the PKCE verifier, one use within ten minutes. The callback exchanges the code, lists
// the locations the grant reaches and connects the one whose placeId is the business's, else the
// only one, else asks. Every failure ends on an outcome that says what happened and what to do.
// An agency starts from its client's page with `&clientId=…` (decision 0321): the client must be
// the agency's and be that business, and every outcome goes back to that page.
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, lt, ne } from 'drizzle-orm';
import { businesses } from '../../../db/schema/businesses.ts';
import { googleConnections, googleConnectStates } from '../../../db/schema/google-profile.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import { monitoredBusiness } from '../review-alerts.ts';
import { sessionTokenFrom } from '../session-token.ts';
import { googleConnectConfigured } from './connection.ts';
import { authorizeUrl, exchangeCode, GoogleError, listLocations, pkcePair, refreshAccess, reviewsPage, reviewsParent, type GoogleLocation, type Tokens } from './google-api.ts';
import { PROFILE_POLL, type ProfilePollPayload } from './poll-job.ts';
import { connectSampleProfile } from './sample-profile.ts';
import { openToken, sealToken } from './secrets.ts';

const STATE_TTL_MS = 10 * 60 * 1000;
const hash = (token: string) => createHash('sha256').update(`google-connect:${token}`).digest('hex');

export type ConnectFailure = 'denied' | 'wrong-state' | 'taken' | 'unverified' | 'quota' | 'no-location' | 'google-error' | 'not-configured';

/** `clientId`: started from that client's page (an agency), where the connection goes back to. */
export type ConnectOutcome =
  | { kind: 'redirect'; to: string }
  | { kind: 'connected'; businessId: string; title: string; sample: boolean; clientId?: string | null }
  | { kind: 'picker'; state: string; businessId: string; company: string; choices: Array<{ locationName: string; title: string }>; fields?: { location: string }; clientId?: string | null }
  | { kind: 'failed'; reason: ConnectFailure; businessId: string | null; detail?: string; clientId?: string | null };

export const FAILURE_COPY: Record<ConnectFailure, { title: string; what: string; next: string }> = {
  denied: { title: 'Google Business Profile not connected', what: 'You chose Cancel on Google\'s consent screen, so we have no access to your Business Profile.', next: 'Connect again and choose Allow when Google asks whether LocalRank may manage your business listings.' },
  'wrong-state': { title: 'This sign-in with Google has expired', what: 'The answer from Google did not match a connection you started in this browser in the last 10 minutes, so we did not use it.', next: 'Start again from your dashboard with "Connect Google Business Profile", in the same browser you are signed in with.' },
  taken: { title: 'This profile is connected elsewhere', what: 'The Google Business Profile location you chose is already connected to another business in LocalRank.', next: 'Disconnect it there first (or ask the account that connected it), then connect it here.' },
  unverified: { title: 'This profile is not verified yet', what: 'Google only lets owners read and answer reviews of a verified Business Profile, and this location is not verified.', next: 'Verify the location in Google Business Profile (business.google.com), then connect again.' },
  quota: { title: 'Google refused for quota', what: 'Google answered that this application has no Business Profile API quota left (a new application has none until Google approves its access).', next: 'Try again later. If it keeps happening, tell us at support: the operator must ask Google for Business Profile API access.' },
  'no-location': { title: 'No Business Profile found', what: 'The Google account you signed in with manages no Business Profile location.', next: 'Connect again with the Google account that owns or manages the profile.' },
  'google-error': { title: 'Google did not complete the connection', what: 'Google answered with an error while we connected your profile.', next: 'Try again in a few minutes.' },
  'not-configured': { title: 'Connecting Google is not available', what: 'This server has no Google OAuth client or token key set, so it cannot connect Business Profiles.', next: 'The operator sets GOOGLE_OAUTH_CLIENT_ID, GOOGLE_OAUTH_CLIENT_SECRET and TOKEN_SECRET_KEY (see the README).' },
};

const failed = (reason: ConnectFailure, businessId: string | null, detail?: string, clientId?: string | null): ConnectOutcome => ({ kind: 'failed', reason, businessId, ...(detail ? { detail } : {}), ...(clientId ? { clientId } : {}) });

/** The client must be one of the viewer's agency's, and be this business: else the same 404 as a stranger's. */
async function checkClient(ctx: AppContext, userId: string, clientId: string, businessId: string) {
  const [row] = await ctx.db.$read('SELECT cl.id FROM clients cl JOIN consultants c ON c.id = cl.consultant_id WHERE cl.id = ?1 AND cl.business_id = ?2 AND c.user_id = ?3', [clientId, businessId, userId]);
  if (!row) throw new AppError('not_found', 'Client not found');
}

async function viewerOf(ctx: AppContext, cookie: string | null | undefined) {
  const token = await sessionTokenFrom(ctx, cookie);
  if (!token) return null;
  const [row] = await ctx.db.$read('SELECT user_id FROM sessions WHERE token = ?1 AND expires_at > ?2', [token, Date.now()]);
  return row ? { token, userId: String(row.user_id) } : null;
}

/** GET /connect/google?businessId=…[&clientId=…]: where the browser goes next. 401/403/404 as
 *  the dashboard; from a client's page, 404 unless the client is the viewer's agency's and is this business. */
export async function startConnect(ctx: AppContext, cookie: string | null | undefined, businessId: string, clientId: string | null = null): Promise<ConnectOutcome> {
  const business = await monitoredBusiness(ctx, cookie, businessId, Date.now());
  const viewer = await viewerOf(ctx, cookie);
  if (!viewer) throw new AppError('unauthenticated', 'Not authenticated');
  if (clientId !== null) await checkClient(ctx, viewer.userId, clientId, business.id);
  if (!googleConnectConfigured(ctx.env)) {
    if (ctx.env.PLACES_PROVIDER !== 'sample') return failed('not-configured', business.id, undefined, clientId);
    await connectSampleProfile(ctx, business.id, viewer.userId);
    return { kind: 'connected', businessId: business.id, title: 'Sample Business Profile', sample: true, ...(clientId ? { clientId } : {}) };
  }
  await ctx.db.delete(googleConnectStates).where(lt(googleConnectStates.createdAt, new Date(Date.now() - STATE_TTL_MS)));
  const state = randomBytes(24).toString('base64url');
  const { verifier, challenge } = pkcePair();
  await ctx.db.insert(googleConnectStates).values({ state, sessionHash: hash(viewer.token), businessId: business.id, userId: viewer.userId, verifier, clientId });
  return { kind: 'redirect', to: authorizeUrl(ctx.env, state, challenge) };
}

/** The state row, when it was made by this session less than ten minutes ago. */
async function stateFor(ctx: AppContext, cookie: string | null | undefined, state: string) {
  const viewer = await viewerOf(ctx, cookie);
  if (!viewer || !state) return null;
  const row = await ctx.db.query.googleConnectStates.findFirst({ where: eq(googleConnectStates.state, state) });
  if (!row || row.sessionHash !== hash(viewer.token) || row.createdAt.getTime() < Date.now() - STATE_TTL_MS) return null;
  return row;
}

const googleFailure = (error: unknown, row: { businessId: string; clientId: string | null }): ConnectOutcome => {
  if (!(error instanceof GoogleError)) throw error;
  const reason: ConnectFailure = error.kind === 'quota' ? 'quota' : error.kind === 'unverified' ? 'unverified' : error.kind === 'invalid_grant' ? 'wrong-state' : 'google-error';
  return failed(reason, row.businessId, error.message, row.clientId);
};

/** GET /connect/google/callback?code=…&state=… (or ?error=access_denied). */
export async function finishConnect(ctx: AppContext, cookie: string | null | undefined, query: URLSearchParams): Promise<ConnectOutcome> {
  const row = await stateFor(ctx, cookie, query.get('state') ?? '');
  if (!row) return failed(query.get('error') === 'access_denied' ? 'denied' : 'wrong-state', null);
  await ctx.db.delete(googleConnectStates).where(eq(googleConnectStates.state, row.state));
  if (query.get('error')) return failed(query.get('error') === 'access_denied' ? 'denied' : 'google-error', row.businessId, query.get('error') ?? undefined, row.clientId);
  const code = query.get('code');
  if (!code) return failed('wrong-state', row.businessId, undefined, row.clientId);
  let tokens: Tokens;
  let locations: GoogleLocation[];
  try {
    tokens = await exchangeCode(ctx.env, code, row.verifier);
    locations = await listLocations(ctx.env, tokens.accessToken);
  } catch (error) {
    return googleFailure(error, row);
  }
  if (!tokens.refreshToken) return failed('google-error', row.businessId, 'Google gave no refresh token.', row.clientId);
  if (!locations.length) return failed('no-location', row.businessId, undefined, row.clientId);
  const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, row.businessId), columns: { placeId: true, company: true } });
  const placeId = business?.placeId?.replace(/^google:/, '') ?? null;
  const chosen = locations.find((l) => placeId && l.placeId === placeId) ?? (locations.length === 1 ? locations[0] : undefined);
  if (chosen) return connectLocation(ctx, row, chosen, tokens);
  // Several locations and none is the business's place: the user picks; the grant waits, sealed.
  const state = randomBytes(24).toString('base64url');
  await ctx.db.insert(googleConnectStates).values({ ...row, state, createdAt: new Date(), pendingRefreshToken: sealToken(ctx.env, tokens.refreshToken), choices: locations });
  return { kind: 'picker', state, businessId: row.businessId, company: business?.company ?? '', choices: locations.map((l) => ({ locationName: l.locationName, title: l.title })), clientId: row.clientId };
}

/** POST /connect/google/callback with the picked location. */
export async function pickLocation(ctx: AppContext, cookie: string | null | undefined, state: string, locationName: string): Promise<ConnectOutcome> {
  const row = await stateFor(ctx, cookie, state);
  const chosen = row?.choices?.find((c) => c.locationName === locationName);
  const refresh = openToken(ctx.env, row?.pendingRefreshToken ?? null);
  if (!row || !refresh) return failed('wrong-state', row?.businessId ?? null, undefined, row?.clientId);
  if (!chosen) {
    const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, row.businessId), columns: { company: true } });
    return { kind: 'picker', state: row.state, businessId: row.businessId, company: business?.company ?? '', choices: (row.choices ?? []).map((c) => ({ locationName: c.locationName, title: c.title })), fields: { location: 'Choose one of the locations listed' }, clientId: row.clientId };
  }
  await ctx.db.delete(googleConnectStates).where(eq(googleConnectStates.state, row.state));
  try {
    const tokens = await refreshAccess(ctx.env, refresh);
    return await connectLocation(ctx, row, chosen, { ...tokens, refreshToken: refresh });
  } catch (error) {
    return googleFailure(error, row);
  }
}

async function connectLocation(ctx: AppContext, row: typeof googleConnectStates.$inferSelect, location: GoogleLocation, tokens: Tokens): Promise<ConnectOutcome> {
  const elsewhere = await ctx.db.query.googleConnections.findFirst({ where: and(eq(googleConnections.locationName, location.locationName), eq(googleConnections.status, 'connected'), ne(googleConnections.businessId, row.businessId)) });
  if (elsewhere) return failed('taken', row.businessId, undefined, row.clientId);
  // One read of the first page tells a verified location (403 otherwise) before anything is stored.
  try {
    await reviewsPage(ctx.env, tokens.accessToken, reviewsParent(location.accountName, location.locationName));
  } catch (error) {
    return googleFailure(error, row);
  }
  const values = {
    businessId: row.businessId,
    userId: row.userId,
    status: 'connected' as const,
    accountName: location.accountName,
    locationName: location.locationName,
    locationTitle: location.title,
    placeId: location.placeId,
    refreshToken: sealToken(ctx.env, tokens.refreshToken!),
    accessToken: sealToken(ctx.env, tokens.accessToken),
    accessExpiresAt: tokens.expiresAt,
    fullReadAt: null,
    lastError: null,
    disconnectedAt: null,
  };
  try {
    await ctx.db.insert(googleConnections).values(values).onConflictDoUpdate({ target: googleConnections.businessId, set: values });
  } catch (error) {
    // Two businesses connecting one location at the same moment: the partial unique index decides.
    if (/UNIQUE constraint failed: google_connections\.location_name/.test(String((error as Error).message) + String((error as { cause?: Error }).cause?.message))) return failed('taken', row.businessId, undefined, row.clientId);
    throw error;
  }
  const payload: ProfilePollPayload = { businessId: row.businessId, period: `connect-${Date.now()}` };
  await enqueue(ctx.db, { type: PROFILE_POLL, payload: { ...payload } });
  return { kind: 'connected', businessId: row.businessId, title: location.title, sample: false, ...(row.clientId ? { clientId: row.clientId } : {}) };
}
