// The account dashboard per role and tier, the protected-page wrapper, the top bar's session
// links, logout and the session hint.
import { look } from './look.ts';
import { expect, test } from './fixtures.ts';

test.describe('account rules per role and tier', () => {
  test('free consultant: badge, active subscription, Manage Clients disabled, no Branding, Billing to pro', async ({ page, signIn }) => {
    const user = await signIn({ role: 'consultant', companyName: 'Hill Country Marketing' });
    await page.goto('/account');
    await expect(page.locator('.acct-email')).toHaveText(user.email);
    await expect(page.locator('.acct-profile .badge')).toHaveText('Consultant');
    const sub = page.locator('.acct-sub');
    await expect(sub).toContainText('Free plan');
    await expect(sub).toContainText('Hill Country Marketing');
    await expect(sub.locator('.acct-status.is-active .acct-icon-check')).toBeVisible();
    await expect(page.getByRole('button', { name: /Manage Clients/ })).toBeDisabled();
    await expect(page.getByText('Branding Settings')).toHaveCount(0);
    await expect(page.getByRole('link', { name: /Billing Settings/ })).toHaveAttribute('href', '/subscribe?plan=pro');
  });

  test('agency consultant: Manage Clients and Branding Settings open their screens, Billing to agency', async ({ page, signIn }) => {
    await signIn({ role: 'consultant', tier: 'agency' });
    await page.goto('/account');
    await expect(page.getByRole('link', { name: /Branding Settings/ })).toHaveAttribute('href', '/branding');
    await expect(page.getByRole('link', { name: /Manage Clients/ })).toHaveAttribute('href', '/clients');
    await expect(page.getByRole('link', { name: /Billing Settings/ })).toHaveAttribute('href', '/subscribe?plan=agency');
    await expect(page.locator('.acct-sub')).toContainText('Agency plan');
    await look(page, { path: 'test-results/screens/account-agency-desktop.png', fullPage: true });
  });

  test('a status other than active shows the warning icon', async ({ page, signIn }) => {
    await signIn({ role: 'consultant', tier: 'enterprise', status: 'past_due' });
    await page.goto('/account');
    const status = page.locator('.acct-status');
    await expect(status).toHaveClass(/is-warning/);
    await expect(status.locator('.acct-icon-warning')).toBeVisible();
    await expect(status).toContainText('Past due');
    await look(page, { path: 'test-results/screens/account-past-due-desktop.png' });
    await expect(page.getByRole('link', { name: /Billing Settings/ })).toHaveAttribute('href', '/subscribe?plan=enterprise');
  });

  test('client: no badge, no subscription card, no Manage Clients; Billing to their own tier', async ({ page, signIn }) => {
    await signIn({ role: 'client', tier: 'pro' });
    await page.goto('/account');
    await expect(page.locator('.acct-email')).toBeVisible();
    await expect(page.locator('.acct-profile .badge')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Subscription' })).toHaveCount(0);
    await expect(page.getByText('Manage Clients')).toHaveCount(0);
    await expect(page.getByRole('link', { name: /Billing Settings/ })).toHaveAttribute('href', '/subscribe?plan=pro');
    await expect(page.getByRole('link', { name: /View Dashboard/ })).toHaveAttribute('href', '/dashboard');
  });
});

test('an operator set-plan to agency shows up on the next visit (new tab: no cached check)', async ({ page, signIn, appCtx }) => {
  const { setPlan } = await import('../../api/services/plans/plans.ts');
  const user = await signIn({ role: 'consultant' });
  await page.goto('/account');
  await expect(page.locator('.acct-sub')).toContainText('Free plan');
  await expect(page.getByText('Branding Settings')).toHaveCount(0);
  await setPlan(appCtx, { email: user.email, tier: 'agency', status: 'active' });
  const next = await page.context().newPage();
  await next.goto('/account');
  await expect(next.locator('.acct-sub')).toContainText('Agency plan');
  await expect(next.getByRole('link', { name: /Branding Settings/ })).toHaveAttribute('href', '/branding');
  await expect(next.getByRole('link', { name: /Billing Settings/ })).toHaveAttribute('href', '/subscribe?plan=agency');
});

test.describe('protected pages', () => {
  test('signed out, /account goes to /login and back after signing in', async ({ page, appCtx }) => {
    const { createUser } = await import('../helpers/factories.ts');
    const user = await createUser(appCtx);
    await page.goto('/account');
    await expect(page).toHaveURL(/\/login\?redirect=%2Faccount$/);
    await expect(page.getByRole('main').getByRole('button', { name: 'Sign In' })).toBeEnabled();
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.locator('.acct-email')).toHaveText(user.email);
  });

  test('while the session check runs, a centred spinner says Loading...', async ({ page, signIn }) => {
    await signIn();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/auth/me', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/account');
    const loading = page.locator('main .page-loading');
    await expect(loading).toContainText('Loading...');
    await expect(loading.locator('.spinner')).toBeVisible();
    const box = (await loading.boundingBox())!;
    const viewport = page.viewportSize()!;
    expect(Math.abs(box.x + box.width / 2 - viewport.width / 2)).toBeLessThan(2);
    release();
    await expect(page.locator('.acct-email')).toBeVisible();
    await expect(loading).toHaveCount(0);
  });

  test('a stale hint (no session) costs one check, then the visitor is signed out', async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: 'localrank_session', value: '1', url: baseURL! }]);
    await page.goto('/account');
    await expect(page).toHaveURL(/\/login\?redirect=%2Faccount$/);
    expect((await page.context().cookies()).find((c) => c.name === 'localrank_session')).toBeUndefined();
  });
});

