// An agency whose plan lapsed still reads and exports its widget leads; a pale branding profile
// gets a warning on /branding and reports that read: the online report passes axe's colour
// contrast (the brand-tinted "you" row included) and the PDF's first page draws in the darker shade.
import { look } from './look.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { axe } from './axe.ts';
import { eq } from 'drizzle-orm';
import { pdfPagePng } from '../../api/report/render/pdf-page.ts';
import { captureLead, createKey } from '../../api/services/widget.ts';
import { createClient } from '../../api/services/clients.ts';
import { consultantAccessFor } from '../../api/services/plans/consultant-access.ts';
import { users } from '../../db/schema/auth.ts';
import { consultants } from '../../db/schema/consultants.ts';
import { reports } from '../../db/schema/reports.ts';
import { expect, test } from './fixtures.ts';

test('a lapsed agency still sees and exports its leads, and the widget tells the visitor the report is delayed', async ({ page, signIn, appCtx }, info) => {
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Quay Digital' });
  const access = await consultantAccessFor(appCtx, agency.userId, 'widget');
  const key = await createKey({ ctx: appCtx, access, input: { name: 'Main site', allowedHostnames: ['quay.example'], components: ['report-form'], leadEmails: 'each', brandingProfileId: null, scoreCardClientId: null } as never });
  const stamp = Date.now().toString(36);
  const lead = (email: string) => ({ fullName: 'Mina Cole', email, company: `Cole Bakery ${stamp}`, role: 'owner' as const, website: 'https://colebakery.example.com', address: '200 Congress Ave', city: 'Austin', state: 'TX' as const, zip: '78701', consent: true as const });
  const keyRow = (await appCtx.db.query.widgetKeys.findFirst({ where: (k, { eq: is }) => is(k.id, key.id) }))!;
  const requester = { ip: '127.0.0.1', userAgent: 'e2e', userId: null };
  await captureLead({ ctx: appCtx, key: keyRow, origin: 'https://quay.example', input: lead(`before-${stamp}@cole.example`), requester });

  // The plan lapses (past its grace period): the next visitor is told the report is delayed.
  await appCtx.db.update(users).set({ subscriptionStatus: 'suspended' }).where(eq(users.id, agency.userId));
  await appCtx.db.update(consultants).set({ subscriptionStatus: 'suspended' }).where(eq(consultants.userId, agency.userId));
  const late = await captureLead({ ctx: appCtx, key: keyRow, origin: 'https://quay.example', input: lead(`after-${stamp}@cole.example`), requester });
  expect(late.delivery).toBe('later');
  expect(late.thanks.text).toContain('will not arrive in the usual 15-30 minutes');

  await page.goto('/widget');
  await expect(page.getByTestId('widget-lapsed')).toContainText('Your widgets still take requests');
  const rows = page.getByTestId('lead-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.first()).toContainText('Queued');
  await expect(page.getByRole('button', { name: 'Convert to client' })).toHaveCount(0);
  await look(page, { path: info.outputPath('widget-lapsed.png'), fullPage: true });
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export CSV' }).click()]);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv).toContain(`before-${stamp}@cole.example`);
  expect(csv).toContain(`after-${stamp}@cole.example`);
});

test('a pale profile is warned about on /branding, and its report reads: axe colour contrast passes, the PDF draws in the darker shade', async ({ page, signIn, appCtx }, info) => {
  test.setTimeout(90_000);
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Sunny Side Marketing' });
  await page.goto('/branding');
  await page.getByRole('button', { name: 'New Profile' }).click();
  await page.getByLabel('Company name (shown instead of LocalRank)').fill('Sunny Side Marketing');
  await page.getByLabel('Primary colour', { exact: true }).fill('#F5F5A0');
  await page.getByLabel('Accent colour', { exact: true }).fill('#FDE68A');
  const warning = page.getByTestId('palette-warning');
  await expect(warning).toContainText('Primary colour #F5F5A0 is too pale to see on white');
  await expect(warning).toContainText('Accent colour #FDE68A');
  await look(warning, { path: info.outputPath('branding-warning.png') });
  await look(page, { path: info.outputPath('branding-pale.png'), fullPage: true });
  await page.getByRole('button', { name: 'Save Profile' }).click();
  await expect(page.getByTestId('profile-card')).toContainText('Sunny Side Marketing');

  const access = await consultantAccessFor(appCtx, agency.userId, 'clientManagement');
  const stamp = Date.now().toString(36);
  const client = await createClient({ ctx: appCtx, access, input: { clientName: 'Ravi Shah', clientEmail: `ravi-${stamp}@client.example`, company: `Shah Optics ${stamp}`, website: 'https://shahoptics.example.com', address: '200 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' } });
  let token = '';
  await expect
    .poll(async () => {
      const [row] = await appCtx.db.select().from(reports).where(eq(reports.clientId, client.id));
      return (token = row?.emailSent ? row.token! : '');
    }, { timeout: 45_000 })
    .not.toBe('');

  await page.goto(`/report/${token}`);
  await expect(page.getByTestId('brand-masthead')).toContainText('Sunny Side Marketing');
  await expect(page.locator('tr.you').first()).toBeVisible();
  const contrast = await axe(page).withRules(['color-contrast']).analyze();
  expect(contrast.violations.flatMap((v) => v.nodes.map((n) => n.target.join(' ')))).toEqual([]);
  await look(page, { path: info.outputPath('report-pale.png'), fullPage: true });

  const pdf = await page.request.get(`/api/reports/${token}/report.pdf`);
  expect(pdf.status()).toBe(200);
  // Its first page, drawn by PDFium, to look at.
  writeFileSync(info.outputPath('report-pale-page-1.png'), await pdfPagePng(await pdf.body(), 0, 1.2));
});

test('an account without the Agency plan is offered it on /widget and /branding, named for the screen', async ({ page, signIn }) => {
  // A consultant on Pro who never had the widget: no "your widgets still take requests".
  await signIn({ role: 'consultant', tier: 'pro', companyName: 'Pro Consulting' });
  await page.goto('/widget');
  await expect(page.getByRole('heading', { name: 'Website Widget' })).toBeVisible();
  await expect(page.getByText('The embeddable widget is part of the Agency plan.')).toBeVisible();
  await expect(page.getByTestId('widget-lapsed')).toHaveCount(0);
  await page.goto('/branding');
  await expect(page.getByRole('heading', { name: 'Branding' })).toBeVisible();
  await expect(page.getByText('Branding profiles and white-label reports are part of the Agency plan.')).toBeVisible();

  // A business owner is told these are consultant screens, not that clients are.
  await page.context().clearCookies();
  await signIn({ role: 'client', tier: 'pro' });
  await page.goto('/branding');
  await expect(page.getByText('Branding profiles and white-label reports are for consultant accounts on the Agency plan.')).toBeVisible();
  await page.goto('/widget');
  await expect(page.getByText('The embeddable widget is for consultant accounts on the Agency plan.')).toBeVisible();
});
