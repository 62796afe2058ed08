// An agency's report domain in the browser: added on /branding, its TXT record checked through DNS
// (the test server's local DNS server), then a client's white-label report opened from the e-mail
// on that domain, which serves nothing else; an unknown host is refused.
import { look } from './look.ts';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { addClient } from './clients.ts';
import { addSessionCookie, expect, test } from './fixtures.ts';
import { createUser } from '../helpers/factories.ts';

// Both tests write the DNS server's records (one file): one after the other.
test.describe.configure({ mode: 'serial' });
const txtFile = () => join(process.env.E2E_DATA_DIR!, 'dns-txt.json');
const publishTxt = (name: string, values: string[]) => writeFileSync(txtFile(), JSON.stringify({ ...(existsSync(txtFile()) ? JSON.parse(readFileSync(txtFile(), 'utf8')) : {}), [name]: values }));

const outbox = () => join(process.env.E2E_DATA_DIR!, 'outbox');
/** The first e-mail to `address` (with `subject`, when given: an account's own mail, such as its
 *  address confirmation, may be there too). */
async function mailTo(address: string, subject?: string) {
  for (const file of existsSync(outbox()) ? readdirSync(outbox()).filter((f) => f.endsWith('.eml')).sort() : []) {
    const mail = await PostalMime.parse(readFileSync(join(outbox(), file)));
    if (mail.to?.some((a) => a.address === address) && (subject === undefined || mail.subject === subject)) return mail;
  }
  return null;
}

/** The server's status for a path under a Host header (Node resolves no *.localhost: straight to the loopback port). */
const statusAt = (port: string, host: string, path: string) =>
  new Promise<number>((resolve, reject) => {
    request({ host: '127.0.0.1', port: Number(port), path, headers: { host: `${host}:${port}` } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    })
      .on('error', reject)
      .end();
  });

test("a client's white-label report opens from the e-mail on the agency's verified domain", async ({ page, signIn, baseURL }, info) => {
  test.setTimeout(90_000);
  await signIn({ role: 'consultant', tier: 'agency', companyName: 'Harbour Growth' });
  const stamp = Date.now().toString(36);
  // *.localhost resolves to this machine in Chromium: the agency's host, served by the test server.
  const domain = `reports-${stamp}.harbour.localhost`;
  const port = new URL(baseURL!).port;

  await page.goto('/branding');
  await page.getByRole('button', { name: 'New Profile' }).click();
  await page.getByLabel('Company name (shown instead of LocalRank)').fill('Harbour Growth');
  await page.getByLabel('Footer text (every page and e-mail)').fill('Harbour Growth LLC · 9 Dock St, Austin, TX 78702');
  await page.getByRole('button', { name: 'Save Profile' }).click();
  const card = page.getByTestId('profile-card');
  await card.getByLabel('Report domain (optional)').fill(domain);
  await card.getByRole('button', { name: 'Add' }).click();
  const panel = card.getByTestId('domain-panel');
  await expect(panel).toContainText('Not verified yet');
  await panel.getByRole('button', { name: 'Check DNS' }).click();
  await expect(panel.getByRole('alert')).toContainText('No TXT record');
  // The agency adds the TXT record at its DNS host.
  const value = await panel.getByTestId('dns-TXT').innerText();
  publishTxt(`_report-domain.${domain}`, [value]);
  await panel.getByRole('button', { name: 'Check DNS' }).click();
  await expect(panel).toContainText('Verified');
  await look(page, { path: info.outputPath('branding-domain.png'), fullPage: true });

  await page.goto('/clients');
  const email = `lena-${stamp}@client.example`;
  await addClient(page, { name: `Lena Park ${stamp}`, email, company: `Park Dental ${stamp}`, zip: '78701' });

  await expect.poll(() => mailTo(email), { timeout: 45_000 }).toBeTruthy();
  const mail = (await mailTo(email))!;
  const links = [...mail.html!.matchAll(/href="(https?:[^"]+)"/g)].map((m) => m[1]!);
  expect(links.length).toBeGreaterThanOrEqual(2);
  for (const link of links) expect(new URL(link).host).toBe(`${domain}:${port}`);
  const reportLink = links.find((l) => l.includes('/report/'))!;

  await page.goto(reportLink);
  await expect(page).toHaveURL(new RegExp(`^http://${domain.replace(/\./g, '\\.')}:${port}/report/`));
  await expect(page.getByTestId('brand-masthead')).toContainText('Harbour Growth');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  expect(await page.locator('body').innerText()).not.toMatch(/LocalRank/);
  await look(page, { path: info.outputPath('report-on-domain.png'), fullPage: false });
  // The PDF from the same host; nothing else there; an unknown host is refused.
  const token = new URL(reportLink).pathname.split('/').pop()!;
  expect(await statusAt(port, domain, `/api/reports/${token}/report.pdf`)).toBe(200);
  for (const path of ['/', '/account', '/api/auth/me', '/dashboard']) expect(await statusAt(port, domain, path), path).toBe(404);
  expect(await statusAt(port, `unknown-${stamp}.localhost`, '/')).toBe(421);
  expect(await statusAt(port, `unknown-${stamp}.localhost`, `/report/${token}`)).toBe(421);
});

