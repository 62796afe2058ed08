// What an agency and its clients see is real and readable (issue 37): /widget's live preview shows
// the key's chosen client's score card (or says plainly why there is none); the DNS card on
// /branding reads at 320 px, copies each value and points the domain at an IP with an A record;
// the Local visibility card switches between the keywords' grids and shows the keywords in use;
// a trend of one analysis says "Not enough history yet" on a client's page as on the dashboard.
import { look } from './look.ts';
import { axe } from './axe.ts';
import { eq } from 'drizzle-orm';
import type { Page } from '@playwright/test';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { SearchLedger } from '../../api/report/analysis/visibility.ts';
import { persistReport } from '../../api/report/persist.ts';
import { reportInput } from '../../api/report/model/types.ts';
import { brandingProfiles, clients } from '../../db/schema/consultants.ts';
import { widgetKeys } from '../../db/schema/widget.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { createReportRequest } from '../helpers/report-requests.ts';
import { expect, test } from './fixtures.ts';

const WIDTHS = [1280, 390, 320] as const;

async function shoot(page: Page, name: string, width: number, target?: ReturnType<Page['locator']>) {
  await page.setViewportSize({ width, height: 900 });
  if (target) await look(target, { path: `test-results/screens/${name}-${width}.png` });
  else await look(page, { path: `test-results/screens/${name}-${width}.png`, fullPage: true });
}

/** axe finds nothing in the part of the page a test is about. */
async function expectAxeClean(page: Page, selector: string) {
  const results = await axe(page).include(selector).analyze();
  expect(results.violations, JSON.stringify(results.violations, null, 2)).toEqual([]);
}

/** Nothing on the page is wider than the window. */
const noSideScroll = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth);

/** The characters after which an element's text moves to a new line. */
const lineBreaksAfter = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => {
    const text = el.textContent ?? '';
    const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
    const tops: number[] = [];
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (let i = 0; i < node.textContent!.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        tops.push(Math.round(range.getBoundingClientRect().top));
      }
    }
    return tops.flatMap((top, i) => (i > 0 && top > tops[i - 1]! ? [text[i - 1]!] : []));
  });

