// Named leases in the database (the `leases` table): work that must run one at a time across every
// process and machine sharing the database, e.g. one user's subscription starts (decision 0221).
// A lease is taken by one statement (insert, or take over one that lapsed), renewed while the work
// runs, and released when it ends; a holder that died lets go when its lease lapses. Waiters poll.
import { randomUUID } from 'node:crypto';
import { and, eq, lte } from 'drizzle-orm';
import { leases } from '../../db/schema/operations.ts';
import type { AppContext } from '../context.ts';

export interface LeaseOptions {
  /** How long a lease holds without renewal (renewed every third of it while the work runs). */
  ttlMs?: number;
  /** How long to wait for another holder before giving up with `busy()`. */
  waitMs?: number;
  /** The error thrown when the lease could not be had within waitMs. */
  busy: () => Error;
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

/** Takes the lease `name` if it is free or lapsed; true when this holder has it now. */
async function take(ctx: Pick<AppContext, 'db'>, name: string, holder: string, ttlMs: number): Promise<boolean> {
  const now = Date.now();
  const rows = await ctx.db
    .insert(leases)
    .values({ name, holder, expiresAt: new Date(now + ttlMs) })
    .onConflictDoUpdate({ target: leases.name, set: { holder, expiresAt: new Date(now + ttlMs) }, setWhere: lte(leases.expiresAt, new Date(now)) })
    .returning({ holder: leases.holder });
  return rows[0]?.holder === holder;
}

/**
 * Runs `work` holding the lease `name`: no other `withLease` of that name runs meanwhile, in this
 * process or another on the same database. Waits (polling, 25 ms growing to 250 ms) up to waitMs.
 */
export async function withLease<T>(ctx: Pick<AppContext, 'db'>, name: string, work: () => Promise<T>, options: LeaseOptions): Promise<T> {
  const ttlMs = options.ttlMs ?? 30_000;
  const deadline = Date.now() + (options.waitMs ?? 20_000);
  const holder = randomUUID();
  for (let pause = 25; !(await take(ctx, name, holder, ttlMs)); pause = Math.min(pause * 2, 250)) {
    if (Date.now() >= deadline) throw options.busy();
    await sleep(pause);
  }
  const mine = and(eq(leases.name, name), eq(leases.holder, holder));
  const renewal = setInterval(() => {
    ctx.db
      .update(leases)
      .set({ expiresAt: new Date(Date.now() + ttlMs) })
      .where(mine)
      .catch(() => undefined);
  }, Math.max(50, Math.floor(ttlMs / 3)));
  try {
    return await work();
  } finally {
    clearInterval(renewal);
    // Not released (the database unreachable): it lapses after ttlMs.
    await ctx.db.delete(leases).where(mine).catch(() => undefined);
  }
}
