// `business.reanalyse`: the scheduled re-analysis of a paid plan's business (api/jobs/schedule.ts).
// A fresh analysis, persisted like any run, so a business_metrics snapshot joins the history the
// dashboard's trends are drawn from. No e-mail: the monthly report is its own job.
import { and, desc, eq } from 'drizzle-orm';
import { businesses, businessMetrics } from '../../db/schema/businesses.ts';
import type { JobDefinition } from '../jobs/types.ts';
import type { ReanalysePayload } from '../jobs/types.ts';
import { businessCan, payerOf } from '../services/plans/payers.ts';
import { withinBudget } from './budget.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import type { AnalyseFn } from './generate-job.ts';
import { persistReport } from './persist.ts';
import { startFirstAiScan } from '../services/ai-visibility/job.ts';
import { reportInput } from './model/types.ts';

function isPayload(p: unknown): p is ReanalysePayload {
  const o = p as Record<string, unknown> | null;
  return typeof o?.businessId === 'string' && typeof o?.period === 'string' && !Number.isNaN(Date.parse(o.period));
}

export function businessReanalyseJob(deps: { analyse: AnalyseFn }): JobDefinition<ReanalysePayload> {
  return {
    async run(ctx, job, tools) {
      if (!isPayload(job.payload)) throw new PermanentJobError('payload needs businessId and period (YYYY-MM-DD)');
      const { businessId, period } = job.payload;
      const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, businessId) });
      if (!business) throw new PermanentJobError(`business ${businessId} not found`);
      // The plan may have lapsed (or the client been removed) between the tick and this run.
      if (!(await businessCan(ctx, businessId, 'trends'))) {
        await tools.saveProgress({ stage: 'skipped', reason: 'no account with a plan that includes trends' });
        return;
      }

      // Idempotent per period: a snapshot taken since the period began (by an earlier attempt that
      // persisted before it died, or by a fresh report) is this period's snapshot.
      const [latest] = await ctx.db
        .select({ reportedAt: businessMetrics.reportedAt })
        .from(businessMetrics)
        .where(and(eq(businessMetrics.businessId, businessId), eq(businessMetrics.isMainBusiness, true)))
        .orderBy(desc(businessMetrics.reportedAt))
        .limit(1);
      if (latest && latest.reportedAt.getTime() >= Date.parse(period)) {
        await tools.saveProgress({ stage: 'skipped', reason: 'already analysed in this period' });
        return;
      }

      const { tier } = await payerOf(ctx, businessId);
      const data = await withinBudget(ctx, job, tools, { tier, paid: true }, () => deps.analyse(ctx, reportInput(business)));
      tools.signal.throwIfAborted();
      const persisted = await persistReport(ctx, { businessId, requestId: null, reportType: 'scheduled', data });
      await tools.saveProgress({ stage: 'persisted', runId: persisted.runId, reportId: persisted.reportId });
      // An account that became paid since its free report: its first AI-answers scan (decision 0302).
      await startFirstAiScan(ctx, businessId);
    },
  };
}
