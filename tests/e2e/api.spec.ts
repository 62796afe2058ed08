// The public API in the browser: an enterprise user creates a key on /account (shown once), uses
// it against /api/v1, rolls and revokes it; the /docs/api page is served by us, rendered from the
// OpenAPI document, with curl and TypeScript examples and no third-party request.
import { look } from './look.ts';
import { axe } from './axe.ts';
import { createWebhookEndpoint, emitEvent } from '../../api/services/webhooks/webhooks.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { expect, test } from './fixtures.ts';
import { alertCreatedData } from '../helpers/webhook-data.ts';

test('an enterprise user creates an API key, calls the API with it, rolls and revokes it', async ({ page, appCtx, signIn, baseURL }) => {
  const owner = await signIn({ tier: 'enterprise' });
  const { business } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Barton Springs Dental', snapshots: [{ daysAgo: 1 }] });
  await page.goto('/account');
  const section = page.getByRole('region', { name: 'API keys' });
  await expect(section.getByText('No keys yet.')).toBeVisible();
  await section.getByLabel('Name').fill('Reporting script');
  await section.getByRole('button', { name: 'Create Key' }).click();
  const shown = section.getByTestId('new-api-key');
  await expect(shown).toContainText('shown only once');
  const key = (await shown.locator('code').textContent())!;
  expect(key).toMatch(/^lr_live_/);
  await expect(section.getByTestId('api-key')).toContainText(`${key.slice(0, 12)}…${key.slice(-4)}`);
  await look(section, { path: 'test-results/api-keys.png' });

  const res = await fetch(`${baseURL}/api/v1/businesses/${business.id}`, { headers: { authorization: `Bearer ${key}` } });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { business: { company: string } }).business.company).toBe('Barton Springs Dental');
  expect(res.headers.get('ratelimit-policy')).toMatch(/^"per-key";q=\d+;w=60$/);

  await section.getByRole('button', { name: 'Done' }).click();
  await section.getByRole('button', { name: 'Roll Key' }).click();
  await expect(section.getByTestId('new-api-key')).toBeVisible();
  await expect(section.getByTestId('api-key')).toHaveCount(2);
  await expect(section.getByText(/Rolled: works until/)).toBeVisible();
  page.once('dialog', (d) => void d.accept());
  await section.getByTestId('api-key').filter({ hasText: 'Rolled' }).getByRole('button', { name: 'Revoke' }).click();
  await expect(section.getByTestId('api-key')).toHaveCount(1);
  expect((await fetch(`${baseURL}/api/v1/businesses`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(401);
});

test('the delivery log shows each webhook delivery with its attempts, and resends one', async ({ page, appCtx, signIn }) => {
  const owner = await signIn({ tier: 'agency' });
  // A public address the offline machine cannot reach: the attempt is logged as unanswered.
  await createWebhookEndpoint(appCtx, { userId: owner.userId, input: { url: 'https://hooks.northstar-agency.com/localrank', events: ['alert.created'], description: 'Production' } });
  await emitEvent(appCtx, { userId: owner.userId, type: 'alert.created', eventKey: 'alert.created:e2e', data: alertCreatedData('e2e') });
  await page.goto('/account');
  const log = page.getByTestId('webhook-endpoint');
  await expect(log).toContainText('hooks.northstar-agency.com');
  await expect(log.getByRole('row').nth(1)).toContainText('alert.created');
  await expect(async () => {
    await page.reload();
    await expect(page.getByTestId('webhook-endpoint').getByRole('row').nth(1)).toContainText('No answer', { timeout: 1000 });
  }).toPass({ timeout: 20_000 });
  // Its health: failing, never succeeded, the failed attempts counted (a retry may have run by now).
  await expect(page.getByTestId('webhook-state')).toHaveText('Failing');
  await expect(page.getByTestId('webhook-health')).toHaveText(/^Last success: never · (1 failed attempt|[2-9] failed attempts) since$/);
  await page.getByTestId('webhook-endpoint').getByRole('button', { name: 'Resend' }).click();
  await expect(page.getByText('Delivery queued')).toBeVisible();
  await look(page.getByRole('region', { name: 'API keys' }), { path: 'test-results/api-keys-webhooks.png' });
});

test('a Pro account has no API keys section', async ({ page, signIn }) => {
  await signIn({ tier: 'pro' });
  await page.goto('/account');
  await expect(page.getByRole('heading', { name: 'Security' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'API keys' })).toHaveCount(0);
});

test.describe(() => {
  // Every request a first visit makes: a context of its own, nothing served from a warm cache unseen.
  test.use({ freshContext: true });

  test('the API docs are ours: rendered from the document, with examples, and nothing fetched from elsewhere', async ({ page, baseURL }) => {
    const foreign: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(baseURL!)) foreign.push(r.url());
    });
    await page.goto('/docs/api');
    await expect(page.getByRole('heading', { level: 1, name: 'LocalRank API' })).toBeVisible();
    const create = page.locator('#createReport');
    await expect(create.getByRole('heading')).toContainText('POST /api/v1/reports');
    await expect(create.locator('pre').first()).toContainText('Idempotency-Key: $(uuidgen)');
    await expect(create.locator('pre').nth(1)).toContainText("await localrank.POST('/reports'");
    // The typed client, one command away, and each webhook event's body.
    await expect(page.getByRole('region', { name: 'Install the TypeScript client' })).toContainText(`npm install ${baseURL}/api-client/v1/localrank-api-client-1.0.0.tgz`);
    await expect(page.locator('[id="event-alert.created"]')).toContainText('reviewRating');
    expect((await page.request.get('/api-client/v1/localrank-api-client-1.0.0.tgz')).headers()['content-type']).toBe('application/gzip');
    await expect(page.locator('#getBusiness')).toContainText('GET /api/v1/businesses/{businessId}');
    await expect(page.locator('#error-plan_required')).toContainText('plan_required');
    await look(page, { path: 'test-results/docs-api.png', fullPage: false });
    await page.locator('#createReport').scrollIntoViewIfNeeded();
    await look(page, { path: 'test-results/docs-api-operation.png' });
    expect(foreign).toEqual([]);
  });
});

for (const width of [1280, 390]) {
  test(`the API docs fit ${width} px: no sideways scroll, code and tables scroll in their own focusable box, axe clean`, async ({ page }, info) => {
    await page.setViewportSize({ width, height: width < 600 ? 844 : 900 });
    await page.goto('/docs/api');
    await expect(page.getByRole('heading', { level: 1, name: 'LocalRank API' })).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(0);
    // Every code sample is a region the keyboard reaches; wide ones scroll inside it.
    const samples = page.locator('.apidocs-main pre');
    expect(await samples.count()).toBeGreaterThan(10);
    expect(await samples.evaluateAll((els) => els.filter((el) => el.getAttribute('tabindex') !== '0' || !el.getAttribute('aria-label')).length)).toBe(0);
    // Every body field and parameter row has a description.
    expect(await page.locator('.op tbody tr td:last-child').evaluateAll((cells) => cells.filter((c) => !c.textContent?.trim()).length)).toBe(0);
    // A "required" mark is never broken across lines ("req / uired").
    expect(await page.locator('.req').evaluateAll((marks) => marks.filter((m) => m.getClientRects().length !== 1 || m.getBoundingClientRect().height > 20).length)).toBe(0);
    const results = await axe(page).analyze();
    expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`)).toEqual([]);
    await page.locator('#createReport').scrollIntoViewIfNeeded();
    await look(page, { path: info.outputPath(`docs-api-${width}.png`) });
  });
}
