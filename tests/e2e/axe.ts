// axe in the browser tests. AxeBuilder by default runs axe in each frame and finishes the run in a
// blank page it opens for the purpose, a renderer started for every check. Without a frame from
// another origin, axe.run in the page itself checks the same nodes for about half the CPU (6
// checks of /methodology: 31 s of CPU against 23, server start included), so that is what `axe`
// does then, with axe-core's source evaluated once per document (AxeBuilder's legacy mode
// evaluates it twice per check, about 0.25 s each) and only the violations sent back (the tests
// read nothing else; AxeBuilder returns every passing rule as well: /login's check 0.72 s of
// CPU against 0.36 s). A page with a frame from another origin keeps AxeBuilder's default, which
// reaches into it. Every rule runs on every node either way.
import AxeBuilder from '@axe-core/playwright';
import axeCore, { type Result, type RunOptions } from 'axe-core';
import type { Frame, Page } from '@playwright/test';

type Check = { include(selector: string): Check; withRules(rules: string[]): Check; analyze(): Promise<{ violations: Result[] }> };

export function axe(page: Page): Check {
  const { origin } = new URL(page.url());
  const foreign = page.frames().some((frame) => /^https?:/.test(frame.url()) && new URL(frame.url()).origin !== origin);
  if (foreign) return new AxeBuilder({ page }).options({ resultTypes: ['violations'] });
  const include: string[][] = [];
  const options: RunOptions = { resultTypes: ['violations'] };
  const check: Check = {
    include: (selector) => (include.push([selector]), check),
    withRules: (rules) => ((options.runOnly = { type: 'rule', values: rules }), check),
    analyze: async () => {
      // Every frame has axe before the run: axe.run asks the frames of its own origin for their part.
      for (const frame of page.frames()) await inject(frame);
      const context = include.length ? { include, exclude: [] } : null;
      return page.evaluate(
        async ({ context, options }) => {
          const { violations } = await (window as unknown as { axe: typeof axeCore }).axe.run(context ?? document, options);
          return { violations };
        },
        { context, options },
      );
    },
  };
  return check;
}

/** axe-core in `frame`'s document, once. A frame that goes away meanwhile is skipped, as
 *  AxeBuilder skips it. */
async function inject(frame: Frame) {
  const present = await frame.evaluate(() => 'axe' in window).catch(() => null);
  if (present === false) await frame.evaluate(axeCore.source).catch(() => undefined);
}
