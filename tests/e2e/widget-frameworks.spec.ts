// The widget in every framework, with errors that say what to do (issue 40): a real Vue 3 app
// with two agencies' keys (each lead filed under its own key), one config request per key, a
// frame sandboxed without allow-same-origin, a page whose CSP blocks our connections and a lost
// connection told apart, the widget in English inside an Arabic page, the one sample-data label,
// and the /widget page's snippet note (data-key; Vue, React and plain HTML; Trusted Types).
import { look } from './look.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { build } from 'tsup';
import { compileScript, parse } from 'vue/compiler-sfc';
import { SAMPLE_DATA_LABEL } from '../../common/constants.ts';
import { WIDGET_SANDBOXED, widgetSnippet } from '../../common/widget.ts';
import { brandingProfiles } from '../../db/schema/consultants.ts';
import { widgetKeys, widgetLeads } from '../../db/schema/widget.ts';
import { startHostPage, type HostPage } from '../../scripts/lib/widget-host-page.ts';
import { CONNECTION_MESSAGE } from '../../widget-sdk/src/api.ts';
import { BLOCKED_MESSAGE } from '../../widget-sdk/src/policy.ts';
import { expect, test } from './fixtures.ts';

// The product under test, and the agencies' sites on another port (widget.spec.ts uses +1).
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 43210}`;
const HOST_PORT = Number(process.env.E2E_PORT ?? 43210) + 2;
const pages: Record<string, string> = {};
const scripts: Record<string, string> = {};
const policies: Record<string, string> = {};
let host: HostPage;

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  host = await startHostPage({ port: HOST_PORT, product: baseURL, pages, scripts, policies });
});
test.afterAll(async () => host?.close());

type AppContext = import('../../api/context.ts').AppContext;

/** Two agencies' keys (each with its own branding profile), allowed on the host page. */
async function twoKeys(appCtx: AppContext, consultantId: string) {
  const profiles = await appCtx.db
    .insert(brandingProfiles)
    .values([
      { consultantId, companyName: 'Northstar Marketing', primaryColor: '#7C3AED', secondaryColor: '#1E1B4B', accentColor: '#B45309' },
      { consultantId, companyName: 'Southgate Media', primaryColor: '#0F766E', secondaryColor: '#1E1B4B', accentColor: '#B45309' },
    ])
    .returning();
  const stamp = Date.now().toString(36).slice(-4);
  const keys = await appCtx.db
    .insert(widgetKeys)
    .values(
      profiles.map((profile, i) => ({
        consultantId,
        name: profile.companyName,
        publishableKey: `lr_pk_${'ns'[i]!.repeat(20)}${stamp}`,
        allowedHostnames: [`127.0.0.1:${HOST_PORT}`],
        components: ['report-form' as const, 'score-card' as const],
        brandingProfileId: profile.id,
      })),
    )
    .returning();
  return { north: keys[0]!, south: keys[1]! };
}

/** The snippet as /widget shows it for a key (the report form only). */
const snippet = (publishableKey: string) => widgetSnippet({ baseUrl: baseURL, publishableKey, components: ['report-form'] });
/** Its script and link lines (what a framework app puts in its page's head). */
const head = (publishableKey: string) => snippet(publishableKey).split('\n').filter((line) => !line.startsWith('<localrank-')).join('\n');

/** Counts the network requests for each key's config (a preload's answer used by the loader is not a second one). */
function countConfigs(page: Page): Record<string, number> {
  const counts: Record<string, number> = {};
  page.on('request', (request) => {
    const match = /\/api\/widget\/v1\/([^/]+)\/config$/.exec(request.url());
    if (match) counts[match[1]!] = (counts[match[1]!] ?? 0) + 1;
  });
  return counts;
}

async function fillForm(form: Locator, who: { name: string; email: string; company: string; agency: string }) {
  await form.getByLabel('Full Name').fill(who.name);
  await form.getByLabel('Email Address').fill(who.email);
  await form.getByLabel('Company Name').fill(who.company);
  await form.getByLabel('Your Role').selectOption('owner');
  await form.getByLabel('Business Website').fill('https://parkstreetbakery.example');
  await form.getByLabel('Business Address').fill('200 Congress Ave');
  await form.getByLabel('City').fill('Austin');
  await form.getByLabel('State').selectOption('TX');
  await form.getByLabel('ZIP Code').fill('78701');
  await form.getByLabel(new RegExp(`I agree to receive my free report from ${who.agency}`)).check();
}

/** The page at 1280 px and at 390 px, for looking at. */
async function screenshots(page: Page, path: (name: string) => string, name: string) {
  await page.setViewportSize({ width: 1280, height: 900 });
  await look(page, { path: path(`${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await look(page, { path: path(`${name}-390.png`), fullPage: true });
}

