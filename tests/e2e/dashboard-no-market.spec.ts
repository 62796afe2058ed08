// The dashboard of a business with no competitor within the radius (issue 38, decision 0216): no
// market rank, no rank per score, Market Share "No market", and what was found.
import { look } from './look.ts';
import { mkdirSync } from 'node:fs';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { expect, test } from './fixtures.ts';

test('a business alone in its market: no rank, Market Share "No market", said on the dashboard', async ({ page, appCtx, signIn }) => {
  const owner = await signIn({ tier: 'pro' });
  await seedBusiness(appCtx, { userId: owner.userId, company: 'Prairie Creek Dental', snapshots: [{ daysAgo: 1, competitors: 0, scores: { marketShare: null, marketSharePercent: null, overall: 6.2 } }] });
  mkdirSync('test-results/screens', { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: 'Prairie Creek Dental' })).toBeVisible();
    await look(page, { path: `test-results/screens/dashboard-no-market-${width}.png` });
  }
  await expect(page.getByTestId('market-rank')).toHaveText('No market');
  await expect(page.getByTestId('market-rank-note')).toHaveText('No competitor was found within 20 miles: no rank and no share of the market. Your scores below are your own findings.');
  await expect(page.getByTestId('metric-marketShare')).toContainText('No market');
  await expect(page.locator('main')).not.toContainText(/#1 of 1|Rank #\d/);
});
