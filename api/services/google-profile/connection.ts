// A connected profile's access: the stored grant opened, the access token refreshed when it has
// expired (the user never notices), and a revoked grant (`invalid_grant`) turned into a
// disconnected profile: its tokens deleted, no more calls to Google for it, and one e-mail to
// whoever connected it with a link to connect again (decision 0281).
import { and, eq } from 'drizzle-orm';
import { users } from '../../../db/schema/auth.ts';
import { googleConnections, profileMetrics, profileReviews } from '../../../db/schema/google-profile.ts';
import type { AppContext } from '../../context.ts';
import { enqueue } from '../../jobs/queue.ts';
import { ACCOUNT_EMAIL, type AccountEmailPayload } from '../../email/account-email.ts';
import { GoogleError, refreshAccess, revokeGrant } from './google-api.ts';
import { openToken, sealToken } from './secrets.ts';

export type Connection = typeof googleConnections.$inferSelect;

/** Connecting is offered when the OAuth client and the token key are both set. */
export const googleConnectConfigured = (env: AppContext['env']) => Boolean(env.GOOGLE_OAUTH_CLIENT_ID && env.GOOGLE_OAUTH_CLIENT_SECRET && env.TOKEN_SECRET_KEY);

export const connectionOf = (ctx: AppContext, businessId: string) => ctx.db.query.googleConnections.findFirst({ where: eq(googleConnections.businessId, businessId) });

/** The connection has lost its grant: mark it, forget its tokens and e-mail once. */
export async function markDisconnected(ctx: AppContext, connection: Connection, reason: string, now = new Date()): Promise<void> {
  const flipped = await ctx.db
    .update(googleConnections)
    .set({ status: 'disconnected', refreshToken: null, accessToken: null, accessExpiresAt: null, lastError: reason, disconnectedAt: now })
    .where(and(eq(googleConnections.id, connection.id), eq(googleConnections.status, 'connected')))
    .returning({ id: googleConnections.id });
  // Only the process that flipped it sends the e-mail: several workers, one message.
  if (!flipped.length || !connection.userId) return;
  const user = await ctx.db.query.users.findFirst({ where: eq(users.id, connection.userId), columns: { email: true, closedAt: true } });
  if (!user || user.closedAt) return;
  const payload: AccountEmailPayload = { kind: 'google-disconnected', to: user.email, url: `${ctx.env.PUBLIC_BASE_URL}/connect/google?businessId=${encodeURIComponent(connection.businessId)}`, ref: `${connection.id}:${now.getTime()}` };
  await enqueue(ctx.db, { type: ACCOUNT_EMAIL, payload: { ...payload }, key: `google-disconnected:${connection.id}:${now.getTime()}` });
  ctx.log.info('google profile disconnected', { businessId: connection.businessId, reason });
}

/**
 * A live access token for the connection, refreshed when the stored one has (nearly) expired.
 * Throws GoogleError; on `invalid_grant` the connection is marked disconnected first.
 */
export async function accessTokenFor(ctx: AppContext, connection: Connection, options: { force?: boolean } = {}): Promise<string> {
  const stored = openToken(ctx.env, connection.accessToken);
  if (!options.force && stored && connection.accessExpiresAt && connection.accessExpiresAt.getTime() > Date.now() + 60_000) return stored;
  const refresh = openToken(ctx.env, connection.refreshToken);
  if (!refresh) {
    await markDisconnected(ctx, connection, 'the stored grant cannot be read (TOKEN_SECRET_KEY changed?)');
    throw new GoogleError('invalid_grant', 'The stored grant cannot be read.', 0);
  }
  try {
    const tokens = await refreshAccess(ctx.env, refresh);
    const sealed = sealToken(ctx.env, tokens.accessToken);
    await ctx.db.update(googleConnections).set({ accessToken: sealed, accessExpiresAt: tokens.expiresAt }).where(eq(googleConnections.id, connection.id));
    connection.accessToken = sealed;
    connection.accessExpiresAt = tokens.expiresAt;
    return tokens.accessToken;
  } catch (error) {
    if (error instanceof GoogleError && error.kind === 'invalid_grant') await markDisconnected(ctx, connection, `Google refused the grant: ${error.message}`);
    throw error;
  }
}

/** Runs `work` with a live token; a 401 (a token Google no longer takes) gets one refresh and one more try. */
export async function withAccess<T>(ctx: AppContext, connection: Connection, work: (token: string) => Promise<T>): Promise<T> {
  try {
    return await work(await accessTokenFor(ctx, connection));
  } catch (error) {
    if (!(error instanceof GoogleError) || error.kind !== 'unauthenticated') throw error;
    return work(await accessTokenFor(ctx, connection, { force: true }));
  }
}

/** Disconnect (the user's choice, account closure, erasure): the grant revoked at Google, the row deleted. */
export async function disconnectProfile(ctx: AppContext, businessId: string): Promise<boolean> {
  const connection = await connectionOf(ctx, businessId);
  if (!connection) return false;
  const refresh = openToken(ctx.env, connection.refreshToken);
  if (refresh && connection.status === 'connected') {
    try {
      await revokeGrant(ctx.env, refresh);
    } catch (error) {
      // The tokens are deleted all the same; the grant lapses at Google after six months unused.
      ctx.log.warn('google grant not revoked', { businessId, error: (error as Error).message });
    }
  }
  await ctx.db.delete(googleConnections).where(eq(googleConnections.id, connection.id));
  await ctx.db.delete(profileReviews).where(eq(profileReviews.businessId, businessId));
  await ctx.db.delete(profileMetrics).where(eq(profileMetrics.businessId, businessId));
  return true;
}

/** Account closure: every profile the account connected or holds is disconnected (grant revoked). */
export async function disconnectAccountProfiles(ctx: AppContext, userId: string, accountBusinessesSql: string): Promise<number> {
  const rows = await ctx.db.$client.execute({ sql: `SELECT business_id FROM google_connections WHERE user_id = :userId OR business_id IN (${accountBusinessesSql})`, args: { userId } });
  for (const r of rows.rows) await disconnectProfile(ctx, String(r.business_id));
  return rows.rows.length;
}
