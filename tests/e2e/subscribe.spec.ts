// /subscribe?plan=…&interval=…: the subscribe flow of spec section 2, paying through Stripe's
// Payment Element. Stripe.js cannot load here, so its script address is routed to a Stripe.js
// double (tests/e2e/stripe-js/) and api.stripe.com to the local Stripe API double the server
// uses (tests/e2e/serve.ts); the page's own code is the production code.
import { look } from './look.ts';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import { routeStripe } from './stripe-route.ts';

const GOOD_CARD = '4242 4242 4242 4242';
const DECLINED_CARD = '4000 0000 0000 0002';
const cardFrame = (page: Page) => page.frameLocator('iframe[title="Secure payment input frame"]');

test('no valid plan goes home', async ({ page }) => {
  await page.goto('/subscribe?plan=platinum');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
  await page.goto('/subscribe');
  await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/);
});

test('agency: the sales e-mail draft and the contact form with subject "agency", never a silent bounce home', async ({ page }) => {
  await page.goto('/subscribe?plan=agency');
  await expect(page.getByRole('heading', { name: 'Let’s price it for your agency' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'E-mail sales' })).toHaveAttribute('href', /^mailto:sales@localrank\.app\?subject=LocalRank%20Agency%20plan&body=/);
  await page.getByRole('link', { name: 'Use the contact form' }).click();
  await expect(page).toHaveURL(/\/contact\?subject=agency$/);
  await expect(page.getByLabel('Subject')).toHaveValue('agency');
});

test('signed out: the plan and interval are remembered and login continues to them', async ({ page, appCtx }) => {
  const { createUser } = await import('../helpers/factories.ts');
  const user = await createUser(appCtx);
  await routeStripe(page);
  await page.goto('/subscribe?plan=enterprise&interval=annual');
  await expect(page).toHaveURL(/\/login\?redirect=subscribe$/);
  await expect(page.getByRole('main').getByRole('button', { name: 'Sign In' })).toBeEnabled();
  expect(await page.evaluate(() => sessionStorage.getItem('localrank.selectedPlan'))).toBe('enterprise');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(/\/subscribe\?plan=enterprise/);
  await expect(page.getByRole('heading', { name: 'Enterprise' })).toBeVisible();
  await expect(page.getByRole('radio', { name: /Annual/ })).toBeChecked();
  await expect(page.getByTestId('sub-billed')).toHaveText('$1,044/year, billed annually in advance');
  expect(await page.evaluate(() => sessionStorage.getItem('localrank.selectedPlan'))).toBeNull();
});

