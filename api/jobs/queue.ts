// The durable job queue on the `jobs` table. Enqueueing is part of the caller's transaction when
// a transaction is passed, so "stored" and "queued" happen together or not at all.
import { and, eq, sql } from 'drizzle-orm';
import { jobs } from '../../db/schema/operations.ts';
import type { Db } from '../../db/client.ts';
import { BUDGET_WAIT_PREFIX, CUSTOMER_SERVER_WAIT_PREFIX } from './faults.ts';

export type JobType = 'report.generate' | (string & {});

type Tx = Pick<Db, 'insert'>;

export interface EnqueueInput {
  type: JobType;
  payload: Record<string, unknown>;
  /** Idempotency key: a second enqueue with the same key adds nothing. */
  key?: string;
  runAt?: Date;
  maxAttempts?: number;
}

/** Adds a job; returns its id, or null when a job with the same key already exists. */
export async function enqueue(db: Tx, input: EnqueueInput): Promise<string | null> {
  const rows = await db
    .insert(jobs)
    .values({ type: input.type, payload: input.payload, key: input.key, runAt: input.runAt ?? new Date(), maxAttempts: input.maxAttempts ?? 5 })
    .onConflictDoNothing({ target: jobs.key })
    .returning({ id: jobs.id });
  return rows[0]?.id ?? null;
}

/**
 * The same insert as `enqueue`, not yet run: for `db.batch([...])`, so a row and its job are
 * written in one transaction without an interactive transaction (which the inline worker's
 * writes turn into SQLITE_BUSY).
 */
export function enqueueStatement(db: Tx, input: EnqueueInput) {
  return db
    .insert(jobs)
    .values({ type: input.type, payload: input.payload, key: input.key, runAt: input.runAt ?? new Date(), maxAttempts: input.maxAttempts ?? 5 })
    .onConflictDoNothing({ target: jobs.key });
}

/** The jobs waiting for one customer's server (api/jobs/worker.ts records whose server as
 *  progress.serverOwner) are due now: the customer fixed it, or changed or removed it. */
export async function runWaitingForServerNow(db: Pick<Db, 'update'>, owner: string, now = new Date()): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ runAt: now })
    .where(
      and(
        eq(jobs.status, 'queued'),
        sql`substr(${jobs.lastError}, 1, ${CUSTOMER_SERVER_WAIT_PREFIX.length}) = ${CUSTOMER_SERVER_WAIT_PREFIX}`,
        sql`json_extract(${jobs.progress}, '$.serverOwner') = ${owner}`,
      ),
    )
    .returning({ id: jobs.id });
  return rows.length;
}

/** The reports waiting for the provider budget (or a provider's cap) are due now: a worker
 *  starting, after the operator raised PROVIDER_DAILY_BUDGET_USD, tries them at once; each checks
 *  the budget again and waits anew if there is still no room. */
export async function runWaitingForBudgetNow(db: Pick<Db, 'update'>, now = new Date()): Promise<number> {
  const rows = await db
    .update(jobs)
    .set({ runAt: now })
    .where(and(eq(jobs.status, 'queued'), sql`substr(${jobs.lastError}, 1, ${BUDGET_WAIT_PREFIX.length}) = ${BUDGET_WAIT_PREFIX}`))
    .returning({ id: jobs.id });
  return rows.length;
}
