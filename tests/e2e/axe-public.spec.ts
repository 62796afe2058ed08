// axe on the public reference pages and the sign-in forms (issue 40), signed out, at 1280, 390 and
// 320 px: on a phone the methodology's wide tables and the landing page's sample table scroll
// inside the page, and a box that scrolls must be reachable from the keyboard and named
// (scrollable-region-focusable; the landing page's was not, issue 47). The forms are checked as
// they load (server-rendered HTML) and once hydrated.
import { axe } from './axe.ts';
import { expect, test } from './fixtures.ts';

const PAGES = ['/', '/methodology', '/privacy/data', '/docs/api', '/login', '/signup', '/forgot-password'];
const FORMS = new Set(['/login', '/signup', '/forgot-password']);

// One test per page and width: axe on /docs/api alone takes a while on a busy machine.
for (const width of [1280, 390, 320]) {
  for (const path of PAGES) {
    test(`${path} is axe clean at ${width} px`, async ({ page }) => {
      test.setTimeout(120_000);
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      const found: string[] = [];
      const check = async (state: string) => {
        const results = await axe(page).analyze();
        for (const v of results.violations) found.push(`${state} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
      };
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await check(path);
      if (FORMS.has(path)) {
        await page.getByLabel('Email').click();
        await expect(page.locator('astro-island[ssr] form.auth-form')).toHaveCount(0);
        await check(`${path} (hydrated)`);
      }
      expect(found).toEqual([]);
    });
  }
}
