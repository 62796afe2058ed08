// npm run bench:js — the JavaScript the landing page `/` ships, gzip-compressed as a server
// sends it (zlib default level), split into what loads with the page and what loads later
// (client:visible islands, dynamic imports), from a fresh production build; then, opened in
// Chromium at 1280 and 390 px, what every marketing page, /docs/api, the sign-in forms and the
// signed-in screens download before any input (scripts/lib/script-bytes.ts). Budgets: 80 KB gzip
// in all on `/`; 15 KB before input on every marketing page and /docs/api, 20 KB on /login,
// /signup and /forgot-password, 60 KB on each signed-in screen, opened by a user whose plan
// includes it (issue 47), at both widths (over it, the exit code is 1). 1 KB = 1000 bytes.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium, type Browser } from '@playwright/test';
import { createContext } from '../api/create-context.ts';
import { loadEnv } from '../api/env.ts';
import { SESSION_HINT_COOKIE, SESSION_HINT_VALUE } from '../common/session-hint.ts';
import { addClient, seedBusiness } from '../tests/helpers/dashboard-seed.ts';
import { createUser } from '../tests/helpers/factories.ts';
import { startBenchServer } from './lib/bench-server.ts';
import { builtSiteUrl } from './lib/built-site-url.ts';
import { scriptBytesBeforeInput } from './lib/script-bytes.ts';

const ROOT = join(import.meta.dirname, '..');
const CLIENT = join(ROOT, 'dist/client');
const BUDGET_KB = 80;
const ON_LOAD_BUDGET_KB = 15;
const AUTH_ON_LOAD_BUDGET_KB = 20;
const SIGNED_IN_BUDGET_KB = 60;
const MARKETING_PAGES = ['/', '/faq', '/help-center', '/contact', '/privacy', '/terms'];
/** Pages measured in Chromium, each with its budget before input (KB gzip). */
const BROWSER_PAGES: ReadonlyArray<[page: string, budgetKb: number]> = [
  ...MARKETING_PAGES.map((p): [string, number] => [p, ON_LOAD_BUDGET_KB]),
  ['/docs/api', ON_LOAD_BUDGET_KB],
  // The sign-in forms hydrate on first use, like the contact form (decision 0227).
  ['/login', AUTH_ON_LOAD_BUDGET_KB],
  ['/signup', AUTH_ON_LOAD_BUDGET_KB],
  ['/forgot-password', AUTH_ON_LOAD_BUDGET_KB],
];
const WIDTHS = [1280, 390];
/** After the network is idle, how long the page is left alone (idle callbacks, timers). */
const QUIET_MS = 2000;
const EAGER_DIRECTIVES = new Set(['load', 'idle']);

// Always a fresh production build: a dist/ left by a server started with NODE_ENV=test (the
// e2e run) holds React's development build, which is not what visitors get.
const build = spawnSync('astro', ['build'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, NODE_ENV: 'production' } });
if (build.status !== 0) {
  console.error('The site build failed.');
  process.exit(build.status ?? 1);
}
// `-- --page /login` measures another pre-rendered page the same way.
const pageArg = process.argv.indexOf('--page');
const PAGE = pageArg > 0 ? process.argv[pageArg + 1]! : '/';
const gz = (text: string | Buffer) => gzipSync(text).length;
const kb = (bytes: number) => (bytes / 1000).toFixed(1);

interface Row {
  what: string;
  bytes: number;
  gzip: number;
  when: 'load' | 'lazy';
}

