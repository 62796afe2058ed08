// A secret from its setting; else one generated once and kept in DATA_DIR (mode 0600), so a
// restart keeps it. Several machines set it instead: each would generate its own.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../env.ts';

export function keptSecret(env: Pick<Env, 'DATA_DIR'>, setting: string | undefined, file: string): string {
  if (setting) return setting;
  mkdirSync(env.DATA_DIR, { recursive: true });
  const path = join(env.DATA_DIR, file);
  if (!existsSync(path)) {
    writeFileSync(path, randomBytes(32).toString('base64url'), { mode: 0o600 });
    chmodSync(path, 0o600);
  }
  return readFileSync(path, 'utf8').trim();
}
