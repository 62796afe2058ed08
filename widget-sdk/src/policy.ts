// What the host page's Content Security Policy refused us (issue 40). A `connect-src` that does
// not name the product's origin makes every call fail as if there were no connection; telling the
// visitor to try again would be a retry that can never work. The browser reports the refusal as a
// `securitypolicyviolation` event, not in the failed fetch: this listener, added before the first
// request (by the loader, or by the React build's components), notes each directive that refused
// an address on the product's origin and tells the site owner, in the console, what to add.
/** The visitor's message when the page's policy refuses the widget's calls: no retry helps (the
 *  console says what the site owner must add). Here, not in the widget: the loader has room. */
export const BLOCKED_MESSAGE = "This form is blocked by this site's settings.";

/** The directives that refused an address on the product's origin ('connect-src', 'script-src',
 *  …), each with what the widget tells the visitor. */
export type Refusals = Record<string, string>;

export function watchPolicy(origin: string, refused: Refusals): void {
  document.addEventListener('securitypolicyviolation', (e) => {
    // script-src-elem and the like fall back to the directive a policy usually has.
    const directive = e.effectiveDirective.replace('-elem', '');
    if (e.blockedURI.indexOf(origin) || refused[directive]) return;
    refused[directive] = BLOCKED_MESSAGE;
    console.error(`LocalRank widget: this page's Content-Security-Policy refused ${e.blockedURI} (${directive}). Add ${origin} to ${directive} in the policy (or to default-src, if the policy has no ${directive}).`);
  });
}
