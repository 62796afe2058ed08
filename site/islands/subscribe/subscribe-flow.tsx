// /subscribe?plan=…: the steps of the subscribe flow that need no payment provider. Signed-in
// users see what the plan holds and, honestly, that online billing is not available yet, with
// a way to reach sales. Nothing is charged and no payment form is shown.
import { useStore } from '@nanostores/react';
import { useEffect, useSyncExternalStore } from 'react';
import { PLAN_CATALOGUE } from '../../../common/plans.ts';
import { OPERATOR, ANNUAL_SAVINGS_PERCENT } from '../../../common/constants.ts';
import { PLAN_STORAGE_KEY } from '../../lib/auth-redirect.ts';
import { $session, checkSession, type SessionState } from '../../lib/session.ts';
import { PageLoading } from '../ui/protected.tsx';
import { accountTier } from '../account/quick-actions.ts';
import { salesMailto, subscribeStep, type SubscribeStep } from './subscribe-steps.ts';
import './subscribe.css';

const noSubscription = () => () => {};
const readPlan = () => new URLSearchParams(window.location.search).get('plan');

function follow(step: SubscribeStep) {
  if (step.kind === 'home') window.location.replace('/');
  if (step.kind === 'sales') {
    // Open the sales e-mail draft (the mail app), then go home.
    const link = document.createElement('a');
    link.href = salesMailto('agency');
    link.click();
    setTimeout(() => window.location.replace('/'), 300);
  }
  if (step.kind === 'login') {
    try {
      sessionStorage.setItem(PLAN_STORAGE_KEY, step.plan);
    } catch {
      /* storage unavailable: the login page simply goes to /account afterwards */
    }
    window.location.replace('/login?redirect=subscribe');
  }
  if (step.kind === 'summary') {
    try {
      sessionStorage.removeItem(PLAN_STORAGE_KEY);
    } catch {
      /* nothing remembered */
    }
  }
}

function Summary({ plan, session }: { plan: 'pro' | 'enterprise'; session: Extract<SessionState, { status: 'signed-in' }> }) {
  const card = PLAN_CATALOGUE.find((p) => p.tier === plan)!;
  const current = accountTier(session) === plan;
  return (
    <div className="container sub">
      <a className="sub-back" href="/account">← Back to account</a>
      <div className="sub-grid">
        <section className="card sub-plan" aria-labelledby="sub-plan-title">
          <p className="sub-eyebrow">Selected plan</p>
          <h1 id="sub-plan-title">{card.name}</h1>
          <p className="sub-tagline">{card.tagline}</p>
          <p className="sub-price">
            <span className="sub-amount">${card.monthly}</span>
            <span className="sub-per">/month</span>
          </p>
          <p className="sub-annual">
            or ${card.annual}/month billed annually (save {ANNUAL_SAVINGS_PERCENT}%)
          </p>
          <ul className="sub-features">
            {card.features.map((f) => (
              <li key={f}>
                <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true"><path d="m5 12 5 5 9-10" /></svg>
                {f}
              </li>
            ))}
          </ul>
          {current && <p className="sub-current">Your account is on the {card.name} plan.</p>}
        </section>
        <section className="card sub-billing" aria-labelledby="sub-billing-title">
          <div className="sub-billing-icon" aria-hidden="true">
            <svg width="24" height="24" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round"><circle cx="12" cy="12" r="10" /><path d="M12 8v5M12 16h.01" /></svg>
          </div>
          <h2 id="sub-billing-title">Billing is not available yet</h2>
          <p>
            Online payment is not switched on yet, so nothing will be charged here. Our sales team can set up the {card.name} plan for{' '}
            <strong>{session.user.email}</strong> and answer any question about it.
          </p>
          <div className="sub-billing-actions">
            <a className="btn btn-primary" href={salesMailto(plan, session.user.email)}>Contact Sales</a>
            <a className="btn btn-secondary" href="/contact">Contact form</a>
          </div>
          <p className="sub-fine">
            {OPERATOR.salesEmail} · replies within {OPERATOR.replyTime}, {OPERATOR.hours}
          </p>
        </section>
      </div>
    </div>
  );
}

export default function SubscribeFlow() {
  const session = useStore($session);
  const plan = useSyncExternalStore(noSubscription, readPlan, () => null);
  const hydrated = useSyncExternalStore(noSubscription, () => true, () => false);
  const step = hydrated ? subscribeStep(plan, session) : ({ kind: 'checking' } as const);

  useEffect(() => {
    void checkSession();
  }, []);
  useEffect(() => {
    if (hydrated) follow(step);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [hydrated, step.kind]);

  if (step.kind === 'summary' && session.status === 'signed-in') return <Summary plan={step.plan as 'pro' | 'enterprise'} session={session} />;
  return <PageLoading />;
}
