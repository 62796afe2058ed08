// Agency (spec subscribe step 2): custom pricing, so the page offers the sales e-mail draft (a
// real link the visitor clicks, which no browser blocks) beside the contact form with the subject
// "agency" chosen, instead of sending anyone home without a word. An account already on Agency is
// told so and sent to its billing settings, not pitched the plan it has.
import { OPERATOR, type Tier } from '../../../common/constants.ts';
import { PLAN_CATALOGUE } from '../../../common/plans.ts';
import { PlanFeatures } from './plan-summary.tsx';
import { salesMailto } from './subscribe-steps.ts';

const planName = (tier: Tier) => PLAN_CATALOGUE.find((p) => p.tier === tier)!.name;

export function SalesContact({ email, currentTier }: { email?: string; currentTier?: Tier }) {
  const card = PLAN_CATALOGUE.find((p) => p.tier === 'agency')!;
  if (currentTier === 'agency') {
    return (
      <div className="container sub sub-narrow">
        <a className="sub-back" href="/account">← Back to account</a>
        <section className="card sub-sales" aria-labelledby="sub-sales-title">
          <p className="sub-eyebrow">Agency plan</p>
          <h1 id="sub-sales-title">You&rsquo;re on the Agency plan</h1>
          <p className="sub-current">Your account is on the {card.name} plan.</p>
          <PlanFeatures features={card.features} />
          <div className="sub-billing-actions">
            <a className="btn btn-primary" href="/account#billing">Billing Settings</a>
            <a className="btn btn-secondary" href="/contact?subject=agency">Questions about your plan</a>
          </div>
        </section>
      </div>
    );
  }
  return (
    <div className="container sub sub-narrow">
      <a className="sub-back" href="/#pricing">← Back to pricing</a>
      <section className="card sub-sales" aria-labelledby="sub-sales-title">
        <p className="sub-eyebrow">Agency plan</p>
        <h1 id="sub-sales-title">Let&rsquo;s price it for your agency</h1>
        <p className="sub-tagline">{card.tagline} Agency pricing depends on how many clients you manage, so our sales team sets it up with you.</p>
        <PlanFeatures features={card.features} />
        {currentTier && <p className="sub-current">Your account is on the {planName(currentTier)} plan now.</p>}
        <div className="sub-billing-actions">
          <a className="btn btn-primary" href={salesMailto('agency', email)}>E-mail sales</a>
          <a className="btn btn-secondary" href="/contact?subject=agency">Use the contact form</a>
        </div>
        <p className="sub-fine">
          {OPERATOR.salesEmail} · replies within {OPERATOR.replyTime}, {OPERATOR.hours}
        </p>
      </section>
    </div>
  );
}
