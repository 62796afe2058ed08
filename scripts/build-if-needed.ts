// Builds the site when dist/ is missing or older than any source it is built from.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['site', 'common', 'api', 'db', 'widget-sdk/src', 'widget-sdk/build.ts', 'astro.config.mjs', 'package.json', 'package-lock.json'];
export const SERVER_ENTRY = 'dist/server/entry.mjs';
const SITE_URL_FILE = 'dist/site-url.txt';

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

/** The public address pre-rendered pages name (canonical, Open Graph), as astro.config.mjs sets it. */
export function expectedSiteUrl(env: Record<string, string | undefined> = process.env): string {
  return env.PUBLIC_BASE_URL?.replace(/\/$/, '') || `http://localhost:${env.PORT || 4321}`;
}

function builtSiteUrl(root: string): string | null {
  const file = join(root, SITE_URL_FILE);
  return existsSync(file) ? readFileSync(file, 'utf8').trim() : null;
}

export function buildIfNeeded(root: string): void {
  const entry = join(root, SERVER_ENTRY);
  const builtAt = existsSync(entry) ? statSync(entry).mtimeMs : 0;
  const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
  const siteChanged = builtAt > 0 && builtSiteUrl(root) !== expectedSiteUrl();
  if (builtAt >= sourcesAt && !siteChanged) return;
  if (!builtAt) console.log('No build yet: building the site…');
  else if (builtAt < sourcesAt) console.log('Sources changed since the last build: building the site…');
  else console.log(`The site was built for ${builtSiteUrl(root) ?? 'another address'}; building it for ${expectedSiteUrl()}…`);
  // Astro's own script on this Node, so the build needs neither npm's PATH nor the machine's Node.
  const result = spawnSync(process.execPath, [join(root, 'node_modules/astro/bin/astro.mjs'), 'build'], { cwd: root, stdio: 'inherit', env: process.env });
  if (result.status !== 0) {
    console.error(result.error ? `The site build could not start: ${result.error.message}` : 'The site build failed; see the output above.');
    process.exit(result.status ?? 1);
  }
}
