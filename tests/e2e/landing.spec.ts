// The landing page: rotating statistics, scrolling to the form, the mobile menu, pricing, the
// sample dashboard and the footer.
import { HERO_ROTATION_MS } from '../../common/constants.ts';
import { FEATURES, HERO_STATS, REVENUE_CARDS } from '../../site/content/landing.ts';
import type { Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';

/** A fake clock that only moves when the test says so. */
async function freezeClock(page: Page) {
  await page.clock.install({ time: new Date('2026-01-05T09:00:00Z') });
  await page.clock.pauseAt(new Date('2026-01-05T09:00:01Z'));
}

test('the hero rotates its six statistics, each with its source, every 8000 ms', async ({ page }) => {
  await freezeClock(page);
  await page.goto('/');
  const card = page.locator('[data-stat-rotator]');
  const visible = card.locator('figure.stat:visible');
  expect(HERO_STATS).toHaveLength(6);
  await expect(card.locator('figure.stat')).toHaveCount(6);
  await expect(visible).toHaveCount(1);
  await expect(visible).toContainText(HERO_STATS[0]!.figure);
  await expect(visible).toContainText(`Source: ${HERO_STATS[0]!.source}, ${HERO_STATS[0]!.year}`);

  await page.clock.runFor(HERO_ROTATION_MS - 100);
  await expect(visible).toContainText(HERO_STATS[0]!.text);
  for (let i = 1; i <= HERO_STATS.length; i++) {
    await page.clock.runFor(i === 1 ? 100 : HERO_ROTATION_MS);
    const stat = HERO_STATS[i % HERO_STATS.length]!;
    await expect(visible).toContainText(stat.text);
    await expect(visible).toContainText(`Source: ${stat.source}, ${stat.year}`);
  }
});

test('the rotation can be paused and a statistic chosen', async ({ page }) => {
  await freezeClock(page);
  await page.goto('/');
  const visible = page.locator('[data-stat-rotator] figure.stat:visible');
  await page.getByRole('button', { name: 'Pause rotation' }).click();
  await page.clock.runFor(HERO_ROTATION_MS * 3);
  await expect(visible).toContainText(HERO_STATS[0]!.text);
  await page.getByRole('button', { name: 'Show statistic 4' }).click();
  await expect(visible).toContainText(HERO_STATS[3]!.text);
  await page.getByRole('button', { name: 'Resume rotation' }).click();
  await page.clock.runFor(HERO_ROTATION_MS);
  await expect(visible).toContainText(HERO_STATS[4]!.text);
});

test('Get Free Report scrolls to the form', async ({ page }) => {
  await page.goto('/');
  const form = page.locator('#report-form');
  await expect(form.getByRole('button', { name: 'Generate My Free Report' })).not.toBeInViewport();
  await page.locator('.hero').getByRole('link', { name: 'Get Free Report' }).click();
  await expect(page).toHaveURL(/#report-form$/);
  await expect(form.getByRole('heading', { name: 'Get your free competitive report' })).toBeInViewport();
  await expect(form.getByLabel('Full Name')).toBeInViewport();
});

test('the top bar links to the sections and the FAQ', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [label, href] of [['Features', '/#features'], ['Pricing', '/#pricing'], ['Dashboard', '/#dashboard'], ['FAQ', '/faq']]) {
    await expect(nav.getByRole('link', { name: label })).toHaveAttribute('href', href!);
  }
  await nav.getByRole('link', { name: 'Pricing' }).click();
  await expect(page.getByRole('heading', { name: /Start free/ })).toBeInViewport();
  for (const id of ['features', 'dashboard', 'pricing', 'report-form']) await expect(page.locator(`#${id}`)).toHaveCount(1);
});

test.describe('on a phone', () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test('the mobile menu opens and closes, with the mouse and the keyboard', async ({ page }) => {
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Menu' });
    const menu = page.getByRole('navigation', { name: 'Mobile' });
    await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeHidden();

    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-expanded', 'true');
    for (const label of ['Features', 'Pricing', 'Dashboard', 'FAQ']) await expect(menu.getByRole('link', { name: label })).toBeVisible();
    await toggle.click();
    await expect(menu).toBeHidden();

    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(menu).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(menu).toBeHidden();
    await expect(toggle).toBeFocused();

    await page.keyboard.press('Space');
    await expect(menu).toBeVisible();
    await menu.getByRole('link', { name: 'Pricing' }).click();
    await expect(menu).toBeHidden();
    await expect(page).toHaveURL(/#pricing$/);
  });
});

