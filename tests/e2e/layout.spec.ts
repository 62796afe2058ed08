// Phones: no public page scrolls sideways, from the 320px of the smallest phones up.
import { expect, test } from './fixtures.ts';

const PAGES = ['/', '/faq', '/help-center', '/contact', '/privacy', '/terms', '/login', '/signup', '/no-such-page'];

for (const width of [320, 375]) {
  test(`no page is wider than a ${width}px screen`, async ({ page }) => {
    await page.setViewportSize({ width, height: 740 });
    for (const path of PAGES) {
      await page.goto(path);
      const overflow = await page.evaluate(() => {
        const width = document.documentElement.clientWidth;
        const wide = [...document.querySelectorAll('body *')].filter((el) => el.getBoundingClientRect().right > width + 1);
        return wide.slice(0, 3).map((el) => `${el.tagName.toLowerCase()}${el.className ? `.${String(el.className).split(' ').join('.')}` : ''}`);
      });
      expect(overflow, `${path} at ${width}px`).toEqual([]);
    }
  });
}
