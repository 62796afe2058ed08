// The online report names how each website was met (issue 38, decision 0217): the business's
// site refusing automated visitors in the executive summary, each competitor's state in the
// website column and, with its reason, in the notes; the dashboard's own row. Screenshots at 1280
// and 390 px.
import { look } from './look.ts';
import { and, eq } from 'drizzle-orm';
import { businessMetrics } from '../../db/schema/businesses.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { expect, test } from './fixtures.ts';
import { seedReport } from './report-seed.ts';

test('a site refusing automated visitors is named, never told to get back up; each competitor\'s state is in the table', async ({ page, appCtx, baseURL }) => {
  const { token } = await seedReport(appCtx, baseURL!, {
    company: 'Bright Smile Dental',
    edit: (data) => {
      const b = data.business;
      b.place.website = 'https://brightsmile.example/';
      b.website = { state: 'refused', detail: 'a Cloudflare block or challenge page (HTTP 503)', slow: false, scriptRendered: false, unseen: 0 };
      for (const p of b.dataPoints) {
        // The fixture's website points (its keys are its own): not seen.
        if (/^(digitalPresence|engagement)\./.test(p.key) && !/listing|review|response/.test(p.key)) Object.assign(p, { status: 'unknown', value: null, unseen: true });
      }
      b.website.unseen = b.dataPoints.filter((p) => p.unseen).length;
      const states = [
        { state: 'down', detail: 'no DNS answer for its domain' },
        { state: 'slow', detail: 'still arriving after 8.0 s' },
        { state: 'too_large', detail: '10.0 MB of HTML; the first 1.9 MB read' },
        { state: 'script_rendered', detail: 'the HTML is a shell a script fills in' },
      ] as const;
      states.forEach((s, i) => {
        const c = data.competitors[i]!;
        c.place.website = `https://competitor-${i}.example/`;
        c.website = { ...s, slow: s.state === 'slow', scriptRendered: s.state === 'script_rendered', unseen: 0 };
      });
      data.notes.push('Competitors\' websites not read in full: ' + states.map((s, i) => `${data.competitors[i]!.place.name}: ${s.detail}`).join('; ') + '.');
    },
  });
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/report/${token}`);
  await expect(page.getByText(/^Your website refuses automated visitors \(a Cloudflare block or challenge page \(HTTP 503\)\): it is up, .* so \d+ website checks \(.+\) are not measured/)).toBeVisible();
  await expect(page.getByText('Get your website back up')).toHaveCount(0);
  const table = page.getByRole('region', { name: 'How you compare' });
  await expect(table.getByRole('cell', { name: 'Refuses automated visitors' })).toBeVisible();
  for (const label of ['Did not answer', 'Works, slowly', 'Works, very large page', 'Works, drawn by JavaScript']) await expect(table.getByRole('cell', { name: label, exact: true })).toBeVisible();
  await look(page, { path: 'test-results/screens/website-states-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByText(/^Your website refuses automated visitors/).scrollIntoViewIfNeeded();
  await look(page, { path: 'test-results/screens/website-states-mobile.png' });
  // The website column, scrolled to on a phone.
  const scroller = page.getByRole('region', { name: "Every business's scores (table)", exact: true });
  await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await scroller.getByRole('cell', { name: 'Refuses automated visitors' }).scrollIntoViewIfNeeded();
  await look(page, { path: 'test-results/screens/website-states-mobile-table.png' });
});

test("the dashboard's own row names how the business's website was met", async ({ page, appCtx, signIn }, info) => {
  const owner = await signIn({ tier: 'pro' });
  const { runs } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Bright Smile Dental', snapshots: [{ daysAgo: 1 }] });
  await appCtx.db.update(businessMetrics).set({ techStackData: { read: false, reason: 'refuses automated visitors: a refusal (HTTP 403)', state: 'refused' } }).where(and(eq(businessMetrics.runId, runs[0]!), eq(businessMetrics.isMainBusiness, true)));
  await page.goto('/dashboard');
  const own = page.getByTestId('own-row').locator('[data-label="Website"]');
  await expect(own).toHaveText('Refuses automated visitors');
  // Competitors keep the spec's words.
  await expect(page.getByTestId('competitor-table').getByText('Available', { exact: true }).first()).toBeVisible();
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await own.scrollIntoViewIfNeeded();
    await look(page, { path: info.outputPath(`dashboard-own-website-${width}.png`) });
  }
});
