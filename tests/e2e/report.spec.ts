// The online report behind the signed link, and the dev mailbox that shows the e-mail.
import { look } from './look.ts';
import { eq } from 'drizzle-orm';
import { businesses } from '../../db/schema/businesses.ts';
import { expect, test } from './fixtures.ts';
import { seedReport } from './report-seed.ts';
import { axe } from './axe.ts';
import { createUser } from '../helpers/factories.ts';
import { saveScan } from '../../api/services/ai-visibility/store.ts';

test('a valid link shows the full report without signing in', async ({ page, appCtx, baseURL }) => {
  // The report is made and drawn in the test process (PDF included), then a scan is added: a generous ceiling.
  test.slow();
  const { token, business } = await seedReport(appCtx, baseURL!, { company: 'Barton Springs Dental' });
  // On a paid plan with a scan of AI answers (issue 50), the report has the section.
  const owner = await createUser(appCtx, { tier: 'pro' });
  await appCtx.db.update(businesses).set({ userId: owner.userId }).where(eq(businesses.id, business.id));
  await saveScan(appCtx, business.id, {
    keyword: 'dentist', location: 'Austin, TX', question: 'best dentist in Austin, TX', scannedAt: new Date().toISOString(), sample: false,
    engines: [
      { engine: 'openai', asked: 5, answered: 5, failed: 0, named: 3, averagePosition: 1.7, sources: [{ domain: 'yelp.com', count: 4, kind: 'review_site' }] },
      { engine: 'perplexity', asked: 5, answered: 3, failed: 2, named: 0, averagePosition: null, sources: [] },
      { engine: 'gemini', asked: 0, answered: 0, failed: 0, named: 0, averagePosition: null, notAsked: 'no GEMINI_API_KEY is set', sources: [] },
    ],
    competitors: [{ name: 'Zilker Dental Studio', engines: [{ engine: 'openai', named: 2, averagePosition: 2 }] }],
    cost: { calls: 12, inputTokens: 0, outputTokens: 0, usd: 0 },
  });
  const res = await page.goto(`/report/${token}`);
  expect(res?.status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1, name: 'Barton Springs Dental' })).toBeVisible();
  await expect(page.getByText(/Market rank #\d+ of 10/)).toBeVisible();
  await expect(page.getByRole('note')).toContainText('Example figures, not your real listings.');
  await expect(page.getByRole('heading', { name: 'Executive summary' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'How to read the scores' })).toBeVisible();
  await expect(page.getByRole('img', { name: /^Radar chart of the four scores out of 10/ })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What to do first' })).toBeVisible();
  await expect(page.locator('.recs > li')).toHaveCount(5);
  await expect(page.getByRole('region', { name: 'How you compare' }).locator('tbody tr')).toHaveCount(10);
  // Two landmarks, two names: the section, and the table's scrolling region inside it.
  await expect(page.getByRole('region', { name: "Every business's scores (table)", exact: true }).locator('tbody tr')).toHaveCount(10);
  const names = await page.getByRole('region').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label') ?? document.getElementById(e.getAttribute('aria-labelledby') ?? '')?.textContent ?? ''));
  expect(new Set(names).size, names.join(' | ')).toBe(names.length);
  // Wide enough for the whole table: no scroll hint.
  await page.setViewportSize({ width: 1400, height: 900 });
  await expect(page.getByText('Scroll the table sideways to see every score.')).toBeHidden();
  // One section per score, each with its breakdown: source, raw, normalised, weight, contribution.
  for (const [key, name] of Object.entries({ reviews: 'Online Reviews', digitalPresence: 'Digital Presence', engagement: 'Customer Engagement', marketShare: 'Market Share' })) {
    await expect(page.getByRole('region', { name }).locator(`#score-${key}`)).toHaveText(name);
  }
  const reviews = page.getByRole('region', { name: 'Online Reviews: every data point' });
  await expect(reviews.getByRole('columnheader')).toHaveText(['Data point', 'Source', 'Raw value', 'Normalised', 'Weight', 'Contribution']);
  await expect(reviews.locator('tfoot')).toContainText(/weight measured/);
  await expect(page.getByRole('link', { name: 'Read the full method and every weight' }).first()).toHaveAttribute('href', '/methodology');
  await expect(page.getByText(/open this link again to save the report/)).toBeVisible();
  const pdf = await page.request.get(`/api/reports/${token}/report.pdf`);
  expect(pdf.headers()['content-type']).toBe('application/pdf');
  const ai = page.getByTestId('report-ai-answers');
  await expect(ai.getByRole('heading', { level: 2, name: 'AI answers' })).toBeVisible();
  await expect(ai.locator('tbody tr')).toHaveText([/named in 3 of 5 answers\s*1\.7/, /named in none of 3 answers2 of 5 asks failed and are not countedUncertain: only 3 answers came back/, /Not asked/]);
  await expect(ai).toContainText('Also named: Zilker Dental Studio (2 of 8)');
  await expect(ai).not.toContainText('%');
  expect((await axe(page).include('[data-testid="report-ai-answers"]').analyze()).violations).toEqual([]);
  await look(ai, { path: 'test-results/screens/report-ai-desktop.png' });
  await look(page, { path: 'test-results/screens/report-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await look(page, { path: 'test-results/screens/report-mobile.png', fullPage: false });
  await ai.scrollIntoViewIfNeeded();
  await look(ai, { path: 'test-results/screens/report-ai-mobile.png' });
});

test('an expired link gets a clear page with status 410', async ({ page, appCtx, baseURL }) => {
  const { token } = await seedReport(appCtx, baseURL!, { expired: true });
  const res = await page.goto(`/report/${token}`);
  expect(res?.status()).toBe(410);
  await expect(page.getByRole('heading', { name: 'This report link has expired' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Get a new free report' })).toHaveAttribute('href', '/#report-form');
  await look(page, { path: 'test-results/screens/report-expired.png' });
});

test('an unknown link gets a clear page with status 404', async ({ page }) => {
  const res = await page.goto(`/report/${'Z'.repeat(32)}`);
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'Report not found' })).toBeVisible();
});

test('a signed-in visitor saves the business to their account, with a press made before the button has loaded', async ({ page, appCtx, signIn, baseURL }) => {
  const { token, business } = await seedReport(appCtx, baseURL!);
  const user = await signIn();
  // The button's script is held back: the press comes before it, as on a slow phone.
  let release!: () => void;
  const held = new Promise<void>((done) => (release = done));
  await page.route(/\/_astro\/save-report\.[\w-]+\.js$/, async (route) => {
    await held;
    await route.continue();
  });
  const posts: string[] = [];
  page.on('request', (r) => void (r.method() === 'POST' && posts.push(new URL(r.url()).pathname)));
  await page.goto(`/report/${token}`);
  await page.getByRole('button', { name: 'Save to my account' }).click();
  await expect(page.locator('astro-island[ssr]').getByRole('button', { name: 'Save to my account' })).toBeVisible();
  expect(posts).toEqual([]);
  release();
  await expect(page.getByRole('link', { name: 'Saved to your account' })).toHaveAttribute('href', `/dashboard/${business.id}`);
  const row = (await appCtx.db.select().from(businesses).where(eq(businesses.id, business.id)))[0]!;
  expect(row.userId).toBe(user.userId);
  expect(posts).toEqual([`/api/reports/${token}/save`]);
  await page.reload();
  await expect(page.getByRole('link', { name: 'Saved to your account' })).toBeVisible();
});

test('the dev mailbox lists the report e-mail and opens it', async ({ page, appCtx, baseURL }) => {
  const { business } = await seedReport(appCtx, baseURL!, { company: 'Mailbox Test Bakery' });
  await page.goto('/dev/mailbox');
  await expect(page.getByRole('heading', { name: 'Mailbox' })).toBeVisible();
  const item = page.getByRole('link', { name: /Your LocalRank report \(example figures, not your real listings\): Mailbox Test Bakery ranks #\d+ of 10/ });
  await expect(item).toContainText(`To ${business.email}`);
  await page.setViewportSize({ width: 390, height: 844 });
  await look(page, { path: 'test-results/screens/mailbox-list-mobile.png' });
  await page.setViewportSize({ width: 1280, height: 720 });
  await item.click();
  await expect(page.getByRole('heading', { level: 1, name: /Mailbox Test Bakery/ })).toBeVisible();
  await expect(page.getByText('List-Unsubscribe=One-Click')).toBeVisible();
  await expect(page.getByRole('link', { name: /mailbox-test-bakery-localrank-report-example-figures\.pdf/ })).toBeVisible();
  await expect(page.getByRole('link', { name: /score-card\.png.*inline/ })).toBeVisible();
  const frame = page.frameLocator('iframe.frame');
  await expect(frame.getByRole('link', { name: 'View your full report' })).toBeVisible();
  const link = await frame.getByRole('link', { name: 'View your full report' }).getAttribute('href');
  await look(page, { path: 'test-results/screens/mailbox-message.png', fullPage: true });
  await page.goto(link!);
  await expect(page.getByRole('heading', { level: 1, name: 'Mailbox Test Bakery' })).toBeVisible();
});

test('the unsubscribe link asks first, then unsubscribes', async ({ page, appCtx, baseURL }) => {
  const { token } = await seedReport(appCtx, baseURL!);
  await page.goto(`/unsubscribe?token=${token}`);
  await expect(page.getByRole('heading', { name: 'Unsubscribe from LocalRank e-mail?' })).toBeVisible();
  await page.getByRole('button', { name: 'Unsubscribe' }).click();
  await expect(page.getByRole('heading', { name: 'You are unsubscribed' })).toBeVisible();
  const res = await page.goto('/unsubscribe?token=not-a-real-token-at-all');
  expect(res?.status()).toBe(404);
  await expect(page.getByRole('heading', { name: 'This unsubscribe link is not valid' })).toBeVisible();
});

test('an all-missing report shows no invented figure on the online page: no score, rank or share', async ({ page, appCtx, baseURL }) => {
  const { token } = await seedReport(appCtx, baseURL!, {
    company: 'Nothing Measured Dental',
    edit: (data) => {
      for (const p of [data.business, ...data.competitors]) {
        p.scores = { reviews: null, digitalPresence: null, engagement: null, marketShare: null, overall: null, marketSharePercent: null };
        for (const k of ['reviews', 'digitalPresence', 'engagement', 'marketShare'] as const) p.breakdown[k] = { ...p.breakdown[k], score: null, measuredWeight: 0, coverage: 0, parts: p.breakdown[k].parts.map((x) => ({ ...x, raw: 'Unknown', normalised: null, contribution: null, status: 'unknown' as const })) };
        for (const d of p.dataPoints) Object.assign(d, { value: null, status: 'unknown' });
      }
      data.recommendations = [];
    },
  });
  await page.goto(`/report/${token}`);
  const summary = page.getByRole('region', { name: 'Scores', exact: true });
  await expect(summary).toContainText('Not enough data');
  await expect(summary).toContainText('Share of the reviews in this market: Not enough data');
  // The bands' ranges ("7.5-8.49") are the scale, not a score.
  const text = ((await summary.innerText()) + (await page.locator('.legend').innerText())).replace(/\d+(\.\d+)?-\d+(\.\d+)?/g, '');
  expect(text).not.toMatch(/\d+\.\d{2}|%|#\d+ of/);
  await expect(page.locator('.legend')).toContainText('A score says how much of the best value a business reaches');
  await look(page, { path: 'test-results/screens/report-all-missing.png', fullPage: false });
});
