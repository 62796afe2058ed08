// The dashboard does not jump when its data arrives (issue 40): a signed-in Pro owner with a report
// opens /dashboard at 1280 and 390 px while the API's answer is held back until the loading screen
// is on the page, so the data always lands on an already drawn page (as on a slow network). The
// layout shifts Chromium records (PerformanceObserver, 'layout-shift', none after input) add up to
// 0.05 or less. Before: the footer moved down by most of a screen (0.23 and 0.25).
import { look } from './look.ts';
import { layoutShifts, recordLayoutShifts } from './layout-shifts.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { expect, test } from './fixtures.ts';

// A first load is measured: nothing cached from another test.
test.use({ freshContext: true });

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`at ${viewport.width} px the dashboard's data arrives without moving the page (CLS ≤ 0.05)`, async ({ page, appCtx, signIn }, info) => {
    const owner = await signIn({ tier: 'pro' });
    await seedBusiness(appCtx, { userId: owner.userId, company: 'Lamar Smiles Dental', snapshots: [{ daysAgo: 30, seed: 1 }, { daysAgo: 7, seed: 2 }, { daysAgo: 1, seed: 3 }] });
    await page.setViewportSize(viewport);
    await recordLayoutShifts(page);
    // The dashboard's data waits until the test has seen the loading screen drawn.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/my-business', async (route) => {
      await released;
      await route.continue();
    });

    await page.goto('/dashboard');
    await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toBeAttached();
    // Two frames: the loading screen has been laid out and painted.
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await look(page, { path: info.outputPath(`dashboard-loading-${viewport.width}.png`) });
    release();
    await expect(page.getByTestId('competitor-table').locator('tbody tr')).toHaveCount(10);
    await expect(page.getByRole('status').filter({ hasText: 'Loading...' })).toHaveCount(0);
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));

    await look(page, { path: info.outputPath(`dashboard-loaded-${viewport.width}.png`) });
    const { shifts, cls } = await layoutShifts(page);
    info.annotations.push({ type: 'cls', description: `${cls.toFixed(4)} at ${viewport.width} px: ${JSON.stringify(shifts)}` });
    expect(cls, `layout shifts: ${JSON.stringify(shifts)}`).toBeLessThanOrEqual(0.05);
  });
}
