// npm run bench:cls — Cumulative Layout Shift of the signed-in screens as a user gets them, in
// Chromium at 1280 and 390 px: a PerformanceObserver (layout-shift entries, buffered, those after
// input left out) installed before the page's first script, the page opened signed in, then read
// once the screen has its final content and the network is quiet. CLS is the largest session
// window of shifts (at most 1 s apart, 5 s long), as web-vitals counts it. Each screen is opened
// with the API answering at once and with every /api answer held back (--delay, ms), as on a slow
// network: the data arrives well after the page has drawn. Goal (issue 40): 0.05 or less. Serves
// the current build (npm run build first). Exit code 1 when a figure is over the goal.
//   npm run bench:cls [-- --runs 3] [-- --delay 800] [-- --verbose]
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { chromium, type Browser, type Page } from '@playwright/test';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { SESSION_HINT_COOKIE, SESSION_HINT_VALUE } from '../common/session-hint.ts';
import { addClient, seedBusiness } from '../tests/helpers/dashboard-seed.ts';
import { createUser } from '../tests/helpers/factories.ts';
import { startBenchServer } from './lib/bench-server.ts';
import { builtSiteUrl } from './lib/built-site-url.ts';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '3' }, delay: { type: 'string', default: '800' }, verbose: { type: 'boolean', default: false } } });
const runs = Math.max(1, Number(values.runs));
const DELAY_MS = Number(values.delay);
const GOAL = 0.05;
const VIEWPORTS = [
  { label: '1280 px', viewport: { width: 1280, height: 800 } },
  { label: '390 px', viewport: { width: 390, height: 844 } },
] as const;

interface Shift {
  value: number;
  startTime: number;
  sources: string[];
}

/** Runs in the page before its own scripts: every layout shift without recent input, kept on window. */
function observeShifts() {
  const shifts: Shift[] = [];
  (window as unknown as { __shifts: Shift[] }).__shifts = shifts;
  const describe = (node: Node | null) => {
    if (!(node instanceof Element)) return node ? node.nodeName : '(gone)';
    const id = node.id ? `#${node.id}` : '';
    const cls = typeof node.className === 'string' && node.className ? `.${node.className.trim().split(/\s+/).join('.')}` : '';
    const test = node.getAttribute('data-testid') ? `[data-testid=${node.getAttribute('data-testid')}]` : '';
    return `${node.tagName.toLowerCase()}${id}${cls}${test}`;
  };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean; sources?: Array<{ node: Node | null }> }>) {
      if (!entry.hadRecentInput) shifts.push({ value: entry.value, startTime: entry.startTime, sources: (entry.sources ?? []).map((s) => describe(s.node)) });
    }
  }).observe({ type: 'layout-shift', buffered: true });
}

/** web-vitals' CLS: the largest sum of shifts in a session window (gaps under 1 s, at most 5 s). */
export function clsOf(shifts: readonly Shift[]): number {
  let best = 0;
  let sum = 0;
  let first = 0;
  let last = 0;
  for (const s of shifts) {
    if (sum > 0 && s.startTime - last < 1000 && s.startTime - first < 5000) sum += s.value;
    else {
      sum = s.value;
      first = s.startTime;
    }
    last = s.startTime;
    best = Math.max(best, sum);
  }
  return best;
}

async function signedInPage(browser: Browser, baseUrl: string, cookie: string, viewport: { width: number; height: number }, delay: number): Promise<Page> {
  const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
  const host = new URL(baseUrl).hostname;
  const cookies = cookie.split('; ').map((pair) => {
    const i = pair.indexOf('=');
    return { name: pair.slice(0, i), value: pair.slice(i + 1), domain: host, path: '/', httpOnly: true, sameSite: 'Lax' as const };
  });
  cookies.push({ name: SESSION_HINT_COOKIE, value: SESSION_HINT_VALUE, domain: host, path: '/', httpOnly: false, sameSite: 'Lax' });
  await context.addCookies(cookies);
  await context.addInitScript(observeShifts);
  const page = await context.newPage();
  // A slow network: every API answer arrives `delay` ms after it was asked for.
  if (delay > 0) {
    await page.route('**/api/**', async (route) => {
      await new Promise((r) => setTimeout(r, delay));
      await route.continue();
    });
  }
  return page;
}

