// Issue 48 in the browser: an owner connects the Google Business Profile through Google's
// consent screen (the stand-in in the server's process, tests/e2e/serve.ts), sees every review
// (over 100, three pages of Google's), a new 1-star review posted on Google reaches Early Warning
// and the owner's mailbox within one poll, and the answer written on Early Warning reaches Google.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { businesses } from '../../db/schema/businesses.ts';
import { controlGbp, type GbpReview } from '../helpers/gbp-standin.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { expect, test } from './fixtures.ts';
import { look } from './look.ts';
import { mailsTo } from './outbox.ts';

const { base } = JSON.parse(readFileSync(join(process.env.E2E_DATA_DIR!, 'gbp-standin.json'), 'utf8')) as { base: string };

test('an owner connects the profile, sees every review, is alerted of a new 1-star one and answers it on Google', async ({ page, appCtx, signIn }) => {
  test.setTimeout(180_000);
  const owner = await signIn({ tier: 'enterprise' });
  const { business } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Barton Creek Dental', snapshots: [{ daysAgo: 1 }] });
  const placeId = `ChIJ-e2e-${business.id.slice(0, 8)}`;
  await appCtx.db.update(businesses).set({ placeId: `google:${placeId}` }).where(eq(businesses.id, business.id));
  const locationId = String(Date.now());
  await controlGbp(base, 'location', { id: locationId, account: `acct-${locationId}`, title: 'Barton Creek Dental', placeId, reviews: 120 });

  await page.goto(`/early-warning/${business.id}`);
  await page.getByRole('link', { name: 'Connect Google Business Profile' }).click();
  // Google's consent screen (the stand-in's), then back to Early Warning.
  await expect(page.getByRole('heading', { name: 'LocalRank wants to access your Google Account' })).toBeVisible();
  await page.getByRole('link', { name: 'Allow' }).click();
  await expect(page).toHaveURL(new RegExp(`/early-warning/${business.id}\\?connected=google$`));

  // The first poll (queued on connecting) reads every page: 120 reviews.
  const count = page.getByTestId('gp-count');
  await expect(async () => {
    await page.reload();
    await expect(count).toHaveText('120', { timeout: 3_000 });
  }).toPass({ timeout: 90_000 });
  await expect(page.getByTestId('gp-reviews')).toContainText('from your Google Business Profile');
  await expect(page.getByTestId('gp-review')).toHaveCount(10);
  await page.getByRole('button', { name: 'Show More Reviews' }).click();
  await expect(page.getByTestId('gp-review')).toHaveCount(20);

  // A new 1-star review on Google: on Early Warning and in the mailbox within one poll (30 s here).
  const posted = (await controlGbp(base, 'review', { locationId, rating: 1, comment: 'Two hours in the waiting room, then sent home.', author: 'Quinn V.' })) as GbpReview;
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('gp-review').first()).toContainText('Two hours in the waiting room', { timeout: 3_000 });
  }).toPass({ timeout: 120_000 });
  // The alert is written just after the reviews, in the same poll: a reload may come between.
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('alert').first()).toContainText('Quinn V.', { timeout: 3_000 });
  }).toPass({ timeout: 30_000 });
  await expect(count).toHaveText('121');
  await expect
    .poll(async () => (await mailsTo(owner.email)).filter((m) => m.text?.includes('1.0 stars on Google (from your Google Business Profile) by Quinn V.')).length, { timeout: 60_000 })
    .toBe(1);

  await page.setViewportSize({ width: 1280, height: 900 });
  await look(page, { path: 'test-results/google-profile-1280.png', fullPage: true });

  // The owner answers it; the answer arrives on Google.
  const first = page.getByTestId('gp-review').first();
  await first.getByRole('button', { name: 'Answer' }).click();
  await first.getByLabel("Your answer, posted on Google under your business's name").fill('We are sorry, Quinn. Please call us so we can make this right.');
  await first.getByRole('button', { name: 'Post Answer' }).click();
  await expect(first.getByTestId('gp-reply')).toContainText('We are sorry, Quinn.');
  const onGoogle = (await controlGbp(base, 'show', { locationId })) as { reviews: GbpReview[] };
  expect(onGoogle.reviews.find((r) => r.reviewId === posted.reviewId)?.reply?.comment).toBe('We are sorry, Quinn. Please call us so we can make this right.');

  await page.setViewportSize({ width: 390, height: 844 });
  await look(page, { path: 'test-results/google-profile-390.png', fullPage: true });

  // The dashboard: the profile card does not move anything when it arrives (layout shifts measured
  // with the whole page in the viewport), its review figures are every review's, and the business's
  // own row says where its rating and count come from.
  await page.setViewportSize({ width: 1280, height: 4000 });
  await page.addInitScript(() => {
    const w = window as unknown as { shifts: Array<{ value: number; sources: string[] }> };
    w.shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as Array<{ value: number; hadRecentInput: boolean; sources: Array<{ node: Element | null }> }>) {
        if (!e.hadRecentInput) w.shifts.push({ value: e.value, sources: e.sources.map((x) => x.node?.closest('[data-testid]')?.getAttribute('data-testid') ?? x.node?.nodeName ?? '?') });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`/dashboard/${business.id}`);
  await expect(page.getByTestId('gp-calls')).toHaveText(/^\d/);
  await page.waitForLoadState('networkidle');
  const shifts = await page.evaluate(() => (window as unknown as { shifts: Array<{ value: number; sources: string[] }> }).shifts);
  expect(shifts, 'layout shifts on the dashboard').toEqual([]);
  await expect(page.getByTestId('gp-dash-count')).toHaveText('121');
  await expect(page.getByTestId('gp-dash-source')).toHaveText('Every review, from your Google Business Profile.');
  await expect(page.getByTestId('gp-dash-review').first()).toContainText('Quinn V.');
  await expect(page.getByTestId('own-row').getByTestId('own-reviews-source')).toHaveText('from your Google Business Profile');
  await expect(page.getByTestId('own-row')).toContainText('121');
  await page.setViewportSize({ width: 390, height: 844 });
  await look(page.getByTestId('gp-metrics'), { path: 'test-results/google-profile-metrics-390.png' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await look(page.getByTestId('gp-metrics'), { path: 'test-results/google-profile-metrics-1280.png' });
});

test("an agency connects its client's profile from the client's page; a denied consent says what happened and leads back there", async ({ page, appCtx, signIn }) => {
  test.setTimeout(90_000);
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const { business } = await seedBusiness(appCtx, { company: 'Denied Dental', snapshots: [{ daysAgo: 1 }] });
  const client = await addClient(appCtx, agency.viewer.consultant!.id, business.id);
  const placeId = `ChIJ-e2e-client-${business.id.slice(0, 8)}`;
  await appCtx.db.update(businesses).set({ placeId: `google:${placeId}` }).where(eq(businesses.id, business.id));
  const locationId = `c${Date.now()}`;
  await controlGbp(base, 'location', { id: locationId, account: `acct-${locationId}`, title: 'Denied Dental', placeId, reviews: 3 });
  const connectUrl = `/connect/google?businessId=${business.id}&clientId=${client.id}`;

  await page.goto(`/clients/${client.id}`);
  await page.getByRole('link', { name: 'Connect Google Business Profile' }).click();
  await page.getByRole('link', { name: 'Cancel' }).click();
  await expect(page.getByRole('heading', { name: 'Google Business Profile not connected' })).toBeVisible();
  await expect(page.getByText('choose Allow when Google asks')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Connect Again' })).toHaveAttribute('href', connectUrl);
  await expect(page.getByRole('link', { name: 'Back' })).toHaveAttribute('href', `/clients/${client.id}`);
  await page.setViewportSize({ width: 390, height: 844 });
  await look(page, { path: 'test-results/google-profile-denied-390.png', fullPage: true });

  await page.getByRole('link', { name: 'Connect Again' }).click();
  await page.getByRole('link', { name: 'Allow' }).click();
  await expect(page).toHaveURL(new RegExp(`/clients/${client.id}\\?connected=google$`));
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('gp-dash-count')).toHaveText('3', { timeout: 3_000 });
  }).toPass({ timeout: 60_000 });
  await look(page.getByTestId('gp-metrics'), { path: 'test-results/google-profile-client-390.png' });
  await page.setViewportSize({ width: 1280, height: 900 });
  await look(page.getByTestId('gp-metrics'), { path: 'test-results/google-profile-client-1280.png' });
});
