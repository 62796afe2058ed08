// Playwright fixtures: a context over the server's own database, and signing a user in by
// creating the session directly (the login screen's own tests go through the form).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
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
};

export const test = base.extend<Fixtures, { appCtx: AppContext }>({
  // Every page a test opens runs under the real policy: a script, style or frame it refuses
  // (Chromium reports each on the console) fails the test. And every change our pages send to the
  // API carries our Origin, as the server's one origin rule requires (decision 0240).
  page: async ({ page, baseURL }, use, testInfo) => {
    const refusals: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error' && /Content Security Policy/.test(message.text())) refusals.push(`${page.url()}: ${message.text()}`);
    });
    const own = new URL(baseURL!).origin;
    // Checked on the requests the server answered: one the page dropped before it left the browser
    // (a navigation cancels a pending preview) only ever had the renderer's provisional headers,
    // which never carry Origin.
    const origins: Array<Promise<string | null>> = [];
    page.on('requestfinished', (request) => {
      const url = new URL(request.url());
      if (['GET', 'HEAD', 'OPTIONS'].includes(request.method()) || url.origin !== own || !url.pathname.startsWith('/api/') || /^\/api\/(v1|widget\/v1)\//.test(url.pathname)) return;
      // Sent by one of our pages (a widget on another site's page posts to its own routes).
      let from: string;
      try {
        from = new URL(request.frame().url()).origin;
      } catch {
        return;
      }
      if (from !== own) return;
      origins.push(request.allHeaders().then((headers) => (headers.origin === own ? null : `${request.method()} ${url.pathname}: Origin ${headers.origin ?? '(none)'}`), () => null));
    });
    await use(page);
    if (!testInfo.annotations.some((annotation) => annotation.type === EXPECTS_CSP_REFUSAL.type)) expect(refusals, 'Content-Security-Policy refusals').toEqual([]);
    expect((await Promise.all(origins)).filter(Boolean), 'changes sent to the API without our Origin').toEqual([]);
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
