// client:interaction — hydrates an island on the first sign the visitor is about to use it (a
// pointer over or on it, focus or a touch inside it), not merely because it is on screen: a form
// above the fold would otherwise load React with the page (issue 26). Until then the island is
// its server-rendered HTML, which must work on its own (the contact form posts natively).
import type { ClientDirective } from 'astro';

const EVENTS = ['pointerover', 'pointerdown', 'focusin', 'touchstart'] as const;

const interaction: ClientDirective = (load, _options, el) => {
  const start = async () => {
    for (const name of EVENTS) el.removeEventListener(name, start);
    const hydrate = await load();
    await hydrate();
  };
  for (const name of EVENTS) el.addEventListener(name, start, { once: true, passive: true });
};

export default interaction;
