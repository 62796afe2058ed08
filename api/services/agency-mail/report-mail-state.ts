// What a client's report shows while its e-mail waits for the agency's own mail server, and why
// it failed (decision 0210): the worker calls these hooks of the jobs that deliver through that
// server (api/jobs/registry.ts), and the report row keeps since when it waits and, in our words,
// what the server did. The client page and the portfolio read them (client-reports.ts, portfolio.ts).
import { and, eq, inArray, sql } from 'drizzle-orm';
import { reports } from '../../../db/schema/reports.ts';
import type { AppContext } from '../../context.ts';
import type { JobDefinition, JobRun } from '../../jobs/types.ts';
import { AGENCY_MAIL_REASON } from './mail-server.ts';

/** What the agency is shown of a job's error: only what we said about its mail server. */
const problemOf = (reason: string) => (reason.startsWith(AGENCY_MAIL_REASON) ? reason.slice(AGENCY_MAIL_REASON.length) : null);

/** The job's report rows: the report, and a client report's copy to the consultant once begun
 *  (the one not sent yet is the one waiting). */
const reportsOf = (job: JobRun) => [job.progress.reportId, job.progress.copyId].filter((id): id is string => typeof id === 'string');

export function withReportMailState<P>(definition: JobDefinition<P>): JobDefinition<P> {
  return {
    ...definition,
    async onWait(ctx: AppContext, job: JobRun<P>, reason: string) {
      await definition.onWait?.(ctx, job, reason);
      const ids = reportsOf(job as JobRun);
      if (ids.length === 0) return;
      await ctx.db
        .update(reports)
        .set({ mailWaitingSince: sql`coalesce(${reports.mailWaitingSince}, ${Date.now()})`, mailProblem: problemOf(reason) })
        .where(and(inArray(reports.id, ids), eq(reports.emailSent, false)));
    },
    async onGiveUp(ctx: AppContext, job: JobRun<P>, reason: string) {
      await definition.onGiveUp?.(ctx, job, reason);
      const ids = reportsOf(job as JobRun);
      if (ids.length === 0) return;
      await ctx.db
        .update(reports)
        .set({ failedAt: sql`coalesce(${reports.failedAt}, ${Date.now()})`, mailProblem: problemOf(reason) })
        .where(and(inArray(reports.id, ids), eq(reports.emailSent, false)));
    },
  };
}
