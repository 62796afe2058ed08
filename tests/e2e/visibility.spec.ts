// Local visibility on the online report (the grid: rank per cell, coloured by band, the business
// outlined; SoLV/ARP/ATRP; every business's SoLV; the listing against the market) and the
// dashboard's Local visibility card, from the real analysis with the sample provider; axe finds nothing.
import { look } from './look.ts';
import { axe } from './axe.ts';
import { eq } from 'drizzle-orm';
import { closeMailer } from '../../api/email/mailer.ts';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { SearchLedger } from '../../api/report/analysis/visibility.ts';
import { reportGenerateJob } from '../../api/report/generate-job.ts';
import { persistReport } from '../../api/report/persist.ts';
import { reportInput } from '../../api/report/model/types.ts';
import { reports } from '../../db/schema/reports.ts';
import { createReportRequest } from '../helpers/report-requests.ts';
import { expect, test } from './fixtures.ts';

test('the online report shows the local visibility grid, the metrics and every business\'s SoLV', async ({ page, appCtx, baseURL }) => {
  const ctx = { ...appCtx, env: { ...appCtx.env, PUBLIC_BASE_URL: baseURL! } };
  const { business, request } = await createReportRequest(ctx, { company: 'Zilker Grid Dental', enqueue: false });
  const job = reportGenerateJob({ analyse: (c, input) => analyseBusiness(c, input) });
  await job.run(ctx, { id: 'e2e-grid', type: 'report.generate', payload: { requestId: request.id, businessId: business.id }, attempts: 1, progress: {} }, { saveProgress: async () => {}, signal: new AbortController().signal });
  closeMailer(ctx);
  const report = (await ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))[0]!;

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/report/${report.token}`);
  const section = page.getByRole('region', { name: 'Local visibility' });
  await expect(section).toBeVisible();
  await expect(section).toContainText(/Share of Local Voice \d+\.\d{2}% · ARP/);
  await expect(section).toContainText('simulated by the sample data provider');
  await expect(section).toContainText(/A 3×3 grid of local searches centred on your business, reaching \d+\.\d{2} miles each way/);
  const grid = section.getByRole('img', { name: /^Your rank for "dentist" at each of 9 grid points/ });
  await expect(grid).toBeVisible();
  await expect(grid.locator('g')).toHaveCount(9);
  await expect(grid.locator('rect.you')).toHaveCount(1);
  // Every business's SoLV, in the visibility table and in the competitor table.
  await expect(page.getByRole('region', { name: 'Share of Local Voice, business by business (table)' }).locator('tbody tr')).toHaveCount(10);
  const compare = page.getByRole('region', { name: "Every business's scores (table)", exact: true });
  await expect(compare.getByRole('columnheader', { name: 'SoLV' })).toBeVisible();
  await expect(compare.locator('tbody tr').first().locator('td').nth(5)).toHaveText(/^\d+\.\d{2}%$/);

  // The listing and the homepage's local signals against the market, gaps with what to do.
  const listing = page.getByRole('region', { name: 'Your listing against the market (table)' });
  await expect(listing.getByRole('rowheader', { name: 'Opening hours' })).toBeVisible();
  await expect(listing.locator('tbody tr').first().locator('td').nth(1)).toHaveText(/^\d+ of 9$/);
  const signals = page.getByRole('region', { name: 'Local signals on your homepage against the market (table)' });
  await expect(signals.locator('tbody tr')).toHaveCount(6);

  const results = await axe(page).include('[data-testid="visibility"]').include('[data-testid="listing-vs-market"]').analyze();
  expect(results.violations, JSON.stringify(results.violations, null, 2)).toEqual([]);
  // The section as laid out in the page (a full-page capture, so the sticky top bar stays at the top).
  const box = await section.evaluate((el) => { const r = el.getBoundingClientRect(); return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height }; });
  await look(page, { path: 'test-results/screens/visibility-online.png', fullPage: true, clip: box });
});

test('the dashboard\'s Local visibility card shows the latest grid, SoLV per keyword and the SoLV trend', async ({ page, appCtx, signIn }) => {
  const owner = await signIn({ tier: 'pro' });
  const { business } = await createReportRequest(appCtx, { userId: owner.userId, company: 'Barton Grid Dental', enqueue: false });
  const scan = await analyseBusiness(appCtx, reportInput(business), { ledger: new SearchLedger() });
  // A week ago the business was in the top 3 nowhere (SoLV 0); today's scan is the real one.
  const weekAgo = structuredClone(scan);
  for (const k of weekAgo.visibility!.keywords) k.ranks[weekAgo.business.place.placeId] = k.ranks[weekAgo.business.place.placeId]!.map(() => null);
  weekAgo.business.dataPoints.find((p) => p.key === 'visibility.solv')!.value = 0;
  await persistReport(appCtx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: weekAgo });
  await new Promise((r) => setTimeout(r, 5));
  await persistReport(appCtx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: scan });
  const solv = (scan.business.dataPoints.find((p) => p.key === 'visibility.solv')!.value as number).toFixed(2);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboard/${business.id}`);
  const card = page.getByTestId('visibility-card');
  await expect(card.getByRole('heading', { name: 'Local visibility' })).toBeVisible();
  await expect(card).toContainText(`Share of Local Voice ${solv}%`);
  // Pro: a 5×5 grid on 3 keywords.
  await expect(card.getByRole('img', { name: /^Your rank for "dentist" at each of 25 grid points/ })).toBeVisible();
  await expect(card.locator('.vis-keywords tbody tr')).toHaveCount(3);
  await expect(card.getByRole('img', { name: new RegExp(`^Share of Local Voice at each analysis: .* 0\\.00%, .* ${solv.replace('.', '\\.')}%\\.$`) })).toBeVisible();
  // Choosing the keywords: saved, said so, kept for the next analysis.
  await card.getByLabel(/^Keywords to search/).fill('emergency dentist, kids dentist');
  await card.getByRole('button', { name: 'Save keywords' }).click();
  await expect(card.getByRole('status')).toHaveText('Saved. The next analysis searches "emergency dentist", "kids dentist" first.');
  await card.getByLabel(/^Keywords to search/).fill('x');
  await card.getByRole('button', { name: 'Save keywords' }).click();
  await expect(card.getByRole('status')).toHaveText('Each keyword needs at least 2 characters');
  const results = await axe(page).include('[data-testid="visibility-card"]').analyze();
  expect(results.violations, JSON.stringify(results.violations, null, 2)).toEqual([]);
  await look(card, { path: 'test-results/screens/visibility-dashboard-card.png' });
});
