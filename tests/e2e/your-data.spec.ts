// Your data in the browser, through the e-mails the server writes to its outbox: request an export
// and download it from the e-mail's link; delete the account, sign-in refused, restore from the
// e-mail's link; a free report's "Delete my data" link, once; the privacy policy's link to the
// table of every kind of data.
import { look } from './look.ts';
import { readFileSync } from 'node:fs';
import { axe } from './axe.ts';
import { strFromU8, unzipSync } from 'fflate';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { expect, test } from './fixtures.ts';
import { linkFor } from './outbox.ts';
import { seedReport } from './report-seed.ts';

// A test here waits for an e-mail the server's worker sends (outbox.ts: up to 45 s on a busy machine).
test.describe.configure({ timeout: 90_000 });

test('export: requested on /account, downloaded from the e-mailed link', async ({ page, signIn, appCtx }, testInfo) => {
  const user = await signIn();
  await seedBusiness(appCtx, { userId: user.userId, company: 'Bluebell Yoga Studio', snapshots: [{ daysAgo: 7 }, { daysAgo: 1 }] });
  await page.setViewportSize({ width: 1280, height: 1200 });
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Your data' });
  await section.scrollIntoViewIfNeeded();
  await section.getByRole('button', { name: 'Request Data Export' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Export requested' })).toBeVisible();
  await expect(section.getByTestId('export-status')).toContainText('You can request the next one after');
  await expect(section.getByRole('button', { name: 'Request Data Export' })).toBeDisabled();
  await look(section, { path: testInfo.outputPath('your-data.png') });
  expect((await axe(page).include('#your-data').analyze()).violations).toEqual([]);

  const link = await linkFor(user.email, '/api/data-exports/download');
  const [download] = await Promise.all([page.waitForEvent('download'), page.goto(link.pathname + link.search).catch(() => undefined)]);
  expect(download.suggestedFilename()).toMatch(/^localrank-data-\d{4}-\d{2}-\d{2}\.zip$/);
  const zip = unzipSync(new Uint8Array(readFileSync((await download.path())!)));
  expect(strFromU8(zip['README.txt']!)).toContain(`Account: ${user.email}`);
  expect(JSON.parse(strFromU8(zip['businesses.json']!))[0].company).toBe('Bluebell Yoga Studio');
  expect(JSON.parse(strFromU8(zip['metrics.json']!)).length).toBeGreaterThanOrEqual(2);
});

test('delete my account: closed at once, sign-in refused, restored from the e-mailed link', async ({ page, signIn }, testInfo) => {
  const user = await signIn();
  await page.setViewportSize({ width: 1280, height: 1200 });
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'Your data' });
  await section.getByRole('button', { name: 'Delete My Account...' }).click();
  await section.getByLabel('Your password').fill('not-my-password');
  await section.getByLabel('Type your e-mail address to confirm').fill(user.email);
  await section.getByRole('button', { name: 'Delete My Account', exact: true }).click();
  await expect(section.getByText('The password is not correct')).toBeVisible();
  await look(section, { path: testInfo.outputPath('delete-form.png') });
  await section.getByLabel('Your password').fill(user.password);
  await section.getByRole('button', { name: 'Delete My Account', exact: true }).click();
  await expect(section.getByTestId('account-closed')).toContainText('Your account is closed');

  await page.context().clearCookies();
  await page.goto('/login');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page.getByText('This account is closed')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  const link = await linkFor(user.email, '/restore-account');
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: 'Your account is closed' })).toBeVisible();
  await look(page, { path: testInfo.outputPath('restore.png') });
  await page.getByRole('button', { name: 'Restore My Account' }).click();
  await expect(page.getByRole('heading', { name: 'Your account is restored' })).toBeVisible();
  await page.getByRole('main').getByRole('link', { name: 'Sign In' }).click();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/account$/);
});

test("a free report's Delete my data link erases after one click, and only once", async ({ page, appCtx, baseURL }, testInfo) => {
  const { request } = await seedReport(appCtx, baseURL!, { company: 'Saffron Tailors' });
  const link = await linkFor(request.email, '/delete-data');
  await page.goto(link.pathname + link.search);
  await expect(page.getByRole('heading', { name: 'Delete your data?' })).toBeVisible();
  await expect(page.getByRole('main')).toContainText('Saffron Tailors');
  await look(page, { path: testInfo.outputPath('delete-data.png') });
  await page.getByRole('button', { name: 'Delete my data' }).click();
  await expect(page.getByRole('heading', { name: 'Your data is deleted' })).toBeVisible();
  const again = await page.goto(link.pathname + link.search);
  expect(again?.status()).toBe(410);
  await expect(page.getByRole('heading', { name: 'This data is already deleted' })).toBeVisible();
  const forged = await page.goto(`${link.pathname}?token=${link.searchParams.get('token')!.slice(0, -4)}AAAA`);
  expect(forged?.status()).toBe(404);
});

test('the privacy policy links to how each kind of data is exported, erased and kept', async ({ page }, testInfo) => {
  await page.goto('/privacy');
  await page.getByRole('link', { name: 'How we export, erase and keep each kind of data' }).click();
  await expect(page).toHaveURL(/\/privacy\/data$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your data at LocalRank: what we keep, how you get it, how it is erased');
  await expect(page.getByRole('cell', { name: 'consent_records' })).toBeVisible();
  await look(page, { path: testInfo.outputPath('privacy-data.png'), fullPage: true });
});
