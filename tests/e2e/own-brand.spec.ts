// The dashboard marks the competitors that are other locations of the business's brand, ranks
// against independent competitors first, and the owner counts them with one checkbox: the ranks
// follow at once and the choice is stored (issue 46, decision 0235).
import { look } from './look.ts';
import { eq } from 'drizzle-orm';
import { businesses, competitors } from '../../db/schema/businesses.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { expect, test } from './fixtures.ts';

test('the dashboard marks your brand and counts it in the rank when the owner chooses', async ({ page, appCtx, signIn }, info) => {
  const owner = await signIn({ tier: 'pro' });
  const { business } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Bean & Leaf Coffee', snapshots: [{ daysAgo: 1 }] });
  const rows = await appCtx.db.select({ id: competitors.id }).from(competitors).where(eq(competitors.businessId, business.id));
  for (const row of rows.slice(0, 2)) await appCtx.db.update(competitors).set({ brand: 'name' }).where(eq(competitors.id, row.id));
  await page.goto('/dashboard');
  await expect(page.getByTestId('market-rank')).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('branches-note')).toContainText('2 of your competitors are other locations of your brand');
  await expect(page.getByTestId('market-rank')).toContainText(`of ${rows.length - 1}`);
  await expect(page.getByTestId('competitor-table').getByText('your brand', { exact: true })).toHaveCount(2);
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.getByTestId('branches-note').scrollIntoViewIfNeeded();
    await look(page, { path: info.outputPath(`own-brand-${width}.png`) });
  }
  // Controlled by the saved setting: it turns once the server has it.
  await page.getByTestId('rank-with-branches').click();
  await expect(page.getByText('Saved: your brand\'s locations count in your rank.')).toBeVisible();
  await expect(page.getByTestId('market-rank')).toContainText(`of ${rows.length + 1}`);
  const [stored] = await appCtx.db.select({ v: businesses.rankWithBranches }).from(businesses).where(eq(businesses.id, business.id));
  expect(stored?.v).toBe(true);
});
