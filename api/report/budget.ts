// The daily provider budget (PROVIDER_DAILY_BUDGET_USD, decision 0271). A report starts only when
// the day's spend (the provider-call ledger), plus what reports already under way were estimated
// to spend, leaves room for its own estimate; otherwise its job waits, accepted and kept, on the
// queue's own schedule (RetryLaterError: no attempt spent) until the next UTC day, paid plans'
// work first. A provider's own cap on the account (Yelp's ACCESS_LIMIT_REACHED, Google's
// RESOURCE_EXHAUSTED) makes it wait the same way. The check and the hold are taken under one lease,
// so reports started at once in several processes cannot all take the last room.
import { COMPETITOR_COUNT, type Tier } from '../../common/constants.ts';
import { parseGridPlans } from '../../common/visibility-bands.ts';
import type { AppContext } from '../context.ts';
import type { Env } from '../env.ts';
import { RetryLaterError } from '../jobs/errors.ts';
import { enqueue } from '../jobs/queue.ts';
import { budgetAlertKey } from '../email/budget-alert.ts';
import { BUDGET_WAIT_PREFIX } from '../jobs/faults.ts';
import type { JobRun, JobTools } from '../jobs/types.ts';
import { withLease } from '../lib/lease.ts';
import { utcDay } from '../lib/provider-calls.ts';
import { pricesFor, type SkuPrice } from '../lib/provider-prices.ts';
import { daySpend, reserved } from '../lib/provider-spend.ts';
import { providerCapOf } from './analysis/providers/types.ts';

/** The calls one report makes, per SKU, before any cache: the business lookup, the competitor
 *  search, the reviews and profile of the business and its competitors, the grid, the geocoder. */
export function reportCalls(env: Pick<Env, 'PLACES_PROVIDER' | 'GEOCODER_KEY' | 'VISIBILITY_GRID' | 'VISIBILITY_CALL_BUDGET'>, tier: Tier): Record<string, number> {
  const plan = parseGridPlans(env.VISIBILITY_GRID)![tier];
  const grid = Math.min(plan.size * plan.size * plan.keywords, env.VISIBILITY_CALL_BUDGET);
  const places = 1 + COMPETITOR_COUNT;
  const calls: Record<string, number> = env.GEOCODER_KEY ? { 'geocoder.geocode': 1 } : {};
  if (env.PLACES_PROVIDER === 'google') Object.assign(calls, { 'google.text_search.enterprise': 1, 'google.nearby_search.enterprise': 1, 'google.place_details.atmosphere': places, 'google.text_search.ids_only': grid });
  if (env.PLACES_PROVIDER === 'yelp') Object.assign(calls, { 'yelp.search': 2 + grid, 'yelp.reviews': places, 'yelp.details': places });
  return calls;
}

/** A report's dollars at list price (no free allowance: the budget errs on the safe side). */
export function estimateReportUsd(env: Parameters<typeof reportCalls>[0], prices: Record<string, SkuPrice>, tier: Tier): number {
  return Object.entries(reportCalls(env, tier)).reduce((s, [sku, n]) => s + (n * (prices[sku]?.usdPer1000 ?? 0)) / 1000, 0);
}

const DAY_MS = 86_400_000;
/** The start of the next UTC day; paid plans' work first, free reports a minute later. */
export function nextDayStart(now: Date, paid: boolean): Date {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) + DAY_MS;
  return new Date(midnight + (paid ? 0 : 60_000));
}

/** A report waits for the budget or a provider's cap: the job runs again at `until`. */
export class ReportWaits extends RetryLaterError {
  readonly why: 'budget' | 'provider_cap';
  constructor(why: 'budget' | 'provider_cap', detail: string, until: Date, now: Date) {
    super(`${BUDGET_WAIT_PREFIX}: ${detail}; starts again ${until.toISOString()}`, Math.max(0, until.getTime() - now.getTime()), until);
    this.name = 'ReportWaits';
    this.why = why;
  }
}

export interface BudgetOptions {
  tier: Tier;
  /** A paid plan's work (monthly report, re-analysis, an agency's report): before free reports. */
  paid: boolean;
  now?: () => Date;
  /** Told once when this report first waits (the visitor's e-mail, the operator's). */
  onFirstWait?: (wait: ReportWaits) => Promise<void>;
}

