// The AI-answers scan job (issue 50): one business, each keyword its plan scans (decision 0302),
// saved keyword by keyword so a retry goes on where it stopped. A paid business's first scan is
// queued with its first report (startFirstAiScan); the scheduler queues the next ones. Before it
// asks anything it checks the money: AI_VISIBILITY_MONTHLY_BUDGET_USD for the AI calls of the
// calendar month (UTC) and PROVIDER_DAILY_BUDGET_USD for the day's calls of every provider; a scan
// that would pass either waits, kept, for the next month or day (decision 0303).
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import { AI_ENGINES, type AiEngine } from '../../../common/ai-visibility.ts';
import { AI_PLANS } from '../../../common/ai-plans.ts';
import { aiVisibilityScans } from '../../../db/schema/ai-visibility.ts';
import { businesses, competitors } from '../../../db/schema/businesses.ts';
import { providerCalls } from '../../../db/schema/operations.ts';
import type { AppContext } from '../../context.ts';
import { PermanentJobError, RetryLaterError } from '../../jobs/errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { JobDefinition, JobRun, JobTools } from '../../jobs/types.ts';
import { withLease } from '../../lib/lease.ts';
import { utcDay } from '../../lib/provider-calls.ts';
import { callUsd, pricesFor, type SkuPrice } from '../../lib/provider-prices.ts';
import { daySpend, reserved } from '../../lib/provider-spend.ts';
import { effectiveTier } from '../plans/entitlements.ts';
import { candidates, payerOf, payersByBusiness } from '../plans/payers.ts';
import type { Contender } from './answers.ts';
import type { AskOptions } from './ask.ts';
import { configuredEngines, type Where } from './engines.ts';
import { sampleEngines, sampleFetch } from './sample.ts';
import { scanKeyword } from './scan.ts';
import { saveScan } from './store.ts';

export const AI_SCAN = 'ai-visibility.scan';
/** How a scan waiting for the budget starts its job's last error (the dashboard reads it). */
export const AI_BUDGET_WAIT = 'AI answers wait for the budget';

export interface AiScanPayload {
  businessId: string;
  /** "first", or the scheduler's cycle. */
  period: string;
}

/** Tokens of one typical answer, for the estimate before a scan and for `npm run bench:ai`:
 *  OpenAI bills a mini model's web search results as a fixed 8,000 input tokens a call (its pricing
 *  page); Perplexity's search context is in its request fee; Gemini's grounded prompt is the
 *  question. Answers of a short list run to a few hundred tokens. */
export const TYPICAL_TOKENS: Record<AiEngine, { input: number; output: number }> = {
  openai: { input: 8_000, output: 450 },
  perplexity: { input: 20, output: 400 },
  gemini: { input: 20, output: 500 },
};

const SKU: Record<AiEngine, string> = { openai: 'openai.web_search', perplexity: 'perplexity.sonar', gemini: 'gemini.grounded' };

/** One scan of `keywords` keywords on these engines at list prices (no retries). */
export function estimateScanUsd(prices: Record<string, SkuPrice>, engines: AiEngine[], keywords: number, samples: number): number {
  return keywords * samples * engines.reduce((s, e) => s + callUsd(prices[SKU[e]], 1, TYPICAL_TOKENS[e].input, TYPICAL_TOKENS[e].output), 0);
}

const monthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
const nextMonthStart = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1));

/** What the AI engines' calls of this calendar month (UTC) cost, from the ledger. */
export async function aiMonthSpend(ctx: Pick<AppContext, 'db'>, prices: Record<string, SkuPrice>, now: Date): Promise<number> {
  const rows = await ctx.db
    .select({ sku: providerCalls.sku, calls: sql<number>`count(*)`, input: sql<number>`sum(${providerCalls.inputTokens})`, output: sql<number>`sum(${providerCalls.outputTokens})` })
    .from(providerCalls)
    .where(and(inArray(providerCalls.provider, [...AI_ENGINES]), gte(providerCalls.day, utcDay(monthStart(now))), sql`${providerCalls.status} between 200 and 299`))
    .groupBy(providerCalls.sku);
  return rows.reduce((s, r) => s + callUsd(prices[r.sku], Number(r.calls), Number(r.input), Number(r.output)), 0);
}

/** The keywords a plan scans: the saved visibility keywords first, then the category word. */
export function scanKeywords(business: { visibilityKeywords: string[] | null; category: string | null }, count: number): string[] {
  const all = [...(business.visibilityKeywords ?? []), business.category ?? ''].map((k) => k.trim().toLowerCase()).filter(Boolean);
  return [...new Set(all)].slice(0, count);
}

