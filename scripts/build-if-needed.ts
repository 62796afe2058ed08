// Builds the site when dist/ is missing or older than any source it is built from.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const SOURCES = ['site', 'common', 'api', 'db', 'astro.config.mjs', 'package.json', 'package-lock.json'];
export const SERVER_ENTRY = 'dist/server/entry.mjs';

function newestMtime(path: string): number {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

export function buildIfNeeded(root: string): void {
  const entry = join(root, SERVER_ENTRY);
  const builtAt = existsSync(entry) ? statSync(entry).mtimeMs : 0;
  const sourcesAt = Math.max(...SOURCES.map((s) => newestMtime(join(root, s))));
  if (builtAt >= sourcesAt) return;
  console.log(builtAt ? 'Sources changed since the last build: building the site…' : 'No build yet: building the site…');
  const result = spawnSync('astro', ['build'], { cwd: root, stdio: 'inherit', shell: false, env: process.env });
  if (result.status !== 0) {
    console.error('The site build failed; see the output above.');
    process.exit(result.status ?? 1);
  }
}
