// The widget SDK end to end (issue 15): an agency creates a key on /widget and copies the snippet
// into a plain page on another origin (another port) with a strict CSP and hostile CSS; a
// visitor's request there becomes a lead, a score card and a report e-mail. Two instances, remove
// and re-add, the queue API before and after the script loads, a hostname not in the key's list
// and a revoked key; a Trusted Types page under strict-dynamic (one round trip, throttled), and
// a React site whose CSS hides every div (issue 26).
import { look } from './look.ts';
import { axe } from './axe.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { contrastRatio, MIN_NON_TEXT_CONTRAST } from '../../common/colour.ts';
import { widgetSnippet, widgetTheme } from '../../common/widget.ts';
import { brandingProfiles } from '../../db/schema/consultants.ts';
import { reports } from '../../db/schema/reports.ts';
import { widgetKeys, widgetLeads } from '../../db/schema/widget.ts';
import { build } from 'tsup';
import { HOST_NONCE, roundTrips, startHostPage, trustedTypesPolicy, type HostPage } from '../../scripts/lib/widget-host-page.ts';
import { expect, test } from './fixtures.ts';

// The product under test, and the agency's site: another port of this machine, so another origin.
const baseURL = `http://127.0.0.1:${process.env.E2E_PORT ?? 43210}`;
const HOST_PORT = Number(process.env.E2E_PORT ?? 43210) + 1;
const pages: Record<string, string> = {};
const scripts: Record<string, string> = {};
const styles: Record<string, string> = {};
const policies: Record<string, string> = {};
let host: HostPage;

const outbox = () => join(process.env.E2E_DATA_DIR!, 'outbox');
const mailsTo = (address: string) =>
  existsSync(outbox())
    ? readdirSync(outbox())
        .filter((f) => f.endsWith('.eml'))
        .map((f) => readFileSync(join(outbox(), f), 'utf8').replace(/=\r?\n/g, ''))
        // The To: header itself (a white-label report names the agency in Reply-To: too).
        .filter((m) => m.split(/\r?\n/).some((line) => line === `To: ${address}`))
    : [];

test.describe.configure({ mode: 'serial' });
test.beforeAll(async () => {
  host = await startHostPage({ port: HOST_PORT, product: baseURL, pages, scripts, styles, policies });
});
test.afterAll(async () => host?.close());

async function fillForm(form: import('@playwright/test').Locator, who: { name: string; email: string; company: string }) {
  await form.getByLabel('Full Name').fill(who.name);
  await form.getByLabel('Email Address').fill(who.email);
  await form.getByLabel('Company Name').fill(who.company);
  await form.getByLabel('Your Role').selectOption('owner');
  await form.getByLabel('Business Website').fill('https://parkstreetbakery.example');
  await form.getByLabel('Business Address').fill('200 Congress Ave');
  await form.getByLabel('City').fill('Austin');
  await form.getByLabel('State').selectOption('TX');
  await form.getByLabel('ZIP Code').fill('78701');
  await form.getByLabel(/I agree to receive my free report from Northstar Marketing/).check();
}

