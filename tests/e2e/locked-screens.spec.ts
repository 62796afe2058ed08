// Signed-in screens lead somewhere (issue 40, decision 0226): for a consultant on each plan, the top
// bar marks what the plan does not open (Upgrade, its description naming the plan), every screen it
// links to is either the screen or the one upgrade card naming the plan that opens it, Early Warning
// keeps the spec's Access Denied inside that card, and no page asks the API for what the plan
// does not include: not one 403 on the way. A business owner gets no consultant links, and a plan
// given while the session was cached opens its screens at once.
import { look } from './look.ts';
import { execFileSync } from 'node:child_process';
import { axe } from './axe.ts';
import type { Page } from '@playwright/test';
import { EARLY_WARNING_PLAN_MESSAGE, PLAN_MESSAGES } from '../../common/plan-messages.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { expect, test } from './fixtures.ts';

type Tier = 'free' | 'pro' | 'enterprise' | 'agency';
const NAMES: Record<Tier, string> = { free: 'Free', pro: 'Pro', enterprise: 'Enterprise', agency: 'Agency' };

/** Every API answer with status 403 and every console error the page logs. */
function watch(page: Page) {
  const refused: string[] = [];
  const errors: string[] = [];
  page.on('response', (res) => {
    if (res.status() === 403) refused.push(`${res.request().method()} ${new URL(res.url()).pathname}`);
  });
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(message.text());
  });
  return { refused, errors };
}

/** The top bar's link: its mark and description say whether the plan opens its screen. */
async function expectNavLink(page: Page, name: string, locked: Tier | null) {
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  await expect(link).toBeVisible();
  if (locked) {
    await expect(link.locator('.nav-upgrade')).toHaveText('Upgrade');
    await expect(link).toHaveAccessibleDescription(`Upgrade: part of the ${NAMES[locked]} plan`);
  } else {
    await expect(link.locator('.nav-upgrade')).toBeHidden();
    await expect(link).not.toHaveAttribute('aria-describedby');
  }
}

/** The upgrade card: its title, words, the plan that opens the screen, and the way to it. */
async function expectUpgradeCard(page: Page, plan: Tier, title: string, text: string) {
  const card = page.locator('[data-state="upgrade"]');
  await expect(card.getByRole('heading', { level: 1, name: title })).toBeVisible();
  await expect(card).toContainText(text);
  await expect(card).toContainText(`${NAMES[plan]} plan`);
  await expect(card.getByRole('link', { name: `Upgrade to ${NAMES[plan]}` })).toHaveAttribute('href', `/subscribe?plan=${plan}`);
  await expect(card.getByRole('link', { name: 'Compare plans' })).toHaveAttribute('href', '/#pricing');
}

/** What each consultant plan opens; null: the screen itself. */
const PLANS: Array<{ tier: Tier; dashboard: Tier | null; clients: Tier | null; branding: Tier | null; widget: Tier | null; earlyWarning: Tier | null }> = [
  { tier: 'free', dashboard: 'pro', clients: 'pro', branding: 'agency', widget: 'agency', earlyWarning: 'enterprise' },
  { tier: 'pro', dashboard: null, clients: null, branding: 'agency', widget: 'agency', earlyWarning: 'enterprise' },
  { tier: 'enterprise', dashboard: null, clients: null, branding: 'agency', widget: 'agency', earlyWarning: null },
  { tier: 'agency', dashboard: null, clients: null, branding: null, widget: null, earlyWarning: null },
];

for (const plan of PLANS) {
  test(`a consultant on ${NAMES[plan.tier]}: the bar marks what the plan does not open, each link leads to its screen or the upgrade card, no 403`, async ({ page, appCtx, signIn }, info) => {
    // A ceiling, not a speed: every screen of the bar and axe on the card took over 60 s on a busy 2-core machine.
    test.setTimeout(150_000);
    const { refused, errors } = watch(page);
    const me = await signIn({ role: 'consultant', tier: plan.tier, companyName: `${NAMES[plan.tier]} Consulting` });
    const { business } = await seedBusiness(appCtx, { userId: me.userId, company: `${NAMES[plan.tier]} Bakery`, snapshots: [{ daysAgo: 1 }] });

    await page.goto('/account');
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    await expectNavLink(page, 'Dashboard', plan.dashboard);
    await expectNavLink(page, 'Clients', plan.clients);
    await expectNavLink(page, 'Branding', plan.branding);
    await expectNavLink(page, 'Widget', plan.widget);
    await look(page, { path: info.outputPath(`nav-${plan.tier}-1280.png`) });

    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Dashboard', exact: true }).click();
    await expect(page).toHaveURL(/\/dashboard$/);
    if (plan.dashboard) await expectUpgradeCard(page, plan.dashboard, 'Your business dashboard is part of Pro', '90-day trends.');
    else await expect(page.getByTestId('portfolio').getByRole('heading', { level: 1, name: 'Your businesses and clients' })).toBeVisible();

    await nav.getByRole('link', { name: 'Clients', exact: true }).click();
    await expect(page).toHaveURL(/\/clients$/);
    if (plan.clients) await expectUpgradeCard(page, plan.clients, 'Client Management', PLAN_MESSAGES.clientManagement);
    else await expect(page.getByRole('heading', { level: 1, name: 'Your clients' })).toBeVisible();

    await nav.getByRole('link', { name: 'Branding', exact: true }).click();
    await expect(page).toHaveURL(/\/branding$/);
    if (plan.branding) await expectUpgradeCard(page, plan.branding, 'Branding', PLAN_MESSAGES.whiteLabel);
    else await expect(page.getByRole('heading', { level: 1, name: 'Branding Settings' })).toBeVisible();
    if (plan.tier === 'pro') await look(page, { path: info.outputPath('branding-upgrade-pro-1280.png'), fullPage: true });

    await nav.getByRole('link', { name: 'Widget', exact: true }).click();
    await expect(page).toHaveURL(/\/widget$/);
    if (plan.widget) await expectUpgradeCard(page, plan.widget, 'Website Widget', PLAN_MESSAGES.widget);
    else await expect(page.getByTestId('widget-page')).toBeVisible();

    // Early Warning, opened from an e-mail or a bookmark: the spec's Access Denied, in the same card.
    await page.goto(`/early-warning/${business.id}`);
    if (plan.earlyWarning) {
      await expectUpgradeCard(page, plan.earlyWarning, 'Access Denied', EARLY_WARNING_PLAN_MESSAGE);
      await expect(page.locator('[data-state="upgrade"]')).toContainText('Included in the Enterprise and Agency plans.');
      if (plan.tier === 'pro') {
        await look(page, { path: info.outputPath('early-warning-pro-1280.png'), fullPage: true });
        // The card and the marked bar pass axe (the marks' colours included).
        const results = await axe(page).analyze();
        expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
        await page.setViewportSize({ width: 390, height: 844 });
        await look(page, { path: info.outputPath('early-warning-pro-390.png'), fullPage: true });
        await page.getByRole('button', { name: 'Menu' }).click();
        await look(page, { path: info.outputPath('nav-pro-390.png') });
        const menu = page.getByRole('navigation', { name: 'Mobile' });
        await expect(menu.getByRole('link', { name: 'Branding', exact: true })).toHaveAccessibleDescription('Upgrade: part of the Agency plan');
        await expect(menu.getByRole('link', { name: 'Clients', exact: true })).not.toHaveAttribute('aria-describedby');
      }
    } else {
      await expect(page.getByTestId('early-warning').getByRole('heading', { level: 1, name: `${NAMES[plan.tier]} Bakery` })).toBeVisible();
    }

    expect(refused, 'API calls refused with 403').toEqual([]);
    expect(errors.filter((e) => /403|Forbidden/i.test(e)), 'console errors about a 403').toEqual([]);
  });
}