/** Every script a pre-rendered page ships, with when it loads. */
function measure(page: string) {
  const html = readFileSync(join(CLIENT, page.replace(/^\/+|\/+$/g, ''), 'index.html'), 'utf8');
  const rows: Row[] = [];
  const seen = new Set<string>();

  /** A bundled file and everything it imports statically (same phase) or dynamically (lazy). */
  function addFile(url: string, when: Row['when']) {
    if (seen.has(url)) return;
    seen.add(url);
    const source = readFileSync(join(CLIENT, url));
    rows.push({ what: url, bytes: source.length, gzip: gz(source), when });
    const text = source.toString('utf8');
    const dir = url.slice(0, url.lastIndexOf('/') + 1);
    for (const m of text.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\.{1,2}\/[^"']+\.js)["']/g)) addFile(new URL(m[1]!, `http://x${dir}`).pathname, when);
    // The bundler writes dynamic imports with backticks too: import(`./auth.x.js`).
    for (const m of text.matchAll(/\bimport\(\s*["'`](\.{1,2}\/[^"'`]+\.js)["'`]\s*\)/g)) addFile(new URL(m[1]!, `http://x${dir}`).pathname, 'lazy');
  }

  // Inline scripts (Astro's island runtime, the hero rotation, the mobile menu).
  const inline = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!).filter((s) => s.trim() && !s.trim().startsWith('{'));
  const inlineText = inline.join('\n');
  rows.push({ what: `inline <script> x${inline.length}`, bytes: Buffer.byteLength(inlineText), gzip: gz(inlineText), when: 'load' });
  for (const m of html.matchAll(/<script[^>]*\bsrc="([^"]+)"/g)) addFile(m[1]!, 'load');
  // Static imports of inline module scripts load with the page too.
  for (const m of inlineText.matchAll(/(?:\bfrom\s*|\bimport\s*)["'](\/_astro\/[^"']+\.js)["']/g)) addFile(m[1]!, 'load');

  // Islands: eager ones first, so a chunk shared with a lazy island counts once, at load.
  const islands = [...html.matchAll(/<astro-island\b[^>]*>/g)].map((m) => ({
    component: /component-url="([^"]+)"/.exec(m[0])?.[1],
    renderer: /renderer-url="([^"]+)"/.exec(m[0])?.[1],
    directive: /client="([^"]+)"/.exec(m[0])?.[1] ?? 'load',
  }));
  islands.sort((a, b) => Number(EAGER_DIRECTIVES.has(b.directive)) - Number(EAGER_DIRECTIVES.has(a.directive)));
  for (const island of islands) {
    const when = EAGER_DIRECTIVES.has(island.directive) ? 'load' : 'lazy';
    if (island.renderer) addFile(island.renderer, when);
    if (island.component) addFile(island.component, when);
  }
  const sum = (when?: Row['when']) => rows.filter((r) => !when || r.when === when).reduce((n, r) => n + r.gzip, 0);
  return { rows, islands, sum };
}

const { rows, islands, sum } = measure(PAGE);
console.log(`JavaScript shipped on ${PAGE} (gzip, 1 KB = 1000 bytes)\n`);
console.log(`${'file'.padEnd(44)} ${'raw KB'.padStart(8)} ${'gzip KB'.padStart(8)}  when`);
for (const r of rows.sort((a, b) => b.gzip - a.gzip)) console.log(`${r.what.padEnd(44)} ${kb(r.bytes).padStart(8)} ${kb(r.gzip).padStart(8)}  ${r.when}`);
console.log(`\nislands: ${islands.map((i) => `${i.component?.split('/').pop()?.split('.')[0]} (client:${i.directive})`).join(', ') || 'none'}`);
console.log(`with the page (static reading of the HTML): ${kb(sum('load'))} KB gzip`);
console.log(`lazily (static reading of the HTML): ${kb(sum('lazy'))} KB gzip`);
const total = sum();
if (PAGE === '/') console.log(`in all:  ${kb(total)} KB gzip — budget ${BUDGET_KB} KB: ${total <= BUDGET_KB * 1000 ? 'within' : 'OVER'}`);
else console.log(`in all:  ${kb(total)} KB gzip (the ${BUDGET_KB} KB budget is the landing page's; on load: ${sum('load') <= BUDGET_KB * 1000 ? 'within' : 'OVER'} it)`);

