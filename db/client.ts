import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createClient, type Client, type InValue } from '@libsql/client';
import Database from 'libsql';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import * as schema from './schema.ts';

export type Row = Record<string, unknown>;
/** A read by hand-written SQL whose statement is prepared once and kept (see `preparedReads`). */
export type PreparedRead = (sql: string, args: InValue[]) => Promise<Row[]>;
export type Db = ReturnType<typeof drizzle<typeof schema>> & { $client: Client; $read: PreparedRead };

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Opens the database; a `file:` URL gets its folder created and WAL journaling. */
export async function openDb(url: string, authToken?: string): Promise<Db> {
  const file = url.startsWith('file:');
  if (file) mkdirSync(dirname(url.slice('file:'.length)), { recursive: true });
  const client = file ? recoveringClient(await connect(url, authToken, true)) : await connect(url, authToken, false);
  const db = drizzle(client, { schema }) as Db;
  db.$read = file ? preparedReads(url.slice('file:'.length), client) : async (sql, args) => (await client.execute({ sql, args })).rows as unknown as Row[];
  return db;
}

async function connect(url: string, authToken: string | undefined, file: boolean): Promise<Client> {
  // A file database gets one connection per process. Its calls run synchronously on this thread, so
  // a pool (the client's default, opening a connection whenever two awaited calls overlap) adds no
  // parallelism, only connections without the PRAGMAs below, and a second connection of our own
  // waiting on the first's lock would stall the thread. The busy timeout is in the config: a write
  // that meets another process's lock (a separate worker, a test) waits up to 5 s.
  const client = createClient({ url, authToken, timeout: 5000, ...(file ? { concurrency: 1 } : {}) });
  if (file) {
    await client.execute('PRAGMA journal_mode = WAL');
    // Reads map the file instead of a pread per page, and keep a 64 MB page cache (the default 2 MB
    // misses on every dashboard read once business_metrics rows with their data points grow).
    await client.execute('PRAGMA mmap_size = 268435456');
    await client.execute('PRAGMA cache_size = -65536');
    // Erased rows are overwritten with zeros, not left readable in free pages (decision 0201).
    await client.execute('PRAGMA secure_delete = ON');
  }
  await client.execute('PRAGMA foreign_keys = ON');
  return client;
}

/** The disk full or the database locked, as the driver reports it. */
const STORAGE_FAULT = /SQLITE_(BUSY|FULL|LOCKED)|database is locked|database or disk is full|statements in progress/i;

// The driver leaves a statement that failed on a locked or full database active until the garbage
// collector finalises it, which it can only once the error (which holds it) has been dealt with.
// While it is active, the connection keeps its old read snapshot (the write-ahead log cannot be
// reset, and grows) and every later transaction fails to commit ("SQL statements in progress"): a
// process would go on refusing writes long after the lock or the full disk had gone, for as long as
// no collection happened to run. So a collection is run shortly after such a failure (two passes:
// the statement's finaliser runs after the first), at most once a second (decision 0200).
const collectGarbage = (() => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  setFlagsFromString('--no-expose-gc');
  return gc;
})();
const FINALISE_AFTER_MS = 100;
const FINALISE_EVERY_MS = 1_000;
let finaliseTimer: NodeJS.Timeout | null = null;
let finalisedAt = 0;
function finaliseFailedStatements(): void {
  if (finaliseTimer) return;
  finaliseTimer = setTimeout(
    () => {
      collectGarbage();
      setTimeout(() => {
        collectGarbage();
        finalisedAt = Date.now();
        finaliseTimer = null;
      }, 10).unref();
    },
    Math.max(FINALISE_AFTER_MS, finalisedAt + FINALISE_EVERY_MS - Date.now()),
  );
  finaliseTimer.unref();
}

/** A file database's client that, when a call fails on a locked or full database, makes the
 *  connection usable again shortly after. */
function recoveringClient(client: Client): Client {
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      try {
        return await call(...args);
      } catch (error) {
        const { code, message } = (error ?? {}) as { code?: string; message?: string };
        if (STORAGE_FAULT.test(`${code ?? ''} ${message ?? ''}`)) finaliseFailedStatements();
        throw error;
      }
    };
  client.execute = guard(client.execute.bind(client)) as Client['execute'];
  client.batch = guard(client.batch.bind(client));
  client.executeMultiple = guard(client.executeMultiple.bind(client));
  return client;
}

/**
 * The hottest reads (the dashboard's one statement) on a connection of their own, used only to read, with
 * each statement prepared once. The client prepares every call afresh: for the dashboard's query
 * that was half of its CPU, and the thousands of native statements it left behind for the garbage
 * collector to finalise made young-generation pauses of 10-35 ms, the p99 of bench:dashboard.
 * WAL lets this connection read while the other writes. It closes with the client.
 */
function preparedReads(path: string, client: Client): PreparedRead {
  let conn: Database.Database | null = null;
  const statements = new Map<string, Database.Statement>();
  const closeClient = client.close.bind(client);
  client.close = () => {
    conn?.close();
    conn = null;
    statements.clear();
    closeClient();
  };
  return async (sql, args) => {
    if (!conn) {
      conn = new Database(path, { timeout: 5000 });
      conn.exec('PRAGMA mmap_size = 268435456; PRAGMA cache_size = -65536; PRAGMA foreign_keys = ON');
    }
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = conn.prepare(sql)));
    return statement.all(args) as Row[];
  };
}

export async function migrateDb(db: Db, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  await migrate(db, { migrationsFolder });
}
