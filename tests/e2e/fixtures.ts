// Playwright fixtures: a context over the server's own database, and signing a user in by
// creating the session directly (the login screen's own tests go through the form).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, devices, expect, type Browser, type BrowserContext, type Page } from '@playwright/test';
import type { AppContext } from '../../api/context.ts';
import { createContext } from '../../api/create-context.ts';
import { SESSION_HINT_COOKIE, SESSION_HINT_VALUE } from '../../common/session-hint.ts';
import { loadEnv } from '../../api/env.ts';
import { TEST_SCRYPT_COST } from '../helpers/scrypt-cost.ts';
import { createUser, type CreateUserOptions } from '../helpers/factories.ts';

/** A test that provokes a Content-Security-Policy refusal on purpose says so with this annotation. */
export const EXPECTS_CSP_REFUSAL = { type: 'expects-csp-refusal' };

type Fixtures = {
  signIn: (options?: CreateUserOptions) => Promise<Awaited<ReturnType<typeof createUser>>>;
  /** A browser context of the test's own, nothing cached: for a test that measures a first load. */
  freshContext: boolean;
};

/** The context the project's tests open pages in (playwright.config.ts: Desktop Chrome), with no
 *  time limit of its own on an action, as the test runner's contexts (the test's limit applies). */
async function newContext(browser: Browser, baseURL: string | undefined, viewport?: { width: number; height: number } | null): Promise<BrowserContext> {
  const context = await browser.newContext({ ...devices['Desktop Chrome'], baseURL, ...(viewport ? { viewport } : {}) });
  context.setDefaultTimeout(0);
  context.setDefaultNavigationTimeout(0);
  return context;
}

// What a Playwright worker keeps between its tests: one context, and the page the last test left
// reusable. A new page costs the browser about 0.6 s of CPU (a renderer started and set up), a
// navigation 0.2-0.4 s, and the browser tier opens one or more pages in each of its 250 tests.
const kept: { context?: BrowserContext; page?: Page } = {};
// A page given a script, binding, header or media of its own keeps it for good, and a context
// given a clock keeps that: neither is used again.
const changed = new WeakSet<Page | BrowserContext>();
const PAGE_CHANGES = ['addInitScript', 'exposeBinding', 'exposeFunction', 'setExtraHTTPHeaders', 'emulateMedia', 'addLocatorHandler'] as const;

function watched(page: Page): Page {
  for (const name of PAGE_CHANGES) {
    const call = (page[name] as (...args: unknown[]) => unknown).bind(page);
    Object.assign(page, { [name]: (...args: unknown[]) => (changed.add(page), call(...args)) });
  }
  const clock = page.clock as unknown as Record<string, (...args: unknown[]) => unknown>;
  for (const name of Object.getOwnPropertyNames(Object.getPrototypeOf(clock) as object)) {
    if (name === 'constructor' || typeof clock[name] !== 'function') continue;
    const call = clock[name].bind(clock);
    clock[name] = (...args: unknown[]) => (changed.add(page.context()), call(...args));
  }
  return page;
}

// Where a kept page waits for the next test: a static document of the site's own (no script, no
// storage). Not about:blank: Chromium gives the next navigation from about:blank to the site a new
// renderer process, about 0.6 s of CPU each time; from a document of the same site it keeps the
// process (axe-public's 21 tests: 108 s of CPU, 40 renderers started, against 84 s and 7).
const PARKED = '/favicon.svg';

/** Clears what a test left in the worker's context (cookies, permissions, routes, the storage of
 *  every origin its requests went to; the HTTP cache stays), closes its other pages, and keeps
 *  `page`, parked on the site, for the next test when nothing was changed in it for good. */
async function leaveAsFound(context: BrowserContext, page: Page, origins: Set<string>, site: string) {
  if (changed.has(context)) {
    kept.context = undefined;
    await context.close();
    return;
  }
  await Promise.all(context.pages().filter((p) => p !== page).map((p) => p.close()));
  const open = page.isClosed() ? await context.newPage() : page;
  let reusable = open === page && !changed.has(page);
  if (reusable) {
    page.removeAllListeners();
    await page.unrouteAll({ behavior: 'ignoreErrors' });
    reusable = await page.goto(new URL(PARKED, site).href, { timeout: 15_000 }).then(
      () => true,
      () => false,
    );
  }
  const cdp = await context.newCDPSession(open);
  for (const origin of origins) {
    if (origin.startsWith('http')) await cdp.send('Storage.clearDataForOrigin', { origin, storageTypes: 'local_storage,indexeddb,cache_storage,service_workers,file_systems,websql,shared_storage,storage_buckets' });
  }
  await cdp.detach();
  await Promise.all([context.clearCookies(), context.clearPermissions(), context.unrouteAll({ behavior: 'ignoreErrors' })]);
  if (reusable) kept.page = page;
  else await open.close();
}

