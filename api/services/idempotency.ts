// Idempotency-Key for the public API's writes (issue 16): the same key with the same request
// answers the first answer again; with another request, 422; while the first is still running,
// 409. Keys are kept IDEMPOTENCY_TTL_MS per user (the IETF draft's advice: long enough for a
// client's retries). A request that fails with an error keeps no row, so it can be retried as is.
import { createHash } from 'node:crypto';
import { and, eq, lt } from 'drizzle-orm';
import { apiIdempotency } from '../../db/schema/api.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';

export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
export const IDEMPOTENCY_KEY_MAX = 255;
const PRUNE_EVERY_MS = 60_000;
const lastPrune = new WeakMap<object, number>();

export const IDEMPOTENCY_MESSAGES = {
  required: 'Required: send an Idempotency-Key header (a unique string such as a UUID) so a retried request is not taken twice',
  mismatch: 'This Idempotency-Key was already used with a different request. Use a new key for a new request.',
  running: 'A request with this Idempotency-Key is still being processed. Retry it in a moment.',
} as const;

export interface Stored<T> {
  status: number;
  body: T;
  replayed: boolean;
}

export async function withIdempotency<T>({ ctx, userId, key, request, run, now = Date.now() }: { ctx: AppContext; userId: string; key: string; request: unknown; run: () => Promise<{ status: number; body: T }>; now?: number }): Promise<Stored<T>> {
  if (now - (lastPrune.get(ctx.db) ?? 0) >= PRUNE_EVERY_MS) {
    lastPrune.set(ctx.db, now);
    await ctx.db.delete(apiIdempotency).where(lt(apiIdempotency.createdAt, new Date(now - IDEMPOTENCY_TTL_MS)));
  }
  const requestHash = createHash('sha256').update(JSON.stringify(request)).digest('hex');
  const mine = and(eq(apiIdempotency.userId, userId), eq(apiIdempotency.key, key));
  // An expired key is free again.
  await ctx.db.delete(apiIdempotency).where(and(mine, lt(apiIdempotency.createdAt, new Date(now - IDEMPOTENCY_TTL_MS))));
  const [claimed] = await ctx.db
    .insert(apiIdempotency)
    .values({ userId, key, requestHash, createdAt: new Date(now) })
    .onConflictDoNothing()
    .returning({ id: apiIdempotency.id });
  if (!claimed) {
    const row = await ctx.db.query.apiIdempotency.findFirst({ where: mine });
    if (!row) throw new AppError('conflict', IDEMPOTENCY_MESSAGES.running, { retryAfterSeconds: 1 });
    if (row.requestHash !== requestHash) throw new AppError('unprocessable', IDEMPOTENCY_MESSAGES.mismatch);
    if (row.status !== 'done') throw new AppError('conflict', IDEMPOTENCY_MESSAGES.running, { retryAfterSeconds: 1 });
    return { status: row.responseStatus!, body: JSON.parse(row.responseBody!) as T, replayed: true };
  }
  try {
    const answer = await run();
    await ctx.db
      .update(apiIdempotency)
      .set({ status: 'done', responseStatus: answer.status, responseBody: JSON.stringify(answer.body) })
      .where(eq(apiIdempotency.id, claimed.id));
    return { ...answer, replayed: false };
  } catch (error) {
    await ctx.db.delete(apiIdempotency).where(eq(apiIdempotency.id, claimed.id));
    throw error;
  }
}
