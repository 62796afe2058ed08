// The Early Warning Monitor in the browser: an enterprise owner follows the dashboard's link, sees
// the alerts recorded by an analysis run and saves a threshold; a pro user is refused; an unknown
// id is Business Not Found; a visitor must log in.
import { look } from './look.ts';
import { and, asc, eq } from 'drizzle-orm';
import { persistReport } from '../../api/report/persist.ts';
import { businessMetrics } from '../../db/schema/businesses.ts';
import type { Review } from '../../api/report/model/types.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { expect, test } from './fixtures.ts';

const DAY = 24 * 60 * 60 * 1000;
const review = (rating: number, daysAgo: number, author: string, text: string, url: string | null = null): Review => ({
  rating,
  text,
  author,
  date: new Date(Date.now() - daysAgo * DAY).toISOString(),
  url,
  ownerResponse: null,
});

test('an enterprise owner opens the monitor from the dashboard, reads the alerts and saves a threshold', async ({ page, appCtx, signIn }) => {
  const owner = await signIn({ tier: 'enterprise' });
  const { business } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Zilker Orthodontics', snapshots: [{ daysAgo: 1 }] });
  const data = reportDataFixture();
  data.provider = 'google';
  data.ownReviews = [
    review(1, 2, 'Morgan P.', 'Waited an hour past my appointment and nobody said a word.', 'https://maps.example/review/1'),
    review(2.5, 9, 'Riley S.', 'Friendly staff but the billing was a mess.'),
    review(4.5, 3, 'Happy H.', 'Great visit.'),
  ];
  await persistReport(appCtx, { businessId: business.id, requestId: null, reportType: 'scheduled', data });
  // Local visibility: the seeded scan 8 days ago at 40%, this analysis at 25%: a fall of 15 points.
  const own = and(eq(businessMetrics.businessId, business.id), eq(businessMetrics.isMainBusiness, true));
  const [first, latest] = await appCtx.db.select({ runId: businessMetrics.runId }).from(businessMetrics).where(own).orderBy(asc(businessMetrics.reportedAt));
  await appCtx.db.update(businessMetrics).set({ localVoiceShare: 40, reportedAt: new Date(Date.now() - 8 * DAY) }).where(and(own, eq(businessMetrics.runId, first!.runId)));
  await appCtx.db.update(businessMetrics).set({ localVoiceShare: 25 }).where(and(own, eq(businessMetrics.runId, latest!.runId)));

  await page.goto(`/dashboard/${business.id}`);
  await page.getByRole('link', { name: 'Early Warning' }).click();
  await expect(page).toHaveURL(new RegExp(`/early-warning/${business.id}$`));
  await expect(page.getByRole('heading', { level: 1, name: 'Zilker Orthodontics' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Back to Dashboard' })).toHaveAttribute('href', `/dashboard/${business.id}`);

  await expect(page.getByTestId('stat-total')).toHaveText('2');
  await expect(page.getByTestId('stat-last30')).toHaveText('2');
  await expect(page.getByTestId('stat-average')).toHaveText('★ 1.8');
  await expect(page.getByTestId('stat-threshold')).toHaveText('★ 3.0');
  const alerts = page.getByTestId('alert');
  await expect(alerts).toHaveCount(2);
  await expect(alerts.first()).toContainText('★ 1.0');
  await expect(alerts.first()).toContainText('Google');
  await expect(alerts.first()).toContainText('Morgan P.');
  await expect(alerts.first()).toContainText('Waited an hour past my appointment');
  await expect(alerts.first().locator('.rating')).toHaveClass(/rating-red/);
  await expect(alerts.first().getByRole('link', { name: 'View review' })).toHaveAttribute('href', 'https://maps.example/review/1');
  await expect(alerts.nth(1)).toContainText('Riley S.');
  await expect(alerts.nth(1).getByRole('link', { name: 'View review' })).toHaveCount(0);
  await expect(page.getByText('Great visit.')).toHaveCount(0);

  // The fall of local visibility, beside the review alerts.
  const visibility = page.getByTestId('visibility-falls');
  await expect(visibility.getByRole('heading', { name: /Local Visibility/ })).toBeVisible();
  await expect(visibility.getByTestId('visibility-latest')).toHaveText('25.00%');
  await expect(visibility.getByTestId('visibility-fall')).toHaveCount(1);
  await expect(visibility.getByTestId('visibility-fall')).toContainText('−15.00 points');
  await expect(visibility.getByTestId('visibility-fall')).toContainText('40.00% → 25.00%');
  await look(page, { path: 'test-results/early-warning-visibility.png', fullPage: true });

  // A bad value never leaves the browser.
  const input = page.getByLabel('Alert me about reviews rated at or below');
  await expect(input).toHaveAttribute('step', '0.1');
  await expect(input).toHaveValue('3.0');
  await input.fill('7');
  await page.getByRole('button', { name: 'Save Threshold' }).click();
  await expect(page.getByText('Invalid Threshold')).toBeVisible();
  await expect(page.getByText('Threshold must be a number between 1.0 and 5.0')).toBeVisible();
  await expect(input).toHaveAttribute('aria-invalid', 'true');
  await input.fill('4.5');
  await expect(input).not.toHaveAttribute('aria-invalid');

  // Saving shows 'Updating...' while the call is pending.
  let answer!: () => void;
  const answered = new Promise<void>((done) => (answer = done));
  await page.route('**/alert-threshold', async (route) => {
    await answered;
    await route.continue();
  });
  await input.fill('3.5');
  await page.getByRole('button', { name: 'Save Threshold' }).click();
  await expect(page.getByRole('button', { name: 'Updating...' })).toBeDisabled();
  answer();
  await expect(page.getByText('Threshold Updated')).toBeVisible();
  await expect(page.getByText('Alert threshold has been successfully updated.')).toBeVisible();
  await expect(page.getByTestId('stat-threshold')).toHaveText('★ 3.5');
  await page.reload();
  await expect(page.getByTestId('stat-threshold')).toHaveText('★ 3.5');
});

test('an enterprise owner without alerts sees the empty state', async ({ page, appCtx, signIn }) => {
  const owner = await signIn({ tier: 'agency' });
  const { business } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Hyde Park Bakery' });
  await page.goto(`/early-warning/${business.id}?consultantId=demo-consultant`);
  await expect(page.getByTestId('alerts-empty')).toContainText('No alerts yet');
  await expect(page.getByTestId('stat-total')).toHaveText('0');
  // What the data sources let the monitor see, said where it is used (issue 38).
  await expect(page.getByTestId('review-reach')).toContainText('Google shares at most 5 reviews of a place');
});

test('a pro user sees Access Denied; an unknown id is Business Not Found; a visitor must log in', async ({ page, appCtx, signIn }) => {
  await page.goto('/early-warning/some-business');
  await expect(page.getByRole('heading', { name: 'Login Required' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Login' })).toHaveAttribute('href', /^\/login\?redirect=/);

  const pro = await signIn({ tier: 'pro' });
  const { business } = await seedBusiness(appCtx, { userId: pro.userId, snapshots: [{ daysAgo: 1 }] });
  await page.goto(`/early-warning/${business.id}?consultantId=enterprise-white-label`);
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText('Early Warning Monitor requires Enterprise or Agency subscription')).toBeVisible();

  await page.context().clearCookies();
  await signIn({ tier: 'enterprise' });
  await page.goto('/early-warning/no-such-business');
  await expect(page.getByRole('heading', { name: 'Business Not Found' })).toBeVisible();
  await expect(page.getByText("The business you're trying to monitor could not be found or hasn't been set up for monitoring yet.")).toBeVisible();
  // Someone else's business looks the same.
  await page.goto(`/early-warning/${business.id}`);
  await expect(page.getByRole('heading', { name: 'Business Not Found' })).toBeVisible();
});
