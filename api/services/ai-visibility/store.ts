// The AI-answers scans of a business as stored (ai_visibility_scans): saved one keyword at a time,
// read newest first for the dashboard's history, the API and the report.
import { and, desc, eq, gte } from 'drizzle-orm';
import type { AiScan } from '../../../common/ai-visibility.ts';
import { aiVisibilityScans } from '../../../db/schema/ai-visibility.ts';
import type { AppContext } from '../../context.ts';

export async function saveScan(ctx: Pick<AppContext, 'db'>, businessId: string, scan: AiScan): Promise<void> {
  await ctx.db.insert(aiVisibilityScans).values({
    businessId,
    keyword: scan.keyword,
    location: scan.location,
    question: scan.question,
    scannedAt: new Date(scan.scannedAt),
    sample: scan.sample,
    engines: scan.engines,
    competitors: scan.competitors,
    calls: scan.cost.calls,
    inputTokens: scan.cost.inputTokens,
    outputTokens: scan.cost.outputTokens,
    usdMicros: Math.round(scan.cost.usd * 1_000_000),
  });
}

type Row = typeof aiVisibilityScans.$inferSelect;
const toScan = (r: Row): AiScan => ({
  keyword: r.keyword,
  location: r.location,
  question: r.question,
  scannedAt: r.scannedAt.toISOString(),
  sample: r.sample,
  engines: r.engines,
  competitors: r.competitors,
  cost: { calls: r.calls, inputTokens: r.inputTokens, outputTokens: r.outputTokens, usd: r.usdMicros / 1_000_000 },
});

/** A business's scans, newest first (at most `limit`, since `since` when given). */
export async function listScans(ctx: Pick<AppContext, 'db'>, businessId: string, options: { limit?: number; since?: Date } = {}): Promise<AiScan[]> {
  const rows = await ctx.db
    .select()
    .from(aiVisibilityScans)
    .where(and(eq(aiVisibilityScans.businessId, businessId), options.since ? gte(aiVisibilityScans.scannedAt, options.since) : undefined))
    .orderBy(desc(aiVisibilityScans.scannedAt), aiVisibilityScans.keyword)
    .limit(options.limit ?? 200);
  return rows.map(toScan);
}

/** Each keyword's latest scan, in the order of the keywords' latest scans. */
export function latestPerKeyword(scans: AiScan[]): AiScan[] {
  const seen = new Set<string>();
  return scans.filter((s) => (seen.has(s.keyword) ? false : (seen.add(s.keyword), true)));
}
