// axe in the browser tests. AxeBuilder by default runs axe in each frame and finishes the run in a
// blank page it opens for the purpose, a renderer started for every check; axe.run in the page
// itself (its legacy mode) checks the same nodes for about half the CPU (6 checks of /methodology:
// 31 s of CPU against 23, server start included). It reaches only frames of the page's own
// origin, so a page with a frame from another origin keeps the default, which reaches into it.
// Every rule runs on every node either way; only the violations are reported in full (the tests
// read nothing else), which spares serialising every passing node: about a third of a check's CPU
// on the landing page (3.2 s against 2.0 s in the browser, 0.9 against 0.4 s in the test).
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

export function axe(page: Page): AxeBuilder {
  const { origin } = new URL(page.url());
  const foreign = page.frames().some((frame) => /^https?:/.test(frame.url()) && new URL(frame.url()).origin !== origin);
  return new AxeBuilder({ page }).setLegacyMode(!foreign).options({ resultTypes: ['violations'] });
}
