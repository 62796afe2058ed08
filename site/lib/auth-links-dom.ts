// The top bar's session links without React. Without the session hint cookie nothing runs (no
// API call, decision 0011); with it, the cached session check decides between Sign In / Sign Up
// and Account / Logout, the menu's Dashboard goes to the user's own dashboard (a consultant's
// portfolio), and a consultant gets Clients, Branding and Widget. A link to a screen the plan does
// not open carries an Upgrade mark (Renew for a lapsed plan that has it), decision 0226.
import { inGoodStanding } from '../../common/constants.ts';
import { hasSessionHint } from '../../common/session-hint.ts';
import { apiRequest } from './api.ts';
import { $session, checkSession, clearSession, type SessionState } from './session.ts';
import { toast } from './toasts.ts';

type Mark = { plan: string; renew: boolean };

/** The link's lock for this viewer, read from its `data-plans` (the tiers whose plan includes the
 *  screen, written at build time from api/services/plans/entitlements.ts, so the rule is not copied
 *  here): open on one of them in good standing, Renew on one of them lapsed, else the least. */
export function markOf(dataPlans: string, viewer: { subscriptionTier: string; subscriptionStatus: string }): Mark | null {
  const plans = dataPlans.split(' ').filter(Boolean);
  if (!plans.includes(viewer.subscriptionTier)) return { plan: plans[0] ?? 'pro', renew: false };
  return inGoodStanding(viewer.subscriptionStatus) ? null : { plan: viewer.subscriptionTier, renew: true };
}

/** The mark after the link's name (hidden from assistive technology) and the link's description,
 *  a hidden note in the link naming the plan (decision 0226); the link's name stays its label. */
function markPlan(link: HTMLAnchorElement, m: Mark | null) {
  const mark = link.querySelector<HTMLElement>('.nav-upgrade')!;
  const note = link.querySelector<HTMLElement>('.nav-plan-note')!;
  mark.hidden = !m;
  mark.textContent = m ? (m.renew ? 'Renew' : 'Upgrade') : '';
  note.textContent = m ? `${mark.textContent}: part of the ${m.plan[0]!.toUpperCase()}${m.plan.slice(1)} plan` : '';
  if (m) link.setAttribute('aria-describedby', note.id);
  else link.removeAttribute('aria-describedby');
}

function show(root: ParentNode, state: SessionState) {
  const signedIn = state.status === 'signed-in';
  for (const node of root.querySelectorAll<HTMLElement>('[data-signed-in]')) node.hidden = !signedIn;
  for (const node of root.querySelectorAll<HTMLElement>('[data-signed-out]')) node.hidden = signedIn;
  const consultant = signedIn && state.user.role === 'consultant';
  for (const node of root.querySelectorAll<HTMLElement>('[data-consultant]')) node.hidden = !consultant;
  for (const bar of root.querySelectorAll<HTMLElement>('.top-bar')) bar.toggleAttribute('data-consultant-bar', consultant);
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[data-signed-in-href]')) {
    link.dataset.signedOutHref ??= link.getAttribute('href') ?? '';
    link.setAttribute('href', signedIn ? link.dataset.signedInHref! : link.dataset.signedOutHref);
  }
  let marks = 0;
  for (const link of root.querySelectorAll<HTMLAnchorElement>('.top-nav a[data-plans], .mobile-menu a[data-plans]')) {
    const mark = signedIn ? markOf(link.dataset.plans ?? '', state.user) : null;
    markPlan(link, mark);
    if (mark && link.closest('.top-nav') && !link.hidden) marks++;
  }
  // Two marks or more (a consultant's bar) need the room: see the bar's styles.
  for (const bar of root.querySelectorAll<HTMLElement>('.top-bar')) bar.toggleAttribute('data-marked', marks > 1);
}

async function logout(button: HTMLButtonElement) {
  button.disabled = true;
  try {
    await apiRequest('POST', '/api/auth/logout');
    window.location.assign('/');
    clearSession();
  } catch {
    toast({ title: 'Logout failed', description: 'There was an error logging out. Please try again.', variant: 'destructive' });
  } finally {
    button.disabled = false;
  }
}

export function mountAuthLinks(root: ParentNode) {
  for (const button of root.querySelectorAll<HTMLButtonElement>('[data-logout]')) button.addEventListener('click', () => void logout(button));
  $session.subscribe((state) => {
    if (state.status !== 'loading') show(root, state);
  });

  if (hasSessionHint(document.cookie)) void checkSession();
}