/** A visitor's own browser (no session of ours), its console errors collected. */
async function visitorPage(browser: Browser): Promise<{ context: BrowserContext; visitor: Page; errors: string[] }> {
  const context = await browser.newContext();
  const visitor = await context.newPage();
  const errors: string[] = [];
  visitor.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  return { context, visitor, errors };
}

/** A single-file component compiled as Vite's Vue plugin does (script setup, template inlined;
 *  `localrank-` tags are custom elements, as /widget tells Vue sites to configure). */
const vueSingleFile = {
  name: 'vue-single-file',
  setup(esbuild: {
    onResolve(options: { filter: RegExp }, resolve: () => { path: string }): void;
    onLoad(options: { filter: RegExp }, load: (args: { path: string }) => { contents: string; loader: 'ts' }): void;
  }) {
    esbuild.onResolve({ filter: /^virtual:widget-vue-host$/ }, () => ({ path: join(import.meta.dirname, 'widget-vue-host.vue') }));
    esbuild.onLoad({ filter: /\.vue$/ }, ({ path }) => {
      const { descriptor } = parse(readFileSync(path, 'utf8'), { filename: path });
      const compiled = compileScript(descriptor, { id: 'widget-vue-host', inlineTemplate: true, templateOptions: { compilerOptions: { isCustomElement: (tag: string) => tag.startsWith('localrank-') } } });
      return { contents: compiled.content, loader: 'ts' };
    });
  },
};

