// client:interaction — hydrates an island on the first sign the visitor is about to use it (a
// pointer over or on it, focus, a key, typing or a touch inside it), not merely because it is on
// screen: a form above the fold would otherwise load React with the page (issues 26 and 40). Until
// then the island is its server-rendered HTML, which must work on its own:
// - a form with an `action` posts natively (the contact form; decision 0181);
// - a form without one (the sign-in and sign-up forms, which only React can send) has its submit
//   held: the browser does not send it, the island hydrates, and the same submit button is clicked
//   again once it has, so the hydrated form's own handler sends it (decision 0227).
// The browser's own autofocus is not a visitor's input: focus on an [autofocus] field before any
// user activation does not hydrate; the first key, input or pointer does.
import type { ClientDirective } from 'astro';

const EVENTS = ['pointerover', 'pointerdown', 'focusin', 'keydown', 'input', 'touchstart'] as const;

const interaction: ClientDirective = (load, _options, el) => {
  let hydrated: Promise<void> | undefined;
  const held = new Map<HTMLFormElement, HTMLElement | null>();

  const start = () => {
    for (const name of EVENTS) el.removeEventListener(name, onEvent);
    hydrated ??= (async () => {
      const hydrate = await load();
      await hydrate();
      el.removeEventListener('submit', onSubmit, true);
      for (const [form, submitter] of held) {
        if (!form.isConnected) continue;
        // A click on the same button: a framework that hydrates in the background (React) finishes
        // at once on a click, which it does not do on a bare submit; the click then submits.
        if (submitter?.isConnected && form.contains(submitter)) submitter.click();
        else form.requestSubmit();
      }
      held.clear();
    })();
  };

  const onEvent = (event: Event) => {
    const target = event.target;
    const activated = (navigator as Navigator & { userActivation?: { hasBeenActive: boolean } }).userActivation?.hasBeenActive;
    if (event.type === 'focusin' && activated === false && target instanceof HTMLElement && target.hasAttribute('autofocus')) return;
    start();
  };

  // Capture, so it runs before anything else sees the submit; only until hydration.
  const onSubmit = (event: Event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || form.hasAttribute('action')) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    held.set(form, (event as SubmitEvent).submitter);
    start();
  };

  for (const name of EVENTS) el.addEventListener(name, onEvent, { passive: true });
  el.addEventListener('submit', onSubmit, true);
};

export default interaction;
