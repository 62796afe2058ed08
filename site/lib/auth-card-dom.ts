// The login and sign-up card without React (site/components/auth-card.astro): the link to the other
// screen takes this page's redirect and plan query (spec section 2: the same query handling), and a
// visitor already signed in is told so. The session check is the cached one the top bar makes.
import { carriedQuery } from './auth-redirect.ts';
import { $session, checkSession } from './session.ts';

export function mountAuthCard(root: ParentNode) {
  const carried = carriedQuery(window.location.search);
  for (const link of root.querySelectorAll<HTMLAnchorElement>('a[data-carry-query]')) {
    link.dataset.baseHref ??= link.getAttribute('href') ?? '';
    link.setAttribute('href', `${link.dataset.baseHref}${carried}`);
  }
  $session.subscribe((state) => {
    for (const note of root.querySelectorAll<HTMLElement>('[data-signed-in-notice]')) {
      note.hidden = state.status !== 'signed-in';
      const email = note.querySelector('[data-signed-in-email]');
      if (email) email.textContent = state.status === 'signed-in' ? state.user.email : '';
    }
  });
  void checkSession();
}
