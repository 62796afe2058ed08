// Fixed-window counters in the database, so every web process shares them. A counter at its limit
// is refused before anything is written (a refused client adds no row and no write), and expired
// rows are pruned at most once a minute per process, so the table holds about one row per key
// counted in the longest window and no more (decision 0092).
import { inArray, lte, sql } from 'drizzle-orm';
import { rateLimits } from '../../db/schema/operations.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';

export interface Limit {
  key: string;
  limit: number;
  windowMs: number;
  message: string;
}

type Row = { count: number; reset_at: number };
export const PRUNE_EVERY_MS = 60_000;

function upsert(ctx: Pick<AppContext, 'db'>, input: Limit, now: number) {
  const resetAt = now + input.windowMs;
  return ctx.db.all<Row>(sql`
    INSERT INTO rate_limits (key, count, reset_at) VALUES (${input.key}, 1, ${resetAt})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.reset_at <= ${now} THEN 1 ELSE rate_limits.count + 1 END,
      reset_at = CASE WHEN rate_limits.reset_at <= ${now} THEN excluded.reset_at ELSE rate_limits.reset_at END
    RETURNING count, reset_at`);
}

const refusal = (input: Limit, resetAt: number, now: number) =>
  new AppError('rate_limited', input.message, { retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) });

const lastPrune = new WeakMap<object, number>();

/** Deletes the counters whose window has ended, at most once per PRUNE_EVERY_MS per database. */
export async function pruneRateLimits(ctx: Pick<AppContext, 'db'>, now = Date.now(), force = false): Promise<number> {
  if (!force && now - (lastPrune.get(ctx.db) ?? 0) < PRUNE_EVERY_MS) return 0;
  lastPrune.set(ctx.db, now);
  const deleted = await ctx.db.delete(rateLimits).where(lte(rateLimits.resetAt, new Date(now))).returning({ key: rateLimits.key });
  return deleted.length;
}

/**
 * Counts one attempt against every limit, or throws the first one already reached without
 * counting anything. Two requests may both pass the read at once; the counted values are checked
 * again, so at most the limit is ever let through.
 */
export async function consumeRateLimits({ ctx, input }: { ctx: Pick<AppContext, 'db'>; input: [Limit, ...Limit[]] }): Promise<void> {
  const now = Date.now();
  await pruneRateLimits(ctx, now);
  const current = await ctx.db
    .select()
    .from(rateLimits)
    .where(inArray(rateLimits.key, input.map((l) => l.key)));
  for (const limit of input) {
    const row = current.find((r) => r.key === limit.key);
    if (row && row.resetAt.getTime() > now && row.count >= limit.limit) throw refusal(limit, row.resetAt.getTime(), now);
  }
  const [first, ...rest] = input.map((limit) => upsert(ctx, limit, now));
  const results = await ctx.db.batch([first!, ...rest]);
  input.forEach((limit, i) => {
    const row = (results[i] as Row[])[0]!;
    if (row.count > limit.limit) throw refusal(limit, row.reset_at, now);
  });
}

export async function consumeRateLimit({ ctx, input }: { ctx: Pick<AppContext, 'db'>; input: Limit }): Promise<void> {
  await consumeRateLimits({ ctx, input: [input] });
}

export async function resetRateLimit({ ctx, input }: { ctx: Pick<AppContext, 'db'>; input: { key: string } }): Promise<void> {
  await ctx.db.run(sql`DELETE FROM rate_limits WHERE key = ${input.key}`);
}

export interface Meter {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
  windowSeconds: number;
  /** Set when this request is over the limit: the caller sends the headers, then throws it. */
  refusal: AppError | null;
}

/**
 * Counts one request in a fixed window with one statement and says where the counter stands (the
 * public API's RateLimit headers); beyond the limit `refusal` is the 429 to throw. A
 * refused request leaves the count at limit + 1, so a client hammering a full window writes
 * nothing new.
 */
export async function meterRateLimit({ ctx, input, now = Date.now() }: { ctx: Pick<AppContext, 'db'>; input: Limit; now?: number }): Promise<Meter> {
  await pruneRateLimits(ctx, now);
  const [row] = await ctx.db.all<Row>(sql`
    INSERT INTO rate_limits (key, count, reset_at) VALUES (${input.key}, 1, ${now + input.windowMs})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.reset_at <= ${now} THEN 1 ELSE min(rate_limits.count + 1, ${input.limit + 1}) END,
      reset_at = CASE WHEN rate_limits.reset_at <= ${now} THEN excluded.reset_at ELSE rate_limits.reset_at END
    RETURNING count, reset_at`);
  const meter = {
    limit: input.limit,
    remaining: Math.max(0, input.limit - row!.count),
    resetSeconds: Math.max(1, Math.ceil((row!.reset_at - now) / 1000)),
    windowSeconds: Math.round(input.windowMs / 1000),
    refusal: row!.count > input.limit ? refusal(input, row!.reset_at, now) : null,
  };
  return meter;
}
