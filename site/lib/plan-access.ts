// What the signed-in viewer's plan opens, as the server decides it (api/services/plans/entitlements.ts:
// the user's own tier, counted while active or past due; consultant-access.ts: client management,
// branding and the widget are for consultant accounts). A screen asks before it calls an API its
// viewer may not (no 403 to show), the top bar marks what is an upgrade. Decision 0226.
import { can, type Feature } from '../../api/services/plans/entitlements.ts';
import { inGoodStanding, TIERS, type Tier } from '../../common/constants.ts';
import { $session, checkSession, refreshSession, type Viewer } from './session.ts';

export type { Feature };

/** Features of consultant accounts only: a business owner is refused them whatever the plan. */
const CONSULTANT_FEATURES: ReadonlySet<Feature> = new Set(['clientManagement', 'whiteLabel', 'widget']);

export type Access =
  | { open: true }
  /** `plan`: the plan to take: the least that opens it, or (`renew`) the viewer's own, which opens it
   *  but is not in good standing. */
  | { open: false; reason: 'plan'; plan: Tier; renew: boolean }
  | { open: false; reason: 'role' };

/** The least plan that includes the feature. */
export function planOpening(feature: Feature): Tier {
  return TIERS.find((tier) => can({ subscriptionTier: tier, subscriptionStatus: 'active' }, feature)) ?? 'agency';
}

/** The tiers whose plan includes the feature, space-separated, least first: the top bar's links
 *  carry it (written at build time), so its script needs no copy of the rule. */
export function plansIncluding(feature: Feature): string {
  return TIERS.filter((tier) => can({ subscriptionTier: tier, subscriptionStatus: 'active' }, feature)).join(' ');
}

const rank = (tier: string) => TIERS.indexOf(tier as Tier);

export function accessOf(viewer: Viewer, feature: Feature): Access {
  if (CONSULTANT_FEATURES.has(feature) && viewer.user.role !== 'consultant') return { open: false, reason: 'role' };
  if (can(viewer.user, feature)) return { open: true };
  const least = planOpening(feature);
  const own = viewer.user.subscriptionTier;
  // A plan that would open it but is not in good standing (suspended, cancelled): renew that one.
  if (rank(own) >= rank(least) && !inGoodStanding(viewer.user.subscriptionStatus)) return { open: false, reason: 'plan', plan: own as Tier, renew: true };
  return { open: false, reason: 'plan', plan: least, renew: false };
}

export type ScreenAccess = { status: 'open'; viewer: Viewer } | { status: 'locked'; viewer: Viewer; access: Exclude<Access, { open: true }> } | { status: 'signed-out' };

/**
 * Whether the screen of `feature` opens for the viewer. The session check is cached for 5 minutes,
 * so a plan that looks closed is asked again of the server before the screen says so (it may have
 * been bought a minute ago). Signed out, the screen calls its API as before and shows the 401.
 */
export async function screenAccess(feature: Feature): Promise<ScreenAccess> {
  let session = await checkSession();
  if (session.status !== 'signed-in') return { status: 'signed-out' };
  let access = accessOf(session, feature);
  if (!access.open && access.reason === 'plan') {
    session = await refreshSession();
    if (session.status !== 'signed-in') return { status: 'signed-out' };
    access = accessOf(session, feature);
  }
  return access.open ? { status: 'open', viewer: session } : { status: 'locked', viewer: session, access };
}

export type PlanLock = Extract<Access, { reason: 'plan' }>;

/** The plan lock as the session has it now, or (signed out, or the session says it is open) the
 *  least plan that opens the feature. */
export function planLockNow(feature: Feature): PlanLock {
  const session = $session.get();
  const access = session.status === 'signed-in' ? accessOf(session, feature) : null;
  return access && !access.open && access.reason === 'plan' ? access : { open: false, reason: 'plan', plan: planOpening(feature), renew: false };
}

/** A call refused with 403 plan_required although the session said the plan opens it (it lapsed
 *  within the cache's 5 minutes): the session is asked again and the lock read from it. */
export async function lockAfterRefusal(feature: Feature): Promise<PlanLock> {
  await refreshSession();
  return planLockNow(feature);
}
