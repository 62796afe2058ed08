// The subscribe flow's decisions (spec section 2), in its order: no valid plan → home; agency →
// the sales e-mail draft and the contact form, offered on the page (opened by the visitor's own
// click, so no browser blocks it); signed out → remember the plan, log in with redirect=subscribe;
// signed in → the plan summary and the payment form.
import { BILLING_INTERVALS, OPERATOR, PAID_PLANS, PRODUCT_NAME, type BillingInterval, type PaidPlan } from '../../../common/constants.ts';
import { STORAGE_PREFIX, type SessionState } from '../../lib/session.ts';

export type SubscribeStep = { kind: 'home' } | { kind: 'sales' } | { kind: 'checking' } | { kind: 'login'; plan: PaidPlan } | { kind: 'checkout'; plan: 'pro' | 'enterprise' };

/** Session-storage key of the interval chosen before logging in (the plan has its own key). */
export const INTERVAL_STORAGE_KEY = `${STORAGE_PREFIX}selectedInterval`;

export function isPaidPlan(value: string | null): value is PaidPlan {
  return (PAID_PLANS as readonly (string | null)[]).includes(value);
}

export function readInterval(value: string | null, stored: string | null = null): BillingInterval {
  const candidate = value ?? stored;
  return (BILLING_INTERVALS as readonly (string | null)[]).includes(candidate) ? (candidate as BillingInterval) : 'monthly';
}

export function subscribeStep(plan: string | null, session: SessionState): SubscribeStep {
  if (!isPaidPlan(plan)) return { kind: 'home' };
  if (plan === 'agency') return { kind: 'sales' };
  if (session.status === 'loading') return { kind: 'checking' };
  // Just logged out here: the page is going home; do not remember the plan again.
  if (session.status === 'signed-out') return session.loggedOut ? { kind: 'checking' } : { kind: 'login', plan };
  return { kind: 'checkout', plan };
}

export function salesMailto(plan: PaidPlan, email?: string): string {
  const name = plan.charAt(0).toUpperCase() + plan.slice(1);
  const subject = `${PRODUCT_NAME} ${name} plan`;
  const body = `Hello,\n\nI would like to subscribe to the ${PRODUCT_NAME} ${name} plan.${email ? `\nMy account: ${email}` : ''}\n\nThank you.`;
  return `mailto:${OPERATOR.salesEmail}?subject=${encodeURIComponent(subject)}&body=${encodeURIComponent(body)}`;
}
