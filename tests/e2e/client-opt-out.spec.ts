// The agency sees what its clients get (issue 37): a client's report and the agency's copy are
// two e-mails; the client pressing Unsubscribe (one-click, as a mail app does) pauses its reports,
// and the client page and the portfolio say so instead of showing the next report as planned.
// Screenshots at 1280 and 390 px.
import { look } from './look.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { addClient } from './clients.ts';
import { expect, test } from './fixtures.ts';

const outbox = () => join(process.env.E2E_DATA_DIR!, 'outbox');
/** The messages to an address (its To: line), oldest first. */
const mailsTo = (address: string) =>
  existsSync(outbox())
    ? readdirSync(outbox())
        .filter((f) => f.endsWith('.eml'))
        .sort()
        .map((f) => readFileSync(join(outbox(), f), 'utf8'))
        .filter((m) => m.split(/\r?\n/).includes(`To: ${address}`))
    : [];

test('a client who unsubscribed: the client page and the portfolio say so, and nothing is sent', async ({ page, signIn, baseURL }, info) => {
  test.setTimeout(90_000);
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const stamp = Date.now().toString(36);
  const dana = { name: `Dana Whitfield ${stamp}`, email: `dana-${stamp}@client.example`, company: `Whitfield Dental ${stamp}`, zip: '78701' };

  await page.goto('/clients');
  await addClient(page, dana);
  // The client's e-mail and the agency's own copy: two messages, no Cc.
  await expect.poll(() => mailsTo(dana.email).length, { timeout: 45_000 }).toBe(1);
  // (The agency's own address may also have its sign-up e-mail, sent before the test user was made.)
  const copies = () => mailsTo(agency.email).filter((m) => /^Subject: Copy of the report sent to /m.test(m));
  await expect.poll(() => copies().length, { timeout: 15_000 }).toBe(1);
  expect(mailsTo(dana.email)[0]).not.toMatch(/^Cc:/m);
  const copy = await PostalMime.parse(copies()[0]!);
  expect(copy.subject).toMatch(new RegExp(`^Copy of the report sent to ${dana.name}`));

  // Dana's mail app unsubscribes her with one click (RFC 8058).
  const toDana = await PostalMime.parse(mailsTo(dana.email)[0]!);
  const unsubscribe = /^<([^>]+)>/.exec(toDana.headers.find((h) => h.key === 'list-unsubscribe')!.value)![1]!;
  const url = new URL(unsubscribe);
  const res = await page.request.post(`${baseURL}${url.pathname}${url.search}`, { form: { 'List-Unsubscribe': 'One-Click' } });
  expect(res.status()).toBe(200);

  await page.goto('/clients');
  await page.getByRole('link', { name: dana.name }).click();
  await expect(page.getByRole('heading', { level: 1, name: dana.company })).toBeVisible();
  const notice = page.getByTestId('client-unsubscribed');
  await expect(notice).toContainText(new RegExp(`^${dana.name} unsubscribed on \\w{3} \\d{1,2}, \\d{4}; reports paused\\.`));
  await expect(page.getByRole('button', { name: 'Send report now' })).toBeDisabled();
  await expect(page.locator('.client-facts')).toContainText('Paused');
  await expect(page.getByTestId('report-copy')).toHaveText('Your copy: sent');
  await look(page, { path: info.outputPath('client-unsubscribed-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await look(page, { path: info.outputPath('client-unsubscribed-390.png'), fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // A send asked for all the same is refused with the reason.
  const send = await page.request.post(`${baseURL}/api/clients/${/\/clients\/([^/?#]+)/.exec(page.url())![1]}/send`, { data: { to: 'client' } });
  expect(send.status()).toBe(409);
  expect((await send.json()).message).toContain(`${dana.name} unsubscribed from these reports on`);

  await page.goto('/dashboard');
  const row = page.getByTestId('portfolio-row').filter({ hasText: dana.name });
  await expect(row.getByTestId('portfolio-unsubscribed')).toHaveText(new RegExp(`^${dana.name} unsubscribed on .+; reports paused\\.$`));
  await look(page, { path: info.outputPath('portfolio-unsubscribed-1280.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await look(page, { path: info.outputPath('portfolio-unsubscribed-390.png'), fullPage: true });
});
