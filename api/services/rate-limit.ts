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

export interface Meter {
  limit: number;
  remaining: number;
  /** Seconds until the window ends. */
  resetSeconds: number;
  windowSeconds: number;
  /** Set when this request is over the limit: the caller sends the headers, then throws it. */
  refusal: AppError | null;
}

// ?1 a JSON array of [key, count, reset_at]: adds each count to its shared counter and reads every
// process's total back. (The WHERE settles SQLite's parse of an upsert after a SELECT.)
const FLUSH_SQL = `
INSERT INTO rate_limits (key, count, reset_at)
SELECT value ->> 0, value ->> 1, value ->> 2 FROM json_each(?1) WHERE true
ON CONFLICT (key) DO UPDATE SET count = rate_limits.count + excluded.count
RETURNING key, count`;

/** How often a process adds its counts to the shared counters in the database. */
export const METER_FLUSH_MS = 1000;

interface Window {
  start: number;
  /** The count in the database when last flushed (every process's requests). */
  shared: number;
  /** This process's requests not yet added to the database. */
  local: number;
}

class SharedMeter {
  private windows = new Map<string, Window>();
  private timer: NodeJS.Timeout | null = null;
  private flushing: Promise<void> | null = null;
  private readonly ctx: Pick<AppContext, 'db'>;
  constructor(ctx: Pick<AppContext, 'db'>) {
    this.ctx = ctx;
  }

  count(input: Limit, now: number): Meter {
    // Windows aligned on the clock, so every process counts into the same one.
    const start = Math.floor(now / input.windowMs) * input.windowMs;
    let w = this.windows.get(input.key);
    if (!w || w.start !== start) {
      w = { start, shared: 0, local: 0 };
      this.windows.set(input.key, w);
    }
    const resetAt = start + input.windowMs;
    const over = w.shared + w.local >= input.limit;
    if (!over) w.local++;
    this.schedule();
    return {
      limit: input.limit,
      remaining: Math.max(0, input.limit - w.shared - w.local),
      resetSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
      windowSeconds: Math.round(input.windowMs / 1000),
      refusal: over ? refusal(input, resetAt, now) : null,
    };
  }

  private schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.flushing = this.flush().finally(() => (this.flushing = null));
    }, METER_FLUSH_MS);
    this.timer.unref();
  }

  /** Adds this process's counts to the database in one statement and reads back every process's. */
  async flush(now = Date.now()): Promise<void> {
    if (this.flushing) await this.flushing;
    const pending = [...this.windows].filter(([, w]) => w.local > 0);
    for (const [key, w] of this.windows) if (w.local === 0 && w.start + 10 * 60_000 < now) this.windows.delete(key);
    if (pending.length === 0) return;
    // Ended windows' rows go with the session limits' own prune (at most once a minute).
    await pruneRateLimits(this.ctx, now).catch(() => 0);
    const taken = pending.map(([key, w]) => ({ key, w, n: w.local }));
    for (const p of taken) p.w.local -= p.n;
    const counts = JSON.stringify(taken.map(({ key, w, n }) => [`${key}:${w.start}`, n, w.start + 10 * 60_000]));
    try {
      // One statement for every key, whatever their number: a statement per key (each prepared
      // afresh, on the event loop) made this flush block for 16 ms at 500 keys in use a second.
      const { rows } = await this.ctx.db.$client.execute({ sql: FLUSH_SQL, args: [counts] });
      const shared = new Map(rows.map((r) => [String(r.key), Number(r.count)]));
      for (const { key, w } of taken) w.shared = shared.get(`${key}:${w.start}`) ?? w.shared;
    } catch {
      // The database is away (or closed): the counts stay local and go with the next flush.
      for (const p of taken) p.w.local += p.n;
    }
  }
}

const meters = new WeakMap<object, SharedMeter>();

/**
 * Counts one request against a limit for the public API's RateLimit headers, without a database
 * write per request: each process counts in memory and adds its counts to a shared counter in
 * the database every METER_FLUSH_MS, reading back everyone's. Across processes a key may go over
 * its limit by what the others took in the last second; in one process it never does. Beyond the
 * limit `refusal` is the 429 to throw. Decision 0124.
 */
export function meterRateLimit({ ctx, input, now = Date.now() }: { ctx: Pick<AppContext, 'db'>; input: Limit; now?: number }): Meter {
  let meter = meters.get(ctx.db);
  if (!meter) {
    meter = new SharedMeter(ctx);
    meters.set(ctx.db, meter);
  }
  return meter.count(input, now);
}

/** Writes the counts not yet in the database now (tests; a process about to stop). */
export async function flushRateMeters(ctx: Pick<AppContext, 'db'>): Promise<void> {
  await meters.get(ctx.db)?.flush();
}