test('with the session check cached, every island hydrates without a React error', async ({ page, signIn }) => {
  // The top bar and the page's island share the session store: the first to hydrate answers the
  // check from the 5-minute cache at once; the other must still match its pre-rendered HTML.
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  const user = await signIn({ role: 'consultant' });
  await page.goto('/account');
  await expect(page.locator('.acct-email')).toHaveText(user.email);
  for (const path of ['/account', '/login', '/signup']) {
    await page.goto(path);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Account' })).toBeVisible();
    if (path === '/account') await expect(page.locator('.acct-email')).toHaveText(user.email);
    else await expect(page.locator('.auth-notice')).toContainText(user.email);
  }
  await page.waitForLoadState('networkidle');
  expect(errors).toEqual([]);
});

test.describe('top bar session links and logout', () => {
  test('visitors without the hint see Sign In / Sign Up and no session check is made', async ({ page }) => {
    const checks: string[] = [];
    page.on('request', (r) => r.url().includes('/api/auth/me') && checks.push(r.url()));
    await page.goto('/');
    const bar = page.getByRole('banner');
    await expect(bar.getByRole('link', { name: 'Sign In' })).toHaveAttribute('href', '/login');
    await expect(bar.getByRole('link', { name: 'Sign Up' })).toHaveAttribute('href', '/signup');
    await page.goto('/login');
    await expect(page.getByRole('main').getByRole('button', { name: 'Sign In' })).toBeEnabled();
    await expect(page.getByRole('heading', { name: 'Welcome back' })).toBeVisible();
    expect(checks).toEqual([]);
  });

  test('logout clears the session, every cached item and the hint, then goes home', async ({ page, signIn }) => {
    await signIn({ role: 'consultant' });
    await page.goto('/account');
    await expect(page.locator('.acct-email')).toBeVisible();
    await page.evaluate(() => {
      sessionStorage.setItem('localrank.selectedPlan', 'pro');
      localStorage.setItem('localrank.cache', 'x');
      localStorage.setItem('other-site-key', 'kept');
    });
    const bar = page.getByRole('banner');
    await expect(bar.getByRole('link', { name: 'Account' })).toBeVisible();
    await bar.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(bar.getByRole('link', { name: 'Sign In' })).toBeVisible();
    const left = await page.evaluate(() => [...Object.keys(sessionStorage), ...Object.keys(localStorage)].filter((k) => k.startsWith('localrank.')));
    expect(left).toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('other-site-key'))).toBe('kept');
    expect((await page.context().cookies()).map((c) => c.name).filter((n) => n.startsWith('localrank'))).toEqual([]);
    await page.goto('/account');
    await expect(page).toHaveURL(/\/login\?redirect=%2Faccount$/);
  });

  test("a failed logout says 'Logout failed' and keeps the session", async ({ page, signIn }) => {
    await signIn();
    await page.route('**/api/auth/logout', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/account');
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'Logout failed' });
    await expect(toast).toContainText('There was an error logging out. Please try again.');
    await expect(toast).toHaveClass(/toast-destructive/);
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('banner').getByRole('link', { name: 'Account' })).toBeVisible();
  });

  test('toast area: max 420px wide from md up; swiping right 50px closes a toast, less does not', async ({ page, signIn }) => {
    await signIn();
    await page.route('**/api/auth/logout', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/account');
    const logout = page.getByRole('banner').getByRole('button', { name: 'Logout' });
    await logout.click();
    const toast = page.getByRole('status').filter({ hasText: 'Logout failed' });
    await expect(toast).toBeVisible();
    expect((await page.getByRole('region', { name: 'Notifications (F8)' }).boundingBox())!.width).toBeLessThanOrEqual(420);
    const swipe = async (dx: number) => {
      const box = (await toast.boundingBox())!;
      await page.mouse.move(box.x + 40, box.y + box.height / 2);
      await page.mouse.down();
      await page.mouse.move(box.x + 40 + dx, box.y + box.height / 2, { steps: 5 });
      await page.mouse.up();
    };
    await swipe(30);
    await expect(toast).toBeVisible();
    await swipe(60);
    await expect(toast).toBeHidden();
  });

  test('F8 focuses the toast region; a toast can be closed', async ({ page, signIn }) => {
    await signIn();
    await page.route('**/api/auth/logout', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/account');
    await page.getByRole('banner').getByRole('button', { name: 'Logout' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Logout failed' })).toBeVisible();
    await page.keyboard.press('F8');
    await expect(page.getByRole('region', { name: 'Notifications (F8)' })).toBeFocused();
    await page.getByRole('button', { name: 'Close' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Logout failed' })).toBeHidden();
  });
});

test.describe('mobile (390px)', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  for (const path of ['/login', '/signup', '/']) {
    test(`${path}: the logo keeps its size and nothing overflows`, async ({ page }) => {
      await page.goto(path);
      const logo = page.locator('.logo svg');
      await expect(logo).toBeVisible();
      expect((await logo.boundingBox())!.width).toBeGreaterThanOrEqual(27);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
      await look(page, { path: `test-results/screens/${path.slice(1) || 'home'}-mobile.png`, fullPage: path !== '/' });
    });
  }

  test('/account signed in: the logo keeps its size and nothing overflows', async ({ page, signIn }) => {
    await signIn({ role: 'consultant', tier: 'agency' });
    await page.goto('/account');
    await expect(page.locator('.acct-email')).toBeVisible();
    expect((await page.locator('.logo svg').boundingBox())!.width).toBeGreaterThanOrEqual(27);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await look(page, { path: 'test-results/screens/account-mobile.png', fullPage: true });
  });
});
