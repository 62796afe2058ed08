// The businesses the paid plans' scheduled work is for, each with the paid accounts it belongs to
// (the owner, and each consultant whose client it is). The scheduler (api/jobs/schedule.ts) and the
// jobs it enqueues ask here, then decide with api/services/entitlements.ts who qualifies.
import type { AppContext } from '../context.ts';

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
