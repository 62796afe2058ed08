// The address the current build was made for (dist/site-url.txt), so a benchmark or fuzz server
// started on another port serves that build instead of rebuilding the site for its own address.
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export function builtSiteUrl(): Record<string, string> {
  const file = resolve(import.meta.dirname, '../../dist/site-url.txt');
  return existsSync(file) ? { PUBLIC_BASE_URL: readFileSync(file, 'utf8').trim() } : {};
}
