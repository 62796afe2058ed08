// A consultant screen the viewer cannot open (decision 0226): on a plan without it, the upgrade
// card with the plan that opens it; for a business owner, who cannot have it on any plan, what the
// screen is for and the way back to their dashboard. Said from the session before any call
// (screenAccess), or from the server's refusal when the session was out of date (AccessError).
import { NOT_CONSULTANT_MESSAGES, PLAN_MESSAGES } from '../../../common/plan-messages.ts';
import { ApiError } from '../../lib/api.ts';
import { lockAfterRefusal, type Access } from '../../lib/plan-access.ts';
import { StateCard } from '../dashboard/dashboard-states.tsx';
import UpgradeCard from './upgrade-card.tsx';

export type ConsultantFeature = keyof typeof PLAN_MESSAGES;
export type Lock = Exclude<Access, { open: true }>;

export function LockedScreen({ feature, lock, title, text }: { feature: ConsultantFeature; lock: Lock; title: string; text?: string }) {
  if (lock.reason === 'role') return <StateCard state="denied" icon="lock" title={title} text={text ?? NOT_CONSULTANT_MESSAGES[feature]} action="Go to Dashboard" href="/dashboard" />;
  return <UpgradeCard feature={feature} access={lock} title={title} text={text ?? PLAN_MESSAGES[feature]} />;
}

/** The lock behind a refused call (the session was out of date): 403 plan_required asks the session
 *  again and names the plan (or the renewal); 403 forbidden is a business owner. Null: not a refusal. */
export async function refusalLock(error: unknown, feature: ConsultantFeature): Promise<Lock | null> {
  if (!(error instanceof ApiError && error.status === 403)) return null;
  return error.details.code === 'plan_required' ? lockAfterRefusal(feature) : { open: false, reason: 'role' };
}