test('a Vue 3 app with two agencies\' keys: each form is its agency\'s, each lead is filed under its own key, one config request per key', async ({ browser, signIn, appCtx }, info) => {
  test.setTimeout(90_000);
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const { north, south } = await twoKeys(appCtx, agency.viewer.consultant!.id);
  // The agency's Vue app, bundled with Vue as its own build would be.
  const outDir = info.outputPath('vue-host');
  await build({
    entry: { app: join(import.meta.dirname, 'widget-vue-host.ts') },
    outDir,
    format: ['iife'],
    platform: 'browser',
    target: 'es2022',
    minify: true,
    silent: true,
    noExternal: [/./],
    define: { 'process.env.NODE_ENV': '"production"', __VUE_OPTIONS_API__: 'false', __VUE_PROD_DEVTOOLS__: 'false', __VUE_PROD_HYDRATION_MISMATCH_DETAILS__: 'false' },
    esbuildPlugins: [vueSingleFile],
  });
  scripts['/vue-app.js'] = readFileSync(join(outDir, 'app.global.js'), 'utf8');
  const agencies = [
    { id: 'north', publishableKey: north.publishableKey },
    { id: 'south', publishableKey: south.publishableKey },
  ];
  // Both agencies' script and link lines in the page's head part, the forms in Vue's template.
  pages['/vue'] = `${head(north.publishableKey)}\n${head(south.publishableKey)}<div id="app" data-agencies='${JSON.stringify(agencies)}'></div><script src="/vue-app.js"></script>`;

  const { context, visitor, errors } = await visitorPage(browser);
  const configs = countConfigs(visitor);
  await visitor.goto(`${host.origin}/vue`);
  const northForm = visitor.locator('#north localrank-report-form');
  const southForm = visitor.locator('#south localrank-report-form');
  // Vue put the key on the element, and the widget read it there.
  await expect(northForm).toHaveAttribute('data-key', north.publishableKey);
  await expect(northForm.getByText('From Northstar Marketing.')).toBeVisible();
  await expect(southForm.getByText('From Southgate Media.')).toBeVisible();
  await screenshots(visitor, info.outputPath.bind(info), 'vue-two-keys');
  expect(configs).toEqual({ [north.publishableKey]: 1, [south.publishableKey]: 1 });

  const stamp = Date.now().toString(36);
  const emails = { north: `nora-${stamp}@bakery.example`, south: `sam-${stamp}@bakery.example` };
  await fillForm(northForm, { name: 'Nora North', email: emails.north, company: 'North Bakery', agency: 'Northstar Marketing' });
  await northForm.getByRole('button', { name: 'Get My Free Report' }).click();
  await expect(northForm.getByRole('heading', { name: 'Thank you! Your report is on its way.' })).toBeVisible();
  await fillForm(southForm, { name: 'Sam South', email: emails.south, company: 'South Bakery', agency: 'Southgate Media' });
  await southForm.getByRole('button', { name: 'Get My Free Report' }).click();
  await expect(southForm.getByRole('heading', { name: 'Thank you! Your report is on its way.' })).toBeVisible();
  const keyOf = async (email: string) => (await appCtx.db.select().from(widgetLeads).where(eq(widgetLeads.email, email)))[0]?.widgetKeyId;
  expect(await keyOf(emails.north)).toBe(north.id);
  expect(await keyOf(emails.south)).toBe(south.id);
  expect(configs).toEqual({ [north.publishableKey]: 1, [south.publishableKey]: 1 });
  expect(errors).toEqual([]);
  await context.close();
});

test('two agencies\' snippets, and one script tag for two keys: each key\'s config is fetched once, by the request its hint started', async ({ browser, signIn, appCtx }) => {
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const { north, south } = await twoKeys(appCtx, agency.viewer.consultant!.id);
  pages['/two-snippets'] = `<div id="north">${snippet(north.publishableKey)}</div><div id="south">${snippet(south.publishableKey)}</div>`;
  // A site that keeps one copy of the (identical) script tag: the second key's hints and element.
  pages['/one-script'] = `<div id="north">${snippet(north.publishableKey)}</div><div id="south">${snippet(south.publishableKey).split('\n').slice(1).join('\n')}</div>`;
  for (const path of ['/two-snippets', '/one-script', '/two-snippets', '/one-script']) {
    const { context, visitor, errors } = await visitorPage(browser);
    const configs = countConfigs(visitor);
    await visitor.goto(`${host.origin}${path}`);
    await expect(visitor.locator('#north localrank-report-form').getByText('From Northstar Marketing.'), path).toBeVisible();
    await expect(visitor.locator('#south localrank-report-form').getByText('From Southgate Media.'), path).toBeVisible();
    expect(configs, path).toEqual({ [north.publishableKey]: 1, [south.publishableKey]: 1 });
    // No hint left unused (Chromium warns of a preload not used within a few seconds; a request
    // that did not match its hint would leave it so): the resource timings hold one entry per key.
    const entries = await visitor.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name).filter((name) => name.endsWith('/config')));
    expect(entries.sort(), path).toEqual([north, south].map((k) => `${baseURL}/api/widget/v1/${k.publishableKey}/config`).sort());
    expect(errors, path).toEqual([]);
    await context.close();
  }
});