/** Runs `analyse` if the day's budget has room for the report; otherwise throws ReportWaits. A
 *  provider's cap met during the analysis becomes a wait too. */
export async function withinBudget<T>(ctx: AppContext, job: Pick<JobRun, 'id' | 'progress'>, tools: Pick<JobTools, 'saveProgress'>, options: BudgetOptions, analyse: () => Promise<T>): Promise<T> {
  const now = options.now ?? (() => new Date());
  const prices = pricesFor(ctx.env);
  const estimate = estimateReportUsd(ctx.env, prices, options.tier);
  const wait = async (w: ReportWaits) => {
    // The operator hears once a day that reports wait, whichever process saw it first.
    await enqueue(ctx.db, { type: 'provider.budget-alert', payload: { kind: 'waiting', day: utcDay(now()), reason: w.message.slice(BUDGET_WAIT_PREFIX.length + 2) }, key: budgetAlertKey('waiting', utcDay(now())) });
    if (!job.progress.budgetWaitedAt) {
      await tools.saveProgress({ budgetWaitedAt: now().toISOString(), budgetDay: null, budgetUsd: null });
      await options.onFirstWait?.(w);
    }
    return w;
  };
  const today = utcDay(now());
  if (estimate > 0 && job.progress.budgetDay !== today) {
    const refused = await withLease(
      ctx,
      'provider-budget',
      async () => {
        const spent = (await daySpend(ctx.db, prices, today)).usd;
        const others = await reserved(ctx.db, { day: today }, job.id);
        if (spent + others + estimate > ctx.env.PROVIDER_DAILY_BUDGET_USD) return { spent, others };
        await tools.saveProgress({ budgetDay: today, budgetUsd: estimate });
        return null;
      },
      { busy: () => new RetryLaterError('the provider budget is being checked by another report', 5_000) },
    );
    if (refused) {
      const detail = `today's provider spend $${refused.spent.toFixed(2)}${refused.others ? ` and $${refused.others.toFixed(2)} held by reports under way` : ''} leave no room for this report's $${estimate.toFixed(2)} within PROVIDER_DAILY_BUDGET_USD $${ctx.env.PROVIDER_DAILY_BUDGET_USD.toFixed(2)}`;
      throw await wait(new ReportWaits('budget', detail, nextDayStart(now(), options.paid), now()));
    }
  }
  try {
    const result = await analyse();
    if (estimate > 0) await alertAt80(ctx, prices, now());
    return result;
  } catch (error) {
    const cap = providerCapOf(error);
    if (!cap) throw error;
    await tools.saveProgress({ budgetDay: null, budgetUsd: null });
    throw await wait(new ReportWaits('provider_cap', `${cap.provider} refused with its own cap (${cap.message})`, nextDayStart(now(), options.paid), now()));
  }
}

/** The operator's e-mail once the day's spend reaches 80% of the budget: once a day (its key). */
async function alertAt80(ctx: AppContext, prices: Record<string, SkuPrice>, now: Date) {
  const day = utcDay(now);
  if ((await daySpend(ctx.db, prices, day)).usd < 0.8 * ctx.env.PROVIDER_DAILY_BUDGET_USD) return;
  await enqueue(ctx.db, { type: 'provider.budget-alert', payload: { kind: 'spent80', day }, key: budgetAlertKey('spent80', day) });
}

/** When a free report asked for now would start: null when today's budget has room for it, else
 *  the next day's start (the thank-you screen and the visitor's e-mail say so). */
export async function freeReportWaitsUntil(ctx: AppContext, now = new Date()): Promise<Date | null> {
  const prices = pricesFor(ctx.env);
  const estimate = estimateReportUsd(ctx.env, prices, 'free');
  if (estimate === 0) return null;
  const today = utcDay(now);
  const spent = (await daySpend(ctx.db, prices, today)).usd + (await reserved(ctx.db, { day: today }, ''));
  return spent + estimate > ctx.env.PROVIDER_DAILY_BUDGET_USD ? nextDayStart(now, false) : null;
}
