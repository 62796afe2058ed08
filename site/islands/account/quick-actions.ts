// The account screen's rules (spec sections 2 and 6), as data so they are tested without a browser:
// Manage Clients is shown to consultants, enabled on an active paid plan; Branding Settings only on
// the agency tier, enabled while active (decision 0105: the spec shows them disabled only because
// its product had not built them); Billing Settings leads to the pro plan for free users, else to
// their own tier.
import { inGoodStanding, TIERS, type Tier } from '../../../common/constants.ts';
import type { Viewer } from '../../lib/session.ts';

export interface QuickAction {
  key: 'dashboard' | 'report' | 'clients' | 'branding' | 'widget' | 'billing';
  label: string;
  description: string;
  /** Absent when the action is shown but not available yet. */
  href?: string;
}

/** The tier the account is on: the consultant profile's when there is one, else the user's. */
export function accountTier(viewer: Viewer): Tier {
  const tier = viewer.consultant?.subscriptionTier ?? viewer.user.subscriptionTier;
  return (TIERS as readonly string[]).includes(tier) ? (tier as Tier) : 'free';
}

export function billingHref(viewer: Viewer): string {
  const tier = accountTier(viewer);
  return `/subscribe?plan=${tier === 'free' ? 'pro' : tier}`;
}

export function quickActions(viewer: Viewer): QuickAction[] {
  const tier = accountTier(viewer);
  const actions: QuickAction[] = [
    {
      key: 'dashboard',
      label: 'View Dashboard',
      // A consultant's /dashboard is its portfolio: its own businesses and every client.
      description: viewer.user.role === 'consultant' ? 'Your businesses and every client: scores, rank, alerts and reports.' : 'Scores, rank and competitors of your business.',
      href: '/dashboard',
    },
    { key: 'report', label: 'New Free Report', description: 'Analyse a business against its local competitors.', href: '/#report-form' },
  ];
  // The server's rule (entitlements): a plan in its payment grace period still counts.
  const active = inGoodStanding(viewer.user.subscriptionStatus);
  if (viewer.user.role === 'consultant') {
    const paid = tier !== 'free' && active;
    actions.push({ key: 'clients', label: 'Manage Clients', description: paid ? 'Your clients and their reports in one place.' : 'On a Pro, Enterprise or Agency plan: your clients and their reports in one place.', ...(paid ? { href: '/clients' } : {}) });
  }
  if (tier === 'agency') actions.push({ key: 'branding', label: 'Branding Settings', description: 'Your logo and colours on every report.', ...(active ? { href: '/branding' } : {}) });
  if (tier === 'agency') actions.push({ key: 'widget', label: 'Website Widget', description: 'Your report form on your own sites; leads in one list.', ...(active ? { href: '/widget' } : {}) });
  actions.push({ key: 'billing', label: 'Billing Settings', description: tier === 'free' ? 'Upgrade to Pro for monthly reports and trends.' : 'Your plan and payment details.', href: billingHref(viewer) });
  return actions;
}

export const TIER_NAMES: Record<Tier, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise', agency: 'Agency' };

export function roleLabel(role: string): string {
  if (role === 'consultant') return 'Consultant / Agency';
  if (role === 'client') return 'Business Owner';
  return role;
}