const server = await startBenchServer({ ...builtSiteUrl(), WORKER: 'off', AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123' });
let browser: Browser | undefined;
let over = false;
try {
  const baseUrl = `http://127.0.0.1:${server.port}`;
  const ctx = await createContext(loadEnv({ ...process.env, ...server.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
  const history = [60, 30, 7, 1].map((daysAgo, i) => ({ daysAgo, seed: 40 + i }));
  const pro = await createUser(ctx, { tier: 'pro' });
  await seedBusiness(ctx, { userId: pro.userId, company: 'Lamar Smiles Dental', snapshots: history });
  const free = await createUser(ctx, { tier: 'free' });
  await seedBusiness(ctx, { userId: free.userId, company: 'Hyde Park Bakery', snapshots: history });
  const agency = await createUser(ctx, { role: 'consultant', tier: 'agency' });
  const own = await seedBusiness(ctx, { userId: agency.userId, company: 'Northstar Marketing', snapshots: history });
  const client = await seedBusiness(ctx, { company: 'Zilker Orthodontics', snapshots: history });
  await addClient(ctx, agency.viewer.consultant!.id, client.business.id);
  ctx.db.$client.close();

  // Each screen, who opens it, and what it shows once its data is in.
  const screens = [
    { label: 'Pro owner, /dashboard', cookie: pro.cookie, path: '/dashboard', done: '[data-testid=competitor-table]' },
    { label: 'Free owner, /dashboard (upgrade)', cookie: free.cookie, path: '/dashboard', done: '[data-state=upgrade]' },
    { label: 'Agency, /dashboard (portfolio)', cookie: agency.cookie, path: '/dashboard', done: '[data-testid=portfolio] table' },
    { label: "Agency, a client's dashboard", cookie: agency.cookie, path: `/dashboard/${client.business.id}`, done: '[data-testid=business-switcher]' },
    { label: 'Agency, own dashboard', cookie: agency.cookie, path: `/dashboard/${own.business.id}`, done: '[data-testid=business-switcher]' },
  ];

  const executablePath = process.env.CHROMIUM_PATH || spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).stdout.trim();
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const delays = [...new Set([0, DELAY_MS])];
  console.log(`CLS (largest session window; worst of ${runs} run${runs === 1 ? '' : 's'}), goal ≤ ${GOAL}`);
  console.log(`  ${'screen'.padEnd(36)}${delays.flatMap((d) => VIEWPORTS.map((v) => `${v.label}${d ? ` +${d} ms` : ''}`.padEnd(18))).join('')}`);
  for (const screen of screens) {
    const cells: string[] = [];
    for (const delay of delays) {
      for (const { viewport } of VIEWPORTS) {
        let worst = 0;
        let worstShifts: Shift[] = [];
        for (let run = 0; run < runs; run++) {
          const page = await signedInPage(browser, baseUrl, screen.cookie, viewport, delay);
          await page.goto(baseUrl + screen.path);
          await page.locator(screen.done).first().waitFor({ state: 'visible', timeout: 30_000 });
          await page.waitForLoadState('networkidle');
          // Late shifts (a switcher, a chart) land within a frame or two of the last answer.
          await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => setTimeout(r, 500)))));
          const shifts = await page.evaluate(() => (window as unknown as { __shifts: Shift[] }).__shifts);
          const cls = clsOf(shifts);
          if (cls >= worst) [worst, worstShifts] = [cls, shifts];
          await page.context().close();
        }
        if (worst > GOAL) over = true;
        cells.push(`${worst.toFixed(3)}${worst > GOAL ? ' OVER' : ''}`.padEnd(18));
        if (values.verbose) for (const s of worstShifts) console.log(`    ${screen.label} ${viewport.width}px +${delay}: ${s.value.toFixed(4)} at ${s.startTime.toFixed(0)} ms: ${s.sources.join(', ')}`);
      }
    }
    console.log(`  ${screen.label.padEnd(36)}${cells.join('')}`);
  }
} finally {
  await browser?.close();
  await server.stop();
}
process.exit(over ? 1 : 0);
