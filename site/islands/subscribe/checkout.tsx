// Signed in (spec subscribe steps 4-6): create the subscription, then Stripe's Payment Element.
// Creation failure → /?error=subscription-failed; payment success → 'Subscription Successful!',
// the plan read again from Stripe, then /dashboard. Every message is the spec's.
import { Elements, PaymentElement, useElements, useStripe } from '@stripe/react-stripe-js';
// The pure entry: Stripe.js is fetched when loadStripe is called (billing configured, a payment to
// take), not as a side effect of importing this module on every /subscribe view.
import type { Stripe } from '@stripe/stripe-js';
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useState, type FormEvent } from 'react';
import { formatUsd, OPERATOR, periodPrice, type BillingInterval } from '../../../common/constants.ts';
import { PLAN_CATALOGUE } from '../../../common/plans.ts';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { setSignedIn, type Viewer } from '../../lib/session.ts';
import { queueToast, toast } from '../../lib/toasts.ts';
import { salesMailto } from './subscribe-steps.ts';

export const RETURN_PATH = '/dashboard?subscription=success';
export const FAILURE_PATH = '/?error=subscription-failed';

const stripes = new Map<string, Promise<Stripe | null>>();
const stripeFor = (key: string) => {
  if (!stripes.has(key)) stripes.set(key, loadStripe(key));
  return stripes.get(key)!;
};

type Setup = { state: 'loading' } | { state: 'not-configured' } | { state: 'conflict'; message: string } | { state: 'ready'; publishableKey: string; clientSecret: string };

function PayForm({ plan, interval }: { plan: 'pro' | 'enterprise'; interval: BillingInterval }) {
  const stripe = useStripe();
  const elements = useElements();
  const [busy, setBusy] = useState(false);
  const amount = formatUsd(periodPrice(plan, interval));

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!stripe || !elements) {
      toast({ title: 'Payment system not ready', description: 'Please wait a moment and try again.' });
      return;
    }
    setBusy(true);
    try {
      const { error } = await stripe.confirmPayment({ elements, confirmParams: { return_url: `${window.location.origin}${RETURN_PATH}` }, redirect: 'if_required' });
      if (error) {
        toast({ title: 'Payment Failed', description: error.message || 'Unable to process payment. Please try again.', variant: 'destructive' });
        setBusy(false);
        return;
      }
      toast({ title: 'Subscription Successful!', description: 'Opening your dashboard…' });
      // The webhook may not have arrived yet: ask the server to read the subscription from Stripe.
      await apiRequest('POST', '/api/billing/sync').catch(() => undefined);
      const viewer = await apiRequest<Viewer>('GET', '/api/auth/me').catch(() => null);
      if (viewer) setSignedIn(viewer);
      queueToast({ title: 'Subscription Successful!', description: `Welcome to ${PLAN_CATALOGUE.find((p) => p.tier === plan)!.name}.` });
      window.location.assign(RETURN_PATH);
    } catch {
      toast({ title: 'Payment Error', description: 'An unexpected error occurred. Please try again.', variant: 'destructive' });
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} className="sub-pay-form" aria-label="Payment">
      <PaymentElement options={{ layout: 'tabs' }} />
      <button type="submit" className="btn btn-primary sub-pay" disabled={busy} aria-busy={busy}>
        {busy ? 'Processing...' : `Pay ${amount} and subscribe`}
      </button>
    </form>
  );
}

export function Checkout({ plan, interval, email }: { plan: 'pro' | 'enterprise'; interval: BillingInterval; email: string }) {
  const [setup, setSetup] = useState<Setup>({ state: 'loading' });

  useEffect(() => {
    let live = true;
    (async () => {
      const config = await apiRequest<{ configured: boolean; publishableKey: string | null }>('GET', '/api/billing/config');
      if (!config.configured || !config.publishableKey) return live && setSetup({ state: 'not-configured' });
      const { clientSecret } = await apiRequest<{ clientSecret: string; message: string }>('POST', '/api/create-subscription', { planType: plan, interval });
      if (live) setSetup({ state: 'ready', publishableKey: config.publishableKey, clientSecret });
    })().catch((error: unknown) => {
      if (!live) return;
      if (error instanceof ApiError && error.status === 409) return setSetup({ state: 'conflict', message: error.details.message ?? '' });
      queueToast({ title: 'Unable to initialize payment. Please try again.', variant: 'destructive' });
      window.location.replace(FAILURE_PATH);
    });
    return () => {
      live = false;
    };
  }, [plan, interval]);

  const total = formatUsd(periodPrice(plan, interval));
  if (setup.state === 'not-configured') {
    const name = PLAN_CATALOGUE.find((p) => p.tier === plan)!.name;
    return (
      <section className="card sub-billing" aria-labelledby="sub-billing-title">
        <h2 id="sub-billing-title">Billing is not available yet</h2>
        <p>
          Online payment is not switched on for this server, so nothing will be charged here. Our sales team can set up the {name} plan for <strong>{email}</strong>.
        </p>
        <div className="sub-billing-actions">
          <a className="btn btn-primary" href={salesMailto(plan, email)}>Contact Sales</a>
          <a className="btn btn-secondary" href="/contact?subject=billing">Contact form</a>
        </div>
        <p className="sub-fine">{OPERATOR.salesEmail} · replies within {OPERATOR.replyTime}, {OPERATOR.hours}</p>
      </section>
    );
  }
  if (setup.state === 'conflict') {
    return (
      <section className="card sub-pay-card" aria-labelledby="sub-pay-title">
        <h2 id="sub-pay-title">You already have a plan</h2>
        <p>{setup.message}</p>
        <a className="btn btn-primary" href="/account#billing">Go to Billing Settings</a>
      </section>
    );
  }
  return (
    <section className="card sub-pay-card" aria-labelledby="sub-pay-title" aria-busy={setup.state === 'loading'}>
      <h2 id="sub-pay-title">Payment details</h2>
      <p className="sub-pay-note">
        {total} {interval === 'annual' ? 'per year' : 'per month'}, charged today, renewing automatically. Cancel any time from Billing Settings; the plan stays until the end of the paid period. 30-day money-back guarantee.
      </p>
      {setup.state === 'ready' ? (
        <Elements key={setup.clientSecret} stripe={stripeFor(setup.publishableKey)} options={{ clientSecret: setup.clientSecret, appearance: { theme: 'stripe', variables: { colorPrimary: '#2563eb', borderRadius: '8px' } } }}>
          <PayForm plan={plan} interval={interval} />
        </Elements>
      ) : (
        <div className="sub-pay-loading" role="status">
          <span className="spinner" aria-hidden="true" /> Preparing secure payment…
        </div>
      )}
      <p className="sub-fine">Payments are processed by Stripe; {OPERATOR.name} never sees your card number.</p>
    </section>
  );
}
