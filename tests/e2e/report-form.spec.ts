// The free-report form against the real server: field messages, the submitting state, the
// confirmation view and toasts, and a refusal by the server (its rate limit).
import { look } from './look.ts';
import { eq, sql } from 'drizzle-orm';
import type { Page } from '@playwright/test';
import { REPORT_DELIVERY_TEXT } from '../../common/constants.ts';
import { CONSENT_TEXT } from '../../common/schemas/report-request-rules.ts';
import { businesses, reportRequests } from '../../db/schema/businesses.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { expect, test } from './fixtures.ts';

async function openForm(page: Page) {
  await page.goto('/#report-form');
  const form = page.locator('#report-form form');
  await expect(form.getByRole('button', { name: 'Generate My Free Report' })).toBeEnabled(); // hydrated
  return form;
}

async function fillValid(page: Page, overrides: Partial<Record<string, string>> = {}) {
  const v = { name: 'Maria Lopez', email: uniqueEmail('form'), company: `Lopez Plumbing ${Date.now()}`, website: 'https://lopezplumbing.example.com', address: '1200 Barton Springs Rd', city: 'Austin', zip: '78704', ...overrides };
  await page.getByLabel('Full Name').fill(v.name);
  await page.getByLabel('Email Address').fill(v.email);
  await page.getByLabel('Company Name').fill(v.company);
  await page.getByLabel('Your Role').selectOption({ label: 'Business Owner' });
  await page.getByLabel('Business Website').fill(v.website);
  await page.getByLabel('Business Address').fill(v.address);
  await page.getByLabel('City').fill(v.city);
  await page.getByLabel('State').selectOption('TX');
  await page.getByLabel('ZIP Code').fill(v.zip);
  await page.getByLabel(CONSENT_TEXT).check();
  return v;
}


test('lists the roles and the 50 states as two-letter codes', async ({ page }) => {
  const form = await openForm(page);
  await expect(form.getByLabel('Your Role').locator('option:not([hidden])')).toHaveText(['Business Owner', 'Director', 'General Manager', 'Marketing Manager', 'Other']);
  expect(await form.getByLabel('Your Role').locator('option:not([hidden])').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value))).toEqual(['owner', 'director', 'gm', 'marketing', 'other']);
  const states = await form.getByLabel('State').locator('option:not([hidden])').evaluateAll((o) => o.map((x) => (x as HTMLOptionElement).value));
  expect(states).toHaveLength(50);
  for (const code of states) expect(code).toMatch(/^[A-Z]{2}$/);
  await expect(form.getByLabel('Email Address')).toHaveAttribute('type', 'email');
  await expect(form.getByLabel('Business Website')).toHaveAttribute('type', 'url');
  await expect(form.getByLabel(CONSENT_TEXT)).toHaveAttribute('required', '');
});

test('shows every field message in red under its input', async ({ page }) => {
  const form = await openForm(page);
  const submit = form.getByRole('button', { name: 'Generate My Free Report' });
  const message = (id: string) => form.locator(`#rf-${id}-error`);
  await submit.click();
  for (const id of ['fullName', 'email', 'company', 'role', 'website', 'address', 'city', 'state', 'zip']) {
    await expect(message(id)).toHaveText('Required');
    await expect(form.locator(`#rf-${id}`)).toHaveAttribute('aria-invalid', 'true');
  }
  await expect(message('consent')).toHaveText('Please agree to receive your report');
  await expect(message('fullName')).toHaveCSS('color', 'rgb(185, 28, 28)');
  await expect(form.getByLabel('Full Name')).toBeFocused();

  await form.getByLabel('Full Name').fill('M');
  await form.getByLabel('Email Address').fill('maria@');
  await form.getByLabel('Company Name').fill('L');
  await form.getByLabel('Business Website').fill('lopezplumbing.com');
  await form.getByLabel('Business Address').fill('12 A');
  await form.getByLabel('City').fill('A');
  await form.getByLabel('ZIP Code').fill('7870');
  await submit.click();
  await expect(message('fullName')).toHaveText('String must contain at least 2 character(s)');
  await expect(message('email')).toHaveText('Invalid email');
  await expect(message('company')).toHaveText('String must contain at least 2 character(s)');
  await expect(message('website')).toHaveText('Invalid url');
  await expect(message('address')).toHaveText('String must contain at least 5 character(s)');
  await expect(message('city')).toHaveText('String must contain at least 2 character(s)');
  await expect(message('zip')).toHaveText('ZIP code must be 5 digits or ZIP+4 (12345-6789)');

  await form.getByLabel('Business Website').fill('ftp://lopezplumbing.com');
  await form.getByLabel('ZIP Code').fill('78704-12');
  await submit.click();
  await expect(message('website')).toHaveText('Invalid url');
  await expect(message('zip')).toHaveText('ZIP code must be 5 digits or ZIP+4 (12345-6789)');

  // Correcting a field clears its message.
  await form.getByLabel('ZIP Code').fill('78704-1234');
  await expect(message('zip')).toHaveCount(0);
});