/** What a scan of the business asks about: where from, the business and its competitors. */
async function subjectOf(ctx: AppContext, business: typeof businesses.$inferSelect): Promise<{ where: Where; own: Contender; rivals: Contender[] }> {
  const rows = await ctx.db.select({ id: competitors.id, name: competitors.name, website: competitors.website }).from(competitors).where(eq(competitors.businessId, business.id));
  // The listing's own name, when the latest report has it ("Brightwater Family Dental" for a typed "Brightwater Dental").
  const [listed] = await ctx.db.$read("SELECT json_extract(data, '$.business.place.name') AS name FROM reports WHERE business_id = ?1 ORDER BY created_at DESC LIMIT 1", [business.id]);
  const listing = typeof listed?.name === 'string' && listed.name !== business.company ? [listed.name] : [];
  return {
    where: { city: business.city, region: business.state, country: 'US', point: business.latitude !== null && business.longitude !== null ? { latitude: business.latitude, longitude: business.longitude } : null },
    own: { key: 'own', name: business.company, otherNames: listing, website: business.website || null },
    rivals: rows.map((r) => ({ key: r.id, name: r.name, website: r.website })),
  };
}

/** Reserves the scan's estimate, under the lease the reports' budget check takes, so two jobs
 *  starting at once cannot both fit into the same room; throws the wait when the scan would pass
 *  the month's AI budget or the day's provider budget. */
async function reserveBudget(ctx: AppContext, job: Pick<JobRun, 'id'>, tools: Pick<JobTools, 'saveProgress'>, estimate: number, now: Date): Promise<void> {
  const prices = pricesFor(ctx.env);
  const today = utcDay(now);
  const month = today.slice(0, 7);
  const refused = await withLease(
    ctx,
    'provider-budget',
    async () => {
      const spent = await aiMonthSpend(ctx, prices, now);
      const others = await reserved(ctx.db, { month, type: AI_SCAN }, job.id);
      if (spent + others + estimate > ctx.env.AI_VISIBILITY_MONTHLY_BUDGET_USD) return { over: 'month' as const, spent, others };
      const day = (await daySpend(ctx.db, prices, today)).usd;
      const dayOthers = await reserved(ctx.db, { day: today }, job.id);
      if (day + dayOthers + estimate > ctx.env.PROVIDER_DAILY_BUDGET_USD) return { over: 'day' as const, spent: day, others: dayOthers };
      await tools.saveProgress({ budgetDay: today, budgetMonth: month, budgetUsd: estimate });
      return null;
    },
    { busy: () => new RetryLaterError('the provider budget is being checked by another job', 5_000) },
  );
  if (!refused) return;
  const underWay = refused.others ? ` and $${refused.others.toFixed(2)} held by work under way` : '';
  if (refused.over === 'month') {
    const until = nextMonthStart(now);
    throw new RetryLaterError(`${AI_BUDGET_WAIT}: this month's AI answers cost $${refused.spent.toFixed(2)}${underWay}, leaving no room for this scan's $${estimate.toFixed(2)} within AI_VISIBILITY_MONTHLY_BUDGET_USD $${ctx.env.AI_VISIBILITY_MONTHLY_BUDGET_USD.toFixed(2)}; starts again ${until.toISOString()}`, until.getTime() - now.getTime(), until);
  }
  const until = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  throw new RetryLaterError(`${AI_BUDGET_WAIT}: today's provider spend $${refused.spent.toFixed(2)}${underWay} leaves no room for this scan's $${estimate.toFixed(2)} within PROVIDER_DAILY_BUDGET_USD; starts again ${until.toISOString()}`, until.getTime() - now.getTime(), until);
}

