// The plan catalogue as the site shows it: names, prices (from PRICES) and each plan's
// entitlements in the words of spec section 6. The pricing section and the subscribe flow read it;
// what a plan actually allows is decided by api/services/plans/entitlements.ts.
import { PRICES, type Tier } from './constants.ts';
import { aiPlanPhrase } from './ai-plans.ts';

/** "AI answers: ChatGPT, Perplexity and Gemini asked about 1 keyword, every month" (decision 0302). */
const aiAnswers = (tier: Tier, per = '') => `AI answers: ChatGPT, Perplexity and Gemini asked about ${aiPlanPhrase(tier)!.replace(',', `${per},`)}`;

export interface PlanCard {
  tier: Tier;
  name: string;
  tagline: string;
  /** US dollars per month; null for custom pricing. */
  monthly: number | null;
  /** Per-month price when billed annually. */
  annual: number | null;
  features: readonly string[];
  highlighted?: boolean;
}

export const PLAN_CATALOGUE: readonly PlanCard[] = [
  {
    tier: 'free',
    name: 'Free',
    tagline: 'A one-time look at where you stand.',
    monthly: PRICES.free.monthly,
    annual: PRICES.free.yearly,
    features: ['Limited one-time reports', 'Basic features', 'Rank against your top 9 local competitors', 'Report delivered by e-mail', 'Local visibility: a 3×3 search grid on 1 keyword'],
  },
  {
    tier: 'pro',
    name: 'Pro',
    tagline: 'Track your position month after month.',
    monthly: PRICES.pro.monthly,
    annual: PRICES.pro.yearly,
    features: ['Unlimited monthly reports', 'Advanced analytics', '90-day trend analysis', 'Business dashboard', 'Local visibility: a 5×5 search grid on up to 3 keywords', aiAnswers('pro')],
    highlighted: true,
  },
  {
    tier: 'enterprise',
    name: 'Enterprise',
    tagline: 'For businesses that need to act fast.',
    monthly: PRICES.enterprise.monthly,
    annual: PRICES.enterprise.yearly,
    features: ['Everything in Pro', 'Priority support', 'API access', 'Early Warning Monitor', 'Real-time alerts', 'Google Business Profile: every review counted and answered', 'Local visibility: a 7×7 search grid on up to 5 keywords', aiAnswers('enterprise')],
  },
  {
    tier: 'agency',
    name: 'Agency',
    tagline: 'For consultants managing many clients.',
    monthly: null,
    annual: null,
    features: ['Custom pricing', 'White-label licensing', 'Same features as Enterprise', 'Manage multiple clients', aiAnswers('agency', ' per client')],
  },
];
