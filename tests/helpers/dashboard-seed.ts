// Businesses with analysis history for the dashboard's tests: each snapshot is a real persisted
// analysis run (persistReport with the fixture analysis), back-dated to the day it stands for.
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../api/context.ts';
import { persistReport } from '../../api/report/persist.ts';
import type { Scores } from '../../api/report/model/types.ts';
import { businessMetrics } from '../../db/schema/businesses.ts';
import { clients } from '../../db/schema/consultants.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { createReportRequest } from './report-requests.ts';

export interface Snapshot {
  daysAgo: number;
  seed?: number;
  /** Overrides of the business's own scores in this run. */
  scores?: Partial<Scores>;
  /** The competitors this run found (the fixture's nine unless given). */
  competitors?: number;
}

const DAY_MS = 24 * 60 * 60 * 1000;

export async function seedBusiness(ctx: AppContext, options: { userId?: string | null; company?: string; snapshots?: Snapshot[]; now?: number } = {}) {
  const { business } = await createReportRequest(ctx, { userId: options.userId ?? null, company: options.company, enqueue: false });
  const now = options.now ?? Date.now();
  const runs: string[] = [];
  for (const snap of options.snapshots ?? []) {
    const data = reportDataFixture({ seed: snap.seed ?? 42, company: options.company });
    Object.assign(data.business.scores, snap.scores ?? {});
    if (snap.competitors !== undefined) data.competitors = data.competitors.slice(0, snap.competitors);
    const { runId } = await persistReport(ctx, { businessId: business.id, requestId: null, reportType: 'free', data });
    await ctx.db.update(businessMetrics).set({ reportedAt: new Date(now - snap.daysAgo * DAY_MS) }).where(eq(businessMetrics.runId, runId));
    runs.push(runId);
  }
  return { business, runs };
}

/** Makes the business a client of the consultant profile. */
export async function addClient(ctx: AppContext, consultantId: string, businessId: string) {
  const [row] = await ctx.db.insert(clients).values({ consultantId, businessId, clientName: 'Dana Whitfield', clientEmail: 'dana@example.com' }).returning();
  return row!;
}