test('pricing defaults to monthly and switches to annual prices', async ({ page }) => {
  await page.goto('/');
  const pricing = page.locator('#pricing');
  const plan = (tier: string) => pricing.locator(`[data-plan="${tier}"]`);
  const monthly = pricing.getByRole('radio', { name: 'Monthly' });
  const annual = pricing.getByRole('radio', { name: /Annual/ });
  await expect(monthly).toBeChecked();
  await expect(pricing.getByText('Save 20%')).toBeVisible();

  await expect(plan('free').locator('.plan-price:visible')).toHaveText('$0/month');
  await expect(plan('pro').locator('.plan-price:visible')).toHaveText('$49/month');
  await expect(plan('enterprise').locator('.plan-price:visible')).toHaveText('$109/month');
  await expect(plan('agency').locator('.plan-price:visible')).toHaveText('Custom');

  await pricing.locator('label[for="billing-annual"]').click();
  await expect(annual).toBeChecked();
  await expect(plan('free').locator('.plan-price:visible')).toHaveText('$0/month');
  await expect(plan('pro').locator('.plan-price:visible')).toHaveText('$39/month');
  await expect(plan('enterprise').locator('.plan-price:visible')).toHaveText('$87/month');
  await expect(plan('pro')).toContainText('Billed annually ($468/year)');
  await expect(plan('enterprise')).toContainText('Billed annually ($1,044/year)');
  await expect(plan('agency').locator('.plan-price:visible')).toHaveText('Custom');

  // Keyboard: the switch is a radio group.
  await annual.focus();
  await page.keyboard.press('ArrowLeft');
  await expect(monthly).toBeChecked();
  await expect(plan('pro').locator('.plan-price:visible')).toHaveText('$49/month');

  await expect(plan('pro').getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/subscribe?plan=pro&interval=monthly');
  await expect(plan('enterprise').getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/subscribe?plan=enterprise&interval=monthly');
  // The annual choice is carried to the subscribe page.
  await annual.check();
  await expect(plan('pro').getByRole('link', { name: 'Get Started' })).toHaveAttribute('href', '/subscribe?plan=pro&interval=annual');
  await expect(plan('enterprise')).toContainText('Billed annually ($1,044/year)');
  await expect(plan('agency').getByRole('link', { name: 'Contact Sales' })).toHaveAttribute('href', '/subscribe?plan=agency');
  await expect(plan('free').getByRole('link', { name: 'Get Free Report' })).toHaveAttribute('href', '#report-form');
  for (const text of ['Limited one-time reports', 'Unlimited monthly reports', '90-day trend analysis', 'API access', 'Early Warning Monitor', 'White-label licensing']) {
    await expect(pricing.getByText(text, { exact: true })).toBeVisible();
  }
});

test('the sample dashboard shows demo data with the score bands and rating colours', async ({ page }) => {
  await page.goto('/');
  const dashboard = page.locator('#dashboard');
  await expect(dashboard.getByText('Demo data', { exact: true })).toBeVisible();
  await expect(dashboard.getByRole('heading', { name: 'Riverside Dental Care' })).toBeVisible();
  await expect(dashboard.locator('.head-stat .score-badge')).toHaveClass(/band-good/); // 7.9: 7.5 or more
  await expect(dashboard.locator('.rank')).toHaveText('#3 of 10');
  await expect(dashboard.getByText('Austin, TX · compared with 9 local competitors')).toBeVisible();
  // Market Share on the dashboards' 1-10 scale, the share itself said under its bar (issue 40).
  const share = dashboard.locator('.score-list li').filter({ hasText: 'Market Share' });
  await expect(share.locator('.score-badge')).toHaveText('7.4');
  await expect(share.locator('.score-note')).toHaveText("14% of the market's reviews");
  await expect(dashboard.locator('tbody tr')).toHaveCount(10);
  const row = (name: string) => dashboard.getByRole('row', { name: new RegExp(name) });
  await expect(row('Lakeside Family Dentistry').locator('.score-badge')).toHaveClass(/band-excellent/); // 8.7
  await expect(row('South Congress Dental').locator('.score-badge')).toHaveClass(/band-fair/); // 7.1
  await expect(row('Eastside Dental Studio').locator('.score-badge')).toHaveClass(/band-poor/); // 5.8
  await expect(row('Eastside Dental Studio').locator('.rating')).toHaveClass(/rating-red/); // 2.9
  await expect(row('South Congress Dental').locator('.rating')).toHaveClass(/rating-yellow/); // 3.7
  await expect(row('Capitol Dental Group').locator('.rating')).toHaveClass(/rating-green/); // 4.1
  await expect(dashboard.getByRole('img', { name: 'Market Share: 14%' }).locator('.bar-fill')).toHaveAttribute('style', 'width:14%');
  await expect(dashboard.getByRole('img', { name: 'Online Reviews: 8.6' }).locator('.bar-fill')).toHaveAttribute('style', 'width:86%');
});

test('the footer credits the operator and links the information pages', async ({ page }) => {
  await page.goto('/');
  const footer = page.locator('footer');
  await expect(footer).toContainText('Powered by Lone Star Management Solutions');
  for (const href of ['/faq', '/help-center', '/contact', '/privacy', '/terms']) await expect(footer.locator(`a[href="${href}"]`)).toHaveCount(1);
});

test('the features name the four analyses, and grade-to-growth shows four sourced revenue-impact cards', async ({ page }) => {
  await page.goto('/');
  const features = page.locator('#features');
  expect(FEATURES.map((f) => f.title)).toEqual(['Competitor Discovery', 'Review Analysis', 'Tech Stack Analysis', 'Scoring & Ranking']);
  for (const f of FEATURES) await expect(features.getByRole('heading', { name: f.title })).toBeVisible();
  const growth = page.locator('#growth');
  expect(REVENUE_CARDS).toHaveLength(4);
  for (const card of REVENUE_CARDS) {
    await expect(growth).toContainText(card.figure);
    await expect(growth).toContainText(card.text);
    await expect(growth).toContainText(String(card.year));
  }
});
