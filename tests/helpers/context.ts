// A fresh, migrated libSQL database per test file, and the Hono app over it. With
// TEST_DATABASE=sqld (the second pass of `npm test`), the database is a real libSQL server of the
// file's own instead of a file in DATA_DIR: a statement only a file accepts fails there.
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inject } from 'vitest';
import { createApp, type AppOptions } from '../../api/app.ts';
import type { AppContext } from '../../api/context.ts';
import { createContext } from '../../api/create-context.ts';
import { loadEnv } from '../../api/env.ts';
import { sharedTestDns } from './dns.ts';
import { TEST_SCRYPT_COST } from './scrypt-cost.ts';
import { recordStatements } from './sql-statements.ts';
import { startSqld, type Sqld } from './sqld.ts';

/** True in the pass of the suite that runs against sqld: tests of file-only behaviour skip there. */
export const ON_SQLD = process.env.TEST_DATABASE === 'sqld';

export interface TestContext {
  ctx: AppContext;
  app: ReturnType<typeof createApp>;
  dataDir: string;
  /** The libSQL server under the context, on the sqld pass. */
  sqld: Sqld | null;
  close: () => Promise<void>;
}

export async function createTestContext(overrides: Record<string, string> = {}, options: AppOptions = {}): Promise<TestContext> {
  const dataDir = mkdtempSync(join(tmpdir(), 'localrank-test-'));
  // The database, on a file or a server of its own, starts as a copy of the run's migrated
  // template (tests/helpers/template-db.ts); migrating below then finds nothing left to do.
  const sqld = ON_SQLD && !overrides.DATABASE_URL ? await startSqld([], undefined, { seed: inject('templateDb') }) : null;
  if (!sqld && !overrides.DATABASE_URL) copyFileSync(inject('templateDb'), join(dataDir, 'app.db'));
  const env = loadEnv({
    NODE_ENV: 'test',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    WORKER: 'off',
    SIGNUP_RATE_LIMIT_PER_IP: '100000',
    // No proof of work unless a test asks for it (every in-process request shares one address).
    POW_AFTER_PER_NETWORK: '100000',
    POW_AFTER_PER_DOMAIN: '100000',
    POW_BUDGET_SHARE: '1',
    POW_MAX_COUNTER: '20',
    POW_COST: '10',
    // Each request its own analysis, unless a test shares them (decision 0351).
    SHARED_ANALYSIS_MINUTES: '0',
    // The product's cost where a test plays production (which refuses less).
    ...(overrides.NODE_ENV === 'production' ? {} : { SCRYPT_COST: TEST_SCRYPT_COST }),
    // Names resolve through a local stand-in (tests/helpers/dns.ts), not this machine's resolver.
    DNS_SERVERS: await sharedTestDns(),
    ...(sqld ? { DATABASE_URL: sqld.url } : {}),
    ...overrides,
  });
  const ctx = await createContext(env, { migrate: true });
  if (!ON_SQLD) recordStatements(ctx.db);
  return {
    ctx,
    app: createApp(ctx, options),
    dataDir,
    sqld,
    close: async () => {
      ctx.db.$client.close();
      await sqld?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The settings another process (a CLI, a worker, a second app) needs to reach this context's
 *  database: its DATA_DIR and, on a server, the server's URL; and the scrypt cost its password
 *  hashes were made with. */
export const databaseEnv = (t: Pick<TestContext, 'dataDir' | 'ctx'>) => ({ DATA_DIR: t.dataDir, DATABASE_URL: t.ctx.env.DATABASE_URL, SCRYPT_COST: String(t.ctx.env.SCRYPT_COST) });

/** JSON request through the app in-process; returns status, parsed body and the session cookie. */
export async function call(app: TestContext['app'], method: string, path: string, body?: unknown, cookie?: string) {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (cookie) headers.cookie = cookie;
  const res = await app.request(path, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  const text = await res.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = text;
  }
  const setCookie = res.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: res.status, body: json as any, headers: res.headers, cookie: setCookie };
}
