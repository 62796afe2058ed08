// What a web address is, on screen (issue 46, decision 0230): the online report of a business
// whose website is its Facebook page names it in the executive summary and gives "Give your
// business a website of its own"; each competitor's kind is in the website column; the
// dashboard's own row names a social page and a certificate warning. Screenshots at 1280 and 390 px.
import { look } from './look.ts';
import { and, eq } from 'drizzle-orm';
import { businessMetrics } from '../../db/schema/businesses.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { expect, test } from './fixtures.ts';
import { seedReport } from './report-seed.ts';

test('a Facebook page given as the website is named, and each competitor\'s kind of address is in the table', async ({ page, appCtx, baseURL }, info) => {
  const { token } = await seedReport(appCtx, baseURL!, {
    company: 'Rosa\'s Tamales',
    edit: (data) => {
      const b = data.business;
      b.place.website = 'https://www.facebook.com/RosasTamalesATX';
      b.website = { state: 'social', detail: 'a Facebook page', slow: false, scriptRendered: false, unseen: 0 };
      data.recommendations.unshift({ lever: 'site.own', title: 'Give your business a website of its own', detail: 'The website you gave is a page on another platform.', score: 'digitalPresence', gain: 6.5, evidence: [] });
      data.recommendations.length = 5;
      const kinds = [
        { state: 'parked', detail: 'a parked or for-sale domain page' },
        { state: 'placeholder', detail: 'a web server\'s default page ("Welcome to nginx!")' },
        { state: 'password', detail: 'HTTP 401, a login box (Basic)' },
        { state: 'cert_error', detail: 'an expired certificate (expired 2025-03-01)' },
        { state: 'error_page', detail: 'HTTP 404: the homepage answers with an error page' },
        { state: 'link_in_bio', detail: 'a Linktree link-in-bio page' },
      ] as const;
      kinds.forEach((k, i) => {
        const c = data.competitors[i]!;
        c.place.website = `https://competitor-${i}.example/`;
        c.website = { ...k, slow: false, scriptRendered: false, unseen: 0 };
      });
    },
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/report/${token}`);
  await expect(page.getByText(/^The website you gave is a Facebook page, not a website of your own: nothing of the platform's page/)).toBeVisible();
  await expect(page.getByText('Give your business a website of its own').first()).toBeVisible();
  await expect(page.getByText('Get your website back up')).toHaveCount(0);
  const table = page.getByRole('region', { name: 'How you compare' });
  for (const label of ['Social page, no own site', 'Parked domain', 'Placeholder page', 'Password protected', 'Certificate warning', 'Answers with an error', 'Link-in-bio, no own site']) await expect(table.getByRole('cell', { name: label, exact: true })).toBeVisible();
  await expect(table.getByRole('cell', { name: 'Did not answer', exact: true })).toHaveCount(0);
  await look(page, { path: info.outputPath('website-kinds-desktop.png'), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByText(/^The website you gave is a Facebook page/).scrollIntoViewIfNeeded();
  await look(page, { path: info.outputPath('website-kinds-mobile.png') });
});

test("the dashboard's own row names a social page and a certificate warning", async ({ page, appCtx, signIn }, info) => {
  const owner = await signIn({ tier: 'pro' });
  const { runs } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Rosa\'s Tamales', snapshots: [{ daysAgo: 1 }] });
  const own = page.getByTestId('own-row').locator('[data-label="Website"]');
  for (const [state, label] of [['social', 'Social page, no own site'], ['cert_error', 'Certificate warning']] as const) {
    await appCtx.db.update(businessMetrics).set({ techStackData: { read: false, reason: 'a Facebook page', state } }).where(and(eq(businessMetrics.runId, runs[0]!), eq(businessMetrics.isMainBusiness, true)));
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.goto('/dashboard');
    // The dashboard hydrates before its table shows: waited for, with a generous ceiling.
    await expect(own).toHaveText(label, { timeout: 60_000 });
    // Not a working site: not marked as one.
    await expect(own.locator('.site.yes')).toHaveCount(0);
    for (const width of [1280, 390]) {
      await page.setViewportSize({ width, height: 900 });
      await own.scrollIntoViewIfNeeded();
      await look(page, { path: info.outputPath(`dashboard-own-${state}-${width}.png`) });
    }
  }
});
