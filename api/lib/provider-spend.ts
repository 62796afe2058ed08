// What the provider-call ledger adds up to (decision 0270). A day's dollars are its billable calls
// at the table's prices after each SKU's free monthly allowance: the calls of the month before the
// day use the allowance first, as Google counts it. A call answered with an error is counted but
// not charged (Google bills the requests it answers).
import { and, eq, gte, lte, sql } from 'drizzle-orm';
import { jobs, providerCalls } from '../../db/schema/operations.ts';
import type { Db } from '../../db/client.ts';
import { callUsd, type SkuPrice } from './provider-prices.ts';
import { utcDay } from './provider-calls.ts';

export interface SkuSpend {
  sku: string;
  label: string;
  provider: string;
  calls: number;
  usd: number;
  /** Calls of the month so far (to the day's end) against the SKU's free monthly allowance. */
  monthCalls: number;
  freePerMonth: number;
}

export interface DaySpend {
  day: string;
  usd: number;
  calls: number;
  skus: SkuSpend[];
}

const billed = sql<number>`sum(case when ${providerCalls.status} between 200 and 299 then 1 else 0 end)`;
const billedIn = sql<number>`sum(case when ${providerCalls.status} between 200 and 299 then ${providerCalls.inputTokens} else 0 end)`;
const billedOut = sql<number>`sum(case when ${providerCalls.status} between 200 and 299 then ${providerCalls.outputTokens} else 0 end)`;

/** The spend of one UTC day, per SKU. */
export async function daySpend(db: Pick<Db, 'select'>, prices: Record<string, SkuPrice>, day = utcDay(new Date())): Promise<DaySpend> {
  const monthStart = `${day.slice(0, 7)}-01`;
  const rows = await db
    .select({ sku: providerCalls.sku, provider: providerCalls.provider, today: sql<number>`sum(case when ${providerCalls.day} = ${day} then 1 else 0 end)`, billedToday: sql<number>`sum(case when ${providerCalls.day} = ${day} and ${providerCalls.status} between 200 and 299 then 1 else 0 end)`, billedBefore: sql<number>`sum(case when ${providerCalls.day} < ${day} and ${providerCalls.status} between 200 and 299 then 1 else 0 end)`, inputToday: sql<number>`sum(case when ${providerCalls.day} = ${day} and ${providerCalls.status} between 200 and 299 then ${providerCalls.inputTokens} else 0 end)`, outputToday: sql<number>`sum(case when ${providerCalls.day} = ${day} and ${providerCalls.status} between 200 and 299 then ${providerCalls.outputTokens} else 0 end)` })
    .from(providerCalls)
    .where(and(gte(providerCalls.day, monthStart), lte(providerCalls.day, day)))
    .groupBy(providerCalls.sku, providerCalls.provider);
  const skus: SkuSpend[] = [];
  for (const r of rows) {
    const today = Number(r.today);
    if (today === 0) continue;
    const price = prices[r.sku] ?? { label: r.sku, provider: r.provider, usdPer1000: 0, freePerMonth: 0 };
    const before = Number(r.billedBefore);
    const after = before + Number(r.billedToday);
    const billable = Math.max(0, after - price.freePerMonth) - Math.max(0, before - price.freePerMonth);
    skus.push({ sku: r.sku, label: price.label, provider: r.provider, calls: today, usd: callUsd(price, billable, Number(r.inputToday), Number(r.outputToday)), monthCalls: after, freePerMonth: price.freePerMonth });
  }
  skus.sort((a, b) => a.provider.localeCompare(b.provider) || b.usd - a.usd || a.sku.localeCompare(b.sku));
  return { day, usd: skus.reduce((s, x) => s + x.usd, 0), calls: skus.reduce((s, x) => s + x.calls, 0), skus };
}

/** The calls made for one subject (a report request...) per SKU, at list price: what it cost
 *  before any free allowance, which belongs to the month rather than to a report. */
