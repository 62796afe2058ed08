// The login and sign-up screens, through the forms themselves: validations and messages of spec
// section 5, the redirect/plan rules of section 2, the toasts and failure texts of section 8.
import { look } from './look.ts';
import { createUser, uniqueEmail } from '../helpers/factories.ts';
import { expect, test } from './fixtures.ts';

const PASSWORD = 'correct-horse-battery';

test.describe('sign-up', () => {
  test('shows every validation message and keeps the form', async ({ page }) => {
    await page.goto('/signup');
    await expect(page.getByRole('main').getByRole('button', { name: 'Create Account' })).toBeEnabled();
    await expect(page.getByLabel('Consultant / Agency')).toBeChecked();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.locator('#auth-email-error')).toHaveText('Required');
    await expect(page.locator('#auth-password-error')).toHaveText('Password must be at least 8 characters long');
    await expect(page.locator('#auth-companyName-error')).toHaveText('Company name is required for consultants');
    await expect(page.locator('#auth-acceptTerms-error')).toHaveText('You must be 18 or older and accept the Terms of Service');
    await expect(page.getByLabel('Email')).toBeFocused();

    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password', { exact: true }).fill('longenough');
    await page.getByLabel('Confirm password').fill('different1');
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.locator('#auth-email-error')).toHaveText('Invalid email');
    await expect(page.locator('#auth-confirmPassword-error')).toHaveText('Passwords do not match');
    await expect(page.locator('#auth-password-error')).toHaveCount(0);
    await expect(page).toHaveURL(/\/signup$/);
    await look(page, { path: 'test-results/screens/signup-errors-desktop.png', fullPage: true });
  });

  test('switching to client hides and clears the company name', async ({ page }) => {
    await page.goto('/signup');
    await expect(page.getByRole('main').getByRole('button', { name: 'Create Account' })).toBeEnabled();
    await page.getByLabel('Company name').fill('Acme Consulting');
    await page.getByLabel('Business Owner').check();
    await expect(page.getByLabel('Company name')).toHaveCount(0);
    await page.getByLabel('Consultant / Agency').check();
    await expect(page.getByLabel('Company name')).toHaveValue('');
  });

  test('a consultant signs up, lands on /account with the toast and the badge', async ({ page }) => {
    const email = uniqueEmail('e2e-consultant');
    await page.goto('/signup');
    await expect(page.getByRole('main').getByRole('button', { name: 'Create Account' })).toBeEnabled();
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Company name').fill('Lone Star Growth');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel(/I am 18 or older/).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByRole('status').filter({ hasText: 'Account created!' })).toBeVisible();
    await expect(page.locator('.acct-email')).toHaveText(email);
    await expect(page.locator('.acct-profile .badge')).toHaveText('Consultant');
    await expect(page.getByRole('heading', { name: 'Subscription' })).toBeVisible();
    await expect(page.getByRole('banner').getByRole('link', { name: 'Account' })).toBeVisible();
    expect((await page.context().cookies()).find((c) => c.name === 'localrank_session')?.value).toBe('1');
  });

  test('a client signs up without a company name and has no subscription card', async ({ page }) => {
    await page.goto('/signup');
    await expect(page.getByRole('main').getByRole('button', { name: 'Create Account' })).toBeEnabled();
    await page.getByLabel('Business Owner').check();
    await page.getByLabel('Email').fill(uniqueEmail('e2e-client'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel(/I am 18 or older/).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByText('Business Owner')).toBeVisible();
    await expect(page.locator('.acct-profile .badge')).toHaveCount(0);
    await expect(page.getByRole('heading', { name: 'Subscription' })).toHaveCount(0);
  });

  test('a choice of account type and a company typed before the page is interactive stay (slow network and CPU)', async ({ page }) => {
    // A throttled profile: a slow CPU, and the sign-up island's code held until the visitor has acted.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    await page.route(/\/_astro\/signup-form\.[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/signup', { waitUntil: 'domcontentloaded' });
    const submit = page.getByRole('main').getByRole('button', { name: 'Create Account' });
    // Not interactive yet: the island is still its server-rendered HTML.
    await expect(page.locator('astro-island[ssr] form.auth-form')).toHaveCount(1);
    await page.getByLabel('Company name').fill('Typed Before Ready');
    await page.getByLabel('Business Owner').check();
    release();
    await expect(page.locator('astro-island[ssr] form.auth-form')).toHaveCount(0);
    await expect(page.getByLabel('Business Owner')).toBeChecked();
    await expect(page.getByLabel('Company name')).toHaveCount(0);
    // And back: a consultant's company typed before hydration is the one sent.
    await page.getByLabel('Consultant / Agency').check();
    await expect(page.getByLabel('Company name')).toHaveValue('');
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await page.getByLabel('Business Owner').check();
    await page.getByLabel('Email').fill(uniqueEmail('e2e-early-click'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel(/I am 18 or older/).check();
    await submit.click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.getByText('Business Owner')).toBeVisible();
  });

  test('a company name typed before the page is interactive is the one sent', async ({ page }) => {
    let release!: () => void;
    const held = new Promise<void>((done) => (release = done));
    await page.route(/\/_astro\/signup-form\.[\w-]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/signup', { waitUntil: 'domcontentloaded' });
    const email = uniqueEmail('e2e-early-company');
    await page.getByLabel('Company name').fill('Early Bird Agency');
    await page.getByLabel('Email').fill(email);
    release();
    await expect(page.getByRole('main').getByRole('button', { name: 'Create Account' })).toBeEnabled();
    await expect(page.getByLabel('Company name')).toHaveValue('Early Bird Agency');
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel(/I am 18 or older/).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/account$/);
    await expect(page.locator('.acct-profile .badge')).toHaveText('Consultant');
  });

  test('a taken e-mail shows the server message; the first account is untouched', async ({ page, appCtx }) => {
    const first = await createUser(appCtx, { role: 'client' });
    await page.goto('/signup');
    await expect(page.getByRole('main').getByRole('button', { name: 'Create Account' })).toBeEnabled();
    await page.getByLabel('Business Owner').check();
    await page.getByLabel('Email').fill(first.email);
    await page.getByLabel('Password', { exact: true }).fill('another-password');
    await page.getByLabel('Confirm password').fill('another-password');
    await page.getByLabel(/I am 18 or older/).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    const toast = page.getByRole('status').filter({ hasText: 'Signup failed' });
    await expect(toast).toContainText('An account with this email already exists. Please sign in instead.');
    await expect(page.locator('#auth-email-error')).toHaveText('An account with this email already exists');
    await expect(page).toHaveURL(/\/signup$/);

    await page.goto('/login');
    await expect(page.getByRole('main').getByRole('button', { name: 'Sign In' })).toBeEnabled();
    await page.getByLabel('Email').fill(first.email);
    await page.getByLabel('Password').fill(first.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page).toHaveURL(/\/account$/);
  });

  test('a failure without a server message shows the fallback text', async ({ page }) => {
    await page.route('**/api/auth/signup', (route) => route.fulfill({ status: 502, body: '' }));
    await page.goto('/signup');
    await expect(page.getByRole('main').getByRole('button', { name: 'Create Account' })).toBeEnabled();
    await page.getByLabel('Business Owner').check();
    await page.getByLabel('Email').fill(uniqueEmail('e2e-fail'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel(/I am 18 or older/).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Signup failed' })).toContainText('Signup failed. Please try again.');
  });

  test('with redirect=subscribe and a plan it continues to the subscribe page', async ({ page }) => {
    await page.goto('/signup?redirect=subscribe&plan=enterprise');
    await expect(page.getByRole('main').getByRole('button', { name: 'Create Account' })).toBeEnabled();
    await page.getByLabel('Business Owner').check();
    await page.getByLabel('Email').fill(uniqueEmail('e2e-sub'));
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Confirm password').fill(PASSWORD);
    await page.getByLabel(/I am 18 or older/).check();
    await page.getByRole('button', { name: 'Create Account' }).click();
    await expect(page).toHaveURL(/\/subscribe\?plan=enterprise$/);
  });
});

test.describe('login', () => {
  test('empty fields say Required; a wrong password shows the server message', async ({ page, appCtx }) => {
    const user = await createUser(appCtx);
    await page.goto('/login');
    await expect(page.getByRole('main').getByRole('button', { name: 'Sign In' })).toBeEnabled();
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.locator('#auth-email-error')).toHaveText('Required');
    await expect(page.locator('#auth-password-error')).toHaveText('Required');
    await look(page, { path: 'test-results/screens/login-desktop.png' });

    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Login failed' })).toContainText('Invalid email or password');
    await expect(page).toHaveURL(/\/login$/);
  });

  test('a failure without a server message shows the fallback text', async ({ page }) => {
    await page.route('**/api/auth/login', (route) => route.fulfill({ status: 500, body: '' }));
    await page.goto('/login');
    await expect(page.getByRole('main').getByRole('button', { name: 'Sign In' })).toBeEnabled();
    await page.getByLabel('Email').fill('someone@example.com');
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Login failed' })).toContainText('Login failed. Please check your credentials.');
  });

  const cases: Array<{ name: string; query: string; stored?: string; to: RegExp }> = [
    { name: 'no query: to /account', query: '', to: /\/account$/ },
    { name: 'redirect=subscribe with plan: to /subscribe?plan=…', query: '?redirect=subscribe&plan=pro', to: /\/subscribe\?plan=pro$/ },
    { name: 'redirect=subscribe, plan from session storage', query: '?redirect=subscribe', stored: 'enterprise', to: /\/subscribe\?plan=enterprise$/ },
    { name: 'the query plan wins over the stored one', query: '?redirect=subscribe&plan=enterprise', stored: 'pro', to: /\/subscribe\?plan=enterprise$/ },
    { name: 'redirect=subscribe without any plan: to /account', query: '?redirect=subscribe', to: /\/account$/ },
    { name: 'a plan without redirect=subscribe: to /account', query: '?plan=pro', stored: 'pro', to: /\/account$/ },
    { name: 'redirect back to a page of this site', query: '?redirect=%2Faccount%3Ftab%3D1', to: /\/account\?tab=1$/ },
    { name: 'another origin is never a destination', query: '?redirect=%2F%2Fevil.example%2Fx', to: /127\.0\.0\.1:\d+\/account$/ },
  ];
  for (const c of cases) {
    test(`after login, ${c.name}`, async ({ page, appCtx }) => {
      const user = await createUser(appCtx);
      if (c.stored) await page.addInitScript((plan) => sessionStorage.setItem('localrank.selectedPlan', plan), c.stored);
      await page.goto(`/login${c.query}`);
      await expect(page.getByRole('main').getByRole('button', { name: 'Sign In' })).toBeEnabled();
      await page.getByLabel('Email').fill(user.email.toUpperCase());
      await page.getByLabel('Password').fill(user.password);
      await page.getByRole('button', { name: 'Sign In' }).click();
      await expect(page).toHaveURL(c.to);
      if (c.to.source.includes('account')) await expect(page.getByRole('status').filter({ hasText: 'Welcome back!' })).toBeVisible();
    });
  }

  test('a visitor already signed in is told so, with a link to the account', async ({ page, signIn }) => {
    const user = await signIn();
    await page.goto('/login');
    await expect(page.getByRole('main').getByRole('button', { name: 'Sign In' })).toBeEnabled();
    await expect(page.getByRole('note')).toContainText(`You're signed in as ${user.email}.`);
    await expect(page.getByRole('note').getByRole('link', { name: 'Go to your account' })).toHaveAttribute('href', '/account');
  });

  test('the sign-up link carries the redirect and plan', async ({ page }) => {
    await page.goto('/login?redirect=subscribe&plan=pro');
    await expect(page.getByRole('main').getByRole('button', { name: 'Sign In' })).toBeEnabled();
    // The pages are static: the link takes the query once the island has hydrated.
    const signUp = page.getByRole('main').getByRole('link', { name: 'Sign up' });
    await expect(signUp).toHaveAttribute('href', '/signup?redirect=subscribe&plan=pro');
    await signUp.click();
    await expect(page).toHaveURL(/\/signup\?redirect=subscribe&plan=pro$/);
    const signInLink = page.getByRole('main').getByRole('link', { name: 'Sign in' });
    await expect(signInLink).toHaveAttribute('href', '/login?redirect=subscribe&plan=pro');
    await signInLink.click();
    await expect(page).toHaveURL(/\/login\?redirect=subscribe&plan=pro$/);
  });
});

test.describe(() => {
  // Which scripts a first visit fetches: a context of its own, no warm cache.
  test.use({ freshContext: true });

  test('zod stays out of the first JavaScript: the schemas load once the visitor types', async ({ page }) => {
    // The chunk that holds the sign-up schema (and zod with it), recognised by its message text.
    const schemaScripts: string[] = [];
    page.on('response', async (r) => {
      if (r.request().resourceType() !== 'script') return;
      const body = await r.text().catch(() => '');
      if (body.includes('Passwords do not match')) schemaScripts.push(r.url());
    });
    await page.goto('/signup');
    await expect(page.getByRole('main').getByRole('button', { name: 'Create Account' })).toBeEnabled();
    await page.waitForLoadState('networkidle');
    await expect(page.getByRole('button', { name: 'Create Account' })).toBeEnabled();
    expect(schemaScripts).toEqual([]);
    await page.getByLabel('Email').pressSequentially('a');
    await expect.poll(() => schemaScripts.length).toBe(1);
  });
});
