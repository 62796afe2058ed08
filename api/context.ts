// Everything a service needs, built once per process (or per test file) and passed explicitly.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDb, migrateDb, type Db } from '../db/client.ts';
import { createAuth, type Auth } from './auth.ts';
import type { Env } from './env.ts';
import { createLogger, type Logger } from './log.ts';

export interface AppContext {
  env: Env;
  db: Db;
  auth: Auth;
  log: Logger;
}

/** AUTH_SECRET when set; else a secret generated once and kept in DATA_DIR (mode 0600). */
function authSecret(env: Env): string {
  if (env.AUTH_SECRET) return env.AUTH_SECRET;
  mkdirSync(env.DATA_DIR, { recursive: true });
  const file = join(env.DATA_DIR, 'auth-secret');
  if (!existsSync(file)) {
    writeFileSync(file, randomBytes(32).toString('base64url'), { mode: 0o600 });
    chmodSync(file, 0o600);
  }
  return readFileSync(file, 'utf8').trim();
}

export async function createContext(env: Env, options: { migrate?: boolean; log?: Logger } = {}): Promise<AppContext> {
  const db = await openDb(env.DATABASE_URL, env.DATABASE_AUTH_TOKEN);
  if (options.migrate) await migrateDb(db);
  const log = options.log ?? createLogger(env.LOG_LEVEL);
  const auth = createAuth({ db, env, secret: authSecret(env), log });
  return { env, db, auth, log };
}

// The production server and Astro's server-rendered pages share one context per process, even
// though Astro's bundle carries its own copy of these modules.
const SLOT = Symbol.for('localrank.context');
type Slot = { [SLOT]?: Promise<AppContext> };

export function setSharedContext(ctx: AppContext): void {
  (globalThis as Slot)[SLOT] = Promise.resolve(ctx);
}

export function sharedContext(create: () => Promise<AppContext>): Promise<AppContext> {
  const slot = globalThis as Slot;
  slot[SLOT] ??= create();
  return slot[SLOT];
}
