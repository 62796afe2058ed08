// An agency's report domain in the browser: added on /branding, its TXT record checked through DNS
// (the test server's local DNS server), then a client's white-label report opened from the e-mail
// on that domain, which serves nothing else; an unknown host is refused.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import { addClient } from './clients.ts';
import { expect, test } from './fixtures.ts';

const outbox = () => join(process.env.E2E_DATA_DIR!, 'outbox');
async function mailTo(address: string) {
  for (const file of existsSync(outbox()) ? readdirSync(outbox()).filter((f) => f.endsWith('.eml')).sort() : []) {
    const mail = await PostalMime.parse(readFileSync(join(outbox(), file)));
    if (mail.to?.some((a) => a.address === address)) return mail;
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
  writeFileSync(join(process.env.E2E_DATA_DIR!, 'dns-txt.json'), JSON.stringify({ [`_report-domain.${domain}`]: [value] }));
  await panel.getByRole('button', { name: 'Check DNS' }).click();
  await expect(panel).toContainText('Verified');
  await page.screenshot({ path: info.outputPath('branding-domain.png'), fullPage: true });

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
  await page.screenshot({ path: info.outputPath('report-on-domain.png'), fullPage: false });
  // The PDF from the same host; nothing else there; an unknown host is refused.
  const token = new URL(reportLink).pathname.split('/').pop()!;
  expect(await statusAt(port, domain, `/api/reports/${token}/report.pdf`)).toBe(200);
  for (const path of ['/', '/account', '/api/auth/me', '/dashboard']) expect(await statusAt(port, domain, path), path).toBe(404);
  expect(await statusAt(port, `unknown-${stamp}.localhost`, '/')).toBe(421);
  expect(await statusAt(port, `unknown-${stamp}.localhost`, `/report/${token}`)).toBe(421);
});