test('an agency embeds the snippet on another origin; the visitor gets a score card and the lead is listed', async ({ page, browser, signIn, appCtx }, info) => {
  test.setTimeout(120_000);
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  await appCtx.db.insert(brandingProfiles).values({
    consultantId: agency.viewer.consultant!.id,
    companyName: 'Northstar Marketing',
    primaryColor: '#7C3AED',
    secondaryColor: '#1E1B4B',
    accentColor: '#B45309',
    website: 'https://northstar.example',
    isDefault: true,
  });

  await page.goto('/account');
  await page.getByRole('link', { name: /Website Widget/ }).click();
  await expect(page).toHaveURL(/\/widget$/);
  await page.getByRole('button', { name: 'New Key' }).click();
  await page.getByLabel('Name (for you)').fill('Main site');
  await page.getByLabel(/Allowed hostnames/).fill(`127.0.0.1:${HOST_PORT}`);
  await page.getByLabel('Score card', { exact: true }).check();
  await page.getByRole('button', { name: 'Save Key' }).click();
  const snippet = (await page.getByTestId('snippet').textContent())!;
  const shownKey = /data-key="(lr_pk_[\w-]{24})"/.exec(snippet)?.[1];
  expect(snippet).toBe(
    [
      `<script async src="${baseURL}/widget/v1/loader.js" data-key="${shownKey}"></script>`,
      `<link rel="preload" href="${baseURL}/widget/v1/widget.js" as="script">`,
      `<link rel="preload" href="${baseURL}/api/widget/v1/${shownKey}/config" as="fetch" crossorigin>`,
      `<localrank-report-form data-key="${shownKey}"></localrank-report-form>`,
      `<localrank-score-card data-key="${shownKey}"></localrank-score-card>`,
    ].join('\n'),
  );
  await expect(page.getByTestId('snippet-csp')).toContainText(`allow ${baseURL} in script-src and connect-src`);
  await expect(page.getByTestId('react-usage')).toContainText("import { ReportForm, ScoreCard } from '@localrank/widget';");
  // The live preview is the widget itself, in the profile's colours.
  await expect(page.locator('.widget-preview').getByRole('button', { name: 'Get My Free Report' })).toBeVisible();
  await look(page, { path: info.outputPath('widget-page.png'), fullPage: true });

  // The agency pastes the snippet into its own page, as is.
  pages['/'] = `<p>Find out how your business ranks.</p>${snippet}`;
  const visitorContext = await browser.newContext();
  const visitor = await visitorContext.newPage();
  const violations: string[] = [];
  visitor.on('console', (m) => m.type() === 'error' && violations.push(m.text()));
  await visitor.goto(host.url);
  const form = visitor.locator('localrank-report-form');
  await expect(form.getByRole('heading', { name: 'Get your free local market report' })).toBeVisible();
  // The hostile page CSS (input { display: none }, a global form style) does not reach in.
  await expect(form.getByLabel('Full Name')).toBeVisible();
  expect(await form.locator('form').evaluate((el) => getComputedStyle(el).borderTopStyle)).not.toBe('dashed');
  const submit = form.getByRole('button', { name: 'Get My Free Report' });
  expect(await submit.evaluate((el) => getComputedStyle(el).backgroundColor)).toBe('rgb(124, 58, 237)');

  // Keyboard only: errors announced, focus on the first field in error, a visible focus ring.
  await submit.focus();
  await visitor.keyboard.press('Enter');
  await expect(form.getByText('Please correct 10 fields.')).toBeAttached();
  await expect(form.getByLabel('Full Name')).toBeFocused();
  expect(await form.getByLabel('Full Name').evaluate((el) => getComputedStyle(el).outlineStyle)).toBe('solid');

  const results = await axe(visitor).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);

  const email = `riley-${Date.now().toString(36)}@bakery.example`;
  await fillForm(form, { name: 'Riley Park', email, company: 'Park Street Bakery' });
  await submit.click();
  await expect(form.getByRole('heading', { name: 'Thank you! Your report is on its way.' })).toBeFocused();
  // As soon as the report is ready: the lead's own score card, inline.
  await expect(form.getByText(/Rank #\d+ of \d+ nearby/)).toBeVisible({ timeout: 60_000 });
  await expect(form.getByText('Digital presence')).toBeVisible();
  await look(visitor, { path: info.outputPath('host-page.png'), fullPage: true });
  // The published score card beside it (no client chosen yet).
  await expect(visitor.locator('localrank-score-card').getByText('No scores are published yet.')).toBeVisible();
  expect(violations.filter((v) => /Content Security Policy|Refused/.test(v))).toEqual([]);
  // No cookie was set or sent on the product's origin.
  expect(await visitorContext.cookies(baseURL)).toEqual([]);

  // The report e-mail reaches the visitor; its report is the agency's, in the key's branding.
  await expect.poll(() => mailsTo(email).length, { timeout: 30_000 }).toBe(1);
  const [lead] = await appCtx.db.select().from(widgetLeads).where(eq(widgetLeads.email, email));
  const [report] = await appCtx.db.select().from(reports).where(eq(reports.requestId, lead!.requestId!));
  expect(report!.consultantId).toBe(agency.viewer.consultant!.id);
  expect(report!.brandingProfileId).toBe(lead!.brandingProfileId);
  expect(report!.brandingProfileId).not.toBeNull();
  // White-label: the e-mail comes under the agency's name and carries its name, not ours.
  const [visitorMail] = mailsTo(email);
  expect(visitorMail).toMatch(/^From: "?Northstar Marketing"? </m);
  expect(visitorMail).not.toMatch(/^From: .*LocalRank/m);
  await expect.poll(() => mailsTo(agency.email).filter((m) => m.includes('New lead from your widget: Park Street Bakery')).length, { timeout: 30_000 }).toBe(1);
  await visitorContext.close();

  // The lead in the agency's list, with its score; converted to a client.
  await page.reload();
  const row = page.getByTestId('lead-row').filter({ hasText: email });
  await expect(row).toContainText('Park Street Bakery');
  await expect(row).toContainText(`127.0.0.1:${HOST_PORT}`);
  await expect(row).toContainText(/#\d+ of \d+/);
  await look(page.getByTestId('leads'), { path: info.outputPath('lead-list.png') });
  await row.getByRole('button', { name: 'Convert to client' }).click();
  await expect(row.getByRole('link', { name: 'Client' })).toBeVisible();
});

test('two instances, remove and re-add, and the queue API before and after the script loads', async ({ browser, signIn, appCtx }) => {
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const key = (
    await appCtx.db
      .insert(widgetKeys)
      .values({ consultantId: agency.viewer.consultant!.id, name: 'Queue', publishableKey: `lr_pk_${'q'.repeat(20)}${Date.now().toString(36).slice(-4)}`, allowedHostnames: [`127.0.0.1:${HOST_PORT}`], components: ['report-form', 'score-card'] })
      .returning()
  )[0]!;
  const loader = `<script async src="${baseURL}/widget/v1/loader.js"></script>`;
  scripts['/queue-calls.js'] = `LocalRank('init', { key: '${key.publishableKey}' }); LocalRank('mount', { component: 'report-form', target: '#before' });`;
  pages['/queue'] = `<div id="before"></div><div id="after"></div><localrank-report-form></localrank-report-form><script src="/queue-stub.js"></script><script src="/queue-calls.js"></script>${loader}`;

  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto(`${host.origin}/queue`);
  const forms = visitor.locator('localrank-report-form');
  // Mounted by the queue before the script loaded, and by the element itself: two instances.
  await expect(forms).toHaveCount(2);
  await expect(forms.nth(0).getByRole('button', { name: 'Get My Free Report' })).toBeVisible();
  await expect(forms.nth(1).getByRole('button', { name: 'Get My Free Report' })).toBeVisible();
  // Each instance keeps its own state.
  await forms.nth(0).getByLabel('Full Name').fill('Only in the first');
  await expect(forms.nth(1).getByLabel('Full Name')).toHaveValue('');

  // After the script has loaded, a call runs at once.
  await visitor.evaluate(() => (window as unknown as { LocalRank: (c: string, a: unknown) => void }).LocalRank('mount', { component: 'score-card', target: '#after' }));
  await expect(visitor.locator('#after localrank-score-card').getByRole('heading', { name: 'Local market score by Northstar Marketing' })).toBeVisible();

  // A single-page app removes the element and adds it again: it works again.
  const leftWhenRemoved = await visitor.evaluate(() => {
    const el = document.querySelector('main > localrank-report-form')!;
    const parent = el.parentElement!;
    el.remove();
    const left = el.shadowRoot!.childNodes.length;
    parent.append(el);
    return left;
  });
  // Removed, it was unmounted (nothing left running); added again, it renders afresh.
  expect(leftWhenRemoved).toBe(0);
  await expect(forms.nth(1).getByRole('button', { name: 'Get My Free Report' })).toBeVisible();
  await context.close();
});

test('a hostname not in the key\'s list is refused, and so is a revoked key', async ({ browser, signIn, appCtx, request }) => {
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const [key] = await appCtx.db
    .insert(widgetKeys)
    .values({ consultantId: agency.viewer.consultant!.id, name: 'Strict', publishableKey: `lr_pk_${'s'.repeat(20)}${Date.now().toString(36).slice(-4)}`, allowedHostnames: [`127.0.0.1:${HOST_PORT}`], components: ['report-form'] })
    .returning();
  pages['/strict'] = `<script async src="${baseURL}/widget/v1/loader.js" data-key="${key!.publishableKey}"></script><localrank-report-form></localrank-report-form>`;

  const context = await browser.newContext();
  const visitor = await context.newPage();
  // The same page under a hostname the key does not list.
  const answer = visitor.waitForResponse((r) => r.url().endsWith('/config'));
  await visitor.goto(`http://localhost:${HOST_PORT}/strict`);
  expect((await answer).status()).toBe(403);
  await expect(visitor.locator('localrank-report-form').getByText('This form is not enabled for this site.')).toBeVisible();
  const api = await request.post(`${baseURL}/api/widget/v1/${key!.publishableKey}/leads`, { headers: { origin: `http://localhost:${HOST_PORT}` }, data: {} });
  expect(api.status()).toBe(403);

  // Allowed here until the agency revokes it.
  await visitor.goto(`${host.origin}/strict`);
  await expect(visitor.locator('localrank-report-form').getByRole('button', { name: 'Get My Free Report' })).toBeVisible();
  await appCtx.db.update(widgetKeys).set({ revokedAt: new Date() }).where(eq(widgetKeys.id, key!.id));
  await visitor.reload();
  await expect(visitor.locator('localrank-report-form').getByText('This form is not enabled for this site.')).toBeVisible();
  await context.close();
});

/** A key of the agency's for the host page, with both components. */
async function hostKey(appCtx: import('../../api/context.ts').AppContext, consultantId: string, name: string) {
  const [key] = await appCtx.db
    .insert(widgetKeys)
    .values({ consultantId, name, publishableKey: `lr_pk_${name[0]!.toLowerCase().repeat(20)}${Date.now().toString(36).slice(-4)}`, allowedHostnames: [`127.0.0.1:${HOST_PORT}`], components: ['report-form', 'score-card'] })
    .returning();
  return key!.publishableKey;
}

test("two agencies' snippets on one page, a mount queued before its target, an RTL host and a 200 px column", async ({ browser, signIn, appCtx }) => {
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const consultantId = agency.viewer.consultant!.id;
  const [north, south] = await appCtx.db
    .insert(brandingProfiles)
    .values([
      { consultantId, companyName: 'Northstar Marketing', primaryColor: '#7C3AED', secondaryColor: '#1E1B4B', accentColor: '#B45309' },
      { consultantId, companyName: 'Southgate Media', primaryColor: '#0F766E', secondaryColor: '#1E1B4B', accentColor: '#B45309' },
    ])
    .returning();
  const keyA = await hostKey(appCtx, consultantId, 'Alpha');
  const keyB = await hostKey(appCtx, consultantId, 'Beta');
  await appCtx.db.update(widgetKeys).set({ brandingProfileId: north!.id }).where(eq(widgetKeys.publishableKey, keyA));
  await appCtx.db.update(widgetKeys).set({ brandingProfileId: south!.id }).where(eq(widgetKeys.publishableKey, keyB));
  const snippet = (key: string) => widgetSnippet({ baseUrl: baseURL, publishableKey: key, components: ['report-form'] });
  // The queue stub and its calls in the head, before the target exists and before any loader.
  scripts['/head-calls.js'] = `LocalRank('mount', { component: 'report-form', target: '#later', key: '${keyA}' });`;
  pages['/two'] =
    `<script src="/queue-stub.js"></script><script src="/head-calls.js"></script>` +
    `<div id="a">${snippet(keyA)}</div><div id="b">${snippet(keyB)}</div>` +
    // A slow script of the page's own holds the parser, so the widget runs before #later exists.
    `<script src="/slow.js"></script><div style="width:200px" id="narrow"><div id="later"></div></div>`;

  for (const run of [1, 2, 3]) {
    const context = await browser.newContext();
    const visitor = await context.newPage();
    await visitor.route(`${host.origin}/slow.js`, async (route) => {
      await new Promise((done) => setTimeout(done, 1500));
      await route.fulfill({ contentType: 'text/javascript', body: '' });
    });
    await visitor.goto(`${host.origin}/two`);
    // Whichever loader runs first, each form is its own agency's.
    await expect(visitor.locator('#a localrank-report-form').getByText('From Northstar Marketing.'), `run ${run}`).toBeVisible();
    await expect(visitor.locator('#b localrank-report-form').getByText('From Southgate Media.'), `run ${run}`).toBeVisible();
    // Mounted once the page's body was parsed, inside a 200 px column it does not overflow.
    const later = visitor.locator('#later localrank-report-form');
    await expect(later.getByRole('button', { name: 'Get My Free Report' })).toBeVisible();
    const overflow = await later.evaluate((el) => {
      const column = el.parentElement!.parentElement!.getBoundingClientRect();
      return [...el.shadowRoot!.querySelectorAll('input, select, button')].filter((c) => c.getBoundingClientRect().right > column.right + 0.5).length;
    });
    expect(overflow).toBe(0);
    // The widget did run while the page was still being parsed.
    expect(await visitor.evaluate(() => {
      const widget = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => e.name.endsWith('/widget/v1/widget.js'))!;
      return widget.responseEnd < (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming).domContentLoadedEventStart;
    })).toBe(true);
    await context.close();
  }

  // On a right-to-left page the English form stays left to right.
  pages['/rtl'] = `<div dir="rtl" lang="ar">${snippet(keyA)}</div>`;
  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto(`${host.origin}/rtl`);
  const form = visitor.locator('localrank-report-form');
  await expect(form.getByRole('button', { name: 'Get My Free Report' })).toBeVisible();
  expect(await form.evaluate((el) => getComputedStyle(el).direction)).toBe('rtl');
  expect(await form.locator('form').evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
  await context.close();
});

test('a Trusted Types page with a nonce and strict-dynamic, and no policy of its own, runs the snippet; one round trip under throttling', async ({ browser, signIn, appCtx }, info) => {
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  // A pale brand: its own colour would not show a focus ring on white.
  await appCtx.db.insert(brandingProfiles).values({ consultantId: agency.viewer.consultant!.id, companyName: 'Northstar Marketing', primaryColor: '#FFF59D', secondaryColor: '#1E1B4B', accentColor: '#FFF59D', isDefault: true });
  const key = await hostKey(appCtx, agency.viewer.consultant!.id, 'Trusted');
  // The snippet as shown, with the nonce the site's own templates add to its script and link tags
  // (under 'strict-dynamic' the widget's hint needs it too; without it the loader fetches the widget).
  pages['/trusted'] = widgetSnippet({ baseUrl: baseURL, publishableKey: key, components: ['report-form'] }).replace(/<(script|link) /g, `<$1 nonce="${HOST_NONCE}" `);
  policies['/trusted'] = trustedTypesPolicy(baseURL);

  const context = await browser.newContext();
  const visitor = await context.newPage();
  const errors: string[] = [];
  visitor.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  // A slow network, so requests made one after another cannot look parallel.
  const cdp = await context.newCDPSession(visitor);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 150, downloadThroughput: (1600 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 });
  const loader = visitor.waitForResponse((r) => r.url().endsWith('/widget/v1/loader.js'));
  await visitor.goto(`${host.origin}/trusted`);
  // Served precompressed.
  expect((await (await loader).allHeaders())['content-encoding']).toBe('br');
  const form = visitor.locator('localrank-report-form');
  await expect(form.getByRole('button', { name: 'Get My Free Report' })).toBeEnabled();
  // The loader, the widget and its config together: one round trip to the product, each fetched
  // once (the loader's requests use the hints' answers).
  const timings = await visitor.evaluate((origin) => performance.getEntriesByType('resource').filter((e) => e.name.startsWith(origin)).map((e) => ({ name: e.name, startTime: e.startTime, responseEnd: (e as PerformanceResourceTiming).responseEnd })), baseURL);
  expect(timings.map((t) => new URL(t.name).pathname).sort()).toEqual([`/api/widget/v1/${key}/config`, '/widget/v1/loader.js', '/widget/v1/widget.js'].sort());
  expect(roundTrips(timings)).toBe(1);
  // Nothing the page's policy refused on the way, the nonced hints included.
  expect(errors.filter((e) => /Trusted|Content Security Policy|Refused/i.test(e))).toEqual([]);
  await cdp.send('Network.emulateNetworkConditions', { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  // The page does enforce Trusted Types: a script address from a plain string is refused.
  expect(await visitor.evaluate(() => { try { document.createElement('script').src = '/x.js'; return 'allowed'; } catch { return 'refused'; } })).toBe('refused');
  errors.length = 0;
  // The form works: errors, then a lead.
  await form.getByRole('button', { name: 'Get My Free Report' }).click();
  await expect(form.getByText('Please correct 10 fields.')).toBeAttached();
  // From the keyboard, the focus ring on the pale brand's button reads on white and on the button.
  await form.getByLabel(/I agree to receive/).focus();
  await visitor.keyboard.press('Tab');
  const button = form.getByRole('button', { name: 'Get My Free Report' });
  await expect(button).toBeFocused();
  const theme = widgetTheme('#FFF59D', '#1E1B4B', '#FFF59D');
  const ring = theme.focus;
  // The pale primary is drawn darker on the button, so it shows on white (3:1), and the ring reads on both.
  expect(contrastRatio(theme.primary, '#FFFFFF')).toBeGreaterThanOrEqual(MIN_NON_TEXT_CONTRAST);
  for (const background of ['#FFFFFF', theme.primary]) expect(contrastRatio(ring, background)).toBeGreaterThanOrEqual(MIN_NON_TEXT_CONTRAST);
  expect(await button.evaluate((el) => getComputedStyle(el).outlineColor)).toBe(`rgb(${[1, 3, 5].map((i) => parseInt(ring.slice(i, i + 2), 16)).join(', ')})`);
  const box = (await button.boundingBox())!;
  await look(visitor, { path: info.outputPath('focus-ring-pale-brand.png'), clip: { x: box.x - 16, y: box.y - 16, width: box.width + 32, height: box.height + 32 } });
  await look(form, { path: info.outputPath('trusted-types-form.png') });
  await fillForm(form, { name: 'Tess Types', email: `tess-${Date.now().toString(36)}@bakery.example`, company: 'Trusted Bakery' });
  await form.getByRole('button', { name: 'Get My Free Report' }).click();
  await expect(form.getByRole('heading', { name: 'Thank you! Your report is on its way.' })).toBeFocused();
  expect(errors.filter((e) => /Trusted|Content Security Policy|Refused/i.test(e))).toEqual([]);
  await context.close();
});

test('in a React site whose CSS hides every div, the React build still shows and works', async ({ browser, signIn, appCtx }, info) => {
  test.setTimeout(60_000);
  const agency = await signIn({ role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const key = await hostKey(appCtx, agency.viewer.consultant!.id, 'React');
  // The agency's app, bundled with React as its own build would be.
  const outDir = info.outputPath('react-host');
  await build({
    entry: { app: join(import.meta.dirname, 'widget-react-host.tsx') },
    outDir,
    format: ['iife'],
    platform: 'browser',
    target: 'es2022',
    minify: true,
    silent: true,
    noExternal: [/./],
    define: { 'process.env.NODE_ENV': '"production"' },
    esbuildOptions: (options) => void (options.jsx = 'automatic'),
  });
  scripts['/react-app.js'] = readFileSync(join(outDir, 'app.global.js'), 'utf8');
  styles['/react-host.css'] = 'div { display: none !important; } section > * { visibility: visible; }';
  pages['/react'] = `<link rel="stylesheet" href="/react-host.css"><section id="app" data-key="${key}" data-origin="${baseURL}"></section><script src="/react-app.js"></script>`;

  const context = await browser.newContext();
  const visitor = await context.newPage();
  await visitor.goto(`${host.origin}/react`);
  const widget = visitor.locator('#app > localrank-widget');
  await expect(widget.getByRole('heading', { name: 'Get your free local market report' })).toBeVisible();
  await expect(widget.getByLabel('Full Name')).toBeVisible();
  await expect(widget.getByRole('button', { name: 'Get My Free Report' })).toBeVisible();
  await widget.getByRole('button', { name: 'Get My Free Report' }).click();
  await expect(widget.getByLabel('Full Name')).toBeFocused();
  const results = await axe(visitor).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
  await context.close();
});
