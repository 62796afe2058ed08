// /subscribe?plan=…: the steps that need no payment provider (spec section 2).
import { expect, test } from './fixtures.ts';

test('no valid plan goes home', async ({ page }) => {
  await page.goto('/subscribe?plan=platinum');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await page.goto('/subscribe');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
});

test('agency goes home (after opening the sales e-mail draft)', async ({ page }) => {
  await page.goto('/subscribe?plan=agency');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
});

test('signed out: the plan is remembered and login continues to it', async ({ page, appCtx }) => {
  const { createUser } = await import('../helpers/factories.ts');
  const user = await createUser(appCtx);
  await page.goto('/subscribe?plan=enterprise');
  await expect(page).toHaveURL(/\/login\?redirect=subscribe$/);
  await expect(page.getByRole('main').getByRole('button', { name: 'Sign In' })).toBeEnabled();
  expect(await page.evaluate(() => sessionStorage.getItem('localrank.selectedPlan'))).toBe('enterprise');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/subscribe\?plan=enterprise$/);
  await expect(page.getByRole('heading', { name: 'Enterprise' })).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('localrank.selectedPlan'))).toBeNull();
});

test('signed in: plan summary and an honest "Billing is not available yet", no payment form', async ({ page, signIn }) => {
  const user = await signIn({ role: 'consultant' });
  await page.goto('/subscribe?plan=pro');
  await expect(page.getByRole('heading', { name: 'Pro' })).toBeVisible();
  await expect(page.locator('.sub-price')).toHaveText('$49/month');
  await expect(page.locator('.sub-annual')).toContainText('$39/month billed annually (save 20%)');
  await expect(page.getByRole('heading', { name: 'Billing is not available yet' })).toBeVisible();
  const sales = page.getByRole('link', { name: 'Contact Sales' });
  await expect(sales).toHaveAttribute('href', /^mailto:sales@localrank\.app\?subject=LocalRank%20Pro%20plan&body=.*/);
  expect(decodeURIComponent((await sales.getAttribute('href'))!)).toContain(user.email);
  await expect(page.getByRole('link', { name: 'Contact form' })).toHaveAttribute('href', '/contact');
  await expect(page.locator('input, iframe')).toHaveCount(0);
  await page.screenshot({ path: 'test-results/screens/subscribe-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: 'test-results/screens/subscribe-mobile.png', fullPage: true });
});

test('a user already on the plan is told so', async ({ page, signIn }) => {
  await signIn({ role: 'client', tier: 'enterprise' });
  await page.goto('/subscribe?plan=enterprise');
  await expect(page.getByText('Your account is on the Enterprise plan.')).toBeVisible();
});
