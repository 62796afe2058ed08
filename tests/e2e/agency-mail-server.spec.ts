// What an agency sees of its own mail server (issue 36, decision 0210): a client report that waits
// for the server says since when and what the server did, on the client page and in the portfolio,
// and one that failed says why; the mail server form refuses other ports before it asks, and an
// address that is loopback however it is spelled with the reason. The report rows' states are
// written as the worker writes them (the server's own worker has sent the first report).
import { look } from './look.ts';
import { and, eq } from 'drizzle-orm';
import { reports } from '../../db/schema/reports.ts';
import { newReportLink } from '../../api/report/persist.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { expect, test } from './fixtures.ts';

const HOUR = 60 * 60 * 1000;
const DNS_PROBLEM = 'We could not find smtp.summitlocal.example in DNS.';
const REFUSED = 'We connected to smtp.summitlocal.example:587 over TLS, but the server refused the recipient: 550 5.1.1 <dana.whitfield-longname@whitfield-family-dental.example>: Recipient address rejected: User unknown in virtual mailbox table.';

test('a client report waiting for the agency mail server, and one refused, say so where the agency looks', async ({ page, signIn, appCtx }, info) => {
  test.setTimeout(90_000);
  await signIn({ role: 'consultant', tier: 'agency', companyName: 'Summit Local' });
  const stamp = Date.now().toString(36);
  const clientEmail = uniqueEmail('dana');
  const created = await page.request.post('/api/clients', {
    data: { clientName: `Dana Whitfield ${stamp}`, clientEmail, company: `Whitfield Dental ${stamp}`, website: 'https://whitfield.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  });
  expect(created.status()).toBe(201);
  const clientId = ((await created.json()) as { id: string }).id;
  // The first report, made and sent by the server's worker (the consultant's copy of it is a row of
  // its own, type 'client-copy', which the client page does not list: decision 0215).
  const sentToClient = and(eq(reports.clientId, clientId), eq(reports.reportType, 'client'), eq(reports.emailSent, true));
  await expect.poll(async () => (await appCtx.db.select().from(reports).where(sentToClient)).length, { timeout: 45_000 }).toBe(1);
  const [first] = await appCtx.db.select().from(reports).where(sentToClient);
  const now = Date.now();
  // The first went out three hours ago; the two after it did not.
  await appCtx.db.update(reports).set({ createdAt: new Date(now - 3 * HOUR), emailSentAt: new Date(now - 3 * HOUR) }).where(eq(reports.id, first!.id));
  const copy = { businessId: first!.businessId, consultantId: first!.consultantId, clientId, brandingProfileId: first!.brandingProfileId, runId: first!.runId, reportType: 'client', data: first!.data, recipientEmail: clientEmail, ccEmail: first!.ccEmail };
  await appCtx.db.insert(reports).values({ ...copy, ...newReportLink(appCtx, new Date(now - 2 * HOUR)), failedAt: new Date(now - 90 * 60_000), mailProblem: REFUSED });
  await appCtx.db.insert(reports).values({ ...copy, ...newReportLink(appCtx, new Date(now - 30 * 60_000)), mailWaitingSince: new Date(now - 25 * 60_000), mailProblem: DNS_PROBLEM });

  await page.goto(`/clients/${clientId}`);
  const rows = page.getByTestId('report-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0).locator('.status-pill')).toHaveText('Waiting');
  await expect(rows.nth(0).locator('.report-problem')).toHaveText(new RegExp(`^Waiting for your mail server since \\w{3} \\d+, \\d{4}, \\d\\d:\\d\\d UTC\\. ${DNS_PROBLEM.replace(/\./g, '\\.')}$`));
  await expect(rows.nth(1).locator('.status-pill')).toHaveText('Failed');
  await expect(rows.nth(1).locator('.report-problem')).toHaveText(`Failed: ${REFUSED}`);
  await expect(rows.nth(2).locator('.status-pill')).toHaveText('Sent');
  await expect(rows.nth(2).locator('.report-problem')).toHaveCount(0);
  await page.getByRole('heading', { name: /^Reports sent/ }).scrollIntoViewIfNeeded();
  await look(page, { path: info.outputPath('client-page-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await look(page, { path: info.outputPath('client-page-390.png'), fullPage: true });

  // The portfolio: the client's last report sent, and under it the newer one that waits.
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/dashboard');
  const row = page.getByTestId('portfolio-row').filter({ hasText: `Dana Whitfield ${stamp}` });
  const last = row.locator('td[data-label="Last report"]');
  await expect(last).toContainText(/^\w{3} \d+, \d{4}/);
  await expect(last.locator('.report-problem')).toHaveText(new RegExp(`^Waiting for your mail server since .* UTC\\. ${DNS_PROBLEM.replace(/\./g, '\\.')}$`));
  await look(page, { path: info.outputPath('portfolio-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await look(page, { path: info.outputPath('portfolio-390.png'), fullPage: true });
});

test('the mail server form takes mail ports only and says why an address is refused', async ({ page, signIn }, info) => {
  await signIn({ role: 'consultant', tier: 'agency', companyName: 'Summit Local' });
  await page.goto('/branding');
  const section = page.getByTestId('mail-server');
  await section.getByRole('button', { name: 'Use My Own Mail Server' }).click();
  await section.getByLabel('SMTP host').fill('smtp.summitlocal.example');
  await section.getByLabel(/^Port/).fill('2526');
  await section.getByLabel(/^Send from/).fill('reports@summitlocal.example');
  // Refused in the browser, with the route's own message: nothing is sent.
  const puts: string[] = [];
  page.on('request', (r) => r.method() === 'PUT' && r.url().endsWith('/api/branding/mail-server') && puts.push(r.url()));
  await section.getByRole('button', { name: 'Save Mail Server' }).click();
  await expect(section.locator('#ms-port-error')).toHaveText('Use port 587 (STARTTLS), 465 (TLS), 25 or 2525');
  await expect(section.getByLabel(/^Port/)).toHaveAttribute('aria-invalid', 'true');
  expect(puts).toEqual([]);
  // Loopback in another spelling: the server says what it is.
  await section.getByLabel(/^Port/).fill('587');
  await section.getByLabel('SMTP host').fill('127.1');
  await section.getByRole('button', { name: 'Save Mail Server' }).click();
  await expect(section.locator('#ms-host-error')).toHaveText("127.1 is 127.0.0.1, a loopback address (this server itself). Enter your mail server's name or public address.");
  expect(puts).toHaveLength(1);
  await section.scrollIntoViewIfNeeded();
  await look(section, { path: info.outputPath('mail-server-form-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await look(section, { path: info.outputPath('mail-server-form-390.png') });
});
