// An agency from sign-up to its portfolio: the top bar's consultant links, two clients whose rows
// fill in by themselves, /dashboard as the portfolio (searched and sorted), a business opened from
// it with the switcher, and the way back; /clients keeps its labels at phone width.
import { look } from './look.ts';
import { eq } from 'drizzle-orm';
import { users } from '../../db/schema/auth.ts';
import { consultants } from '../../db/schema/consultants.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { addClient } from './clients.ts';
import { expect, test } from './fixtures.ts';

const PASSWORD = 'correct-horse-battery';

test('an agency signs up, adds two clients and works from its portfolio', async ({ page, appCtx }, info) => {
  // Ceilings for events (two reports made by the server's worker beside the other tests' reports),
  // not speeds: 45 s was too short for the reports on a busy 2-core machine.
  test.setTimeout(180_000);
  const email = uniqueEmail('e2e-agency');
  const stamp = Date.now().toString(36);
  await page.goto('/signup');
  await expect(page.getByRole('main').getByRole('button', { name: 'Create Account' })).toBeEnabled();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Company name').fill('Harbour Growth');
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByLabel('Confirm password').fill(PASSWORD);
  await page.getByLabel(/I am 18 or older/).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/account$/);
  // The Agency plan, as billing would set it after the checkout (subscribe.spec.ts walks that).
  const [user] = await appCtx.db.update(users).set({ subscriptionTier: 'agency', subscriptionStatus: 'active', emailVerified: true }).where(eq(users.email, email)).returning();
  await appCtx.db.update(consultants).set({ subscriptionTier: 'agency', subscriptionStatus: 'active' }).where(eq(consultants.userId, user!.id));

  // The consultant's top bar: Clients, Branding and Widget.
  const topNav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Clients', 'Branding', 'Widget']) await expect(topNav.getByRole('link', { name, exact: true })).toBeVisible();
  await topNav.getByRole('link', { name: 'Clients', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Your clients' })).toBeVisible();
  const first = { name: `Nora Quinn ${stamp}`, email: `nora-${stamp}@client.example`, company: `Quinn Dental ${stamp}`, zip: '78701' };
  const second = { name: `Sam Ortiz ${stamp}`, email: `sam-${stamp}@client.example`, company: `Ortiz Plumbing ${stamp}`, zip: '78704' };
  await addClient(page, first);
  await addClient(page, second);
  // No reload: each row's score appears when its first report is done.
  await expect(page.getByTestId('client-overall').filter({ hasText: /^\d+\.\d\d$/ })).toHaveCount(2, { timeout: 120_000 });

  // Phone width: every figure of a row keeps its label.
  await page.setViewportSize({ width: 390, height: 844 });
  const row = page.getByTestId('client-row').first();
  for (const label of ['Business', 'Overall', 'Rank', 'Change', 'Next report']) {
    const before = await row.locator(`td[data-label="${label}"]`).evaluate((td) => getComputedStyle(td, '::before').content);
    expect(before).toBe(`"${label}"`);
  }
  await look(page, { path: info.outputPath('clients-mobile.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // "View Dashboard" on /account opens the portfolio.
  await page.goto('/account');
  await page.getByRole('link', { name: /View Dashboard/ }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  const portfolio = page.getByTestId('portfolio');
  await expect(portfolio.getByRole('heading', { level: 1, name: 'Your businesses and clients' })).toBeVisible();
  const rows = page.getByTestId('portfolio-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText(first.name);
  await expect(rows.first().locator('td[data-label="Overall"]')).toHaveText(/^\d+\.\d\d$/);
  await expect(rows.first().locator('td[data-label="Rank"]')).toHaveText(/^#\d+ of \d+$/);
  await expect(rows.first().locator('td[data-label="Last report"]')).not.toHaveText('None yet');
  await expect(rows.first().locator('td[data-label="Alerts"]')).toHaveText(/^\d+$/);
  await look(page, { path: info.outputPath('portfolio.png'), fullPage: true });
  // The widest top bar (a consultant's seven links) still fits where the menu gives way to it.
  await page.setViewportSize({ width: 900, height: 800 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(900);
  await look(page, { path: info.outputPath('top-bar-900.png') });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Sorted by name descending, then searched.
  await portfolio.getByRole('button', { name: 'Business' }).click();
  await expect(portfolio.getByRole('columnheader', { name: /Business/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(rows.first()).toContainText(second.name);
  await portfolio.getByLabel('Search businesses').fill('quinn');
  await expect(rows).toHaveCount(1);

  // A row opens that business's dashboard, whose switcher offers the others and leads back.
  await rows.first().getByRole('link', { name: first.name }).click();
  await expect(page).toHaveURL(/\/dashboard\/[\w-]+$/);
  await expect(page.getByRole('heading', { level: 1, name: first.company })).toBeVisible();
  await expect(page.getByTestId('business-switcher').locator('option')).toHaveCount(2);
  await page.getByRole('link', { name: 'All businesses' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByTestId('portfolio-row')).toHaveCount(2);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByLabel('Sort by').selectOption({ label: 'Business, Z to A' });
  await expect(page.getByTestId('portfolio-row').first()).toContainText(second.name);
  await look(page, { path: info.outputPath('portfolio-mobile.png'), fullPage: true });
});
