// The business dashboard in the browser, in every state: owner, consultant with a client,
// stranger, free user, signed out, no business, unknown id, still processing, scores as strings.
import { look } from './look.ts';
import { execFileSync } from 'node:child_process';
import { marketRank, SAMPLE_DATA_LABEL, SAMPLE_DATA_NOTE } from '../../common/constants.ts';
import { CONSENT_TEXT } from '../../common/schemas/report-request-rules.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';
import { expect, test } from './fixtures.ts';
import { axe } from './axe.ts';
import { saveScan } from '../../api/services/ai-visibility/store.ts';
import { SAMPLE_AI_LABEL } from '../../common/ai-visibility.ts';

const DAY = 24 * 60 * 60 * 1000;
const HISTORY = [
  { daysAgo: 60, scores: { overall: 6.1, reviews: 6.6 } },
  { daysAgo: 30, scores: { overall: 6.4, reviews: 6.8 } },
  { daysAgo: 7, scores: { overall: 6.9, reviews: 7 } },
  { daysAgo: 1, scores: { overall: 7.25, reviews: 8.5 } },
];
const fmtDate = (t: number) => new Date(t).toLocaleDateString('en-US', { month: 'long', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

test('the owner sees scores, ranks, real charts with deltas from history, and the competitors', async ({ page, appCtx, signIn }) => {
  // Every part of the dashboard, the AI answers with axe included: a generous ceiling.
  test.slow();
  const owner = await signIn({ tier: 'pro' });
  const now = Date.now();
  const { business } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Lamar Smiles Dental', snapshots: HISTORY, now });
  // Two scans of AI answers (issue 50), sample answers, the latest with a failed ask and an engine short of answers.
  const engines = (named: number, failedOpenai: number) => [
    { engine: 'openai' as const, asked: 5, answered: 5 - failedOpenai, failed: failedOpenai, named, averagePosition: named ? 1.5 : null, sources: [{ domain: 'yelp.com', count: 3, kind: 'review_site' as const }, { domain: 'lamarsmiles.example', count: 1, kind: 'own' as const }] },
    { engine: 'perplexity' as const, asked: 5, answered: 5, failed: 0, named: 1, averagePosition: 3, sources: [{ domain: 'healthgrades.com', count: 4, kind: 'review_site' as const }] },
    { engine: 'gemini' as const, asked: 5, answered: 2, failed: 3, named: 2, averagePosition: 2, sources: [] },
  ];
  const scan = { keyword: 'dentist', location: 'Austin, TX', question: 'best dentist in Austin, TX', sample: true, competitors: [{ name: 'Congress Avenue Dental', engines: [{ engine: 'openai' as const, named: 4, averagePosition: 1 }] }], cost: { calls: 0, inputTokens: 0, outputTokens: 0, usd: 0 } };
  await saveScan(appCtx, business.id, { ...scan, scannedAt: new Date(now - 30 * DAY).toISOString(), engines: engines(1, 0) });
  await saveScan(appCtx, business.id, { ...scan, scannedAt: new Date(now - DAY).toISOString(), engines: engines(3, 1) });
  await page.goto('/dashboard');

  await expect(page.getByRole('heading', { level: 1, name: 'Lamar Smiles Dental' })).toBeVisible();
  await expect(page.locator('.dash-head .muted')).toContainText('Austin, TX · Last analysed');
  await expect(page.getByTestId('overall-score')).toHaveText('7.25/10');
  await expect(page.getByRole('note')).toContainText(`${SAMPLE_DATA_LABEL}. ${SAMPLE_DATA_NOTE}`);
  const fixture = reportDataFixture({ seed: 42 });
  const rank = marketRank(7.25, [7.25, ...fixture.competitors.map((c) => c.scores.overall!)]);
  await expect(page.getByTestId('market-rank')).toHaveText(`#${rank} of 10`);

  // Deltas: the latest snapshot against the one before it (7 days ago), not fixed numbers.
  const since = fmtDate(now - 7 * DAY);
  await expect(page.locator('.kpi .delta')).toHaveText(`▲ +0.35 since ${since}`);
  await expect(page.getByTestId('metric-reviews').locator('.delta')).toHaveText(`▲ +1.50 since ${since}`);
  await expect(page.getByTestId('metric-reviews')).toContainText('8.50/10');
  const reviewRank = marketRank(8.5, [8.5, ...fixture.competitors.map((c) => c.scores.reviews!)]);
  await expect(page.getByTestId('metric-reviews')).toContainText(`Rank #${reviewRank}`);
  for (const key of ['digitalPresence', 'engagement', 'marketShare']) await expect(page.getByTestId(`metric-${key}`)).toContainText(/Rank #\d+/);
  // One unit per figure: the Market Share score is 1-10 and drawn as such; the review share is a labelled percent.
  await expect(page.getByTestId('review-share')).toHaveText(/^Review share: \d+\.\d{2}% of local reviews$/);
  const share = await page.getByTestId('metric-marketShare').locator('.metric-score').innerText();
  expect(share).toMatch(/^\d+\.\d{2}\/10$/);
  await expect(page.getByTestId('metric-marketShare').locator('[class^="band-bg-solid-"]')).toHaveAttribute('style', `width: ${Number(share.split('/')[0]) * 10}%;`);
  // The spec's colour bands and bars: 7.25 is 'fair' (7 or more) with a 72.5% bar; 8.50 'excellent'.
  await expect(page.getByTestId('overall-score')).toHaveClass(/band-fair/);
  await expect(page.locator('.kpi [class^="band-bg-solid-"]')).toHaveAttribute('style', 'width: 72.5%;');
  await expect(page.getByTestId('metric-reviews').locator('.metric-score')).toHaveClass(/band-excellent/);
  await expect(page.getByTestId('metric-reviews').locator('[class^="band-bg-solid-"]')).toHaveAttribute('style', 'width: 85%;');

  // Trend: one line per series, one point per snapshot in the 90 days.
  const trend = page.getByTestId('trend-chart');
  await expect(trend.locator('polyline')).toHaveCount(5);
  await expect(trend.locator('[data-series="overall"] circle')).toHaveCount(4);
  await expect(trend).toHaveAttribute('aria-label', /from 6\.10 .* to 7\.25 .* 4 snapshots/);
  await page.getByRole('button', { name: 'Digital Presence' }).click();
  await expect(trend.locator('polyline')).toHaveCount(4);
  await expect(page.getByTestId('radar-chart').locator('[data-series="business"]')).toBeVisible();
  await expect(page.getByTestId('radar-chart').locator('[data-series="market"]')).toBeVisible();

  // The business and its 9 competitors by rank: its own row highlighted, the ranks never skip a
  // number; competitors' websites only as Available or N/A, ratings coloured; details for the first 5.
  const rows = page.getByTestId('competitor-table').locator('tbody tr');
  await expect(rows).toHaveCount(10);
  const own = page.getByTestId('own-row');
  await expect(own.getByRole('rowheader')).toContainText(`${await page.getByRole('heading', { level: 1 }).innerText()} (you)`);
  await expect(own).toHaveClass(/\byou\b/);
  await expect(own.locator('[data-label="Rank"]')).toHaveText(await page.getByTestId('market-rank').innerText().then((t) => t.replace(/ of \d+$/, '')));
  const ranks = (await rows.locator('[data-label="Rank"]').allInnerTexts()).map((r) => Number(r.slice(1)));
  ranks.forEach((r, i) => expect(r === i + 1 || r === ranks[i - 1], `rank ${r} in row ${i + 1}`).toBe(true));
  await expect(page.getByTestId('competitor-table').getByText('N/A', { exact: true })).toHaveCount(1);
  await expect(page.getByTestId('competitor-table').getByText('Available', { exact: true })).toHaveCount(8);
  await expect(page.getByTestId('competitor-table')).not.toContainText('https://');
  await expect(page.locator('.rating')).toHaveCount(9);
  for (const { place } of fixture.competitors) {
    const row = rows.filter({ hasText: place.name });
    const colour = place.rating! >= 4 ? 'green' : place.rating! >= 3 ? 'yellow' : 'red';
    await expect(row.locator('.rating')).toHaveClass(new RegExp(`rating-${colour}`));
    await expect(row.locator('[data-label="Distance"]')).toHaveText(`${place.distanceMiles.toFixed(2)} mi`);
  }
  await expect(page.getByTestId('competitor-detail')).toHaveCount(5);
  // Not enterprise: no Early Warning link, no badge.
  await expect(page.getByText('Enterprise+')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Early Warning' })).toHaveCount(0);

  // AI answers: counts, never percentages; failures apart; uncertainty; the sample label; the history.
  const ai = page.getByTestId('ai-answers');
  await expect(ai.getByRole('heading', { level: 2, name: 'AI answers' })).toBeVisible();
  await expect(ai.getByTestId('ai-sample')).toHaveText(SAMPLE_AI_LABEL);
  const aiRows = ai.getByTestId('ai-engine-table').locator('tbody tr');
  await expect(aiRows.nth(0)).toContainText('named in 3 of 4 answers1 of 5 asks failed and is not countedUncertain: only 4 answers came back');
  await expect(aiRows.nth(1)).toContainText('named in 1 of 5 answers');
  await expect(aiRows.nth(1)).not.toContainText('Uncertain');
  await expect(aiRows.nth(2)).toContainText('named in 2 of 2 answers3 of 5 asks failed');
  await expect(ai).toContainText('Also named: Congress Avenue Dental (4 of 11)');
  await expect(ai).toContainText('healthgrades.com (review site, 4), yelp.com (review site, 3), lamarsmiles.example (your website, 1)');
  await expect(ai).not.toContainText('%');
  await ai.getByText('History of “dentist” (2 scans)').click();
  await expect(ai.locator('.ai-history li')).toHaveText([/: named in 6 of 11 answers \(sample\)$/, /: named in 4 of 12 answers \(sample\)$/]);
  expect((await axe(page).include('[data-testid="ai-answers"]').analyze()).violations).toEqual([]);
  await look(ai, { path: 'test-results/screens/dashboard-ai-desktop.png' });

  await look(page, { path: 'test-results/screens/dashboard-desktop.png', fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await ai.scrollIntoViewIfNeeded();
  await look(ai, { path: 'test-results/screens/dashboard-ai-mobile.png' });
  await page.evaluate(() => window.scrollTo(0, 0));
  await look(page, { path: 'test-results/screens/dashboard-mobile.png' });
  await trend.scrollIntoViewIfNeeded();
  await look(page, { path: 'test-results/screens/dashboard-mobile-charts.png' });
  await page.getByTestId('competitor-table').scrollIntoViewIfNeeded();
  await look(page, { path: 'test-results/screens/dashboard-mobile-table.png' });
});

test('an enterprise owner gets the Early Warning link and the Enterprise+ badge; consultantId text grants nothing', async ({ page, appCtx, signIn }) => {
  const pro = await signIn({ tier: 'pro' });
  const { business: proBusiness } = await seedBusiness(appCtx, { userId: pro.userId, snapshots: [{ daysAgo: 1 }] });
  await page.goto(`/dashboard/${proBusiness.id}?consultantId=enterprise-white-label`);
  await expect(page.getByTestId('dashboard')).toBeVisible();
  await expect(page.getByText('Enterprise+')).toHaveCount(0);

  await page.context().clearCookies();
  const enterprise = await signIn({ tier: 'enterprise' });
  const { business } = await seedBusiness(appCtx, { userId: enterprise.userId, company: 'Zilker Orthodontics', snapshots: [{ daysAgo: 1 }] });
  await page.goto(`/dashboard/${business.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Zilker Orthodontics' })).toBeVisible();
  await expect(page.getByText('Enterprise+', { exact: true })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Early Warning' })).toHaveAttribute('href', `/early-warning/${business.id}`);
  // One snapshot: the charts say plainly that there is not enough history yet.
  await expect(page.getByTestId('trend-empty')).toContainText('Not enough history yet');
  await expect(page.getByTestId('trend-empty')).toContainText('Your business is re-analysed every week, so the line starts with the next analysis.');
  await expect(page.locator('.kpi .delta')).toHaveText('First snapshot: change shows after the next analysis');
});

test("a consultant opens a client's dashboard; another consultant gets no business", async ({ page, appCtx, signIn }) => {
  const owner = await signIn({ tier: 'free' });
  const { business } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Hyde Park Bakery', snapshots: HISTORY });
  await page.context().clearCookies();
  const consultant = await signIn({ role: 'consultant', tier: 'agency' });
  await addClient(appCtx, consultant.viewer.consultant!.id, business.id);
  await page.goto(`/dashboard/${business.id}?consultantId=${consultant.viewer.consultant!.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Hyde Park Bakery' })).toBeVisible();
  await expect(page.getByText('Enterprise+', { exact: true })).toBeVisible();

  await page.context().clearCookies();
  const stranger = await signIn({ role: 'consultant', tier: 'agency' });
  await page.goto(`/dashboard/${business.id}?consultantId=${stranger.viewer.consultant!.id}`);
  await expect(page.getByRole('heading', { name: 'No Business Analysis Found' })).toBeVisible();
  await expect(page.getByText('Hyde Park Bakery')).toHaveCount(0);
});

test('the switcher moves between the consultant\'s own business and a client\'s, and the consultant\'s /dashboard is the portfolio of both', async ({ page, appCtx, signIn }) => {
  const owner = await signIn({ tier: 'free' });
  const { business: client } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Clarksville Florist', snapshots: [{ daysAgo: 1 }] });
  await page.context().clearCookies();
  const consultant = await signIn({ role: 'consultant', tier: 'agency' });
  const { business: own } = await seedBusiness(appCtx, { userId: consultant.userId, company: 'Mueller Marketing Studio', snapshots: [{ daysAgo: 1 }] });
  await addClient(appCtx, consultant.viewer.consultant!.id, client.id);

  // Issue 25: a consultant's /dashboard lists every business it looks after; a row opens one.
  await page.goto('/dashboard');
  await expect(page.getByTestId('portfolio-row')).toHaveCount(2);
  await page.getByRole('link', { name: 'Mueller Marketing Studio' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Mueller Marketing Studio' })).toBeVisible();
  const switcher = page.getByRole('combobox', { name: 'Business', exact: true });
  await expect(switcher).toHaveValue(own.id);
  await expect(switcher.locator('optgroup[label="Clients"] option')).toHaveText(['Dana Whitfield · Clarksville Florist (Austin, TX)']);
  await look(page, { path: 'test-results/screens/dashboard-switcher.png' });
  // Keyboard only: focus the select and pick the client.
  await switcher.focus();
  await switcher.selectOption({ label: 'Dana Whitfield · Clarksville Florist (Austin, TX)' });
  await expect(page).toHaveURL(`/dashboard/${client.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Clarksville Florist' })).toBeVisible();

  // The top bar's Dashboard link comes back to the portfolio.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL('/dashboard');
  await expect(page.getByTestId('portfolio-row')).toHaveCount(2);
});

test("an owner's /dashboard opens the business viewed last, and its own when that one is gone", async ({ page, appCtx, signIn }) => {
  const owner = await signIn({ tier: 'pro' });
  await seedBusiness(appCtx, { userId: owner.userId, company: 'Mueller Bakery', snapshots: [{ daysAgo: 1 }] });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Mueller Bakery' })).toBeVisible();
  // A remembered business that is no longer the viewer's: /dashboard falls back to their own.
  await page.evaluate(() => localStorage.setItem('localrank.dashboardBusiness', crypto.randomUUID()));
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1, name: 'Mueller Bakery' })).toBeVisible();
});

test("a stranger and an unknown id get No Business Analysis Found", async ({ page, appCtx, signIn }) => {
  const { business } = await seedBusiness(appCtx, { snapshots: [{ daysAgo: 1 }] });
  await signIn({ tier: 'pro' });
  for (const id of [business.id, crypto.randomUUID()]) {
    await page.goto(`/dashboard/${id}`);
    await expect(page.getByRole('heading', { name: 'No Business Analysis Found' })).toBeVisible();
    await expect(page.getByText("You haven't submitted a business analysis yet. Get started with a free report!")).toBeVisible();
    await expect(page.getByRole('link', { name: 'Start New Analysis' })).toHaveAttribute('href', '/#report-form');
  }
});

test('a paid user without a business gets No Business Analysis Found', async ({ page, signIn }) => {
  await signIn({ tier: 'pro' });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'No Business Analysis Found' })).toBeVisible();
  await page.getByRole('link', { name: 'Start New Analysis' }).click();
  await expect(page).toHaveURL(/\/#report-form$/);
});

test('a business still being analysed shows Dashboard Not Found with Go Home', async ({ page, appCtx, signIn }) => {
  const owner = await signIn({ tier: 'pro' });
  const { business } = await seedBusiness(appCtx, { userId: owner.userId });
  await page.goto(`/dashboard/${business.id}`);
  await expect(page.getByRole('heading', { name: 'Dashboard Not Found' })).toBeVisible();
  await expect(page.getByText('The requested business dashboard could not be found or is still being processed.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go Home' })).toHaveAttribute('href', '/');
});

test('a signed-out visitor gets Login Required, and Go to Login leads to /account, then back to the dashboard once signed in', async ({ page, appCtx }) => {
  const owner = await createUser(appCtx, { tier: 'pro' });
  const { business } = await seedBusiness(appCtx, { userId: owner.userId, snapshots: [{ daysAgo: 1 }] });
  for (const path of ['/dashboard', `/dashboard/${business.id}`]) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Login Required' })).toBeVisible();
    await expect(page.getByText('Please log in to view your business dashboard.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', `/account?redirect=${encodeURIComponent(path)}`);
  }
  await look(page, { path: 'test-results/screens/dashboard-login-required.png' });
  // /account sends a signed-out visitor to sign in; signed in, they are back on the dashboard (issue 40).
  await page.getByRole('link', { name: 'Go to Login' }).click();
  await expect(page).toHaveURL(/\/login\?redirect=/);
  await page.getByLabel('Email').fill(owner.email);
  await page.getByLabel('Password', { exact: true }).fill(owner.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await expect(page).toHaveURL(new RegExp(`/dashboard/${business.id}$`));
});

test('a free user sees what the dashboard offers and the upgrade to Pro, not an error', async ({ page, appCtx, signIn }) => {
  const owner = await signIn({ tier: 'free' });
  await seedBusiness(appCtx, { userId: owner.userId, snapshots: [{ daysAgo: 1 }] });
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { name: 'Your business dashboard is part of Pro' })).toBeVisible();
  await expect(page.getByText('90-day trends.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Upgrade to Pro' })).toHaveAttribute('href', '/subscribe?plan=pro');
  await expect(page.getByText(/Login Required|Not Found/)).toHaveCount(0);
  await look(page, { path: 'test-results/screens/dashboard-upgrade-desktop.png' });
  await page.setViewportSize({ width: 390, height: 844 });
  await look(page, { path: 'test-results/screens/dashboard-upgrade-mobile.png', fullPage: true });
});

test('scores delivered as strings show the same numbers, ranks and charts', async ({ page, appCtx, signIn }) => {
  const owner = await signIn({ tier: 'pro' });
  await seedBusiness(appCtx, { userId: owner.userId, company: 'String Score Dental', snapshots: HISTORY });
  await page.route('**/api/my-business', async (route) => {
    const res = await route.fetch();
    const text = await res.text();
    // Every number in the answer becomes a string, as a DECIMAL column would deliver it.
    const stringified = text.replace(/":(-?\d+(?:\.\d+)?)([,}])/g, '":"$1"$2');
    expect(stringified).toContain('"overallScore":"7.25"');
    await route.fulfill({ response: res, body: stringified });
  });
  await page.goto('/dashboard');
  await expect(page.getByTestId('overall-score')).toHaveText('7.25/10');
  const fixture = reportDataFixture({ seed: 42 });
  await expect(page.getByTestId('market-rank')).toHaveText(`#${marketRank(7.25, [7.25, ...fixture.competitors.map((c) => c.scores.overall!)])} of 10`);
  await expect(page.locator('.kpi .delta')).toContainText('+0.35');
  await expect(page.getByTestId('trend-chart').locator('[data-series="overall"] circle')).toHaveCount(4);
  await expect(page.locator('.rating').first()).toHaveText(/★ \d\.\d/);
});

test('sign up, get the pro tier by the admin command, submit the form signed in: the dashboard fills with the report', async ({ page, signIn }) => {
  test.setTimeout(90_000);
  const user = await signIn({ tier: 'free' });
  execFileSync(process.execPath, ['scripts/admin.ts', 'set-plan', user.email, 'pro'], { env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, LOG_LEVEL: 'silent' }, stdio: 'pipe' });
  const company = `Barton Springs Plumbing ${Date.now()}`;
  await page.goto('/#report-form');
  const form = page.locator('#report-form form');
  await expect(form.getByRole('button', { name: 'Generate My Free Report' })).toBeEnabled();
  await page.getByLabel('Full Name').fill('Maria Lopez');
  await page.getByLabel('Email Address').fill(user.email);
  await page.getByLabel('Company Name').fill(company);
  await page.getByLabel('Your Role').selectOption({ label: 'Business Owner' });
  await page.getByLabel('Business Website').fill('https://bartonspringsplumbing.example.com');
  await page.getByLabel('Business Address').fill('1200 Barton Springs Rd');
  await page.getByLabel('City').fill('Austin');
  await page.getByLabel('State').selectOption('TX');
  await page.getByLabel('ZIP Code').fill('78704');
  await page.getByLabel(CONSENT_TEXT).check();
  await form.getByRole('button', { name: 'Generate My Free Report' }).click();
  await expect(page.getByRole('heading', { name: 'Report Being Generated!' })).toBeVisible();

  // The inline worker runs the real analysis (sample provider); the dashboard shows it when done.
  await expect(async () => {
    await page.goto('/dashboard');
    await expect(page.getByRole('heading', { level: 1, name: company })).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 60_000 });
  await expect(page.getByTestId('market-rank')).toHaveText(/^#\d+ of 10$/);
  await expect(page.getByTestId('competitor-table').locator('tbody tr')).toHaveCount(10);
  // Its website (an example.com name that does not resolve) is measured as down, and says so.
  await expect(page.getByTestId('own-row').locator('[data-label="Website"]')).toHaveText('Did not answer');
  await expect(page.getByTestId('radar-chart')).toBeVisible();
  await expect(page.getByTestId('trend-empty')).toContainText('Not enough history yet');
  await look(page, { path: 'test-results/screens/dashboard-after-submit.png', fullPage: true });

  // Another user cannot see it.
  const businessId = await page.evaluate(async () => ((await (await fetch('/api/my-business')).json()) as { business: { id: string } }).business.id);
  await page.context().clearCookies();
  await signIn({ tier: 'agency' });
  await page.goto(`/dashboard/${businessId}`);
  await expect(page.getByRole('heading', { name: 'No Business Analysis Found' })).toBeVisible();
});
