// axe on the signed-in screens (issue 26), in the states an agency reaches: the dashboard and a
// business, the client list and a client (white-label, in the agency's branding profile), Early
// Warning, the widget page with a key and a lead, Branding Settings and the account; and a
// business owner's dashboard, Early Warning, account, data rights and plan pages. On the way, each
// agency screen's JavaScript before any input is held to 60 KB gzip (issue 47, decision 0330),
// counted as `npm run bench:js` counts it (scripts/lib/script-bytes.ts), with the cache off.
import { axe } from './axe.ts';
import { scriptBytesBeforeInput } from '../../scripts/lib/script-bytes.ts';
import { brandingProfiles } from '../../db/schema/consultants.ts';
import { widgetKeys, widgetLeads } from '../../db/schema/widget.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { expect, test } from './fixtures.ts';

// A first load is measured: nothing cached from another test.
test.use({ freshContext: true });

const SIGNED_IN_BUDGET_BYTES = 60_000;
/** After the network is idle: long enough for an idle callback's import, shorter than the bench's. */
const QUIET_MS = 1000;

test('every signed-in screen of an agency is axe clean and downloads at most 60 KB of JavaScript before input', async ({ page, signIn, appCtx }) => {
  test.setTimeout(120_000);
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const consultantId = agency.viewer.consultant!.id;
  await appCtx.db.insert(brandingProfiles).values({ consultantId, companyName: 'Northstar Marketing', primaryColor: '#1E3A8A', secondaryColor: '#1E1B4B', accentColor: '#B45309', website: 'https://northstar.example', isDefault: true });
  const snapshots = [{ daysAgo: 14, seed: 3 }, { daysAgo: 0, seed: 4 }];
  const { business } = await seedBusiness(appCtx, { company: 'Whitfield Dental', snapshots });
  const client = await addClient(appCtx, consultantId, business.id);
  const { business: other } = await seedBusiness(appCtx, { company: 'Ortiz Plumbing', snapshots });
  await addClient(appCtx, consultantId, other.id);
  const [key] = await appCtx.db
    .insert(widgetKeys)
    .values({ consultantId, name: 'Main site', publishableKey: `lr_pk_${'a'.repeat(20)}${Date.now().toString(36).slice(-4)}`, allowedHostnames: ['northstar.example'], components: ['report-form', 'score-card'] })
    .returning();
  await appCtx.db.insert(widgetLeads).values({
    consultantId,
    widgetKeyId: key!.id,
    fullName: 'Riley Park',
    email: 'riley@bakery.example',
    company: 'Park Street Bakery',
    payload: { fullName: 'Riley Park' },
    sourceHostname: 'northstar.example',
    status: 'queued',
    queuedReason: 'address',
  });

  const screens: Array<[path: string, ready: () => Promise<void>]> = [
    ['/dashboard', () => expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()],
    [`/dashboard/${business.id}`, () => expect(page.getByText('Whitfield Dental').first()).toBeVisible()],
    ['/clients', () => expect(page.getByText('Ortiz Plumbing').first()).toBeVisible()],
    [`/clients/${client.id}`, () => expect(page.getByText('Whitfield Dental').first()).toBeVisible()],
    [`/early-warning/${business.id}`, () => expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()],
    ['/widget', () => expect(page.getByTestId('lead-row').first()).toBeVisible()],
    ['/branding', () => expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()],
    ['/account', () => expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible()],
  ];
  const found: string[] = [];
  const overBudget: string[] = [];
  // A routed page bypasses the HTTP cache: every screen's scripts are counted as a first visit's.
  await page.route('**/_astro/**', (route) => route.continue());
  const check = async (state: string) => {
    await page.waitForLoadState('networkidle');
    const results = await axe(page).analyze();
    for (const v of results.violations) found.push(`${state} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  };
  for (const [path, ready] of screens) {
    const scripts = await scriptBytesBeforeInput(page, path, QUIET_MS);
    if (scripts.total > SIGNED_IN_BUDGET_BYTES) overBudget.push(`${path}: ${scripts.total} bytes (${scripts.files.map((f) => `${f.what} ${f.gzip}`).join(', ')})`);
    await ready();
    await check(path);
  }
  expect(overBudget).toEqual([]);
  // The forms open on their pages.
  await page.goto('/clients');
  await page.getByRole('button', { name: 'Add Client' }).click();
  await expect(page.locator('#cf-title')).toBeVisible();
  await check('/clients, adding a client');
  await page.goto('/widget');
  await page.getByRole('button', { name: 'New Key' }).click();
  await expect(page.locator('#wk-title')).toBeVisible();
  await check('/widget, a new key');
  expect(found).toEqual([]);
});

test("every signed-in screen of a business owner is axe clean", async ({ page, signIn, appCtx }) => {
  test.setTimeout(90_000);
  const owner = await signIn({ tier: 'enterprise' });
  const { business } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Barton Springs Dental', snapshots: [{ daysAgo: 30, seed: 5 }, { daysAgo: 0, seed: 6 }] });
  const found: string[] = [];
  for (const path of ['/dashboard', `/dashboard/${business.id}`, `/early-warning/${business.id}`, '/account', '/privacy/data', '/subscribe']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 }).first()).toBeVisible();
    await page.waitForLoadState('networkidle');
    const results = await axe(page).analyze();
    for (const v of results.violations) found.push(`${path} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
  }
  expect(found).toEqual([]);
});