export const test = base.extend<Fixtures, { appCtx: AppContext; workerContext: void }>({
  freshContext: [false, { option: true }],
  // One browser context per Playwright worker, and its page: each test opens its page there and
  // leaves both as it found them (leaveAsFound). A test that measures a first load asks for a
  // context of its own (`freshContext`), as does a traced run (E2E_TRACE): Playwright traces only
  // the contexts it makes, so the trace is started here.
  workerContext: [
    async ({}, use) => {
      await use();
      await kept.context?.close();
    },
    { scope: 'worker', auto: true },
  ],
  // Every page a test opens runs under the real policy: a script, style or frame it refuses
  // (Chromium reports each on the console) fails the test. And every change our pages send to the
  // API carries our Origin, as the server's one origin rule requires (decision 0240).
  page: async ({ browser, freshContext, viewport, baseURL }, use, testInfo) => {
    const own = freshContext || !!process.env.E2E_TRACE;
    let context: BrowserContext;
    let page: Page;
    if (own) {
      context = await newContext(browser, baseURL, viewport);
      if (process.env.E2E_TRACE) await context.tracing.start({ screenshots: true, snapshots: true });
      page = watched(await context.newPage());
    } else {
      context = kept.context ??= await newContext(browser, baseURL);
      page = kept.page ?? watched(await context.newPage());
      kept.page = undefined;
      if (viewport) await page.setViewportSize(viewport);
    }
    const origins = new Set<string>();
    const visited = (request: { url: () => string }) => void origins.add(new URL(request.url()).origin);
    context.on('request', visited);
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) refusals.push(`${page.url()}: ${message.text()}`);
    });
    const site = new URL(baseURL!).origin;
    // Checked on the requests the server answered: one the page dropped before it left the browser
    // (a navigation cancels a pending preview) only ever had the renderer's provisional headers,
    // which never carry Origin.
    const sent: Array<Promise<string | null>> = [];
    page.on('requestfinished', (request) => {
      const url = new URL(request.url());
      if (['GET', 'HEAD', 'OPTIONS'].includes(request.method()) || url.origin !== site || !url.pathname.startsWith('/api/') || /^\/api\/(v1|widget\/v1)\//.test(url.pathname)) return;
      // Sent by one of our pages (a widget on another site's page posts to its own routes).
      let from: string;
      try {
        from = new URL(request.frame().url()).origin;
      } catch {
        return;
      }
      if (from !== site) return;
      sent.push(request.allHeaders().then((headers) => (headers.origin === site ? null : `${request.method()} ${url.pathname}: Origin ${headers.origin ?? '(none)'}`), () => null));
    });
    await use(page);
    const withoutOrigin = (await Promise.all(sent)).filter(Boolean);
    context.off('request', visited);
    if (own) {
      if (process.env.E2E_TRACE && testInfo.status !== testInfo.expectedStatus) await context.tracing.stop({ path: testInfo.outputPath('trace.zip') });
      await context.close();
    } else await leaveAsFound(context, page, origins, site);
    if (!testInfo.annotations.some((annotation) => annotation.type === EXPECTS_CSP_REFUSAL.type)) expect(refusals, 'Content-Security-Policy refusals').toEqual([]);
    expect(withoutOrigin, 'changes sent to the API without our Origin').toEqual([]);
  },
  // One context per Playwright worker, not per test: the tests only read and write rows through
  // it, each in an account of its own.
  appCtx: [
    async ({}, use) => {
      const dnsServers = readFileSync(join(process.env.E2E_DATA_DIR!, 'dns-server.txt'), 'utf8');
      // As the server's (playwright.config.ts): every seeded report is analysed on its own, never
      // shared with another test's report of the same place (decision 0351).
      const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: process.env.E2E_DATA_DIR!, LOG_LEVEL: 'silent', WORKER: 'off', DNS_SERVERS: dnsServers, SCRYPT_COST: TEST_SCRYPT_COST, SHARED_ANALYSIS_MINUTES: '0' });
      const ctx = await createContext(env);
      await use(ctx);
      ctx.db.$client.close();
    },
    { scope: 'worker' },
  ],
  signIn: async ({ appCtx, page, baseURL }, use) => {
    await use(async (options) => {
      const user = await createUser(appCtx, options);
      await addSessionCookie(page, user.cookie, baseURL!);
      return user;
    });
  },
});

export async function addSessionCookie(page: Page, cookieHeader: string, baseURL: string) {
  const url = new URL(baseURL);
  const cookies = cookieHeader.split('; ').map((pair) => {
    const i = pair.indexOf('=');
    return { name: pair.slice(0, i), value: pair.slice(i + 1), domain: url.hostname, path: '/', httpOnly: true, sameSite: 'Lax' as const };
  });
  // The session hint the API sets on login (readable by scripts): without it the site skips the check.
  cookies.push({ name: SESSION_HINT_COOKIE, value: SESSION_HINT_VALUE, domain: url.hostname, path: '/', httpOnly: false, sameSite: 'Lax' });
  await page.context().addCookies(cookies);
}

export { expect };
