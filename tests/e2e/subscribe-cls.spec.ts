// /subscribe?plan=pro does not jump while it loads (issue 47: its footer moved, CLS 0.19): a signed
// in owner opens it at 1280 and 390 px, the session check held back until the loading screen is
// drawn (as on a slow network), then the plan and the payment form arrive. The layout shifts
// Chromium records (PerformanceObserver, 'layout-shift', none after input) add up to 0.05 or less.
import { look } from './look.ts';
import { layoutShifts, recordLayoutShifts } from './layout-shifts.ts';
import { expect, test } from './fixtures.ts';

// A first load is measured: nothing cached from another test.
test.use({ freshContext: true });
import { routeStripe } from './stripe-route.ts';

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`at ${viewport.width} px /subscribe?plan=pro loads without moving its footer (CLS ≤ 0.05)`, async ({ page, signIn }) => {
    test.setTimeout(90_000);
    await signIn({ tier: 'free' });
    await routeStripe(page);
    await page.setViewportSize(viewport);
    await recordLayoutShifts(page);
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/me', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto('/subscribe?plan=pro&interval=monthly');
    await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toBeAttached();
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    release();
    await expect(page.frameLocator('iframe[title="Secure payment input frame"]').getByLabel('Card number')).toBeVisible({ timeout: 30_000 });
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await look(page, { path: `test-results/screens/subscribe-loaded-${viewport.width}.png` });
    const { shifts, cls } = await layoutShifts(page);
    expect(cls, `layout shifts: ${JSON.stringify(shifts)}`).toBeLessThanOrEqual(0.05);
  });
}
