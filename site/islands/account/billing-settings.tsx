// Billing Settings on /account: the subscription (plan, interval, status, renewal or end date) and
// the Stripe customer portal (card, invoices, plan or interval, cancel at period end).
import { useEffect, useState } from 'react';
import { formatUsd, periodPrice, type BillingInterval } from '../../../common/constants.ts';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';
import { TIER_NAMES } from './quick-actions.ts';

interface Subscription {
  tier: keyof typeof TIER_NAMES;
  status: string;
  interval: BillingInterval | null;
  currentPeriodEnd: string | null;
  cancelAtPeriodEnd: boolean;
  graceUntil: string | null;
  hasBillingAccount: boolean;
}

const dateText = (iso: string) => new Intl.DateTimeFormat('en-US', { dateStyle: 'long' }).format(new Date(iso));
const STATUS_TEXT: Record<string, string> = { active: 'Active', past_due: 'Payment failed', suspended: 'Suspended', trialing: 'Trial', canceled: 'Cancelled' };

function when(s: Subscription): string | null {
  if (s.status === 'past_due' && s.graceUntil) return `Your last payment failed. Update your card before ${dateText(s.graceUntil)} to keep your plan.`;
  if (s.status === 'suspended') return 'Paid features are paused until the payment succeeds. Update your card to restore them.';
  if (!s.currentPeriodEnd) return null;
  return s.cancelAtPeriodEnd ? `Ends on ${dateText(s.currentPeriodEnd)}; the account is free after that.` : `Renews on ${dateText(s.currentPeriodEnd)}.`;
}

export default function BillingSettings() {
  const [sub, setSub] = useState<Subscription | null>(null);
  const [configured, setConfigured] = useState(true);
  const [opening, setOpening] = useState(false);

  useEffect(() => {
    apiRequest<Subscription>('GET', '/api/billing/subscription').then(setSub, () => undefined);
    apiRequest<{ configured: boolean }>('GET', '/api/billing/config').then((c) => setConfigured(c.configured), () => undefined);
  }, []);

  async function openPortal() {
    setOpening(true);
    try {
      const { url } = await apiRequest<{ url: string }>('POST', '/api/billing/portal');
      window.location.assign(url);
    } catch (error) {
      setOpening(false);
      toast({ title: 'Billing unavailable', description: messageOf(error, error instanceof ApiError ? error.message : 'Please try again.'), variant: 'destructive' });
    }
  }

  if (!sub) return null;
  const paid = sub.tier !== 'free' && sub.interval !== null;
  const ok = sub.status === 'active';
  const price = paid && (sub.tier === 'pro' || sub.tier === 'enterprise') ? `${formatUsd(periodPrice(sub.tier, sub.interval!))}/${sub.interval === 'annual' ? 'year' : 'month'}` : null;
  const note = paid ? when(sub) : null;
  return (
    <section className="card acct-billing" id="billing" aria-labelledby="acct-billing-title">
      <h2 id="acct-billing-title">Billing Settings</h2>
      <dl className="acct-facts">
        <div><dt>Plan</dt><dd data-testid="billing-plan">{TIER_NAMES[sub.tier] ?? sub.tier}</dd></div>
        {paid && <div><dt>Billing</dt><dd data-testid="billing-interval">{sub.interval === 'annual' ? 'Annual' : 'Monthly'}{price ? ` · ${price}` : ''}</dd></div>}
        <div>
          <dt>Status</dt>
          <dd className={`acct-billing-status ${ok ? 'is-active' : 'is-warning'}`} data-testid="billing-status">{STATUS_TEXT[sub.status] ?? sub.status}</dd>
        </div>
      </dl>
      {note && <p className={`acct-billing-note ${ok ? '' : 'is-warning'}`} data-testid="billing-when">{note}</p>}
      <div className="acct-billing-actions">
        {sub.hasBillingAccount && configured && (
          <button type="button" className="btn btn-primary" onClick={openPortal} disabled={opening}>
            {opening ? 'Opening...' : sub.status === 'active' ? 'Manage billing' : 'Update payment method'}
          </button>
        )}
        {!paid && <a className="btn btn-secondary" href={`/subscribe?plan=${sub.tier === 'free' ? 'pro' : sub.tier}`}>Choose a plan</a>}
      </div>
      {paid && configured && <p className="acct-billing-fine">Change plan or interval, update your card, download invoices or cancel (at the end of the paid period) in the secure Stripe portal.</p>}
      {!configured && <p className="acct-billing-fine">Online billing is not configured on this server; plans are set by our team.</p>}
    </section>
  );
}
