// The account dashboard: profile (with the Consultant badge), the subscription card when a
// consultant profile exists, and the quick actions of quick-actions.ts.
import { useEffect, type ReactNode } from 'react';
import { isSameSitePath } from '../../lib/auth-redirect.ts';
import { accessOf } from '../../lib/plan-access.ts';
import type { Viewer } from '../../lib/session.ts';
import BreakableEmail from '../ui/breakable-email.tsx';
import BillingSettings from './billing-settings.tsx';
import Protected from '../ui/protected.tsx';
import SecuritySection from './security-section.tsx';
import YourData from './your-data.tsx';
import ApiKeysSection from './api-keys-section.tsx';
import { accountTier, quickActions, roleLabel, TIER_NAMES, type QuickAction } from './quick-actions.ts';
import './account.css';

const dateFormat = new Intl.DateTimeFormat('en-US', { dateStyle: 'long' });
const statusText = (status: string) => (status ? status.charAt(0).toUpperCase() + status.slice(1).replaceAll('_', ' ') : 'Unknown');

function Icon({ name }: { name: 'check' | 'warning' | 'dashboard' | 'report' | 'clients' | 'branding' | 'widget' | 'billing' }) {
  const paths: Record<typeof name, ReactNode> = {
    check: <><circle cx="12" cy="12" r="10" /><path d="m8 12 3 3 5-6" /></>,
    warning: <><path d="M10.3 3.9 1.8 18a2 2 0 0 0 1.7 3h17a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0z" /><path d="M12 9v4M12 17h.01" /></>,
    dashboard: <><rect x="3" y="3" width="7" height="9" rx="1" /><rect x="14" y="3" width="7" height="5" rx="1" /><rect x="14" y="12" width="7" height="9" rx="1" /><rect x="3" y="16" width="7" height="5" rx="1" /></>,
    report: <><path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" /><path d="M14 3v5h5M9 13h6M9 17h4" /></>,
    clients: <><circle cx="9" cy="8" r="3.5" /><path d="M2.5 20a6.5 6.5 0 0 1 13 0M16 4.5a3.5 3.5 0 0 1 0 7M18 14.5a6.5 6.5 0 0 1 3.5 5.5" /></>,
    branding: <><circle cx="12" cy="12" r="9" /><circle cx="8.5" cy="10" r="1.2" /><circle cx="12" cy="7.5" r="1.2" /><circle cx="15.5" cy="10" r="1.2" /><path d="M12 21a2.5 2.5 0 0 1 0-5h1.5a2.5 2.5 0 0 0 0-5" /></>,
    billing: <><rect x="2.5" y="5" width="19" height="14" rx="2" /><path d="M2.5 10h19M6.5 15h4" /></>,
    widget: <><rect x="2.5" y="4" width="19" height="16" rx="2" /><path d="M2.5 8.5h19M9 13l-2 2 2 2M15 13l2 2-2 2" /></>,
  };
  return (
    <svg className={`acct-icon acct-icon-${name}`} width="20" height="20" viewBox="0 0 24 24" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      {paths[name]}
    </svg>
  );
}

function Action({ action }: { action: QuickAction }) {
  const body = (
    <>
      <span className="acct-action-icon">
        <Icon name={action.key} />
      </span>
      <span className="acct-action-text">
        <span className="acct-action-label">
          {action.label}
          {!action.href && <span className="acct-soon">Needs an active paid plan</span>}
        </span>
        <span className="acct-action-note">{action.description}</span>
      </span>
    </>
  );
  return action.href ? (
    <a className="acct-action" href={action.href} data-action={action.key}>
      {body}
    </a>
  ) : (
    <button type="button" className="acct-action" disabled data-action={action.key}>
      {body}
    </button>
  );
}

function Account({ viewer }: { viewer: Viewer }) {
  const { user, consultant } = viewer;
  const isConsultant = user.role === 'consultant';
  const active = consultant?.subscriptionStatus === 'active';
  return (
    <div className="container acct">
      <header className="acct-head">
        <h1>Account</h1>
        <p>Your profile, subscription and shortcuts.</p>
      </header>
      <div className="acct-grid">
        <section className="card acct-profile" aria-labelledby="acct-profile-title">
          <h2 id="acct-profile-title">Profile</h2>
          <div className="acct-who">
            <span className="acct-avatar" aria-hidden="true">{user.email.charAt(0).toUpperCase()}</span>
            <div className="acct-who-text">
              <span className="acct-email"><BreakableEmail email={user.email} /></span>
              {isConsultant && <span className="badge">Consultant</span>}
            </div>
          </div>
          <dl className="acct-facts">
            <div><dt>Account type</dt><dd>{roleLabel(user.role)}</dd></div>
            {consultant && <div><dt>Company</dt><dd>{consultant.companyName}</dd></div>}
            <div><dt>Plan</dt><dd>{TIER_NAMES[accountTier(viewer)]}</dd></div>
            <div><dt>Member since</dt><dd>{dateFormat.format(new Date(user.createdAt))}</dd></div>
          </dl>
        </section>
        {consultant && (
          <section className="card acct-sub" aria-labelledby="acct-sub-title">
            <h2 id="acct-sub-title">Subscription</h2>
            <p className="acct-sub-plan">{TIER_NAMES[accountTier(viewer)]} plan</p>
            <p className="acct-sub-company">{consultant.companyName}</p>
            <p className={`acct-status ${active ? 'is-active' : 'is-warning'}`} data-status={consultant.subscriptionStatus}>
              <Icon name={active ? 'check' : 'warning'} />
              <span>Status: {statusText(consultant.subscriptionStatus)}</span>
            </p>
          </section>
        )}
      </div>
      <BillingSettings />
      <section className="acct-actions-wrap" aria-labelledby="acct-actions-title">
        <h2 id="acct-actions-title">Quick actions</h2>
        <div className="acct-actions">
          {quickActions(viewer).map((a) => (
            <Action key={a.key} action={a} />
          ))}
        </div>
      </section>
      {/* Enterprise and Agency include the API while the plan is in good standing, as the server
          decides (site/lib/plan-access.ts): no section whose every call would be refused. */}
      {accessOf(viewer, 'api').open && <ApiKeysSection />}
      <SecuritySection />
      <YourData />
    </div>
  );
}

/** Signed in on /account?redirect=<a page of this site>: the page that sent the user here to sign in
 *  (a Go to Login that leads to /account, spec section 2) gets them back. */
function ReturnOrAccount({ viewer }: { viewer: Viewer }) {
  const redirect = typeof window === 'undefined' ? null : new URLSearchParams(window.location.search).get('redirect');
  const back = redirect && isSameSitePath(redirect) && !redirect.startsWith('/account') ? redirect : null;
  useEffect(() => {
    if (back) window.location.replace(back);
  }, [back]);
  return back ? <p className="acct-returning" role="status">Loading...</p> : <Account viewer={viewer} />;
}

export default function AccountView() {
  return <Protected>{(viewer) => <ReturnOrAccount viewer={viewer} />}</Protected>;
}
