// Which plans scan AI answers, for how many keywords, how often (decision 0302). Read by the scan's
// scheduler, by the pricing and FAQ copy and by `npm run bench:ai`; it imports only types.
import type { Tier } from './constants.ts';

export interface AiPlan {
  /** Keywords scanned: the saved visibility keywords first, then the category word. */
  keywords: number;
  /** Days between scans; null: none on this plan. */
  everyDays: number | null;
}

export const AI_PLANS: Record<Tier, AiPlan> = {
  free: { keywords: 0, everyDays: null },
  pro: { keywords: 1, everyDays: 30 },
  enterprise: { keywords: 3, everyDays: 7 },
  agency: { keywords: 3, everyDays: 30 },
};

/** "1 keyword, monthly" and the like, for the pricing table. */
export function aiPlanPhrase(tier: Tier): string | null {
  const p = AI_PLANS[tier];
  if (!p.everyDays || p.keywords === 0) return null;
  return `${p.keywords} keyword${p.keywords === 1 ? '' : 's'}, ${p.everyDays === 7 ? 'every week' : 'every month'}`;
}
