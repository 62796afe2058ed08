// Text a phone can read (issue 40): on a 390 px screen no visible text on these pages is set under
// 12 px (Lighthouse's legible font sizes counts text under 12 px; /docs/api had 69% of its text
// there, its code samples at 11.4 px). Every text node with letters or digits that is rendered
// (not display:none, visibility:hidden or clipped away as .sr-only text) is measured at its own
// computed font size, scrolled-away parts of code boxes included.
import { look } from './look.ts';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

const MIN_PX = 12;
const PAGES = ['/docs/api', '/methodology', '/privacy/data', '/login', '/signup'];

/** Each distinct (element, size) under `min` px, with a sample of its text, and how many characters. */
function smallText(page: Page, min: number) {
  return page.evaluate((minPx) => {
    const found = new Map<string, number>();
    let total = 0;
    let small = 0;
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent ?? '';
      if (!/[\p{L}\p{N}]/u.test(text)) continue;
      const el = node.parentElement;
      if (!el || el.closest('script, style, noscript, template, [hidden], [aria-hidden="true"]')) continue;
      if (!el.getClientRects().length) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden') continue;
      // Text clipped to a pixel on purpose (screen-reader only) is not on screen.
      const box = el.getBoundingClientRect();
      if (box.width <= 1 && box.height <= 1) continue;
      const chars = text.replace(/\s+/g, '').length;
      total += chars;
      const size = parseFloat(style.fontSize);
      if (size >= minPx) continue;
      small += chars;
      const cls = typeof el.className === 'string' && el.className ? `.${el.className.trim().split(/\s+/).join('.')}` : '';
      const key = `${el.parentElement?.tagName.toLowerCase() ?? ''} > ${el.tagName.toLowerCase()}${cls} ${size.toFixed(2)}px`;
      found.set(key, (found.get(key) ?? 0) + chars);
    }
    return { share: total ? small / total : 0, where: [...found].map(([k, n]) => `${k} (${n} chars)`) };
  }, min);
}

for (const path of PAGES) {
  test(`${path} at 390 px: no visible text under 12 px`, async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const { share, where } = await smallText(page, MIN_PX);
    expect(where, `${path}: ${(share * 100).toFixed(1)}% of the text is under ${MIN_PX} px`).toEqual([]);
    await look(page, { path: `test-results/screens/legible${path.replace(/\//g, '-')}-390.png`, fullPage: path !== '/docs/api' });
  });
}
