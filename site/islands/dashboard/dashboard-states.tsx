// The dashboard's other screens: loading, the three error states of spec section 8 (exact texts
// and buttons), and what a signed-in free user sees instead of an error: the offer and the upgrade
// (the upgrade card every locked screen shows, decision 0226).
import type { PlanLock } from '../../lib/plan-access.ts';
import UpgradeCard from '../ui/upgrade-card.tsx';
import type { DashboardError } from './dashboard-data.ts';

export function Loading() {
  return (
    <div className="page-loading" role="status">
      <span className="spinner spinner-lg" aria-hidden="true" />
      Loading...
    </div>
  );
}

const ICONS = {
  lock: <path d="M7 11V8a5 5 0 0 1 10 0v3M5 11h14v10H5z" />,
  chart: <path d="M4 20V10m6 10V4m6 16v-7m4 7H2" />,
  search: <path d="M11 18a7 7 0 1 1 0-14 7 7 0 0 1 0 14zm10 3-5.2-5.2" />,
  warning: <path d="M12 3 2 20h20L12 3zm0 7v4m0 3v.5" />,
};

export interface StateCardProps {
  state: string;
  icon: keyof typeof ICONS;
  title: string;
  text: string;
  action: string;
  href: string;
}

/** A screen that stands in for the page: an icon, a title, a line of text and one way on. */
export function StateCard({ state, icon, title, text, action, href }: StateCardProps) {
  return (
    <section className="dash-state" data-state={state}>
      <div className="card state-card">
        <span className="state-icon" aria-hidden="true">
          <svg width="28" height="28" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round">{ICONS[icon]}</svg>
        </span>
        <h1>{title}</h1>
        <p>{text}</p>
        <a className="btn btn-primary" href={href}>{action}</a>
      </div>
    </section>
  );
}

const STATES: Record<DashboardError, Omit<StateCardProps, 'state'>> = {
  login: { icon: 'lock', title: 'Login Required', text: 'Please log in to view your business dashboard.', action: 'Go to Login', href: '/account' },
  'no-business': {
    icon: 'chart',
    title: 'No Business Analysis Found',
    text: "You haven't submitted a business analysis yet. Get started with a free report!",
    action: 'Start New Analysis',
    href: '/#report-form',
  },
  'not-found': {
    icon: 'search',
    title: 'Dashboard Not Found',
    text: 'The requested business dashboard could not be found or is still being processed.',
    action: 'Go Home',
    href: '/',
  },
};

/** Go to Login leads to /account (spec section 2), carrying this page, so that signing in there
 *  brings the user back here rather than leaving them on /account (issue 40). */
export function accountReturningTo(pathWithQuery: string): string {
  return `/account?redirect=${encodeURIComponent(pathWithQuery)}`;
}

export function ErrorState({ kind }: { kind: DashboardError }) {
  const state = STATES[kind];
  const href = kind === 'login' && typeof window !== 'undefined' ? accountReturningTo(window.location.pathname + window.location.search) : state.href;
  return <StateCard state={kind} {...state} href={href} />;
}

const OFFER = [
  { title: 'Scores that move', text: 'Overall score, market rank and the four scores, each ranked against your local competitors.' },
  { title: '90-day trends', text: 'Your business is re-analysed on a regular schedule, so you see each score rise or fall over time.' },
  { title: 'Market position', text: 'A radar of your scores against the market average, and where each competitor stands.' },
  { title: 'Monthly reports', text: 'A fresh PDF report in your inbox on the first of every month.' },
];

/** The dashboard (and a consultant's portfolio) on a plan without it. */
export function UpgradeOffer({ access = { open: false, reason: 'plan', plan: 'pro', renew: false } }: { access?: PlanLock }) {
  return (
    <UpgradeCard
      feature="dashboard"
      access={access}
      title="Your business dashboard is part of Pro"
      text="Track where you stand against your top local competitors, week after week, instead of a one-time snapshot."
      offer={OFFER}
    />
  );
}
