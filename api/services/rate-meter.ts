// The public API's per-key limit, counted without a database write per request (decision 0124,
// amended for several processes). Each process counts a key's requests in memory, in windows
// aligned on the clock, and syncs with a shared `rate_limits` row per key and window: one
// statement adds its counts and reads back every process's total. It syncs every METER_FLUSH_MS,
// and at once, the request waiting for it, when it has admitted its allowance since the last sync:
// a twentieth of what was left of the limit then, at least one.
//
// Guaranteed: in one process a key never gets more than its limit. With several, a key gets at
// most the limit plus what the other processes admitted since their last sync, which is at most
// their allowance each: ceil(limit / 20) per other process at worst (63 for a limit of 60 with
// two processes), one per other process near the end of a window, where allowances are down to
// one. A key is never refused below its limit. Windows are aligned on each machine's clock, so
// clocks that disagree by d let a key count in two windows for d at each boundary.
import type { AppContext } from '../context.ts';
import type { AppError } from '../errors.ts';
import { pruneRateLimits, refusal, type Limit } from './rate-limit.ts';

/** How often a process adds its counts to the shared counters in the database. */
export const METER_FLUSH_MS = 1000;
/** A process admits at most this share of what is left of a limit between two syncs. */
export const METER_ALLOWANCE_SHARE = 20;

/** What a process may admit for a key before it syncs again, `shared` being the total it last read. */
export const meterAllowance = (limit: number, shared: number) => Math.max(1, Math.ceil((limit - shared) / METER_ALLOWANCE_SHARE));

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

/** A row outlives its window by this much, so a late flush still finds it. */
const ROW_KEPT_MS = 10 * 60_000;

interface Window {
  /** The row's key: the limit's key and the window's start. */
  row: string;
  start: number;
  /** Every process's count in the database at this process's last sync. */
  shared: number;
  /** Admitted here, not yet sent to the database. */
  local: number;
  /** Admitted here and in the sync under way: counted until its answer is in `shared`. */
  writing: number;
}

class SharedMeter {
  private windows = new Map<string, Window>();
  private timer: NodeJS.Timeout | null = null;
  private syncing: Promise<boolean> | null = null;
  private readonly ctx: Pick<AppContext, 'db'>;
  constructor(ctx: Pick<AppContext, 'db'>) {
    this.ctx = ctx;
  }

  async count(input: Limit, now: number): Promise<Meter> {
    // Windows aligned on the clock, so every process counts into the same row.
    const start = Math.floor(now / input.windowMs) * input.windowMs;
    const row = `${input.key}:${start}`;
    let w = this.windows.get(row);
    if (!w) this.windows.set(row, (w = { row, start, shared: 0, local: 0, writing: 0 }));
    let synced = true;
    // Past its allowance the process learns what the others took before admitting more. A sync
    // that fails (the database away) leaves the decision to this process's own count.
    while (synced && w.local + w.writing >= meterAllowance(input.limit, w.shared) && w.shared + w.local + w.writing < input.limit) {
      synced = await this.sync();
    }
    const over = w.shared + w.local + w.writing >= input.limit;
    if (!over) w.local++;
    this.schedule();
    const resetAt = start + input.windowMs;
    return {
      limit: input.limit,
      remaining: Math.max(0, input.limit - w.shared - w.local - w.writing),
      resetSeconds: Math.max(1, Math.ceil((resetAt - now) / 1000)),
      windowSeconds: Math.round(input.windowMs / 1000),
      refusal: over ? refusal(input, resetAt, now) : null,
    };
  }

  private schedule() {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.sync();
    }, METER_FLUSH_MS);
    this.timer.unref();
  }

  /** The sync under way, or a new one: false when the database could not be reached. */
  sync(): Promise<boolean> {
    this.syncing ??= this.write().finally(() => (this.syncing = null));
    return this.syncing;
  }

  /** Adds this process's counts to the database in one statement and reads back every process's. */
  private async write(now = Date.now()): Promise<boolean> {
    for (const [row, w] of this.windows) if (w.local === 0 && w.writing === 0 && w.start + ROW_KEPT_MS < now) this.windows.delete(row);
    const taken = [...this.windows.values()].filter((w) => w.local > 0).map((w) => ({ w, n: w.local }));
    if (taken.length === 0) return true;
    // Ended windows' rows go with the session limits' own prune (at most once a minute).
    await pruneRateLimits(this.ctx, now).catch(() => 0);
    for (const p of taken) {
      p.w.local -= p.n;
      p.w.writing += p.n;
    }
    const counts = JSON.stringify(taken.map(({ w, n }) => [w.row, n, w.start + ROW_KEPT_MS]));
    try {
      // One statement for every key, whatever their number: a statement per key (each prepared
      // afresh, on the event loop) made this flush block for 16 ms at 500 keys in use a second.
      const { rows } = await this.ctx.db.$client.execute({ sql: FLUSH_SQL, args: [counts] });
      const shared = new Map(rows.map((r) => [String(r.key), Number(r.count)]));
      for (const { w, n } of taken) {
        w.writing -= n;
        w.shared = Math.max(w.shared, shared.get(w.row) ?? 0);
      }
      return true;
    } catch {
      // The database is away (or closed): the counts stay local and go with the next sync.
      for (const { w, n } of taken) {
        w.writing -= n;
        w.local += n;
      }
      return false;
    }
  }
}

const meters = new WeakMap<object, SharedMeter>();

/**
 * Counts one request against a limit for the public API's RateLimit headers. Beyond the limit
 * `refusal` is the 429 to throw. Waits for the database only when this process has used its
 * allowance since its last sync (see the top of this file).
 */
export function meterRateLimit({ ctx, input, now = Date.now() }: { ctx: Pick<AppContext, 'db'>; input: Limit; now?: number }): Promise<Meter> {
  let meter = meters.get(ctx.db);
  if (!meter) {
    meter = new SharedMeter(ctx);
    meters.set(ctx.db, meter);
  }
  return meter.count(input, now);
}

/** Writes the counts not yet in the database now (tests; a process about to stop). */
export async function flushRateMeters(ctx: Pick<AppContext, 'db'>): Promise<void> {
  const meter = meters.get(ctx.db);
  // Twice: a sync already under way may have started before the latest counts.
  if (meter && (await meter.sync())) await meter.sync();
}
