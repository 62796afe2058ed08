// An agency's working day in the browser: a branding profile with a logo (and its live preview),
// two clients (each reported on at once), a client's page with its charts and reports, "Send
// report now", the white-label e-mail that reaches the client (the agency gets a copy of its own), and the
// white-label online report opened from it.
import { look } from './look.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import sharp from 'sharp';
import { addClient } from './clients.ts';
import { expect, test } from './fixtures.ts';

const outbox = () => join(process.env.E2E_DATA_DIR!, 'outbox');
/** The messages to an address, oldest first, as written (the file names start with the time). */
const rawMailsTo = (address: string) =>
  existsSync(outbox())
    ? readdirSync(outbox())
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .map((f) => readFileSync(join(outbox(), f), 'utf8'))
        .filter((m) => m.replace(/=\r?\n/g, '').includes(`To: ${address}`))
    : [];
const mailsTo = (address: string) => rawMailsTo(address).map((m) => m.replace(/=\r?\n/g, ''));

test('an agency brands its reports, adds two clients and sends a report now', async ({ page, signIn }, info) => {
  test.setTimeout(90_000);
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const stamp = Date.now().toString(36);

  await page.goto('/account');
  await page.getByRole('link', { name: /Branding Settings/ }).click();
  await expect(page).toHaveURL(/\/branding$/);
  await page.getByRole('button', { name: 'New Profile' }).click();
  // Saved empty with a bad e-mail: the toast counts the fields and names the first; a field's
  // message goes as soon as the field is edited.
  await page.getByLabel('Contact e-mail (replies go here)').fill('not-an-email');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByText(/^Please correct 2 fields\. Company name: /)).toBeVisible();
  const company = page.getByLabel('Company name (shown instead of LocalRank)');
  await expect(company).toHaveAttribute('aria-invalid', 'true');
  await company.fill('Northstar Marketing');
  await expect(company).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByLabel('Contact e-mail (replies go here)')).toHaveAttribute('aria-invalid', 'true');
  await page.getByLabel('Primary colour', { exact: true }).fill('#0F766E');
  await page.getByLabel('Contact e-mail (replies go here)').fill('hello@northstar.example');
  await page.getByLabel('Footer text (every page and e-mail)').fill('Northstar Marketing LLC · 500 Main St, Austin, TX 78701');
  const logo = await sharp({ create: { width: 240, height: 80, channels: 3, background: '#0f766e' } }).png().toBuffer();
  await page.getByLabel(/^Logo/).setInputFiles({ name: 'logo.png', mimeType: 'image/png', buffer: logo });
  // The live preview follows the unsaved form: the PDF's first page, then the e-mail's headers.
  const preview = page.getByTestId('branding-preview');
  await expect(preview.getByRole('img', { name: "The PDF report's first page in this branding" })).toBeVisible({ timeout: 20_000 });
  await expect(preview.getByRole('status')).toHaveText(/example report/, { timeout: 20_000 });
  await preview.getByRole('tab', { name: 'E-mail' }).click();
  await expect(preview.locator('.mail-head')).toContainText('"Northstar Marketing" <');
  await expect(preview.locator('.mail-head')).toContainText('hello@northstar.example');
  await preview.getByRole('tab', { name: 'PDF, first page' }).click();
  await look(page, { path: info.outputPath('branding-preview.png'), fullPage: true });
  await page.getByRole('button', { name: 'Save Profile' }).click();
  const card = page.getByTestId('profile-card');
  await expect(card).toContainText('Northstar Marketing');
  await expect(card).toContainText('Default profile');
  await expect(card.getByRole('img', { name: 'Northstar Marketing logo' })).toBeVisible();
  await look(page, { path: info.outputPath('branding.png'), fullPage: true });

  await page.getByRole('main').getByRole('link', { name: 'Clients' }).click();
  await expect(page.getByRole('heading', { name: 'Your clients' })).toBeVisible();
  const first = { name: `Dana Whitfield ${stamp}`, email: `dana-${stamp}@client.example`, company: `Whitfield Dental ${stamp}`, zip: '78701' };
  await addClient(page, first);
  await addClient(page, { name: `Sam Ortiz ${stamp}`, email: `sam-${stamp}@client.example`, company: `Ortiz Plumbing ${stamp}`, zip: '78704' });
  await expect.poll(() => mailsTo(first.email).length, { timeout: 30_000 }).toBe(1);
  expect(mailsTo(first.email)[0]).not.toContain(`Cc: ${agency.email}`);
  await expect.poll(() => mailsTo(agency.email).filter((m) => m.includes('Subject: Copy of the report sent to')).length, { timeout: 15_000 }).toBe(1);
  await page.reload();
  await expect(page.getByTestId('client-row')).toHaveCount(2);
  await expect(page.getByTestId('client-row').first().locator('.badge').first()).toHaveText(/^\d+\.\d\d$/);
  await look(page, { path: info.outputPath('clients.png'), fullPage: true });
  await page.getByLabel('Search clients').fill('ortiz');
  await expect(page.getByTestId('client-row')).toHaveCount(1);
  await page.getByLabel('Search clients').fill('');

  await page.getByRole('link', { name: first.name }).click();
  await expect(page.getByRole('heading', { level: 1, name: first.company })).toBeVisible();
  await expect(page.getByTestId('report-row')).toHaveCount(1);
  await expect(page.getByTestId('report-row')).toContainText('Sent');
  await expect(page.locator('.client-dl')).toContainText('Northstar Marketing (agency default)');
  await page.getByRole('button', { name: 'Send report now' }).click();
  await expect(page.getByText('Report on Its Way')).toBeVisible();
  // The new report appears without a reload, once the worker has made it.
  await expect(page.getByTestId('report-row')).toHaveCount(2, { timeout: 30_000 });
  await expect.poll(() => mailsTo(first.email).length, { timeout: 30_000 }).toBe(2);
  await look(page, { path: info.outputPath('client-page.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await look(page, { path: info.outputPath('client-page-mobile.png'), fullPage: true });

  await page.getByRole('link', { name: 'Open the full dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1, name: first.company })).toBeVisible();

  // The e-mail the client received is the agency's: its name as the sender, its Reply-To, its footer.
  const mail = await PostalMime.parse(rawMailsTo(first.email)[1]!);
  expect(mail.from).toMatchObject({ name: 'Northstar Marketing' });
  expect(mail.replyTo?.[0]?.address).toBe('hello@northstar.example');
  expect(mail.html).toContain('Northstar Marketing LLC · 500 Main St, Austin, TX 78701');
  expect(mail.html).not.toMatch(/LocalRank/);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.setContent(mail.html!.replace(/src="cid:[^"]+"/, 'src=""'));
  await look(page, { path: info.outputPath('white-label-email.png'), fullPage: true });

  // Its link opens the white-label online report: the agency's header, no LocalRank navigation.
  const link = /https?:\/\/[^\s"<>]+(\/report\/[A-Za-z0-9_-]+)/.exec(mail.text!)![1]!;
  await page.goto(link);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByTestId('brand-masthead')).toContainText('Northstar Marketing');
  await expect(page.getByTestId('brand-masthead')).toContainText('hello@northstar.example');
  await expect(page.getByTestId('brand-colophon')).toContainText('500 Main St, Austin, TX 78701');
  await expect(page.locator('header.top-bar')).toHaveCount(0);
  await expect(page.locator('footer.site-footer')).toHaveCount(0);
  await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
  await expect(page.locator('a[href="/"], a[href^="/#"], a[href="/faq"], a[href="/methodology"], a[href="/signup"], a[href="/login"]')).toHaveCount(0);
  await expect(page.getByText('Example figures, not your real listings').first()).toBeVisible();
  expect(await page.locator('body').innerText()).not.toMatch(/LocalRank/);
  expect(await page.title()).not.toMatch(/LocalRank/);
  await look(page, { path: info.outputPath('white-label-report.png'), fullPage: false });
});

test("another consultant's client page says it is not found", async ({ page, signIn, appCtx }) => {
  const { createUser } = await import('../helpers/factories.ts');
  const other = await createUser(appCtx, { role: 'consultant', tier: 'pro' });
  const { createClient } = await import('../../api/services/clients.ts');
  const { requireConsultant } = await import('../../api/services/plans/consultant-access.ts');
  const access = await requireConsultant(appCtx, new Headers({ cookie: other.cookie }), 'clientManagement');
  const theirs = await createClient({ ctx: appCtx, access, input: { clientName: 'Hidden Client', clientEmail: 'hidden@client.example', company: 'Hidden Co', website: 'https://hidden.example.com', address: '1 Main Street', city: 'Austin', state: 'TX', zip: '78701' } });
  await signIn({ role: 'consultant', tier: 'pro' });
  await page.goto(`/clients/${theirs.id}`);
  await expect(page.getByRole('heading', { name: 'Client Not Found' })).toBeVisible();
  await expect(page.getByText('Hidden Client')).toHaveCount(0);
});
