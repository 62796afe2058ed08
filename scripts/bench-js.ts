// npm run bench:js — the JavaScript the landing page `/` ships, gzip-compressed as a server
// sends it (zlib default level), split into what loads with the page and what loads later
// (client:visible islands, dynamic imports), from a fresh production build; then what every
// marketing page loads before any interaction. Budgets: 80 KB gzip in all on `/`, 15 KB on load
// on every marketing page (1 KB = 1000 bytes).
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

const ROOT = join(import.meta.dirname, '..');
const CLIENT = join(ROOT, 'dist/client');
const BUDGET_KB = 80;
const ON_LOAD_BUDGET_KB = 15;
const MARKETING_PAGES = ['/', '/faq', '/help-center', '/contact', '/privacy', '/terms'];
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
console.log(`on load: ${kb(sum('load'))} KB gzip`);
console.log(`lazily:  ${kb(sum('lazy'))} KB gzip`);
const total = sum();
if (PAGE === '/') console.log(`in all:  ${kb(total)} KB gzip — budget ${BUDGET_KB} KB: ${total <= BUDGET_KB * 1000 ? 'within' : 'OVER'}`);
else console.log(`in all:  ${kb(total)} KB gzip (the ${BUDGET_KB} KB budget is the landing page's; on load: ${sum('load') <= BUDGET_KB * 1000 ? 'within' : 'OVER'} it)`);

console.log(`\nOn load, before any interaction, per marketing page — budget ${ON_LOAD_BUDGET_KB} KB gzip:`);
for (const page of MARKETING_PAGES) {
  const onLoad = measure(page).sum('load');
  console.log(`  ${page.padEnd(14)} ${kb(onLoad).padStart(6)} KB  ${onLoad <= ON_LOAD_BUDGET_KB * 1000 ? 'within' : 'OVER'}`);
}
