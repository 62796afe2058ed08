// What each plan allows, in one place. The server enforces these on every call; the browser only
// mirrors them. A paid tier counts while its status is active (spec section 4: 'enterprise plus'
// is the tier AND status active) or past_due: a failed renewal keeps access for the grace period
// (BILLING_GRACE_DAYS), after which billing marks the plan suspended (decision 0095). Suspended,
// trialing or cancelled plans are free.
import { inGoodStanding, type Tier } from '../../../common/constants.ts';

export const FEATURES = ['dashboard', 'trends', 'monthlyReports', 'earlyWarning', 'api', 'clientManagement', 'whiteLabel', 'widget'] as const;
export type Feature = (typeof FEATURES)[number];

const BY_TIER: Record<Tier, readonly Feature[]> = {
  free: [],
  // Client management is for consultant accounts (api/services/plans/consultant-access.ts checks the role).
  pro: ['dashboard', 'trends', 'monthlyReports', 'clientManagement'],
  enterprise: ['dashboard', 'trends', 'monthlyReports', 'earlyWarning', 'api', 'clientManagement'],
  agency: ['dashboard', 'trends', 'monthlyReports', 'earlyWarning', 'api', 'clientManagement', 'whiteLabel', 'widget'],
};

export interface Plan {
  subscriptionTier: string;
  subscriptionStatus: string;
}


export function effectiveTier(plan: Plan): Tier {
  const tier = (plan.subscriptionTier in BY_TIER ? plan.subscriptionTier : 'free') as Tier;
  return inGoodStanding(plan.subscriptionStatus) ? tier : 'free';
}

export function entitlements(plan: Plan): Record<Feature, boolean> {
  const allowed = new Set(BY_TIER[effectiveTier(plan)]);
  return Object.fromEntries(FEATURES.map((f) => [f, allowed.has(f)])) as Record<Feature, boolean>;
}

export const can = (plan: Plan, feature: Feature) => entitlements(plan)[feature];
