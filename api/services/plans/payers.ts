// Who pays for a business, and so which plan its features follow (decision 0214): the paid
// accounts it belongs to (the owner, and each consultant whose client it is) and, of those, the
// one whose plan it gets. The scheduler (api/jobs/schedule.ts), the jobs it enqueues and the
// analysis (the visibility grid's size and keywords) ask here, then read the features with
// api/services/plans/entitlements.ts: no feature reads a plan from `businesses.user_id` alone, which is
// empty for a consultant's client.
import { TIERS, type Tier } from '../../../common/constants.ts';
import type { AppContext } from '../../context.ts';
import { can, effectiveTier, type Feature } from './entitlements.ts';

export interface Candidate {
  businessId: string;
  userId: string;
  /** owner: the business is the user's own; client: one of the consultant's clients. */
  via: 'owner' | 'client';
  plan: { subscriptionTier: string; subscriptionStatus: string };
  /** The latest snapshot of the business itself (ms), or null before its first analysis. */
  lastAt: number | null;
}

// Businesses with a first analysis behind them, each with the paid accounts it belongs to (a closed
// account, in its grace period, gets nothing: decision 0132).
const CANDIDATES_SQL = `
SELECT x.business_id, x.user_id, x.tier, x.status, x.via,
  (SELECT max(m.reported_at) FROM business_metrics m WHERE m.business_id = x.business_id AND m.is_main_business = 1) AS last_at
FROM (
  SELECT b.id AS business_id, u.id AS user_id, u.subscription_tier AS tier, u.subscription_status AS status, 'owner' AS via
  FROM businesses b JOIN users u ON u.id = b.user_id WHERE u.subscription_tier <> 'free' AND u.closed_at IS NULL
  UNION
  SELECT cl.business_id, u.id, u.subscription_tier, u.subscription_status, 'client'
  FROM clients cl JOIN consultants c ON c.id = cl.consultant_id JOIN users u ON u.id = c.user_id
  WHERE cl.business_id IS NOT NULL AND cl.archived_at IS NULL AND u.subscription_tier <> 'free' AND u.closed_at IS NULL
) x`;

/** Every candidate, or those of one business (the re-analysis job checks its plan again at run time). */
export async function candidates(ctx: AppContext, businessId?: string): Promise<Candidate[]> {
  const { rows } = businessId
    ? await ctx.db.$client.execute({ sql: `SELECT * FROM (${CANDIDATES_SQL}) WHERE business_id = ?`, args: [businessId] })
    : await ctx.db.$client.execute(CANDIDATES_SQL);
  return rows.map((r) => ({
    businessId: String(r.business_id),
    userId: String(r.user_id),
    via: r.via === 'client' ? 'client' : 'owner',
    plan: { subscriptionTier: String(r.tier), subscriptionStatus: String(r.status) },
    lastAt: r.last_at === null ? null : Number(r.last_at),
  }));
}

/**
 * The account whose plan a business gets, from the accounts it belongs to: its owner when the
 * owner pays, else the consultant whose client it is; where more than one pays (an owner on Pro
 * who is also an agency's client), the best plan in good standing, the owner first on a tie. Null
 * when nobody pays: the business has the free plan. Pure, so a scheduler pass that read every
 * candidate at once decides as a single business's check does.
 */
export function payerAmong(accounts: readonly Candidate[]): Candidate | null {
  let best: Candidate | null = null;
  let bestRank = 0;
  for (const a of [...accounts].sort((x, y) => (x.via === y.via ? 0 : x.via === 'owner' ? -1 : 1))) {
    const rank = TIERS.indexOf(effectiveTier(a.plan));
    if (rank > bestRank) [best, bestRank] = [a, rank];
  }
  return best;
}

/** Who pays for one business, and the tier its features follow ('free' when nobody does). */
export async function payerOf(ctx: AppContext, businessId: string): Promise<{ payer: Candidate | null; tier: Tier }> {
  const payer = payerAmong(await candidates(ctx, businessId));
  return { payer, tier: payer ? effectiveTier(payer.plan) : 'free' };
}

/** Whether a business has a feature, by the plan of whoever pays for it. */
export async function businessCan(ctx: AppContext, businessId: string, feature: Feature): Promise<boolean> {
  const { payer } = await payerOf(ctx, businessId);
  return payer !== null && can(payer.plan, feature);
}

/** Every candidate business with its payer (the scheduler's pass): one entry per business. */
export function payersByBusiness(all: readonly Candidate[]): Map<string, Candidate> {
  const grouped = new Map<string, Candidate[]>();
  for (const c of all) grouped.set(c.businessId, [...(grouped.get(c.businessId) ?? []), c]);
  const out = new Map<string, Candidate>();
  for (const [businessId, accounts] of grouped) {
    const payer = payerAmong(accounts);
    if (payer) out.set(businessId, payer);
  }
  return out;
}
