// /subscribe?plan=…&interval=…: the subscribe flow of spec section 2 (steps in subscribe-steps.ts).
import { useStore } from '@nanostores/react';
import { useEffect, useState, useSyncExternalStore } from 'react';
import type { BillingInterval } from '../../../common/constants.ts';
import { PLAN_STORAGE_KEY } from '../../lib/auth-redirect.ts';
import { $session, checkSession } from '../../lib/session.ts';
import { accountTier } from '../account/quick-actions.ts';
import { PageLoading } from '../ui/protected.tsx';
import { Checkout } from './checkout.tsx';
import { PlanSummary } from './plan-summary.tsx';
import { SalesContact } from './sales-contact.tsx';
import { INTERVAL_STORAGE_KEY, readInterval, subscribeStep, type SubscribeStep } from './subscribe-steps.ts';
import './subscribe.css';

const noSubscription = () => () => {};
const readPlan = () => new URLSearchParams(window.location.search).get('plan');

function storage(action: (s: Storage) => void) {
  try {
    action(sessionStorage);
  } catch {
    /* storage unavailable: the login page simply goes to /account afterwards */
  }
}

function initialInterval(): BillingInterval {
  let stored: string | null = null;
  storage((s) => (stored = s.getItem(INTERVAL_STORAGE_KEY)));
  return readInterval(new URLSearchParams(window.location.search).get('interval'), stored);
}

function follow(step: SubscribeStep, interval: BillingInterval) {
  if (step.kind === 'home') window.location.replace('/');
  if (step.kind === 'login') {
    storage((s) => {
      s.setItem(PLAN_STORAGE_KEY, step.plan);
      s.setItem(INTERVAL_STORAGE_KEY, interval);
    });
    window.location.replace('/login?redirect=subscribe');
  }
  if (step.kind === 'checkout') {
    storage((s) => {
      s.removeItem(PLAN_STORAGE_KEY);
      s.removeItem(INTERVAL_STORAGE_KEY);
    });
  }
}

export default function SubscribeFlow() {
  const session = useStore($session);
  const plan = useSyncExternalStore(noSubscription, readPlan, () => null);
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const fromAddress = useSyncExternalStore(noSubscription, initialInterval, () => null);
  const [chosen, setChosen] = useState<BillingInterval | null>(null);
  const interval = chosen ?? fromAddress;
  const step = hydrated ? subscribeStep(plan, session) : ({ kind: 'checking' } as const);

  useEffect(() => {
    void checkSession();
  }, []);
  useEffect(() => {
    if (hydrated && interval) follow(step, interval);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated, step.kind, interval]);

  function chooseInterval(next: BillingInterval) {
    const url = new URL(window.location.href);
    url.searchParams.set('interval', next);
    window.history.replaceState(null, '', url);
    setChosen(next);
  }

  if (step.kind === 'sales') return <SalesContact email={session.status === 'signed-in' ? session.user.email : undefined} currentTier={session.status === 'signed-in' ? accountTier(session) : undefined} />;
  if (step.kind === 'checkout' && session.status === 'signed-in' && interval) {
    return (
      <div className="container sub">
        <a className="sub-back" href="/account">← Back to account</a>
        <div className="sub-grid">
          <PlanSummary plan={step.plan} interval={interval} onInterval={chooseInterval} currentTier={accountTier(session)} />
          <Checkout key={`${step.plan}-${interval}`} plan={step.plan} interval={interval} email={session.user.email} />
        </div>
      </div>
    );
  }
  return <PageLoading />;
}
