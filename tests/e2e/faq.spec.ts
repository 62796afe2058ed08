import { expect, test } from './fixtures.ts';

test('FAQ: one answer open at a time, the open one closes on click, keyboard works', async ({ page }) => {
  await page.goto('/faq');
  await expect(page.getByRole('heading', { level: 1, name: 'Frequently Asked Questions' })).toBeVisible();
  const items = page.locator('details.faq-item');
  await expect(items).toHaveCount(15);
  const summary = (text: string) => page.locator('summary', { hasText: text });
  const item = (text: string) => page.locator('details.faq-item', { has: page.locator('summary', { hasText: text }) });

  // Nothing open at first.
  await expect(page.locator('details.faq-item[open]')).toHaveCount(0);

  await summary('Do you offer API access?').click();
  await expect(item('Do you offer API access?')).toHaveAttribute('open', '');
  await expect(page.getByText('API access is available on the Enterprise and Agency plans.')).toBeVisible();

  // Opening another closes the first.
  await summary('How long does it take to get my report?').click();
  await expect(item('How long does it take to get my report?')).toHaveAttribute('open', '');
  await expect(item('Do you offer API access?')).not.toHaveAttribute('open', '');
  await expect(page.locator('details.faq-item[open]')).toHaveCount(1);

  // Clicking the open item closes it.
  await summary('How long does it take to get my report?').click();
  await expect(page.locator('details.faq-item[open]')).toHaveCount(0);

  // Keyboard: focus a question and press Enter / Space.
  await summary('What do the paid plans cost?').focus();
  await page.keyboard.press('Enter');
  await expect(item('What do the paid plans cost?')).toHaveAttribute('open', '');
  await expect(page.getByText('Pro costs $49 a month, or $39 a month billed annually.')).toBeVisible();
  await page.keyboard.press('Space');
  await expect(page.locator('details.faq-item[open]')).toHaveCount(0);
});

test('FAQ: a link to a question opens its answer', async ({ page }) => {
  await page.goto('/faq#api-access');
  await expect(page.locator('#api-access')).toHaveAttribute('open', '');
});

test('the Early Warning Monitor is promised only what the data sources let it see, on the FAQ, the help centre and pricing (issue 38)', async ({ page }) => {
  const reach = /Google shares at most 5 reviews of a place, chosen by relevance rather than date.*Yelp shares the newest review excerpts/;
  await page.goto('/faq');
  await page.locator('summary', { hasText: 'What is the Early Warning Monitor?' }).click();
  const answer = page.locator('details.faq-item[open]');
  await expect(answer).toContainText(reach);
  await expect(answer).not.toContainText('watches your new reviews and alerts you when one comes in');
  await page.goto('/help-center');
  await expect(page.locator('#early-warning-monitor')).toContainText(reach);
  await page.goto('/#pricing');
  await expect(page.getByTestId('review-reach')).toContainText(reach);
  // What connecting the Business Profile does now (issue 48): the client's page, removals, the figures.
  await expect(page.getByTestId('review-reach')).toContainText("an agency from its client's page");
  await expect(page.getByTestId('review-reach')).toContainText("your dashboard's and your reports' review figures then count every review");
  await expect(page.locator('#pricing')).toContainText('Google Business Profile: every review counted and answered');
});
