// The one screen a plan-locked page shows instead of itself (decision 0226): which plan opens it,
// what it costs, and the way to it; never an error. The dashboard, the portfolio, Early Warning,
// Clients, Branding and the Widget all use it, each with its own title and words.
import type { ReactNode } from 'react';
import { TIERS, type Tier } from '../../../common/constants.ts';
import { PLAN_CATALOGUE } from '../../../common/plans.ts';
import { planOpening, type Feature, type PlanLock } from '../../lib/plan-access.ts';
import './upgrade-card.css';

export interface Offer {
  title: string;
  text: string;
}

export interface UpgradeCardProps {
  feature: Feature;
  access: PlanLock;
  title: string;
  text: string;
  /** What the plan brings on this screen, a line each. */
  offer?: readonly Offer[];
  children?: ReactNode;
}

const planOf = (tier: Tier) => PLAN_CATALOGUE.find((p) => p.tier === tier)!;

/** 'Pro, Enterprise and Agency': every plan from `tier` up. */
export function plansFrom(tier: Tier): string {
  const names = TIERS.slice(TIERS.indexOf(tier)).map((t) => planOf(t).name);
  return names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

export function priceLine(tier: Tier): string {
  const plan = planOf(tier);
  return plan.monthly === null ? 'Custom pricing: tell us about your agency' : `$${plan.monthly}/month, or $${plan.annual}/month billed annually`;
}

export default function UpgradeCard({ feature, access, title, text, offer, children }: UpgradeCardProps) {
  const plan = planOf(access.plan);
  const least = planOpening(feature);
  return (
    <section className="dash-state upgrade" data-state="upgrade" data-feature={feature} data-plan={access.plan}>
      <div className="card upgrade-card">
        <span className="badge upgrade-badge">
          <svg width="14" height="14" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round"><path d="M7 11V8a5 5 0 0 1 10 0v3M5 11h14v10H5z" /></svg>
          {plan.name} plan
        </span>
        <h1>{title}</h1>
        <p className="lead">{text}</p>
        {offer && offer.length > 0 && (
          <ul className="offer">
            {offer.map((o) => (
              <li key={o.title}>
                <svg width="20" height="20" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="#059669" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round"><path d="M20 6 9 17l-5-5" /></svg>
                <span><strong>{o.title}.</strong> {o.text}</span>
              </li>
            ))}
          </ul>
        )}
        {children}
        <p className="upgrade-included" data-testid="upgrade-included">
          {access.renew ? `Your ${plan.name} plan includes this: it opens again once the plan is active.` : `Included in the ${plansFrom(least)} plan${least === 'agency' ? '' : 's'}.`}
        </p>
        <div className="upgrade-actions">
          <a className="btn btn-primary" href={`/subscribe?plan=${access.plan}`}>
            {access.renew ? `Renew ${plan.name}` : `Upgrade to ${plan.name}`}
          </a>
          <span className="price">{priceLine(access.plan)}</span>
          <a className="upgrade-compare" href="/#pricing">Compare plans</a>
        </div>
      </div>
    </section>
  );
}
