// The reference pages on a phone (issue 47), measured in the browser with tests/e2e/text-layout.ts:
// at 320 and 390 px no word of /privacy/data or /docs/api is broken across two lines (a scope
// such as "reports:read" stays whole), no text prints over other text, no box clips what it holds,
// and the page does not scroll sideways. /privacy/data's tables were 493-729 px wide in a 280 px
// box: on a phone each row is a card of its own, so no table is wider than the page's column.
import { look } from './look.ts';
import { expect, test } from './fixtures.ts';
import { textLayout } from './text-layout.ts';

for (const width of [320, 390]) {
  for (const path of ['/privacy/data', '/docs/api']) {
    test(`${path} at ${width} px: words whole, nothing overprinted or clipped`, async ({ page }) => {
      await page.setViewportSize({ width, height: 844 });
      await page.goto(path);
      await page.evaluate(() => document.fonts.ready);
      const found = await textLayout(page);
      expect.soft(found.brokenWords, 'words broken across lines').toEqual([]);
      expect.soft(found.overlaps, 'text printed over text').toEqual([]);
      expect.soft(found.clipped, 'boxes that clip their text').toEqual([]);
      expect.soft(found.unnamedScrollers, 'scrolling boxes without a name or keyboard focus').toEqual([]);
      expect(found.pageOverflow, 'the page scrolls sideways').toBe(0);
    });
  }

  test(`/privacy/data at ${width} px: every table row reads as a card within the page's column`, async ({ page }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width, height: 844 });
    await page.goto('/privacy/data');
    const wide = await page.locator('.table-scroll').evaluateAll((boxes) =>
      boxes.filter((box) => box.scrollWidth > box.clientWidth + 1).map((box) => `${box.getAttribute('aria-label')}: ${box.scrollWidth} px in ${box.clientWidth}`),
    );
    expect(wide, 'tables wider than their box').toEqual([]);
    // Each value is shown after its column's name.
    const firstCell = page.locator('.table-scroll tbody tr').first().locator('td').first();
    expect(await firstCell.evaluate((td) => getComputedStyle(td, '::before').content)).toBe('"who"');
    await look(page, { path: `test-results/screens/privacy-data-${width}.png`, fullPage: true });
  });
}
