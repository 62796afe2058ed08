// The online report names how each website was met (issue 38, decision 0217): the business's
// site refusing automated visitors in the executive summary, each competitor's state in the
// website column and, with its reason, in the notes. Screenshots at 1280 and 390 px.
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
  await page.screenshot({ path: 'test-results/screens/website-states-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByText(/^Your website refuses automated visitors/).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/website-states-mobile.png' });
  // The website column, scrolled to on a phone.
  const scroller = page.getByRole('region', { name: "Every business's scores (table)", exact: true });
  await scroller.evaluate((el) => el.scrollTo({ left: el.scrollWidth }));
  await scroller.getByRole('cell', { name: 'Refuses automated visitors' }).scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-results/screens/website-states-mobile-table.png' });
});