export async function subjectSpend(db: Pick<Db, 'select'>, prices: Record<string, SkuPrice>, subjectId: string): Promise<{ usd: number; calls: number; skus: Array<{ sku: string; label: string; calls: number; usd: number }> }> {
  const rows = await db
    .select({ sku: providerCalls.sku, calls: sql<number>`count(*)`, billed, billedIn, billedOut })
    .from(providerCalls)
    .where(eq(providerCalls.subjectId, subjectId))
    .groupBy(providerCalls.sku);
  const skus = rows.map((r) => {
    const price = prices[r.sku];
    return { sku: r.sku, label: price?.label ?? r.sku, calls: Number(r.calls), usd: callUsd(price, Number(r.billed), Number(r.billedIn), Number(r.billedOut)) };
  });
  skus.sort((a, b) => b.usd - a.usd || a.sku.localeCompare(b.sku));
  return { usd: skus.reduce((s, x) => s + x.usd, 0), calls: skus.reduce((s, x) => s + x.calls, 0), skus };
}

export const dollars = (usd: number) => `$${usd.toFixed(2)}`;

/** `Provider cost: $0.31 (14 calls: 1 Text Search Enterprise, …)`. */
export function costLine(spend: Awaited<ReturnType<typeof subjectSpend>>): string {
  if (spend.calls === 0) return 'Provider cost: $0.00 (no paid provider calls)';
  return `Provider cost: ${dollars(spend.usd)} (${spend.calls} call${spend.calls === 1 ? '' : 's'}: ${spend.skus.map((s) => `${s.calls} ${s.label} ${dollars(s.usd)}`).join(', ')})`;
}

const count = (n: number) => n.toLocaleString('en-US');

/** `npm run admin -- spend [--days N]`: today first (`Today: $1.24, 42 calls`), per provider and
 *  SKU with dollars and the free monthly allowance used, then each earlier day of the N. */
export async function spendLines(db: Pick<Db, 'select'>, prices: Record<string, SkuPrice>, options: { budgetUsd: number; days: number; now?: Date }): Promise<string[]> {
  const now = options.now ?? new Date();
  const lines: string[] = [];
  for (let i = 0; i < options.days; i++) {
    const day = utcDay(new Date(now.getTime() - i * 86_400_000));
    const spend = await daySpend(db, prices, day);
    const head = `${i === 0 ? 'Today' : day}: ${dollars(spend.usd)}, ${spend.calls} call${spend.calls === 1 ? '' : 's'}`;
    lines.push(i === 0 ? `${head} (budget ${dollars(options.budgetUsd)} a day, ${options.budgetUsd > 0 ? Math.round((spend.usd / options.budgetUsd) * 100) : 100}% spent)` : head);
    let provider = '';
    for (const s of spend.skus) {
      if (s.provider !== provider) lines.push(`  ${(provider = s.provider)}`);
      const free = !Number.isFinite(s.freePerMonth) ? ', free without limit' : s.freePerMonth > 0 ? `, free allowance ${count(Math.min(s.monthCalls, s.freePerMonth))}/${count(s.freePerMonth)} used this month` : '';
      lines.push(`    ${s.label}: ${s.calls} call${s.calls === 1 ? '' : 's'}, ${dollars(s.usd)}${free}`);
    }
  }
  return lines;
}

/**
 * What the running jobs reserved from a budget before their provider calls (their progress's
 * budgetUsd, kept while a report is not yet past its analysis and while a scan runs), for a `day`
 * (YYYY-MM-DD, every kind of job) or an AI-answers `month` (YYYY-MM), every job but `exceptJob`.
 */
export async function reserved(db: Db, period: { day: string } | { month: string; type: string }, exceptJob: string): Promise<number> {
  const when = 'day' in period ? sql`json_extract(${jobs.progress}, '$.budgetDay') = ${period.day}` : and(eq(jobs.type, period.type), sql`json_extract(${jobs.progress}, '$.budgetMonth') = ${period.month}`);
  const [row] = await db
    .select({ usd: sql<number>`coalesce(sum(json_extract(${jobs.progress}, '$.budgetUsd')), 0)` })
    .from(jobs)
    .where(and(eq(jobs.status, 'running'), when, sql`json_extract(${jobs.progress}, '$.stage') is null`, sql`${jobs.id} <> ${exceptJob}`));
  return Number(row?.usd ?? 0);
}
