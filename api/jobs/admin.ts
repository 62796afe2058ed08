// Operator views of the queue: what failed and why, and putting a failed job back in line.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { jobs } from '../../db/schema/operations.ts';
import type { AppContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { MAIL_WAIT_PREFIX } from './faults.ts';

export const JOB_STATUSES = ['queued', 'running', 'done', 'failed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export async function listJobs({ ctx, status, limit = 50 }: { ctx: AppContext; status?: string; limit?: number }) {
  if (status && !(JOB_STATUSES as readonly string[]).includes(status)) {
    throw new AppError('invalid_input', `Unknown status '${status}'; use one of ${JOB_STATUSES.join(', ')}.`);
  }
  return ctx.db
    .select()
    .from(jobs)
    .where(status ? eq(jobs.status, status as JobStatus) : undefined)
    .orderBy(desc(jobs.updatedAt))
    .limit(limit);
}

/** A failed job runs again from its saved progress, with a fresh set of attempts. */
export async function retryJob({ ctx, id }: { ctx: AppContext; id: string }) {
  const rows = await ctx.db
    .update(jobs)
    // Its deadline overruns start again too (api/jobs/worker.ts DEADLINE_LIMIT); the rest of its progress stays.
    .set({ status: 'queued', attempts: 0, runAt: new Date(), finishedAt: null, leaseUntil: null, lockedBy: null, updatedAt: new Date(), progress: sql`json_remove(${jobs.progress}, '$.overruns')` })
    .where(and(eq(jobs.id, id), inArray(jobs.status, ['failed'])))
    .returning({ id: jobs.id, type: jobs.type });
  if (rows.length === 0) {
    const job = await ctx.db.query.jobs.findFirst({ where: eq(jobs.id, id) });
    if (!job) throw notFound(`No job ${id}.`);
    throw new AppError('conflict', `Job ${id} is ${job.status}; only failed jobs can be retried.`);
  }
  return rows[0]!;
}

/** The jobs waiting for the mail server are due now, for an operator who knows it is back (each
 *  would otherwise wait for its next try, up to 24 h away). Their attempts stay as they are. */
export async function sendWaitingMail({ ctx, now = new Date() }: { ctx: AppContext; now?: Date }): Promise<number> {
  const rows = await ctx.db
    .update(jobs)
    .set({ runAt: now, updatedAt: now })
    .where(and(eq(jobs.status, 'queued'), sql`substr(${jobs.lastError}, 1, ${MAIL_WAIT_PREFIX.length}) = ${MAIL_WAIT_PREFIX}`))
    .returning({ id: jobs.id });
  return rows.length;
}
