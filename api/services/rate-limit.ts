// Fixed-window counters in the database, so every web process shares them. A counter at its limit
// is refused before anything is written (a refused client adds no row and no write), and expired
// rows are pruned at most once a minute per process, so the table holds about one row per key
// counted in the longest window and no more (decision 0092).
import { inArray, sql } from 'drizzle-orm';
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

/** Counts one more in the key's window (a new window once it has ended); returns the count. */
export function upsert(ctx: Pick<AppContext, 'db'>, input: Pick<Limit, 'key' | 'windowMs'>, now: number) {
  const resetAt = now + input.windowMs;
  return ctx.db.all<Row>(sql`
    INSERT INTO rate_limits (key, count, reset_at) VALUES (${input.key}, 1, ${resetAt})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.reset_at <= ${now} THEN 1 ELSE rate_limits.count + 1 END,
      reset_at = CASE WHEN rate_limits.reset_at <= ${now} THEN excluded.reset_at ELSE rate_limits.reset_at END
    RETURNING count, reset_at`);
}

/** The 429 for a limit reached, with the seconds until its window ends. */
export const refusal = (input: Limit, resetAt: number, now: number) =>
  new AppError('rate_limited', input.message, { retryAfterSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)) });

const lastPrune = new WeakMap<object, number>();

/** Deletes the counters whose window has ended, at most once per PRUNE_EVERY_MS per database. */
export async function pruneRateLimits(ctx: Pick<AppContext, 'db'>, now = Date.now(), force = false): Promise<number> {
  if (!force && now - (lastPrune.get(ctx.db) ?? 0) < PRUNE_EVERY_MS) return 0;
  lastPrune.set(ctx.db, now);
  // Counted, not returned: thousands of ended windows come back as no rows to build.
  const { rowsAffected } = await ctx.db.$client.execute({ sql: 'DELETE FROM rate_limits WHERE reset_at <= ?', args: [now] });
  return rowsAffected;
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
