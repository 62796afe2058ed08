// The top bar's session links without React. Without the session hint cookie nothing runs (no
// API call, decision 0011); with it, the cached session check decides between Sign In / Sign Up
// and Account / Logout, the menu's Dashboard goes to the user's own dashboard (a consultant's
// portfolio), and a consultant gets Clients, Branding and Widget.
import { hasSessionHint } from '../../common/session-hint.ts';
import { apiRequest } from './api.ts';
import { $session, checkSession, clearSession, type SessionState } from './session.ts';
import { toast } from './toasts.ts';

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
