// Text a phone can read (issue 40): on a 390 px screen no visible text on these pages is set under
// 12 px (Lighthouse's legible font sizes counts text under 12 px; /docs/api had 69% of its text
// there, its code samples at 11.4 px). Every text node with letters or digits that is rendered
// (not display:none, visibility:hidden or clipped away as .sr-only text) is measured at its own
// computed font size, scrolled-away parts of code boxes included. Issue 47 adds the landing page
// (its "You" mark), /forgot-password, the online report (its "You" marks), and signed in the
// dashboard's visibility grid and SoLV trend and the top bar's Upgrade marks (at 1280 px, where
// the bar shows them to a free owner).
import { look } from './look.ts';
import type { Page } from '@playwright/test';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { SearchLedger } from '../../api/report/analysis/visibility.ts';
import { persistReport } from '../../api/report/persist.ts';
import { reportInput } from '../../api/report/model/types.ts';
import { createReportRequest } from '../helpers/report-requests.ts';
import { expect, test } from './fixtures.ts';
import { seedReport } from './report-seed.ts';

const MIN_PX = 12;
const PAGES = ['/', '/docs/api', '/methodology', '/privacy/data', '/login', '/signup', '/forgot-password'];

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
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    const { share, where } = await smallText(page, MIN_PX);
    expect(where, `${path}: ${(share * 100).toFixed(1)}% of the text is under ${MIN_PX} px`).toEqual([]);
    await look(page, { path: `test-results/screens/legible${path.replace(/\//g, '-')}-390.png`, fullPage: path !== '/docs/api' });
  });
}

test('the online report at 390 px: no visible text under 12 px', async ({ page, appCtx, baseURL }) => {
  test.setTimeout(120_000);
  const { token } = await seedReport(appCtx, baseURL!, { company: 'Lakeline Dental', analysed: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/report/${token}`);
  await expect(page.getByTestId('visibility')).toBeVisible({ timeout: 30_000 });
  await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
  const { share, where } = await smallText(page, MIN_PX);
  expect(where, `the report: ${(share * 100).toFixed(1)}% of the text is under ${MIN_PX} px`).toEqual([]);
});

test('the dashboard\'s visibility grid and SoLV trend: no visible text under 12 px', async ({ page, appCtx, signIn }) => {
  test.setTimeout(120_000);
  const owner = await signIn({ tier: 'pro' });
  const { business } = await createReportRequest(appCtx, { userId: owner.userId, company: 'Barton Grid Dental', enqueue: false });
  const scan = await analyseBusiness(appCtx, reportInput(business), { ledger: new SearchLedger() });
  const weekAgo = structuredClone(scan);
  weekAgo.business.dataPoints.find((p) => p.key === 'visibility.solv')!.value = 0;
  await persistReport(appCtx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: weekAgo });
  // The second analysis is the newer one: its time is later than the first's.
  const first = Date.now();
  await expect.poll(() => Date.now()).toBeGreaterThan(first);
  await persistReport(appCtx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: scan });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/dashboard/${business.id}`);
    const card = page.getByTestId('visibility-card');
    await expect(card.getByRole('img', { name: /^Your rank for/ }).first()).toBeVisible({ timeout: 30_000 });
    await expect(card.getByRole('img', { name: /^Share of Local Voice at each analysis/ })).toBeVisible();
    const { share, where } = await smallText(page, MIN_PX);
    expect(where, `the dashboard at ${width} px: ${(share * 100).toFixed(1)}% of the text is under ${MIN_PX} px`).toEqual([]);
    await look(card, { path: `test-results/screens/legible-visibility-card-${width}.png` });
  }
});

test('the top bar\'s Upgrade marks at 1280 px: no visible text under 12 px', async ({ page, signIn }) => {
  // A free owner: the dashboard and Early Warning are marked Upgrade.
  await signIn({ tier: 'free' });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/account');
  await expect(page.getByRole('navigation', { name: 'Main' }).locator('.nav-upgrade').first()).toBeVisible({ timeout: 30_000 });
  const { share, where } = await smallText(page, MIN_PX);
  expect(where, `/account at 1280 px: ${(share * 100).toFixed(1)}% of the text is under ${MIN_PX} px`).toEqual([]);
});