test('sign up, choose Pro annual, pay: the dashboard opens, /account shows the plan, and a portal cancellation keeps it to the period end', async ({ page }) => {
  // Sign-up, payment, the dashboard, the account page and the portal: one long path.
  test.setTimeout(90_000);
  const loaded = await routeStripe(page);
  const email = `buyer-${Date.now()}@example.com`;
  await page.goto('/signup');
  await expect(page.getByRole('main').getByRole('button', { name: 'Create Account' })).toBeEnabled();
  await page.getByLabel('Business Owner').check();
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
  await page.getByLabel('Confirm password').fill('correct-horse-battery');
  await page.getByRole('checkbox', { name: /I am 18 or older/ }).check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await expect(page).toHaveURL(/\/account$/);

  await page.goto('/#pricing');
  await page.locator('label[for="billing-annual"]').click();
  await page.locator('[data-plan="pro"]').getByRole('link', { name: 'Get Started' }).click();
  await expect(page).toHaveURL(/\/subscribe\?plan=pro&interval=annual$/);
  await expect(page.getByRole('heading', { name: 'Pro', exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Pay $468 and subscribe' })).toBeVisible();
  await expect(cardFrame(page).getByLabel('Card number')).toBeVisible();
  expect(loaded.some((p) => /^\/[a-z0-9]+\/stripe\.js$/.test(p))).toBe(true);
  await look(page, { path: 'test-results/screens/subscribe-payment.png', fullPage: true });

  await cardFrame(page).getByLabel('Card number').fill(GOOD_CARD);
  await page.getByRole('button', { name: 'Pay $468 and subscribe' }).click();
  await expect(page).toHaveURL(/\/dashboard\?subscription=success$/);
  await expect(page.getByText('Subscription Successful!')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upgrade to Pro' })).toHaveCount(0);

  await page.goto('/account');
  const billing = page.locator('#billing');
  await expect(billing.getByTestId('billing-plan')).toHaveText('Pro');
  await expect(billing.getByTestId('billing-interval')).toHaveText('Annual · $468/year');
  await expect(billing.getByTestId('billing-status')).toHaveText('Active');
  await expect(billing.getByTestId('billing-when')).toHaveText(/^Renews on \w+ \d+, \d{4}\.$/);
  await look(page, { path: 'test-results/screens/account-billing.png', fullPage: true });

  await billing.getByRole('button', { name: 'Manage billing' }).click();
  await expect(page.getByRole('heading', { name: 'Billing portal' })).toBeVisible();
  await page.getByRole('button', { name: 'Cancel plan' }).click();
  await expect(page).toHaveURL(/\/account$/);
  await expect(billing.getByTestId('billing-plan')).toHaveText('Pro');
  await expect(billing.getByTestId('billing-when')).toHaveText(/^Ends on \w+ \d+, \d{4}; the account is free after that\.$/);
});

test("a declined card shows 'Payment Failed' with Stripe's message and stays on the page", async ({ page, signIn }) => {
  await routeStripe(page);
  await signIn();
  await page.goto('/subscribe?plan=pro');
  await expect(cardFrame(page).getByLabel('Card number')).toBeVisible();
  await cardFrame(page).getByLabel('Card number').fill(DECLINED_CARD);
  await page.getByRole('button', { name: 'Pay $49 and subscribe' }).click();
  const failed = page.getByRole('region', { name: /Notifications/ }).getByText('Payment Failed');
  await expect(failed).toBeVisible();
  await expect(page.getByText('Your card was declined.')).toBeVisible();
  await expect(page).toHaveURL(/\/subscribe\?plan=pro/);
  await expect(page.getByRole('button', { name: 'Pay $49 and subscribe' })).toBeEnabled();
});

test('a subscription that cannot be created sends the visitor to the landing page, which says what happened', async ({ page, signIn }) => {
  await routeStripe(page);
  await signIn();
  await page.route('**/api/create-subscription', (route) => route.fulfill({ status: 500, contentType: 'application/json', body: '{"code":"internal","message":"Something went wrong on our side. Please try again."}' }));
  await page.goto('/subscribe?plan=enterprise');
  await expect(page).toHaveURL(/\/\?error=subscription-failed$/);
  await expect(page.getByRole('alert').filter({ hasText: 'We could not start your subscription.' })).toBeVisible();
  await expect(page.getByText('Unable to initialize payment. Please try again.')).toBeVisible();
});

test("only the payment page's policy admits Stripe, with Stripe's documented origins", async ({ request }) => {
  const csp = (await request.get('/subscribe?plan=pro')).headers()['content-security-policy']!;
  expect(csp).toMatch(/script-src 'self' https:\/\/js\.stripe\.com https:\/\/\*\.js\.stripe\.com( 'sha256-[\w+/=]+')+;/);
  expect(csp).toContain("connect-src 'self' https://api.stripe.com;");
  expect(csp).toContain("frame-src 'self' https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com;");
  for (const path of ['/', '/account', '/login']) expect((await request.get(path)).headers()['content-security-policy'], path).not.toContain('stripe');
});

test('a user already on the plan is told so', async ({ page, signIn }) => {
  await routeStripe(page);
  await signIn({ role: 'client', tier: 'enterprise' });
  await page.goto('/subscribe?plan=enterprise');
  await expect(page.getByText('Your account is on the Enterprise plan.')).toBeVisible();
});

test('an agency already on Agency is told so and sent to its billing settings, not pitched the plan', async ({ page, signIn }) => {
  const loaded = await routeStripe(page);
  await signIn({ role: 'consultant', tier: 'agency' });
  await page.goto('/subscribe?plan=agency');
  await expect(page.getByRole('heading', { name: 'You’re on the Agency plan' })).toBeVisible();
  await expect(page.getByText('Your account is on the Agency plan.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'E-mail sales' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Billing Settings' })).toHaveAttribute('href', '/account#billing');
  await look(page, { path: 'test-results/subscribe-agency-current.png', fullPage: true });
  // No payment to take here: Stripe.js is not fetched.
  expect(loaded).toEqual([]);
});

test('the plan page says which plan the account is on now', async ({ page, signIn }) => {
  await routeStripe(page);
  await signIn({ role: 'client', tier: 'pro' });
  await page.goto('/subscribe?plan=enterprise');
  await expect(page.getByTestId('sub-current-plan')).toHaveText('Your account is on the Pro plan now.');
  await page.goto('/subscribe?plan=agency');
  await expect(page.getByText('Your account is on the Pro plan now.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'E-mail sales' })).toBeVisible();
});