test('a claim holds nothing until verified: the owner verifies, the squatter sees its claim released and is e-mailed', async ({ page, browser, signIn, appCtx, baseURL }, info) => {
  test.setTimeout(90_000);
  const stamp = Date.now().toString(36);
  const domain = `reports-${stamp}.agency-a.localhost`;
  const profile = async (p: typeof page, name: string) => {
    await p.goto('/branding');
    await p.getByRole('button', { name: 'New Profile' }).click();
    await p.getByLabel('Company name (shown instead of LocalRank)').fill(name);
    await p.getByRole('button', { name: 'Save Profile' }).click();
    const card = p.getByTestId('profile-card');
    await card.getByLabel('Report domain (optional)').fill(domain);
    await card.getByRole('button', { name: 'Add' }).click();
    return card;
  };
  /** The page at 1280 and 390 px, toasts closed and scrolled to the top (the bar is sticky). */
  const shoot = async (p: typeof page, name: string) => {
    for (const close of await p.getByRole('button', { name: 'Close' }).all()) await close.click();
    for (const width of [1280, 390]) {
      await p.setViewportSize({ width, height: 900 });
      await p.evaluate(() => window.scrollTo(0, 0));
      await look(p, { path: info.outputPath(`${name}-${width}.png`), fullPage: true });
    }
    await p.setViewportSize({ width: 1280, height: 900 });
  };

  // Agency B claims agency A's domain first: its screen says the claim holds nothing yet.
  const squatter = await signIn({ role: 'consultant', tier: 'agency', companyName: `Squat Media ${stamp}` });
  const squatterCard = await profile(page, 'Squat Media');
  const claim = squatterCard.getByTestId('domain-panel');
  await expect(claim).toContainText('Not verified yet');
  await expect(claim.getByTestId('domain-claim')).toContainText('whoever verifies the domain first gets it');
  await expect(claim.getByTestId('domain-claim')).toContainText('Unverified, it ends on');
  await claim.getByRole('button', { name: 'Check DNS' }).click();
  await expect(claim.getByRole('alert')).toContainText('No TXT record');
  await shoot(page, 'branding-claim-unverified');

  // Agency A, in its own browser, claims it too (not refused) and verifies with its TXT record.
  const owner = await createUser(appCtx, { role: 'consultant', tier: 'agency', companyName: `Agency A ${stamp}` });
  const ownerContext = await browser.newContext({ baseURL });
  const ownerPage = await ownerContext.newPage();
  await addSessionCookie(ownerPage, owner.cookie, baseURL!);
  const ownerCard = await profile(ownerPage, 'Agency A');
  const ownerPanel = ownerCard.getByTestId('domain-panel');
  await expect(ownerPanel).toContainText('Not verified yet');
  publishTxt(`_report-domain.${domain}`, [await ownerPanel.getByTestId('dns-TXT').innerText()]);
  await ownerPanel.getByRole('button', { name: 'Check DNS' }).click();
  await expect(ownerPanel).toContainText('Verified');
  await ownerContext.close();

  // B's screen: the claim is gone, with the reason; B's e-mail says so too.
  await page.reload();
  const note = page.getByTestId('profile-card').getByTestId('domain-released');
  await expect(note).toContainText(`${domain} is no longer claimed by this profile`);
  await expect(note).toContainText('another account proved it controls the domain');
  await shoot(page, 'branding-claim-released');
  await expect.poll(() => mailTo(squatter.email, `Your claim on ${domain} was released`), { timeout: 45_000 }).toBeTruthy();
  await note.getByRole('button', { name: 'Dismiss' }).click();
  await expect(note).toHaveCount(0);
  await expect(page.getByTestId('profile-card').getByLabel('Report domain (optional)')).toBeVisible();
});
