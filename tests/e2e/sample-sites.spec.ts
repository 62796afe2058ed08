// The sample provider's websites, served by the product: what a visitor (and the analyser) sees.
import { look } from './look.ts';
import { EXPECTS_CSP_REFUSAL, expect, test } from './fixtures.ts';

// A sample site runs under its sandbox policy (api/lib/security-headers.ts): it names a theme
// stylesheet and a map embed as a real small-business site would, and the policy refuses both.
const sandboxed = { annotation: EXPECTS_CSP_REFUSAL };
import { encodeSiteId, sampleSiteFeatures, type SiteProfile } from '../../api/report/analysis/sample-sites.ts';

function profileOfTier(tier: number): SiteProfile {
  for (let q = 1; ; q++) {
    const p: SiteProfile = { n: 'Barton Creek Dental', a: '4120 Mill Rd, Austin, TX 78704', p: '(512) 555-0134', c: 'dentist', q };
    if (sampleSiteFeatures(p, new Date().getUTCFullYear()).tier === tier) return p;
  }
}

for (const [tier, label] of [[2, 'polished'], [0, 'neglected']] as const) {
  test(`a ${label} sample site renders its business, services and contact details`, sandboxed, async ({ page }, info) => {
    const profile = profileOfTier(tier);
    const res = await page.goto(`/api/sample-sites/${encodeSiteId(profile)}/`);
    expect(res?.status()).toBe(200);
    await expect(page.locator('header')).toContainText('Barton Creek Dental');
    await expect(page.getByRole('heading', { level: 2, name: 'Services' })).toBeVisible();
    await expect(page.locator('footer')).toContainText('4120 Mill Rd');
    await expect(page.locator('img').first()).toBeVisible();
    await look(page, { path: info.outputPath(`sample-site-${label}-desktop.png`), fullPage: true });
    await page.setViewportSize({ width: 390, height: 844 });
    await look(page, { path: info.outputPath(`sample-site-${label}-mobile.png`), fullPage: true });
  });
}

test('an unknown sample site id is a 404', async ({ request }) => {
  expect((await request.get('/api/sample-sites/bm90LWEtc2l0ZQ/')).status()).toBe(404);
});

test('a sample-site link that smuggles markup in the name runs no script, even for a signed-in user', sandboxed, async ({ page, signIn }) => {
  await signIn();
  const ran: string[] = [];
  await page.exposeFunction('reportRan', (what: string) => ran.push(what));
  // The attack seen in the hardening issue: close the JSON-LD block, then read the session.
  let hostile: SiteProfile | undefined;
  for (let q = 1; !hostile; q++) {
    const p: SiteProfile = { n: '</script><script>reportRan(document.domain)</script>', a: '1 Main St, Austin, TX 78701', p: '(512) 555-0100', c: 'dentist', q };
    if (sampleSiteFeatures(p, new Date().getUTCFullYear()).schema) hostile = p;
  }
  const res = await page.goto(`/api/sample-sites/${encodeSiteId(hostile)}/`);
  expect(res?.status()).toBe(200);
  expect(res?.headers()['content-security-policy']).toMatch(/^sandbox;/);
  expect(await res?.text()).not.toContain('</script><script>reportRan');
  await expect(page.locator('header')).toContainText('</script><script>reportRan');
  // Every script the page has runs before its load event.
  await page.waitForLoadState('load');
  expect(ran).toEqual([]);
});