test('a business owner: no consultant links; the consultant screens say they are for consultants, Early Warning is Access Denied in the upgrade card, no 403', async ({ page, appCtx, signIn }) => {
  const { refused } = watch(page);
  const owner = await signIn({ role: 'client', tier: 'pro' });
  const { business } = await seedBusiness(appCtx, { userId: owner.userId, company: 'Hyde Park Bakery', snapshots: [{ daysAgo: 1 }] });
  await page.goto(`/dashboard/${business.id}`);
  await expect(page.getByRole('heading', { level: 1, name: 'Hyde Park Bakery' })).toBeVisible();
  await expectNavLink(page, 'Dashboard', null);
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const name of ['Clients', 'Branding', 'Widget']) await expect(nav.getByRole('link', { name, exact: true })).toBeHidden();

  await page.goto('/branding');
  await expect(page.getByRole('heading', { level: 1, name: 'Branding' })).toBeVisible();
  await expect(page.getByText('Branding profiles and white-label reports are for consultant accounts on the Agency plan.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/dashboard');
  await page.goto('/widget');
  await expect(page.getByText('The embeddable widget is for consultant accounts on the Agency plan.')).toBeVisible();
  await page.goto('/clients');
  await expect(page.getByText('Only consultant accounts manage clients.')).toBeVisible();

  await page.goto(`/early-warning/${business.id}`);
  await expectUpgradeCard(page, 'enterprise', 'Access Denied', EARLY_WARNING_PLAN_MESSAGE);
  expect(refused, 'API calls refused with 403').toEqual([]);
});

test('a plan given while the session is cached (the admin command) opens its screens at once, and the bar follows', async ({ page, signIn }) => {
  // A ceiling for the admin process it starts (about 5 s of CPU to import the app), as the other
  // tests that start one have: it ran past 30 s while the browser tier kept both cores busy.
  test.setTimeout(90_000);
  const { refused } = watch(page);
  const me = await signIn({ role: 'consultant', tier: 'free', companyName: 'Late Upgrade Co' });
  await page.goto('/account');
  await expectNavLink(page, 'Clients', 'pro');
  await expectNavLink(page, 'Branding', 'agency');
  // The session check is now cached in the tab for 5 minutes, saying Free.
  execFileSync(process.execPath, ['scripts/admin.ts', 'set-plan', me.email, 'agency'], { env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, LOG_LEVEL: 'silent' }, stdio: 'pipe' });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Branding', exact: true }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Branding Settings' })).toBeVisible();
  await expectNavLink(page, 'Clients', null);
  await expectNavLink(page, 'Branding', null);
  await expectNavLink(page, 'Widget', null);

  // And the other way: a plan that lapsed while cached gets the card with Renew, not an error.
  execFileSync(process.execPath, ['scripts/admin.ts', 'set-plan', me.email, 'agency', 'suspended'], { env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR, LOG_LEVEL: 'silent' }, stdio: 'pipe' });
  await page.goto('/branding');
  const card = page.locator('[data-state="upgrade"]');
  await expect(card.getByRole('heading', { level: 1, name: 'Branding' })).toBeVisible();
  await expect(card.getByRole('link', { name: 'Renew Agency' })).toHaveAttribute('href', '/subscribe?plan=agency');
  await expect(card).toContainText('Your Agency plan includes this: it opens again once the plan is active.');
  // The refusal that told the page so is the one 403 of the walk: the cached session said Agency.
  expect(refused).toEqual(['GET /api/branding-profiles']);
  const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Branding', exact: true });
  await expect(link.locator('.nav-upgrade')).toHaveText('Renew');
  await expect(link).toHaveAccessibleDescription('Renew: part of the Agency plan');
});