export function aiScanJob(options: { now?: () => Date; ask?: Pick<AskOptions, 'deadline' | 'fetchImpl'> } = {}): JobDefinition<AiScanPayload> {
  return {
    async run(ctx, job, tools) {
      const { businessId } = job.payload;
      if (typeof businessId !== 'string') throw new PermanentJobError('payload needs businessId');
      const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, businessId) });
      if (!business) throw new PermanentJobError(`business ${businessId} not found`);
      const { tier } = await payerOf(ctx, businessId);
      const keywords = scanKeywords(business, AI_PLANS[tier].keywords);
      if (!keywords.length) return tools.saveProgress({ stage: 'skipped', reason: `no AI-answers scan on the ${tier} plan` });
      const sample = ctx.env.PLACES_PROVIDER === 'sample' && !ctx.env.OPENAI_API_KEY && !ctx.env.PERPLEXITY_API_KEY && !ctx.env.GEMINI_API_KEY;
      const { engines, notAsked } = sample ? { engines: sampleEngines(ctx.env), notAsked: [] } : configuredEngines(ctx.env);
      if (!engines.length) return tools.saveProgress({ stage: 'skipped', reason: 'no AI engine key is set' });
      const done = Array.isArray(job.progress.done) ? (job.progress.done as string[]) : [];
      const remaining = keywords.filter((k) => !done.includes(k));
      const now = options.now?.() ?? new Date();
      if (!sample) await reserveBudget(ctx, job, tools, estimateScanUsd(pricesFor(ctx.env), engines.map((e) => e.id), remaining.length, ctx.env.AI_VISIBILITY_SAMPLES), now);
      const subject = await subjectOf(ctx, business);
      for (const keyword of remaining) {
        tools.signal.throwIfAborted();
        const setup = sample
          ? { fetchImpl: sampleFetch(`${businessId}|${keyword}`, { name: business.company, website: business.website || null }, subject.rivals.map((r) => r.name)), record: false }
          : { ...options.ask };
        const scan = await scanKeyword(ctx, { keyword, where: subject.where, own: subject.own, competitors: subject.rivals }, { engines, notAsked, samples: ctx.env.AI_VISIBILITY_SAMPLES, prices: pricesFor(ctx.env), now: options.now, signal: tools.signal, ...setup });
        await saveScan(ctx, businessId, { ...scan, sample });
        done.push(keyword);
        await tools.saveProgress({ done });
      }
    },
  };
}

/** Queues a paid business's first scan, when it has none yet (called with each paid report). */
export async function startFirstAiScan(ctx: AppContext, businessId: string): Promise<boolean> {
  const { tier } = await payerOf(ctx, businessId);
  if (!AI_PLANS[tier].everyDays) return false;
  const [any] = await ctx.db.select({ id: aiVisibilityScans.id }).from(aiVisibilityScans).where(eq(aiVisibilityScans.businessId, businessId)).limit(1);
  if (any) return false;
  const payload: AiScanPayload = { businessId, period: 'first' };
  return (await enqueue(ctx.db, { type: AI_SCAN, payload: { ...payload }, key: `${AI_SCAN}:first:${businessId}` })) !== null;
}

const DAY_MS = 86_400_000;
// A scan a little early is due: the scheduler ticks every 15 minutes.
const SLACK_MS = 60 * 60_000;

/** The scheduler's pass: each paid business whose latest scan is its plan's interval old. */
export async function scheduleAiScans(ctx: AppContext, now: Date): Promise<number> {
  const payers = payersByBusiness((await candidates(ctx)).filter((c) => c.lastAt !== null));
  if (!payers.size) return 0;
  const latest = new Map<string, number>();
  for (const r of await ctx.db.$read('SELECT business_id, max(scanned_at) AS at FROM ai_visibility_scans GROUP BY business_id', [])) latest.set(String(r.business_id), Number(r.at));
  let queued = 0;
  for (const [businessId, payer] of payers) {
    const { everyDays } = AI_PLANS[effectiveTier(payer.plan)];
    if (!everyDays) continue;
    const last = latest.get(businessId);
    if (last !== undefined && last > now.getTime() - everyDays * DAY_MS + SLACK_MS) continue;
    const cycle = Math.floor(now.getTime() / (everyDays * DAY_MS));
    const payload: AiScanPayload = { businessId, period: `${everyDays}d-${cycle}` };
    if (await enqueue(ctx.db, { type: AI_SCAN, payload: { ...payload }, key: `${AI_SCAN}:${payload.period}:${businessId}` })) queued++;
  }
  return queued;
}

/** A scan of the business waiting for the budget: until when. */
export async function aiScanWaiting(ctx: Pick<AppContext, 'db'>, businessId: string): Promise<Date | null> {
  const [row] = await ctx.db.$read(`SELECT run_at FROM jobs WHERE type = ?1 AND status = 'queued' AND json_extract(payload, '$.businessId') = ?2 AND last_error LIKE ?3 ORDER BY run_at LIMIT 1`, [AI_SCAN, businessId, `${AI_BUDGET_WAIT}%`]);
  return row ? new Date(Number(row.run_at)) : null;
}
