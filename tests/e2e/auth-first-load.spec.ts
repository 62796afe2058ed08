// /login, /signup (issue 40) and /forgot-password (issue 47) before any input: the forms hydrate on first use, so what a visitor
// downloads before touching the page is the top bar's and the island runtime's JavaScript, at most
// 20 KB gzip at 1280 and 390 px (counted as scripts/lib/script-bytes.ts does for `npm run bench:js`:
// bytes, not time, so the figure does not depend on the machine). Until its script arrives the form
// still takes a submit: it is held, never sent by the browser itself (no password in an address),
// and sent by the form once it is ready.
import { look } from './look.ts';
import { scriptBytesBeforeInput } from '../../scripts/lib/script-bytes.ts';
import { createUser } from '../helpers/factories.ts';
import { expect, test } from './fixtures.ts';

// A first load is measured: nothing cached from another test.
test.use({ freshContext: true });

const BUDGET_BYTES = 20_000;

const SUBMIT: Record<string, string> = { '/login': 'Sign In', '/signup': 'Create Account', '/forgot-password': 'Send Reset Link' };

for (const path of ['/login', '/signup', '/forgot-password']) {
  for (const width of [1280, 390]) {
    test(`${path} at ${width} px downloads at most 20 KB gzip of JavaScript before any input`, async ({ page }) => {
      await page.setViewportSize({ width, height: width < 600 ? 844 : 800 });
      const measured = await scriptBytesBeforeInput(page, path);
      const list = measured.files.map((f) => `${f.what} ${f.gzip}`).join(', ');
      expect(measured.total, `${path} at ${width} px: ${list}`).toBeLessThanOrEqual(BUDGET_BYTES);
      // The form is on the page, usable, and the island is still its server-rendered HTML.
      await expect(page.locator('astro-island[ssr] form.auth-form')).toHaveCount(1);
      await expect(page.getByRole('main').getByRole('button', { name: SUBMIT[path] })).toBeEnabled();
      await look(page, { path: `test-results/screens/first-load${path.replace('/', '-')}-${width}.png`, fullPage: true });
      // The first use loads the form (a click in a field; on /login the e-mail field has the focus
      // from the start, which is the browser's doing, not the visitor's).
      await page.getByLabel('Email').click();
      await expect(page.locator('astro-island[ssr] form.auth-form')).toHaveCount(0);
    });
  }
}

test('a Sign In pressed before the form has loaded is held, then sent once it has', async ({ page, appCtx }) => {
  const user = await createUser(appCtx);
  let release!: () => void;
  const held = new Promise<void>((done) => (release = done));
  await page.route(/\/_astro\/login-form\.[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`));
  await page.goto('/login?redirect=subscribe&plan=pro');
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('main').getByRole('button', { name: 'Sign In' }).click();
  // Held: still on the page, nothing posted by the browser, no password in any address.
  await expect(page.locator('astro-island[ssr] form.auth-form')).toHaveCount(1);
  await expect(page).toHaveURL(/\/login\?redirect=subscribe&plan=pro$/);
  expect(requests.filter((r) => r.includes(encodeURIComponent(user.password)) || r.startsWith('POST'))).toEqual([]);
  release();
  await expect(page).toHaveURL(/\/subscribe\?plan=pro$/);
  // Sent once (the subscribe page then starts its own request, which is not the form's).
  expect(requests.filter((r) => r.startsWith('POST /api/auth/'))).toEqual(['POST /api/auth/login']);
});

test('a Send Reset Link pressed before the form has loaded is held, then sent once it has', async ({ page, appCtx }) => {
  const user = await createUser(appCtx);
  let release!: () => void;
  const held = new Promise<void>((done) => (release = done));
  await page.route(/\/_astro\/forgot-password-form\.[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const requests: string[] = [];
  page.on('request', (r) => requests.push(`${r.method()} ${new URL(r.url()).pathname}${new URL(r.url()).search}`));
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(user.email);
  await page.getByRole('main').getByRole('button', { name: 'Send Reset Link' }).click();
  await expect(page.locator('astro-island[ssr] form.auth-form')).toHaveCount(1);
  await expect(page).toHaveURL(/\/forgot-password$/);
  expect(requests.filter((r) => r.startsWith('POST') || r.includes(encodeURIComponent(user.email)))).toEqual([]);
  release();
  await expect(page.getByTestId('forgot-sent')).toContainText('If an account uses this e-mail address');
  expect(requests.filter((r) => r.startsWith('POST /api/auth/'))).toEqual(['POST /api/auth/forgot-password']);
});

test('before the form has loaded, a signed-in visitor is told so and the sign-up link carries the query', async ({ page, signIn }) => {
  const user = await signIn();
  await page.route(/\/_astro\/login-form\.[\w-]+\.js$/, (route) => route.abort());
  await page.goto('/login?redirect=subscribe&plan=enterprise');
  await expect(page.getByRole('note')).toContainText(`You're signed in as ${user.email}.`);
  await expect(page.getByRole('note').getByRole('link', { name: 'Go to your account' })).toHaveAttribute('href', '/account');
  await expect(page.getByRole('main').getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/signup?redirect=subscribe&plan=enterprise');
  await expect(page.locator('astro-island[ssr] form.auth-form')).toHaveCount(1);
});