// What a browser downloads before any input, measured in Chromium (a static reading of the HTML
// cannot tell when `client:visible` fires: an island above the fold hydrates at once).
console.log(`\nDownloaded before any input, in Chromium (load, then quiet for ${QUIET_MS / 1000} s), per page, KB gzip:`);
console.log(`  ${'page'.padEnd(30)} ${WIDTHS.map((w) => `${w} px`.padStart(9)).join(' ')}   budget`);
let over = false;
const server = await startBenchServer({ ...builtSiteUrl(), WORKER: 'off', AUTH_SECRET: 'bench-secret-bench-secret-bench-secret-0123' });
let browser: Browser | undefined;
try {
  const executablePath = process.env.CHROMIUM_PATH || spawnSync('sh', ['-c', 'command -v chromium || command -v chromium-browser'], { encoding: 'utf8' }).stdout.trim();
  browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  const row = async (label: string, page: string, budgetKb: number, cookie?: string) => {
    const cells: string[] = [];
    for (const width of WIDTHS) {
      const bytes = await measureInBrowser(browser!, `http://127.0.0.1:${server.port}${page}`, width, cookie);
      if (bytes > budgetKb * 1000) over = true;
      cells.push(`${kb(bytes)} KB${bytes > budgetKb * 1000 ? '!' : ' '}`.padStart(9));
    }
    console.log(`  ${label.padEnd(30)} ${cells.join(' ')}   ${budgetKb} KB`);
  };
  for (const [page, budgetKb] of BROWSER_PAGES) await row(page, page, budgetKb);
  for (const screen of await signedInScreens(server.env)) await row(screen.label, screen.path, SIGNED_IN_BUDGET_KB, screen.cookie);
} finally {
  await browser?.close();
  await server.stop();
}
console.log(over ? 'OVER: a page marked ! downloads more JavaScript before any input than its budget.' : 'within budget on every page at both widths.');
if (over) process.exitCode = 1;

/** Every signed-in screen, each opened by a user whose plan includes it, with their data seeded. */
async function signedInScreens(env: Record<string, string>) {
  const ctx = await createContext(loadEnv({ ...process.env, ...env, NODE_ENV: 'test', LOG_LEVEL: 'silent' }));
  const history = [60, 30, 7, 1].map((daysAgo, i) => ({ daysAgo, seed: 40 + i }));
  const pro = await createUser(ctx, { tier: 'pro' });
  const business = await seedBusiness(ctx, { userId: pro.userId, company: 'Lamar Smiles Dental', snapshots: history });
  const agency = await createUser(ctx, { role: 'consultant', tier: 'agency' });
  const client = await seedBusiness(ctx, { company: 'Zilker Orthodontics', snapshots: history });
  const link = await addClient(ctx, agency.viewer.consultant!.id, client.business.id);
  ctx.db.$client.close();
  const id = business.business.id;
  return [
    { label: 'Pro: /dashboard', path: '/dashboard', cookie: pro.cookie },
    { label: 'Pro: /dashboard/{id}', path: `/dashboard/${id}`, cookie: pro.cookie },
    { label: 'Pro: /early-warning/{id}', path: `/early-warning/${id}`, cookie: pro.cookie },
    { label: 'Pro: /account', path: '/account', cookie: pro.cookie },
    { label: 'Pro: /widget', path: '/widget', cookie: pro.cookie },
    { label: 'Agency: /dashboard (portfolio)', path: '/dashboard', cookie: agency.cookie },
    { label: 'Agency: /clients', path: '/clients', cookie: agency.cookie },
    { label: 'Agency: /clients/{id}', path: `/clients/${link.id}`, cookie: agency.cookie },
    { label: 'Agency: /branding', path: '/branding', cookie: agency.cookie },
  ];
}

/** Gzip bytes of the JavaScript a page downloads before any input, in a fresh context at `width`. */
async function measureInBrowser(browser: Browser, url: string, width: number, cookie?: string): Promise<number> {
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 844 : 800 }, deviceScaleFactor: 1 });
  if (cookie) {
    const domain = new URL(url).hostname;
    const pairs = cookie.split('; ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)] as const);
    pairs.push([SESSION_HINT_COOKIE, SESSION_HINT_VALUE]);
    await context.addCookies(pairs.map(([name, value]) => ({ name, value, domain, path: '/', sameSite: 'Lax' as const })));
  }
  try {
    return (await scriptBytesBeforeInput(await context.newPage(), url, QUIET_MS)).total;
  } finally {
    await context.close();
  }
}
