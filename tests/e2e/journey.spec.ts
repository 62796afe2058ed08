// The whole product path in a browser: the landing form → the worker inside `npm start` → the
// e-mail in the dev mailbox → its link → the online report with 9 competitors and 90+ data points.
import { CONSENT_TEXT } from '../../common/schemas/report-request-rules.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { expect, test } from './fixtures.ts';

test('a submitted form becomes an e-mail whose link shows the full report', async ({ page }) => {
  test.setTimeout(60_000);
  const company = `Journey Dental ${Date.now().toString(36)}`;
  const email = uniqueEmail('journey');
  await page.goto('/#report-form');
  const form = page.locator('#report-form form');
  await expect(form.getByRole('button', { name: 'Generate My Free Report' })).toBeEnabled();
  await page.getByLabel('Full Name').fill('Jordan Reyes');
  await page.getByLabel('Email Address').fill(email);
  await page.getByLabel('Company Name').fill(company);
  await page.getByLabel('Your Role').selectOption({ label: 'Business Owner' });
  await page.getByLabel('Business Website').fill('https://journeydental.example.com');
  await page.getByLabel('Business Address').fill('301 Congress Ave');
  await page.getByLabel('City').fill('Austin');
  await page.getByLabel('State').selectOption('TX');
  await page.getByLabel('ZIP Code').fill('78701');
  await page.getByLabel(CONSENT_TEXT).check();
  await form.getByRole('button', { name: 'Generate My Free Report' }).click();
  await expect(page.getByRole('heading', { name: 'Report Being Generated!' })).toBeVisible();

  const message = page.getByRole('link', { name: new RegExp(`Your LocalRank report \\(example figures, not your real listings\\): ${company} ranks #\\d+ of 10`) });
  await expect(async () => {
    await page.goto('/dev/mailbox');
    await expect(message).toBeVisible({ timeout: 500 });
  }).toPass({ timeout: 30_000 });
  await expect(message).toContainText(`To ${email}`);
  await message.click();
  await expect(page.getByRole('link', { name: /journey-dental-.*-localrank-report-example-figures\.pdf/ })).toBeVisible();
  const href = await page.frameLocator('iframe.frame').getByRole('link', { name: 'View your full report' }).getAttribute('href');

  await page.goto(href!);
  await expect(page.getByRole('heading', { level: 1, name: company })).toBeVisible();
  await expect(page.getByRole('region', { name: 'How you compare' }).locator('tbody tr')).toHaveCount(10);
  const points = Number(await page.locator('#points .count').textContent());
  expect(points).toBeGreaterThanOrEqual(90);
  await expect(page.locator('.recs > li')).toHaveCount(5);
});