test('a sandboxed frame, a policy that blocks our connections and a lost connection each say what is wrong, and the console says what to change', async ({ browser, signIn, appCtx }, info) => {
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const { north } = await twoKeys(appCtx, agency.viewer.consultant!.id);
  const form = (page: Page | import('@playwright/test').FrameLocator) => page.locator('localrank-report-form');
  const hostPolicy = (connect: string, extra = '') => ["default-src 'none'", `script-src 'self' ${baseURL}`, `connect-src ${connect}`, "style-src 'self'", "base-uri 'none'", extra].filter(Boolean).join('; ');

  // A page that shows the form in an iframe sandboxed without allow-same-origin: Origin: null.
  pages['/framed'] = `<iframe sandbox="allow-scripts" src="/sandboxed" title="Free report" width="100%" height="320"></iframe>`;
  policies['/framed'] = hostPolicy(baseURL, "frame-src 'self'");
  pages['/sandboxed'] = snippet(north.publishableKey);
  {
    const { context, visitor, errors } = await visitorPage(browser);
    const responses: import('@playwright/test').Response[] = [];
    visitor.on('response', (r) => r.url().endsWith('/config') && responses.push(r));
    await visitor.goto(`${host.origin}/framed`);
    await expect(form(visitor.frameLocator('iframe')).getByText(WIDGET_SANDBOXED)).toBeVisible();
    const [response] = responses;
    expect(responses).toHaveLength(1);
    expect(response!.status()).toBe(403);
    expect(await response!.request().headerValue('origin')).toBe('null');
    // Readable by the frame: the CORS header names its origin, null.
    expect(response!.headers()['access-control-allow-origin']).toBe('null');
    await expect.poll(() => errors.join('\n')).toContain('sandboxed without allow-same-origin');
    expect(errors.join('\n')).toContain('Add allow-same-origin to the iframe\'s sandbox attribute');
    expect(errors.join('\n')).not.toContain('Content Security Policy');
    await screenshots(visitor, info.outputPath.bind(info), 'sandboxed-frame');
    await context.close();
  }

  // A page whose policy names the product for scripts but not for connections.
  pages['/blocked'] = snippet(north.publishableKey);
  policies['/blocked'] = hostPolicy("'self'");
  {
    const { context, visitor, errors } = await visitorPage(browser);
    await visitor.goto(`${host.origin}/blocked`);
    await expect(form(visitor).getByText(BLOCKED_MESSAGE)).toBeVisible();
    await expect(form(visitor).getByText(CONNECTION_MESSAGE)).toHaveCount(0);
    await expect.poll(() => errors.join('\n')).toContain(`LocalRank widget: this page's Content-Security-Policy refused ${baseURL}/api/widget/v1/${north.publishableKey}/config (connect-src). Add ${baseURL} to connect-src`);
    await screenshots(visitor, info.outputPath.bind(info), 'blocked-connect-src');
    await context.close();
  }

  // The same page as the agency meant it, with the connection lost: try again, as before.
  pages['/offline'] = snippet(north.publishableKey);
  {
    const { context, visitor } = await visitorPage(browser);
    await visitor.route(/\/config$/, (route) => route.abort('internetdisconnected'));
    await visitor.goto(`${host.origin}/offline`);
    await expect(form(visitor).getByText(CONNECTION_MESSAGE)).toBeVisible();
    await context.close();
  }
});

