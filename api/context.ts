// Everything a service needs, built once per process (or per test file) by the composition root
// (api/create-context.ts) and passed explicitly. Types and the per-process slot only: this module
// imports nothing that imports it back.
import type { Db } from '../db/client.ts';
import type { Auth } from './auth.ts';
import type { Env } from './env.ts';
import type { Logger } from './log.ts';

export interface AppContext {
  env: Env;
  db: Db;
  auth: Auth;
  log: Logger;
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
