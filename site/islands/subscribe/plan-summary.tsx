// The plan being bought: name, price for the chosen interval (with thousands separators), the
// monthly/annual choice carried from the pricing toggle, and what the plan includes.
import { ANNUAL_SAVINGS_PERCENT, formatUsd, periodPrice, type BillingInterval, type Tier } from '../../../common/constants.ts';
import { PLAN_CATALOGUE } from '../../../common/plans.ts';

export function PlanSummary({ plan, interval, onInterval, currentTier }: { plan: 'pro' | 'enterprise'; interval: BillingInterval; onInterval: (i: BillingInterval) => void; currentTier: Tier }) {
  const card = PLAN_CATALOGUE.find((p) => p.tier === plan)!;
  const perMonth = interval === 'monthly' ? card.monthly! : card.annual!;
  return (
    <section className="card sub-plan" aria-labelledby="sub-plan-title">
      <p className="sub-eyebrow">Selected plan</p>
      <h1 id="sub-plan-title">{card.name}</h1>
      <p className="sub-tagline">{card.tagline}</p>
      <fieldset className="sub-interval">
        <legend className="sr-only">Billing interval</legend>
        {(['monthly', 'annual'] as const).map((option) => (
          <label key={option} className={option === interval ? 'is-on' : undefined}>
            <input type="radio" name="interval" value={option} checked={option === interval} onChange={() => onInterval(option)} />
            {option === 'monthly' ? 'Monthly' : 'Annual'}
            {option === 'annual' && <span className="sub-save">Save {ANNUAL_SAVINGS_PERCENT}%</span>}
          </label>
        ))}
      </fieldset>
      <p className="sub-price">
        <span className="sub-amount">{formatUsd(perMonth)}</span>
        <span className="sub-per">/month</span>
      </p>
      <p className="sub-annual" data-testid="sub-billed">
        {interval === 'annual' ? `${formatUsd(periodPrice(plan, 'annual'))}/year, billed annually in advance` : `billed monthly in advance, or ${formatUsd(card.annual!)}/month billed annually (save ${ANNUAL_SAVINGS_PERCENT}%)`}
      </p>
      <PlanFeatures features={card.features} />
      {currentTier === plan ? (
        <p className="sub-current">Your account is on the {card.name} plan.</p>
      ) : (
        <p className="sub-current" data-testid="sub-current-plan">Your account is on the {PLAN_CATALOGUE.find((p) => p.tier === currentTier)!.name} plan now.</p>
      )}
    </section>
  );
}

/** A plan's features, each with a check mark (the plan summary and the agency's sales page). */
export function PlanFeatures({ features }: { features: readonly string[] }) {
  return (
    <ul className="sub-features">
      {features.map((f) => (
        <li key={f}>
          <svg width="18" height="18" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true"><path d="m5 12 5 5 9-10" /></svg>
          {f}
        </li>
      ))}
    </ul>
  );
}