test('inside an Arabic, right-to-left page the widget is in English, left to right', async ({ browser, signIn, appCtx }, info) => {
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const { north } = await twoKeys(appCtx, agency.viewer.consultant!.id);
  pages['/arabic'] = `<div lang="ar" dir="rtl"><p>احصل على تقريرك المجاني</p>${snippet(north.publishableKey)}</div>`;
  const { context, visitor } = await visitorPage(browser);
  await visitor.goto(`${host.origin}/arabic`);
  const form = visitor.locator('localrank-report-form');
  await expect(form.getByRole('button', { name: 'Get My Free Report' })).toBeVisible();
  const root = await form.evaluate((el) => {
    const lr = el.shadowRoot!.querySelector('.lr')!;
    const fields = [...el.shadowRoot!.querySelectorAll('label, input, select, button, h2, p')];
    return { lang: lr.getAttribute('lang'), dir: lr.getAttribute('dir'), english: fields.every((f) => f.matches(':lang(en)')), arabic: fields.filter((f) => f.matches(':lang(ar)')).length, direction: getComputedStyle(lr).direction };
  });
  expect(root).toEqual({ lang: 'en', dir: 'ltr', english: true, arabic: 0, direction: 'ltr' });
  // The "Loading…" and refusal notes are the widget's roots too.
  await visitor.route(/\/config$/, (route) => route.fulfill({ status: 403, headers: { 'access-control-allow-origin': host.origin }, json: { code: 'forbidden', message: 'This form is not enabled for this site.' } }));
  await visitor.reload();
  const note = form.getByRole('status');
  await expect(note).toHaveText('This form is not enabled for this site.');
  expect(await note.evaluate((el) => [el.getAttribute('lang'), el.getAttribute('dir')])).toEqual(['en', 'ltr']);
  await visitor.unroute(/\/config$/);
  await visitor.reload();
  await expect(form.getByRole('button', { name: 'Get My Free Report' })).toBeVisible();
  await screenshots(visitor, info.outputPath.bind(info), 'arabic-host');
  await context.close();
});

test('a score card made from sample data says so in the words every other surface uses', async ({ browser, signIn, appCtx }, info) => {
  test.setTimeout(90_000);
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const { north } = await twoKeys(appCtx, agency.viewer.consultant!.id);
  pages['/sample'] = snippet(north.publishableKey);
  const { context, visitor } = await visitorPage(browser);
  await visitor.goto(`${host.origin}/sample`);
  const form = visitor.locator('localrank-report-form');
  await fillForm(form, { name: 'Riley Park', email: `riley-${Date.now().toString(36)}@bakery.example`, company: 'Park Street Bakery', agency: 'Northstar Marketing' });
  await form.getByRole('button', { name: 'Get My Free Report' }).click();
  // The e2e server's places are the sample provider's: the lead's score card is sample data.
  await expect(form.getByText(/Rank #\d+ of \d+ nearby/)).toBeVisible({ timeout: 60_000 });
  await expect(form.getByText(`${SAMPLE_DATA_LABEL}.`, { exact: true })).toBeVisible();
  await expect(form.getByText(/Sample data/)).toHaveCount(0);
  await screenshots(visitor, info.outputPath.bind(info), 'sample-score-card');
  await context.close();
});

test('the /widget page shows the snippet with data-key, the Vue and React usage and the Trusted Types note', async ({ page, signIn, appCtx }, info) => {
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const { north } = await twoKeys(appCtx, agency.viewer.consultant!.id);
  await page.goto('/widget');
  const card = page.getByTestId('widget-key').filter({ hasText: north.publishableKey });
  await expect(card.getByTestId('snippet')).toContainText(`<localrank-report-form data-key="${north.publishableKey}"></localrank-report-form>`);
  // No bare `key` attribute left (Vue and React would drop it).
  expect(await card.getByTestId('snippet').textContent()).not.toMatch(/[^-]key="/);
  const note = card.getByTestId('snippet-csp');
  await expect(note).toContainText('a policy whose trusted-types directive lists its policies must list localrank-widget too');
  await expect(note).toContainText('sandboxed without allow-same-origin');
  await expect(card.getByTestId('vue-usage')).toContainText(`<localrank-report-form data-key="${north.publishableKey}"></localrank-report-form>`);
  await expect(card.getByTestId('vue-usage')).toContainText("isCustomElement: (tag) => tag.startsWith('localrank-')");
  await expect(card.getByTestId('react-elements')).toContainText(`<localrank-report-form data-key="${north.publishableKey}" />`);
  await expect(card.getByTestId('react-usage')).toContainText(`<ReportForm publishableKey="${north.publishableKey}"`);
  await card.scrollIntoViewIfNeeded();
  await page.setViewportSize({ width: 1280, height: 900 });
  await look(card, { path: info.outputPath('widget-page-key-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await look(card, { path: info.outputPath('widget-page-key-390.png') });
  // No horizontal overflow at 390 px.
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
});
