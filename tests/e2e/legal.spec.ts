import { expect, test } from './fixtures.ts';

test('privacy: banner, three highlights, nine sections, last updated, Back to Home', async ({ page }) => {
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
  await expect(page.getByText('Last updated: October 1, 2025')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Our commitment to your privacy' })).toBeVisible();
  for (const h of ['Encrypted Storage', 'No Data Selling', 'Deletion on Request']) await expect(page.getByRole('heading', { level: 3, name: h })).toBeVisible();
  const sections = ['Information We Collect', 'How We Use Your Information', 'How We Share Information', 'Data Security', 'Your Rights', 'Cookies', "Children's Privacy", 'Changes to This Policy', 'Contact Us'];
  const headings = await page.locator('.legal-sections section > h2').allTextContents();
  expect(headings).toEqual(sections.map((s, i) => `${i + 1}. ${s}`));
  await expect(page.getByText('aged 18 or older')).toBeVisible();
  await page.getByRole('link', { name: 'Back to Home' }).first().click();
  await expect(page).toHaveURL(/\/$/);
});

test('terms: banner, the two boxes, fourteen sections, the business constants, Back to Home', async ({ page }) => {
  await page.goto('/terms');
  await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
  await expect(page.getByText('Last updated: October 1, 2025')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Agreement to these terms' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'What You Get' })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Your Responsibilities' })).toBeVisible();
  const sections = [
    'Acceptance of Terms', 'Service Description', 'Account Security', 'Subscription Plans and Payment', 'Cancellation and Refunds', 'Acceptable Use', 'Intellectual Property',
    'Disclaimers', 'Limitation of Liability', 'Indemnification', 'Termination', 'Changes to Terms', 'Governing Law and Disputes', 'Contact Information',
  ];
  const headings = await page.locator('.legal-sections section > h2').allTextContents();
  expect(headings).toEqual(sections.map((s, i) => `${i + 1}. ${s}`));
  const text = await page.locator('.legal-sections').innerText();
  for (const phrase of [
    '30-day money-back guarantee',
    'processed within 5-10 business days',
    'we do not give partial refunds for unused periods',
    "at least 30 days' notice",
    'within 48 hours on the Free and Pro plans and within 24 hours on the Enterprise',
    'at least 18 years old',
    'request an export of your data within 30 days after termination',
    'the amount you paid us in the 12 months',
    'governed by the laws of the State of Texas',
    'binding arbitration in Austin, Texas',
  ]) expect(text).toContain(phrase);
  // Both Back to Home buttons lead to /.
  await expect(page.getByRole('link', { name: 'Back to Home' })).toHaveCount(2);
  await page.getByRole('link', { name: 'Back to Home' }).last().click();
  await expect(page).toHaveURL(/\/$/);
});

for (const path of ['/faqs', '/contact-us', '/privacy-policy', '/help']) {
  test(`a mistyped path (${path}) is the 404 screen`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    await expect(page.getByRole('heading', { name: '404 Page Not Found' })).toBeVisible();
  });
}