test('a pasted invisible or control character is named under its field, from the API\'s 400, and nothing is stored (decision 0211)', async ({ page, appCtx }, info) => {
  const form = await openForm(page);
  const values = await fillValid(page, { company: 'Lopez\u200BPlumbing', city: 'Aus\u202Etin' });
  await form.getByRole('button', { name: 'Generate My Free Report' }).click();
  await expect(form.locator('#rf-company-error')).toHaveText('Company name contains an invisible character (U+200B ZERO WIDTH SPACE). Type the text again instead of pasting it.');
  await expect(form.locator('#rf-city-error')).toHaveText('City contains a text-direction control (U+202E RIGHT-TO-LEFT OVERRIDE), which changes the order text is shown in. Remove it.');
  await expect(form.getByLabel('Company Name')).toBeFocused();
  for (const close of await page.getByRole('button', { name: 'Close' }).all()) await close.click();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await form.locator('#rf-company').scrollIntoViewIfNeeded();
    await look(page, { path: info.outputPath(`report-form-invisible-${width}.png`) });
  }
  expect(await appCtx.db.select().from(reportRequests).where(eq(reportRequests.email, values.email))).toEqual([]);
});

test('submits: Processing... with a spinner while sending, then the confirmation and toast', async ({ page, appCtx }) => {
  const form = await openForm(page);
  const values = await fillValid(page);

  // Hold the request on its way to the real server, to see the submitting state.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route('**/api/submit-request', async (route) => {
    await held;
    await route.continue();
  });
  await form.getByRole('button', { name: 'Generate My Free Report' }).click();
  const busy = form.getByRole('button', { name: 'Processing...' });
  await expect(busy).toBeDisabled();
  await expect(busy.locator('.spinner')).toBeVisible();
  release();

  const done = page.locator('#report-form');
  await expect(done.getByRole('heading', { name: 'Report Being Generated!' })).toBeVisible();
  await expect(done).toContainText(`We're analysing ${values.company} and its top local competitors now.`);
  await expect(done).toContainText(`An email with your report will arrive in ${REPORT_DELIVERY_TEXT}.`);
  const toast = page.getByRole('status').filter({ hasText: 'Report Requested!' });
  await expect(toast).toContainText("Your business analysis is being processed. You'll receive an email when it's ready.");

  const [stored] = await appCtx.db.select().from(reportRequests).where(eq(reportRequests.email, values.email));
  expect(stored).toMatchObject({ marketingConsent: true });

  await done.getByRole('button', { name: 'Submit Another Request' }).click();
  const blank = page.locator('#report-form form');
  for (const label of ['Full Name', 'Email Address', 'Company Name', 'Business Website', 'Business Address', 'City', 'ZIP Code']) await expect(blank.getByLabel(label)).toHaveValue('');
  await expect(blank.getByLabel('Your Role')).toHaveValue('');
  await expect(blank.getByLabel('State')).toHaveValue('');
  await expect(blank.getByLabel(CONSENT_TEXT)).not.toBeChecked();

  // Past a day's count of free reports from one e-mail domain the server asks for a proof of work
  // (decision 0350): the form solves it and sends again, the visitor does nothing more.
  const domain = `proof-${Date.now()}.example`;
  await appCtx.db.run(sql`INSERT INTO rate_limits (key, count, reset_at) VALUES (${`pow:domain:${domain}`}, 1000000, ${Date.now() + 86_400_000})`);
  const sent: Array<Record<string, unknown>> = [];
  page.on('request', (r) => {
    if (r.url().endsWith('/api/submit-request')) sent.push(r.postDataJSON() as Record<string, unknown>);
  });
  const paying = await fillValid(page, { email: `maria@${domain}` });
  await blank.getByRole('button', { name: 'Generate My Free Report' }).click();
  await expect(done.getByRole('heading', { name: 'Report Being Generated!' })).toBeVisible({ timeout: 60_000 });
  await look(page, { path: test.info().outputPath('report-form-proof-of-work.png') });
  expect(sent.map((body) => typeof body.altcha)).toEqual(['undefined', 'string']);
  const paidFor = await appCtx.db.select({ payload: reportRequests.payload }).from(reportRequests).where(eq(reportRequests.email, paying.email));
  expect(paidFor.map((r) => (r.payload as { company: string }).company)).toEqual([paying.company]);
});