test("/widget's live preview shows the chosen client's score card, or says why there is none", async ({ page, signIn, appCtx }) => {
  test.setTimeout(90_000);
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const consultantId = agency.viewer.consultant!.id;
  await appCtx.db.insert(brandingProfiles).values({ consultantId, companyName: 'Northstar Marketing', primaryColor: '#1E3A8A', secondaryColor: '#1E1B4B', accentColor: '#B45309', website: 'https://northstar.example', isDefault: true });
  const { business } = await seedBusiness(appCtx, { company: 'Whitfield Dental', snapshots: [{ daysAgo: 0, scores: { overall: 6.3, reviews: 5.4 } }] });
  const chosen = await addClient(appCtx, consultantId, business.id);
  const { business: fresh } = await seedBusiness(appCtx, { company: 'Ortiz Plumbing' });
  const waiting = await addClient(appCtx, consultantId, fresh.id);
  await appCtx.db.update(clients).set({ clientName: 'Luis Ortiz' }).where(eq(clients.id, waiting.id));
  const stamp = Date.now().toString(36).slice(-4);
  const key = (name: string, letter: string, scoreCardClientId: string | null) => ({ consultantId, name, publishableKey: `lr_pk_${letter.repeat(20)}${stamp}`, allowedHostnames: ['northstar.example'], components: ['score-card' as const], scoreCardClientId });
  await appCtx.db.insert(widgetKeys).values([key('Whitfield card', 'w', chosen.id), key('No client', 'n', null), key('Ortiz card', 'o', waiting.id)]);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto('/widget');
  const card = (name: string) => page.getByTestId('widget-key').filter({ has: page.getByRole('heading', { name }) }).locator('.widget-preview');

  const real = card('Whitfield card');
  await expect(real.getByTestId('score-card-preview-note')).toHaveText("Dana Whitfield's latest scores, as the widget shows them.");
  // The widget's own card (in its shadow root), with the client's figures from its latest report.
  await expect(real.getByText('Whitfield Dental', { exact: true })).toBeVisible();
  await expect(real.getByText(/^6\.3 \/ 10 overall · Rank #\d+ of 10 nearby$/)).toBeVisible();
  await expect(real.getByRole('listitem').filter({ hasText: 'Reviews' })).toHaveText('Reviews5.4');
  await expect(page.getByText('Sample Business')).toHaveCount(0);

  const none = card('No client');
  await expect(none.getByTestId('score-card-preview-note')).toHaveText('No client is chosen for the score card, so the widget says "No scores are published yet." Edit the key to choose the client whose scores it shows.');
  await expect(none.getByText('No scores are published yet.', { exact: true })).toBeVisible();
  await expect(none.getByText(/\/ 10 overall/)).toHaveCount(0);

  const noReport = card('Ortiz card');
  await expect(noReport.getByTestId('score-card-preview-note')).toHaveText('Luis Ortiz has no report yet, so the widget says "No scores are published yet." until the first report is made.');
  await expect(noReport.getByText('No scores are published yet.', { exact: true })).toBeVisible();

  await expectAxeClean(page, '.widget-preview');
  // At 320 px the key's facts are readable: a hostname on one line, not a letter per line.
  await page.setViewportSize({ width: 320, height: 800 });
  const hostname = page.getByTestId('widget-key').first().getByRole('definition').first();
  await expect(hostname).toHaveText('northstar.example');
  expect((await hostname.boundingBox())!.height).toBeLessThan(40);
  for (const width of WIDTHS) await shoot(page, 'widget-preview', width, page.getByTestId('widget-key').first());
});

test('the DNS card on /branding reads at 320 px, copies each value and points the domain at an IP with an A record', async ({ page, signIn, appCtx, baseURL }) => {
  test.setTimeout(90_000);
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Harbour Growth' });
  const domain = `reports-${Date.now().toString(36)}.harbour-growth.example`;
  await appCtx.db.insert(brandingProfiles).values({ consultantId: agency.viewer.consultant!.id, companyName: 'Harbour Growth', isDefault: true, customDomain: domain, domainToken: 'k3JdQ0s-TmV2ZXJHdWVzc2Vk', domainClaimedAt: new Date() });
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseURL! });

  await page.setViewportSize({ width: 320, height: 800 });
  await page.goto('/branding');
  const panel = page.getByTestId('domain-panel');
  await expect(panel).toContainText('Not verified yet');
  // The server is on an IP address (the test server's base address): an A record, never a CNAME to an IP.
  const pointing = panel.getByTestId('dns-record-A');
  await expect(pointing.getByRole('definition').first()).toHaveText('A');
  await expect(pointing.getByTestId('dns-A')).toHaveText(new URL(baseURL!).hostname);
  await expect(panel.getByTestId('dns-record-CNAME')).toHaveCount(0);
  await expect(panel).toContainText('so the domain points at it with an A record (a CNAME can only name a host name)');
  // Type, name and value on rows of their own, each labelled.
  const txt = panel.getByTestId('dns-record-TXT');
  for (const label of ['Type', 'Name', 'Value']) await expect(txt.getByRole('term').filter({ hasText: label })).toBeVisible();
  await expect(txt.getByTestId('dns-TXT-name')).toHaveText(`_report-domain.${domain}`);
  await expect(txt.getByTestId('dns-TXT')).toHaveText('report-domain-verification=k3JdQ0s-TmV2ZXJHdWVzc2Vk');
  expect(await noSideScroll(page)).toBe(true);
  // Each record's box, and every value and button in it, stays inside the card.
  const overflowing = await panel.evaluate((el) => {
    const right = el.getBoundingClientRect().right;
    return [...el.querySelectorAll('.dns-record, .dns-record code, .dns-record button')].filter((child) => child.getBoundingClientRect().right > right + 0.5).map((child) => child.textContent);
  });
  expect(overflowing).toEqual([]);
  // At 320 px the long names wrap after a dot, never inside a label; the type is one word on one line.
  for (const id of ['dns-TXT-name', 'dns-A-name']) for (const after of await lineBreaksAfter(page, id)) expect(after, id).toBe('.');
  const typeBox = await txt.locator('.dns-type').boundingBox();
  const typeLine = await txt.locator('.dns-type').evaluate((el) => parseFloat(getComputedStyle(el).lineHeight) || 20);
  expect(typeBox!.height).toBeLessThanOrEqual(typeLine * 1.5);

  // Copy: on the clipboard, and the button says so.
  await txt.getByRole('button', { name: "Copy the TXT record's value" }).click();
  await expect(txt.getByRole('button', { name: "Copied the TXT record's value" })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe('report-domain-verification=k3JdQ0s-TmV2ZXJHdWVzc2Vk');
  await txt.getByRole('button', { name: "Copy the TXT record's name" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`_report-domain.${domain}`);
  await expectAxeClean(page, '[data-testid="domain-panel"]');
  for (const width of WIDTHS) await shoot(page, 'branding-dns-card', width, panel);
  await shoot(page, 'branding-dns-page', 320);

  // A browser that refuses the clipboard: the value is selected instead, and the note says how to copy it.
  await page.addInitScript(() => Object.defineProperty(navigator, 'clipboard', { value: { writeText: () => Promise.reject(new Error('denied')) } }));
  await page.reload();
  await page.setViewportSize({ width: 320, height: 800 });
  const again = page.getByTestId('dns-record-A');
  await again.getByRole('button', { name: "Copy the A record's value" }).click();
  await expect(again.getByRole('status').filter({ hasText: 'Selected: press Ctrl+C' })).toBeVisible();
  expect(await page.evaluate(() => window.getSelection()?.toString())).toBe(new URL(baseURL!).hostname);
  await shoot(page, 'branding-dns-card-selected', 320, page.getByTestId('domain-panel'));
});

test("the Local visibility card switches between the keywords' grids and its field shows the keywords in use", async ({ page, appCtx, signIn }) => {
  test.setTimeout(90_000);
  const owner = await signIn({ tier: 'pro' });
  const { business } = await createReportRequest(appCtx, { userId: owner.userId, company: 'Barton Tab Dental', enqueue: false });
  const scan = await analyseBusiness(appCtx, reportInput(business), { ledger: new SearchLedger() });
  await persistReport(appCtx, { businessId: business.id, requestId: null, reportType: 'reanalysis', data: scan });
  const searched = scan.visibility!.keywords.map((k) => k.keyword);
  expect(searched.length).toBe(3);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/dashboard/${business.id}`);
  const card = page.getByTestId('visibility-card');
  // None saved: the field holds the three keywords the grids searched, and the card says whose they are.
  await expect(card.getByLabel(/^Keywords to search/)).toHaveValue(searched.join(', '));
  await expect(card.getByTestId('visibility-keywords-in-use')).toHaveText("No keywords saved: the grids search your category's usual keywords.");
  // A tab per keyword; the arrow keys move between them and the grid follows.
  const tabs = card.getByRole('tablist', { name: 'Grid for keyword' }).getByRole('tab');
  await expect(tabs).toHaveText(searched);
  await expect(tabs.first()).toHaveAttribute('aria-selected', 'true');
  await expect(card.getByRole('tabpanel').getByRole('img', { name: new RegExp(`^Your rank for "${searched[0]}" at each of 25 grid points`) })).toBeVisible();
  await tabs.first().focus();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.nth(1)).toBeFocused();
  await expect(tabs.nth(1)).toHaveAttribute('aria-selected', 'true');
  await expect(card.getByRole('tabpanel').getByRole('img', { name: new RegExp(`^Your rank for "${searched[1]}" at each of 25 grid points`) })).toBeVisible();
  const second = scan.visibility!.keywords[1]!;
  await expect(card.getByTestId('visibility-grid-caption')).toContainText(`"${searched[1]}": SoLV`);
  expect(second.keyword).toBe(searched[1]);
  await page.keyboard.press('End');
  await expect(tabs.nth(2)).toBeFocused();
  await expect(card.getByRole('tabpanel').getByRole('img', { name: new RegExp(`^Your rank for "${searched[2]}"`) })).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(tabs.first()).toBeFocused();
  await tabs.nth(2).click();
  await expectAxeClean(page, '[data-testid="visibility-card"]');
  for (const width of WIDTHS) await shoot(page, 'visibility-card-tabs', width, card);

  // Saving keywords marks those the grids searched and says when the others are searched.
  await page.setViewportSize({ width: 1280, height: 900 });
  await card.getByLabel(/^Keywords to search/).fill(`emergency dentist, ${searched[1]}`);
  await card.getByRole('button', { name: 'Save keywords' }).click();
  await expect(card.getByRole('status').filter({ hasText: 'Saved.' })).toBeVisible();
  await expect(tabs.nth(1)).toHaveAccessibleName(`${searched[1]} (saved)`);
  await expect(tabs.first()).toHaveAccessibleName(searched[0]!);
  await page.reload();
  await expect(card.getByLabel(/^Keywords to search/)).toHaveValue(`emergency dentist, ${searched[1]}`);
  await expect(card.getByTestId('visibility-keywords-in-use')).toHaveText(
    `Saved keywords: "emergency dentist", "${searched[1]}" (★ in the grids; the others are your category's usual keywords). "emergency dentist" is searched from the next analysis, as many as your plan's grid takes.`,
  );
  await expect(card.getByRole('rowheader', { name: `${searched[1]} (saved)` })).toBeVisible();
  await shoot(page, 'visibility-card-saved', 390, card);
});

test("a client's trend of one analysis says \"Not enough history yet\" as the dashboard does, with no chart", async ({ page, appCtx, signIn }) => {
  const consultant = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const { business } = await seedBusiness(appCtx, { company: 'Whitfield Dental', snapshots: [{ daysAgo: 0 }] });
  const client = await addClient(appCtx, consultant.viewer.consultant!.id, business.id);

  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(`/clients/${client.id}`);
  const trend = page.getByRole('region', { name: '90-day trend' });
  await expect(trend.getByTestId('trend-empty')).toHaveText(
    'Not enough history yet. The trend line needs at least two analyses in the last 90 days; there is one so far. Whitfield Dental is re-analysed every week, so the line starts with the next analysis.',
  );
  await expect(trend.getByTestId('trend-chart')).toHaveCount(0);
  await expectAxeClean(page, '.chart-grid');
  for (const width of WIDTHS) await shoot(page, 'client-trend-one-point', width, trend);
});
