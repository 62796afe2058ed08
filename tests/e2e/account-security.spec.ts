// Account security in the browser, through the e-mails the server writes to its outbox: forgot
// password, e-mail change, the Security section; the signed-in top bar; axe with a toast showing.
import { look } from './look.ts';
import { axe } from './axe.ts';
import { createUser, uniqueEmail } from '../helpers/factories.ts';
import { expect, test } from './fixtures.ts';
import { linkFor } from './outbox.ts';

// A test here waits for an e-mail the server's worker sends (outbox.ts: up to 45 s on a busy machine).
test.describe.configure({ timeout: 90_000 });

test('forgot password: the e-mailed link sets a new password once, then sign-in works with it', async ({ page, appCtx }) => {
  const user = await createUser(appCtx);
  await page.goto('/login');
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.getByTestId('forgot-sent')).toContainText('If an account uses this e-mail address');

  const link = await linkFor(user.email, '/reset-password');
  await page.goto(link.pathname + link.search);
  await page.getByLabel('New password', { exact: true }).fill('brand-new-secret');
  await page.getByLabel('Confirm new password').fill('brand-new-secret');
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status').filter({ hasText: 'Password changed' })).toBeVisible();
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill('brand-new-secret');
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/account$/);

  // The link was spent.
  await page.goto(link.pathname + link.search);
  await page.getByLabel('New password', { exact: true }).fill('another-secret-1');
  await page.getByLabel('Confirm new password').fill('another-secret-1');
  await page.getByRole('button', { name: 'Set New Password' }).click();
  await expect(page.getByRole('alert')).toHaveText('This link has expired or was already used. Ask for a new one.');
});

test('Security: e-mail change confirmed by the link sent to the new address; sessions listed', async ({ page, signIn }) => {
  const user = await signIn({ emailVerified: false });
  await page.setViewportSize({ width: 1280, height: 1400 });
  await page.goto('/account');
  const security = page.getByRole('region', { name: 'Security' });
  await expect(security.getByTestId('email-status')).toContainText('Not confirmed');
  await expect(security.getByTestId('email-status')).toContainText('Monthly reports and Early Warning alert e-mails wait');
  await expect(security.getByRole('list', { name: 'Active sessions' }).getByRole('listitem')).toHaveCount(1);
  await expect(security.getByText('This device')).toBeVisible();
  await expect(security.getByRole('button', { name: 'Sign Out Other Sessions' })).toBeDisabled();
  await security.scrollIntoViewIfNeeded();
  await look(page, { path: 'test-results/account-security.png', fullPage: true });

  const newEmail = uniqueEmail('moved');
  await security.getByLabel('New e-mail address').fill(newEmail);
  await security.getByRole('button', { name: 'Send Confirmation Link' }).click();
  await expect(security.getByText('We have sent a link to the new address.')).toBeVisible();

  const link = await linkFor(newEmail, '/verify-email');
  await page.goto(link.pathname + link.search);
  await page.getByRole('button', { name: 'Confirm E-mail Address' }).click();
  await expect(page.getByTestId('verified-email')).toContainText(newEmail);
  await page.goto('/account');
  await expect(security.getByTestId('email-status')).toContainText(newEmail);
  await expect(security.getByTestId('email-status')).toContainText('Confirmed');
  expect(user.email).not.toBe(newEmail);
});

test('Security: a wrong current password is marked on its field', async ({ page, signIn }) => {
  await signIn();
  await page.goto('/account');
  const security = page.getByRole('region', { name: 'Security' });
  await security.getByLabel('Current password').fill('not-the-password');
  await security.getByLabel('New password', { exact: true }).fill('another-secret-1');
  await security.getByLabel('Confirm new password').fill('another-secret-1');
  await security.getByRole('button', { name: 'Change Password' }).click();
  await expect(security.getByLabel('Current password')).toHaveAttribute('aria-invalid', 'true');
  await expect(security.getByText('The current password is not correct')).toBeVisible();
});

test('signed-in top bar: Account, Logout, and Dashboard goes to /dashboard', async ({ page, signIn }) => {
  await signIn();
  await page.goto('/faq');
  const bar = page.getByRole('banner');
  await expect(bar.getByRole('link', { name: 'Account' })).toBeVisible();
  await expect(bar.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(bar.getByRole('link', { name: 'Sign In' })).toBeHidden();
  await expect(bar.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard');
  await look(page, { path: 'test-results/top-bar-signed-in.png', clip: { x: 0, y: 0, width: 1280, height: 80 } });
});

test.describe(() => {
  // Which scripts a first visit fetches: a context of its own, no warm cache.
  test.use({ freshContext: true });

  test('signed-out marketing pages load no React; a toast page is axe-clean with the toast showing', async ({ page, signIn }) => {
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto('/faq');
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((u) => /react/.test(u))).toEqual([]);

    await signIn();
    await page.route('**/api/auth/logout', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/faq');
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Logout failed' })).toBeVisible();
    const results = await axe(page).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  });
});
