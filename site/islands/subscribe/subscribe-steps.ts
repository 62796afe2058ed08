// The subscribe flow's decisions (spec section 2), in its order: no valid plan → home; agency →
// a sales e-mail draft, then home; signed out → remember the plan, log in with redirect=subscribe;
// signed in → the plan summary. Billing is not built yet, so the summary says so (decision 0012).
import { OPERATOR, PAID_PLANS, PRODUCT_NAME, type PaidPlan } from '../../../common/constants.ts';
import type { SessionState } from '../../lib/session.ts';

export type SubscribeStep = { kind: 'home' } | { kind: 'sales' } | { kind: 'checking' } | { kind: 'login'; plan: PaidPlan } | { kind: 'summary'; plan: PaidPlan };

export function isPaidPlan(value: string | null): value is PaidPlan {
  return (PAID_PLANS as readonly (string | null)[]).includes(value);
}

export function subscribeStep(plan: string | null, session: SessionState): SubscribeStep {
  if (!isPaidPlan(plan)) return { kind: 'home' };
  if (plan === 'agency') return { kind: 'sales' };
  if (session.status === 'loading') return { kind: 'checking' };
  // Just logged out here: the page is going home; do not remember the plan again.
  if (session.status === 'signed-out') return session.loggedOut ? { kind: 'checking' } : { kind: 'login', plan };
  return { kind: 'summary', plan };
}

export function salesMailto(plan: PaidPlan, email?: string): string {
  const name = plan.charAt(0).toUpperCase() + plan.slice(1);
  const subject = `${PRODUCT_NAME} ${name} plan`;
  const body = `Hello,\n\nI would like to subscribe to the ${PRODUCT_NAME} ${name} plan.${email ? `\nMy account: ${email}` : ''}\n\nThank you.`;
  return `mailto:${OPERATOR.salesEmail}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
