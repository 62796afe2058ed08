// The online report on a phone (issue 40): at 320, 390 and 1000 px no text box prints over
// another, no word is broken inside across two lines, no card clips what it holds, and what
// scrolls sideways is a named region the keyboard reaches. The report is a real analysis on the
// sample provider (listing, homepage signals, visibility grid), its businesses renamed with long
// names in several scripts. Every <details> is opened so its tables are measured too.
import { look } from './look.ts';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime from 'postal-mime';
import type { ReportData } from '../../api/report/model/types.ts';
import { expect, test } from './fixtures.ts';
import { seedReport } from './report-seed.ts';
import { textLayout } from './text-layout.ts';

const LONG_NAME = 'Oberhausen-Wetherington Comprehensive Family and Cosmetic Dentistry of Greater Austin';
const NAMES = [
  'عيادة الابتسامة المشرقة لطب الأسنان والتقويم',
  'Стоматологическая клиника «Улыбка» на Конгресс-авеню',
  '奥斯汀家庭牙科诊所',
  'Nha Khoa Gia Đình Sài Gòn Austin và Cộng Sự',
  'Οδοντιατρική Κλινική Αυστίν',
  'ऑस्टिन पारिवारिक दंत चिकित्सा केंद्र',
  'Saint-Jean-Baptiste Orthodontics & Pediatric Dentistry Associates',
  'Mueller Dental Studio',
  'Lakeline',
];

function rename(data: ReportData) {
  data.business.place.name = LONG_NAME;
  data.competitors.forEach((c, i) => (c.place.name = NAMES[i % NAMES.length]!));
}

/** The HTML of the newest e-mail to `to` in the server's outbox. */
async function mailHtml(to: string): Promise<string> {
  const dir = join(process.env.E2E_DATA_DIR!, 'outbox');
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.eml')).sort().reverse() : [];
  for (const file of files) {
    const mail = await PostalMime.parse(readFileSync(join(dir, file)));
    if (mail.to?.some((a) => a.address?.toLowerCase() === to.toLowerCase()) && mail.html) return mail.html;
  }
  throw new Error(`no e-mail to ${to}`);
}

// 700: a tablet, where the summary's grid and the tables change their layout.
for (const width of [320, 390, 700, 1000, 1280]) {
  test(`the online report's text fits its boxes at ${width} px`, async ({ page, appCtx, baseURL }, testInfo) => {
    testInfo.setTimeout(90_000);
    const { token, business } = await seedReport(appCtx, baseURL!, { company: LONG_NAME, analysed: true, edit: rename });
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/report/${token}`);
    await expect(page.getByTestId('listing-vs-market')).toBeVisible();
    await expect(page.getByTestId('visibility')).toBeVisible();
    await page.evaluate(() => document.querySelectorAll('details').forEach((d) => (d.open = true)));
    await page.evaluate(() => document.fonts.ready);
    const found = await textLayout(page);
    for (const [name, section] of Object.entries({ summary: page.locator('section.summary'), compare: page.locator('section[aria-labelledby="competitors"]'), visibility: page.getByTestId('visibility'), listing: page.getByTestId('listing-vs-market'), reviews: page.locator('section[aria-labelledby="score-reviews"]') })) {
      await look(section, { path: `test-results/screens/report-layout-${width}-${name}.png` });
    }
    mkdirSync('test-results/screens', { recursive: true });
    writeFileSync(`test-results/screens/report-layout-${width}.json`, JSON.stringify(found, null, 1));
    console.log(`${width} px: ${found.brokenWords.length} broken words, ${found.overlaps.length} overlaps, ${found.clipped.length} clipped, ${found.unnamedScrollers.length} unnamed scrollers`);
    expect.soft(found.brokenWords, 'words broken across lines').toEqual([]);
    expect.soft(found.overlaps, 'text printed over text').toEqual([]);
    expect.soft(found.clipped, 'boxes that clip their text').toEqual([]);
    expect.soft(found.unnamedScrollers, 'scrolling boxes without a name or keyboard focus').toEqual([]);
    expect(found.pageOverflow, 'the page scrolls sideways').toBe(0);

    // The e-mail that links to it, as a phone's mail app shows it.
    await page.goto('about:blank');
    await page.setContent(await mailHtml(business.email));
    const mail = await textLayout(page, 'body');
    await look(page, { path: `test-results/screens/report-mail-${width}.png`, fullPage: true });
    console.log(`${width} px e-mail: ${mail.brokenWords.length} broken words, ${mail.overlaps.length} overlaps, ${mail.clipped.length} clipped`);
    expect.soft(mail, 'the e-mail').toEqual({ brokenWords: [], overlaps: [], clipped: [], unnamedScrollers: [], pageOverflow: 0 });
  });
}
