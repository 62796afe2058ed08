// The help centre: every topic the issue names, reachable from its table of contents, and the
// score descriptions true to the scoring (docs/methodology.md): review velocity feeds Online
// Reviews, not Customer Engagement; competitors are the top 9 by prominence, not the closest.
import { expect, test } from './fixtures.ts';

test('the help centre covers every topic, each reachable from the topic list', async ({ page }) => {
  await page.goto('/help-center');
  await expect(page.getByRole('heading', { level: 1, name: 'How can we help?' })).toBeVisible();
  const topics = page.getByRole('navigation', { name: 'Help topics' });
  for (const title of ['Getting started', 'Reading your report', 'Plans and billing', 'Early Warning Monitor', 'Agencies and the widget', 'The API', 'Account and data']) {
    const link = topics.getByRole('link', { name: title, exact: true });
    const id = (await link.getAttribute('href'))!.slice(1);
    await expect(page.locator(`section#${id}`).getByRole('heading', { level: 2 })).toHaveText(title);
  }
});

test('the help centre says what each score is made of, as the scoring does', async ({ page }) => {
  await page.goto('/help-center');
  const scores = page.locator('#reading-your-report dl.scores');
  const meaning = (name: string) => scores.locator('div', { has: page.locator('dt', { hasText: name }) }).locator('dd');
  await expect(meaning('Online Reviews')).toHaveText('Your average rating, how many reviews you have, how many came in the last 30 and 90 days, how recent the latest one is, and what customers say in them (sentiment and recurring complaints).');
  await expect(meaning('Digital Presence')).toHaveText('Whether your listing is complete (address, phone, website) and how well your website works for a customer who finds you: it loads quickly, is secure (HTTPS), works on a phone, has a clear title and description, and shows the same name, address and phone as your listing.');
  await expect(meaning('Customer Engagement')).toHaveText('How you talk with customers: whether and how fast you answer reviews, the unhappy ones above all, and how easily a visitor to your website can reach you (click-to-call, booking, contact form, chat, social profiles, opening hours).');
  await expect(meaning('Market Share')).toHaveText("Your share of the local attention: your share of all the reviews in your market and of the recent ones, your review count and rating against the market's, and how prominently the listing source places you. Your share of reviews is also shown as a percentage.");
  await expect(page.locator('#reading-your-report')).toContainText('(you and your top 9 rivals)');
  await expect(page.locator('#getting-started')).toContainText('Each report gives five recommendations, ordered by the points they would add to a score.');
});
