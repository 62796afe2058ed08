// The top bar's session links without React. Without the session hint cookie nothing runs (no
// API call, decision 0011); with it, the cached session check decides between Sign In / Sign Up
// and Account / Logout, the menu's Dashboard goes to the user's own dashboard (a consultant's
// portfolio), and a consultant gets Clients, Branding and Widget. A link to a screen the plan does
// not open carries an Upgrade mark (Renew for a lapsed plan that has it), decision 0226.
import { PLAN_CATALOGUE } from '../../common/plans.ts';
import { hasSessionHint } from '../../common/session-hint.ts';
import { apiRequest } from './api.ts';
import { accessOf, type Access, type Feature } from './plan-access.ts';
import { $session, checkSession, clearSession, type SessionState } from './session.ts';
import { toast } from './toasts.ts';

let notes = 0;

/** The mark after the link's name, and the link's description naming the plan. The mark is hidden
 *  from assistive technology and the note is a hidden child, so the link's name stays its label. */
function markPlan(link: HTMLAnchorElement, access: Access | null) {
  const locked = access !== null && !access.open && access.reason === 'plan' ? access : null;
  const word = locked?.renew ? 'Renew' : 'Upgrade';
  const mark = link.querySelector<HTMLElement>('.nav-upgrade');
  if (mark) {
    mark.hidden = !locked;
    mark.textContent = locked ? word : '';
  }
  let note = link.querySelector<HTMLElement>('.nav-plan-note');
  if (!locked) {
    delete link.dataset.locked;
    link.removeAttribute('aria-describedby');
    note?.remove();
    return;
  }
  if (!note) {
    note = Object.assign(document.createElement('span'), { className: 'nav-plan-note', id: `nav-plan-note-${++notes}`, hidden: true });
    link.append(note);
  }
  note.textContent = `${word}: part of the ${PLAN_CATALOGUE.find((p) => p.tier === locked.plan)?.name ?? locked.plan} plan`;
  link.setAttribute('aria-describedby', note.id);
  link.dataset.locked = locked.plan;
}

/**
 * The bar on one line, whatever its links (a consultant's three, their Upgrade marks, longer words):
 * when the links overflow, the marketing anchors go first (data-crowded), then the links move to
 * the menu button as on a phone (data-menu-only). Measured, not guessed from a width.
 */
function fit(root: ParentNode) {
  for (const bar of root.querySelectorAll<HTMLElement>('.top-bar')) {
    const inner = bar.querySelector<HTMLElement>('.top-bar-inner');
    if (!inner) continue;
    bar.removeAttribute('data-crowded');
    bar.removeAttribute('data-menu-only');
    const overflows = () => inner.scrollWidth > inner.clientWidth + 1;
    if (overflows()) bar.setAttribute('data-crowded', '');
    if (overflows()) bar.setAttribute('data-menu-only', '');
  }
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
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[data-feature]')) {
    markPlan(link, signedIn ? accessOf(state, link.dataset.feature as Feature) : null);
  }
  fit(root);
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
  let pending = false;
  window.addEventListener('resize', () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fit(root);
    });
  });
  if (hasSessionHint(document.cookie)) void checkSession();
}
