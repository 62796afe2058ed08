// The sample provider's websites, served by the product: what a visitor (and the analyser) sees.
import { expect, test } from '@playwright/test';
import { encodeSiteId, sampleSiteFeatures, type SiteProfile } from '../../api/report/analysis/sample-sites.ts';

function profileOfTier(tier: number): SiteProfile {
  for (let q = 1; ; q++) {
    const p: SiteProfile = { n: 'Barton Creek Dental', a: '4120 Mill Rd, Austin, TX 78704', p: '(512) 555-0134', c: 'dentist', q };
    if (sampleSiteFeatures(p, new Date().getUTCFullYear()).tier === tier) return p;
  }
}

for (const [tier, label] of [[2, 'polished'], [0, 'neglected']] as const) {
  test(`a ${label} sample site renders its business, services and contact details`, async ({ page }, info) => {
    const profile = profileOfTier(tier);
    const res = await page.goto(`/api/sample-sites/${encodeSiteId(profile)}/`);
    expect(res?.status()).toBe(200);
    await expect(page.locator('header')).toContainText('Barton Creek Dental');
    await expect(page.getByRole('heading', { level: 2, name: 'Services' })).toBeVisible();
    await expect(page.locator('footer')).toContainText('4120 Mill Rd');
    await expect(page.locator('img').first()).toBeVisible();
    await page.screenshot({ path: info.outputPath(`sample-site-${label}-desktop.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await page.screenshot({ path: info.outputPath(`sample-site-${label}-mobile.png`), fullPage: true });
  });
}

test('an unknown sample site id is a 404', async ({ request }) => {
  expect((await request.get('/api/sample-sites/bm90LWEtc2l0ZQ/')).status()).toBe(404);
});
