// Fixed-window counters in the database, so every web process shares them.
import { sql } from 'drizzle-orm';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';

export interface Limit {
  key: string;
  limit: number;
  windowMs: number;
  message: string;
}

function upsert(ctx: Pick<AppContext, 'db'>, input: Limit, now: number) {
  const resetAt = now + input.windowMs;
  return ctx.db.all<{ count: number; reset_at: number }>(sql`
    INSERT INTO rate_limits (key, count, reset_at) VALUES (${input.key}, 1, ${resetAt})
    ON CONFLICT (key) DO UPDATE SET
      count = CASE WHEN rate_limits.reset_at <= ${now} THEN 1 ELSE rate_limits.count + 1 END,
      reset_at = CASE WHEN rate_limits.reset_at <= ${now} THEN excluded.reset_at ELSE rate_limits.reset_at END
    RETURNING count, reset_at`);
}

function check(input: Limit, row: { count: number; reset_at: number }, now: number) {
  if (row.count > input.limit) {
    throw new AppError('rate_limited', input.message, { retryAfterSeconds: Math.max(1, Math.ceil((row.reset_at - now) / 1000)) });
  }
}

export async function consumeRateLimit({ ctx, input }: { ctx: Pick<AppContext, 'db'>; input: Limit }): Promise<void> {
  const now = Date.now();
  const rows = await upsert(ctx, input, now);
  check(input, rows[0]!, now);
}

/** Several limits counted in one transaction (one commit); the first one exceeded is thrown. */
export async function consumeRateLimits({ ctx, input }: { ctx: Pick<AppContext, 'db'>; input: [Limit, ...Limit[]] }): Promise<void> {
  const now = Date.now();
  const [first, ...rest] = input.map((limit) => upsert(ctx, limit, now));
  const results = await ctx.db.batch([first!, ...rest]);
  input.forEach((limit, i) => check(limit, (results[i] as Array<{ count: number; reset_at: number }>)[0]!, now));
}

export async function resetRateLimit({ ctx, input }: { ctx: Pick<AppContext, 'db'>; input: { key: string } }): Promise<void> {
  await ctx.db.run(sql`DELETE FROM rate_limits WHERE key = ${input.key}`);
}