for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
  test(`past the day's provider budget the thank-you screen says the report is queued and from when, never that it failed (${viewport.width}px)`, async ({ page }, info) => {
    await page.setViewportSize(viewport);
    const form = await openForm(page);
    const values = await fillValid(page);
    // The server's answer when today's budget has no room (tests/integration/provider-budget.test.ts
    // checks the server side): the real answer, with the moment the report will start.
    const until = new Date(Date.UTC(2026, 11, 3, 0, 1));
    await page.route('**/api/submit-request', async (route) => {
      const answer = await route.fetch();
      await route.fulfill({ response: answer, json: { ...(await answer.json()), waitsUntil: until.toISOString() } });
    });
    await form.getByRole('button', { name: 'Generate My Free Report' }).click();
    const done = page.locator('#report-form');
    await expect(done.getByRole('heading', { name: 'Report Being Generated!' })).toBeVisible();
    const local = await page.evaluate((iso) => { const at = new Date(iso); return `${at.toLocaleDateString('en-US', { weekday: 'long', month: 'long', day: 'numeric' })}, from ${at.toLocaleTimeString('en-US', { hour: 'numeric', minute: '2-digit' })}`; }, until.toISOString());
    await expect(done).toContainText(`Your request for ${values.company} is in our queue. So many reports were asked for today that yours is scheduled for ${local}; an email with your report will arrive within the hour after that.`);
    await expect(done).not.toContainText(/fail|error|could not/i);
    await look(page, { path: info.outputPath(`report-form-waiting-${viewport.width}.png`), fullPage: false });
  });

  test(`a refusal by the server keeps the form and says why once, the toast beside the submit button, not on it (${viewport.width}px)`, async ({ page, appCtx }) => {
    await page.setViewportSize(viewport);
    const email = uniqueEmail('limited');
    // This address has used up its hourly requests: the server answers 429.
    await appCtx.db.run(sql`INSERT INTO rate_limits (key, count, reset_at) VALUES (${`intake:email:${email}`}, 1000000, ${Date.now() + 3_600_000})`);
    const form = await openForm(page);
    await fillValid(page, { email });
    const submit = form.getByRole('button', { name: 'Generate My Free Report' });
    await submit.click();

    const why = 'Too many report requests for this email address. Please try again in an hour.';
    const toast = page.getByRole('status').filter({ hasText: 'Submission Failed' });
    await expect(toast).toContainText(why);
    await expect(form.getByRole('alert')).toHaveText(why);
    await expect(form.getByLabel('Email Address')).toHaveValue(email);
    await expect(submit).toBeEnabled();
    await expect(page.getByRole('heading', { name: 'Report Being Generated!' })).toHaveCount(0);
    const [a, b] = [(await toast.boundingBox())!, (await submit.boundingBox())!];
    const overlaps = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
    expect(overlaps, `toast ${JSON.stringify(a)} over the submit button ${JSON.stringify(b)}`).toBe(false);
    await look(page, { path: `test-results/screens/report-form-refused-${viewport.width}.png` });
  });
}

test('a signed-in visitor owns the business they submit', async ({ page, appCtx, signIn }) => {
  const user = await signIn();
  const form = await openForm(page);
  const values = await fillValid(page, { email: user.email });
  await form.getByRole('button', { name: 'Generate My Free Report' }).click();
  await expect(page.getByRole('heading', { name: 'Report Being Generated!' })).toBeVisible();
  const [stored] = await appCtx.db.select().from(reportRequests).where(eq(reportRequests.email, user.email));
  expect(stored?.userId).toBe(user.userId);
  const [business] = await appCtx.db.select().from(businesses).where(eq(businesses.id, stored!.businessId));
  expect(business).toMatchObject({ userId: user.userId, company: values.company });
});
