// The online report of a business with no competitor within the radius (issue 38, decision 0216):
// no rank, no share, no Market Share score and no "you lead", said where each would be; and its
// score tiles at 1000 px (and on a tablet and a phone) with every word on one line.
import { look } from './look.ts';
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import type { ReportData } from '../../api/report/model/types.ts';
import { expect, test } from './fixtures.ts';
import { seedReport } from './report-seed.ts';

/** A market of one: the competitor search found nobody within the radius. */
function alone(data: ReportData) {
  data.competitors = [];
  data.business.scores = { ...data.business.scores, marketShare: null, marketSharePercent: null };
  data.business.rank = 1;
}

/** Words of the elements' text whose rendered boxes sit on more than one line ("O/nli/ne"). */
function brokenWords(page: Page, selector: string) {
  return page.evaluate((sel) => {
    const out: string[] = [];
    for (const el of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
          const range = document.createRange();
          range.setStart(node, m.index!);
          range.setEnd(node, m.index! + m[0].length);
          const tops = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (tops.size > 1) out.push(`${m[0]} (${tops.size} lines)`);
        }
      }
    }
    return out;
  }, selector);
}

test('no competitor within the radius: no rank, no share, no Market Share score, said on the page', async ({ page, appCtx, baseURL }) => {
  const { token } = await seedReport(appCtx, baseURL!, { company: 'Prairie Creek Dental', edit: alone });
  mkdirSync('test-results/screens', { recursive: true });
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 1000 });
    await page.goto(`/report/${token}`);
    await look(page, { path: `test-results/screens/report-no-market-${width}.png`, fullPage: false });
  }
  const main = page.locator('main');
  await expect(main).toContainText('no dentist competitor within 20 miles');
  await expect(page.locator('.overall .rank')).toHaveText('Market rank No market');
  await expect(page.locator('.overall')).toContainText('Share of the reviews in this market: No market');
  await expect(page.locator('a.metric[href="#score-marketShare"] .metric-score')).toHaveText('No market');
  await expect(page.locator('section.exec')).toContainText('No market to rank you in: no other dentist was found within 20 miles');
  await expect(page.locator('#score-marketShare').locator('..')).toContainText('No market');
  const text = await main.innerText();
  expect(text).not.toMatch(/#1 of 1|you lead|100\.00% of the reviews|top 0/);
});

for (const width of [1000, 700, 390]) {
  test(`the score tiles break no word inside at ${width} px`, async ({ page, appCtx, baseURL }) => {
    const { token } = await seedReport(appCtx, baseURL!, { company: 'Bright Smile Dental' });
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/report/${token}`);
    await expect(page.locator('a.metric')).toHaveCount(4);
    await page.evaluate(() => document.fonts.ready);
    mkdirSync('test-results/screens', { recursive: true });
    await look(page.locator('section.summary'), { path: `test-results/screens/report-tiles-${width}.png` });
    expect(await brokenWords(page, 'section.summary')).toEqual([]);
  });
}
