import { expect, test } from './fixtures.ts';

test('an unknown path shows the not-found screen with status 404', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  await expect(page.getByText('Did you forget to add the page to the router?')).toBeVisible();
  await expect(page.locator('svg.not-found-icon')).toBeVisible(); // the warning icon
});
