import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { createClient, type Client, type InArgs, type InValue } from '@libsql/client';
import Database from 'libsql';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import * as schema from './schema.ts';

export type Row = Record<string, unknown>;
/** A read by hand-written SQL whose statement is prepared once and kept (see `preparedReads`). */
export type PreparedRead = (sql: string, args: InValue[]) => Promise<Row[]>;
export type Db = ReturnType<typeof drizzle<typeof schema>> & { $client: Client; $read: PreparedRead; $calls: CallRecord };

/** What this process saw of its database calls lately: the health check reads it. */
export interface CallRecord {
  /** When a call last ran past its deadline or could not reach the server (ms since 1970), else 0. */
  failedAt: number;
  /** When a call last took longer than SLOW_CALL_MS, else 0. */
  slowAt: number;
}

/** How long a call to a libSQL server waits before asking whether the server still answers: one
 *  that stopped answering is a fault told to the caller (a request's 503, a worker's pause), never a
 *  request that hangs for minutes. A server that answers (another call just did, or `SELECT 1`
 *  does) is merely slow, writes queued behind others: the call goes on waiting (decision 0310). */
export const DEFAULT_CALL_DEADLINE_MS = 10_000;
/** How long a call waits in all on a server that goes on answering, before it is given up all the same. */
export const SLOW_SERVER_LIMIT_MS = 60_000;
/** The least time the server is given to answer `SELECT 1` when a call has waited past its deadline. */
const PROBE_MIN_MS = 5_000;
/** A remote write that meets a busy database is tried again for this long, as a file database's
 *  busy timeout waits (`timeout: 5000` below, read by the driver for files only). */
export const BUSY_WAIT_MS = 5_000;
/** A call that took longer than this makes the health check say the database is slow. */
export const SLOW_CALL_MS = 1_000;

/** A remote database did not answer in time, or could not be reached: a storage fault (api/jobs/faults.ts). */
export class DatabaseUnreachableError extends Error {
  readonly code = 'DATABASE_UNREACHABLE';
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'DatabaseUnreachableError';
  }
}

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * Opens the database; a `file:` URL gets its folder created and WAL journaling. Every call, on a
 * file or a server, is given exactly the named arguments its statement uses (a libSQL server
 * refuses the others); on a server, every call also has a deadline and a busy answer is waited out.
 */
export async function openDb(url: string, authToken?: string, options: { deadlineMs?: number } = {}): Promise<Db> {
  const file = url.startsWith('file:');
  if (file) mkdirSync(dirname(url.slice('file:'.length)), { recursive: true });
  const calls: CallRecord = { failedAt: 0, slowAt: 0 };
  const deadlineMs = options.deadlineMs ?? DEFAULT_CALL_DEADLINE_MS;
  const client = exactArguments(file ? recoveringClient(await connect(url, authToken, true), () => connect(url, authToken, true)) : remoteClient(await connect(url, authToken, false, deadlineMs), deadlineMs, calls));
  const db = drizzle(client, { schema }) as Db;
  db.$read = file ? preparedReads(url.slice('file:'.length), client) : async (sql, args) => (await client.execute({ sql, args })).rows as unknown as Row[];
  db.$calls = calls;
  return db;
}

async function connect(url: string, authToken: string | undefined, file: boolean, deadlineMs = DEFAULT_CALL_DEADLINE_MS): Promise<Client> {
  // A file database gets one connection per process. Its calls run synchronously on this thread, so
  // a pool (the client's default, opening a connection whenever two awaited calls overlap) adds no
  // parallelism, only connections without the PRAGMAs below, and a second connection of our own
  // waiting on the first's lock would stall the thread. The busy timeout is in the config: a write
  // that meets another process's lock (a separate worker, a test) waits up to 5 s.
  // Over HTTP each request to the server is cut off once a slow server's wait is over, so no socket waits forever,
  // and asks for answers uncompressed: on loopback or a private network, unpacking sqld's gzip
  // cost the workers about 7% of their CPU (bench:scale), for bytes that cross no slow link.
  const client = createClient({
    url,
    authToken,
    timeout: 5000,
    ...(file ? { concurrency: 1 } : { fetch: (request: Request) => fetch(request, { headers: identityEncoding(request.headers), signal: AbortSignal.timeout(Math.max(deadlineMs, SLOW_SERVER_LIMIT_MS)) }) }),
  });
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

type Statement = string | { sql: string; args?: InArgs };

/** The named parameters a statement uses (`:name`, `@name`, `$name`), outside string literals,
 *  quoted names and comments. */
const PARAMETER = /'(?:[^']|'')*'|"(?:[^"]|"")*"|`[^`]*`|\[[^\]]*\]|--[^\n]*|\/\*[\s\S]*?\*\/|[:@$]([A-Za-z_][A-Za-z0-9_]*)/g;
const namesCache = new Map<string, Set<string>>();
function namesIn(sql: string): Set<string> {
  let names = namesCache.get(sql);
  if (!names) {
    names = new Set();
    for (const m of sql.matchAll(PARAMETER)) if (m[1]) names.add(m[1]);
    if (namesCache.size > 2_000) namesCache.clear();
    namesCache.set(sql, names);
  }
  return names;
}

/** A statement with only the named arguments its SQL uses: a file database ignores the others, a
 *  libSQL server refuses the whole statement ("too many parameters"). */
export function withExactArguments(statement: Statement): Statement {
  if (typeof statement === 'string' || !statement.args || Array.isArray(statement.args)) return statement;
  const names = namesIn(statement.sql);
  const args = statement.args as Record<string, InValue>;
  if (Object.keys(args).every((k) => names.has(k))) return statement;
  return { sql: statement.sql, args: Object.fromEntries(Object.entries(args).filter(([k]) => names.has(k))) };
}

function exactArguments(client: Client): Client {
  const execute = client.execute.bind(client) as (s: Statement) => Promise<unknown>;
  const batch = client.batch.bind(client);
  const exact = (s: Statement | [string, InArgs?]): Statement => withExactArguments(Array.isArray(s) ? { sql: s[0], args: s[1] } : s);
  client.execute = ((s: Statement, args?: InArgs) => execute(exact(typeof s === 'string' && args !== undefined ? [s, args] : s))) as Client['execute'];
  client.batch = ((statements, mode) => batch(statements.map(exact) as typeof statements, mode)) as Client['batch'];
  return client;
}

/** A server's answer that the database is busy (another writer held it): the statement did not run. */
const BUSY = /SQLITE_BUSY|database is locked/i;
/** The server could not be reached, or stopped answering: nothing says whether a write was applied. */
const UNREACHABLE = /fetch failed|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|socket hang up|HRANA_WEBSOCKET_ERROR|aborted due to timeout|TimeoutError|other side closed|SERVER_ERROR|HRANA_CLOSED_ERROR/i;

function describe(error: unknown): string {
  const parts: string[] = [];
  for (let e: unknown = error, depth = 0; e && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const { code, message, name } = e as { code?: unknown; message?: unknown; name?: unknown };
    parts.push(String(code ?? ''), String(name ?? ''), String(message ?? e));
  }
  return parts.join(' ');
}

/**
 * A libSQL server's client: busy answers are tried again for up to BUSY_WAIT_MS (a busy answer
 * means the statement, or the whole batch, did not run, so trying again applies it once). A call
 * not answered by its deadline asks whether the server still answers: if another call answered
 * within the deadline, or `SELECT 1` answers now, it goes on waiting, up to SLOW_SERVER_LIMIT_MS;
 * a server that cannot be reached or does not answer becomes a DatabaseUnreachableError.
 */
function remoteClient(client: Client, deadlineMs: number, calls: CallRecord): Client {
  const probe = client.execute.bind(client);
  const probeMs = Math.max(deadlineMs, PROBE_MIN_MS);
  const limitMs = Math.max(deadlineMs, SLOW_SERVER_LIMIT_MS);
  let answeredAt = 0;
  let probing: Promise<boolean> | null = null;
  const answering = (): Promise<boolean> => {
    if (Date.now() - answeredAt < deadlineMs) return Promise.resolve(true);
    return (probing ??= within(
      probe('SELECT 1').then(
        () => ((answeredAt = Date.now()), true),
        () => false,
      ),
      probeMs,
      false,
    ).finally(() => (probing = null)));
  };
  /** The call's answer, waited for while the server answers. */
  const answerOf = async <R>(pending: Promise<R>, started: number): Promise<R> => {
    for (;;) {
      const result = await within(
        pending.then((value) => ({ value })),
        Math.max(1, deadlineMs - ((Date.now() - started) % deadlineMs)),
        null,
      );
      if (result) return result.value;
      if (Date.now() - started >= limitMs || !(await answering())) {
        throw new DatabaseUnreachableError(`the database did not answer within ${Date.now() - started >= limitMs ? limitMs : deadlineMs} ms`);
      }
    }
  };
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      const started = Date.now();
      for (let wait = 25; ; wait = Math.min(500, wait * 2)) {
        try {
          const result = await answerOf(call(...args), started);
          answeredAt = Date.now();
          if (answeredAt - started > SLOW_CALL_MS) calls.slowAt = answeredAt;
          return result;
        } catch (error) {
          const text = describe(error);
          if (BUSY.test(text) && Date.now() - started + wait < BUSY_WAIT_MS) {
            await new Promise((r) => setTimeout(r, wait));
            continue;
          }
          if (error instanceof DatabaseUnreachableError || UNREACHABLE.test(text)) {
            calls.failedAt = Date.now();
            throw error instanceof DatabaseUnreachableError ? error : new DatabaseUnreachableError(`the database could not be reached: ${text.trim()}`, { cause: error });
          }
          throw error;
        }
      }
    };
  client.execute = guard(client.execute.bind(client)) as Client['execute'];
  client.batch = guard(client.batch.bind(client));
  client.executeMultiple = guard(client.executeMultiple.bind(client));
  return client;
}

/** `pending`'s value, or `otherwise` if it has none within `ms` (its later failure is then ignored). */
async function within<T, U>(pending: Promise<T>, ms: number, otherwise: U): Promise<T | U> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([pending, new Promise<U>((done) => (timer = setTimeout(() => done(otherwise), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Asks the database the simplest question within `withinMs`: 'ok', 'slow' (no answer in time) or
 * 'unreachable' (refused, or an error). The health check's probe: it answers whatever the server does.
 */
export async function probeDatabase(db: Db, withinMs: number): Promise<'ok' | 'slow' | 'unreachable'> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      db.$client.execute('SELECT 1').then(() => 'ok' as const),
      new Promise<'slow'>((done) => (timer = setTimeout(() => done('slow'), withinMs))),
    ]);
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}

function identityEncoding(headers: Headers): Headers {
  const copy = new Headers(headers);
  copy.set('accept-encoding', 'identity');
  return copy;
}

/** The disk full, the database locked or read-only, as the driver reports it. */
const STORAGE_FAULT = /SQLITE_(BUSY|FULL|LOCKED|READONLY)|database is locked|database or disk is full|readonly database|statements in progress/i;

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

/** A connection opened while the file could not be written (a restore with the wrong owner, a
 *  volume remounted read-only) stays read-only after the file is writable again. */
const READ_ONLY = /SQLITE_READONLY|readonly database/i;
const CLOSE_OLD_AFTER_MS = 5_000;

/**
 * A file database's client that leaves a connection as soon as a call on it fails on a locked,
 * full or read-only database, and goes on with a new one. The failed statement stays active on the
 * old connection until the garbage collector finalises it, and a write made on that connection
 * meanwhile reports success but is rolled back with it (measured: a value written after a busy
 * failure read back by another connection as the old value, and by the writer itself once the
 * statement was finalised). A read-only connection also stays read-only after the file is writable
 * again; on the new one, the refused call runs once more, so writes are taken again with no
 * restart. The object drizzle holds stays the same; its calls go to the connection in use and
 * wait while a new one opens.
 */
function recoveringClient(first: Client, open: () => Promise<Client>): Client {
  const methodsOf = (c: Client) => ({ execute: c.execute.bind(c), batch: c.batch.bind(c), executeMultiple: c.executeMultiple.bind(c), close: c.close.bind(c) });
  let current = methodsOf(first);
  let reopening: Promise<boolean> | null = null;
  /** A new connection in place of the current one (one for any number of failures at once). */
  const reopen = (): Promise<boolean> =>
    (reopening ??= open()
      .then((fresh) => {
        const old = current;
        current = methodsOf(fresh);
        // After the failed statement is finalised (finaliseFailedStatements); a call already
        // running on the old connection has finished by then.
        setTimeout(() => {
          try {
            old.close();
          } catch {
            // its statement not finalised yet: the connection goes with the collector
          }
        }, CLOSE_OLD_AFTER_MS).unref();
        return true;
      })
      .catch(() => false)
      .finally(() => (reopening = null)));
  const faultOf = (error: unknown) => {
    const { code, message } = (error ?? {}) as { code?: string; message?: string };
    return `${code ?? ''} ${message ?? ''}`;
  };
  const guard =
    <A extends unknown[], R>(call: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      if (reopening) await reopening;
      try {
        return await call(...args);
      } catch (error) {
        const text = faultOf(error);
        if (!STORAGE_FAULT.test(text)) throw error;
        finaliseFailedStatements();
        // Refused by a read-only connection, the call did nothing: on the new one it runs once more.
        if ((await reopen()) && READ_ONLY.test(text)) return call(...args);
        throw error;
      }
    };
  first.execute = guard((...args: Parameters<Client['execute']>) => current.execute(...args)) as Client['execute'];
  first.batch = guard((...args: Parameters<Client['batch']>) => current.batch(...args));
  first.executeMultiple = guard((sql: string) => current.executeMultiple(sql));
  first.close = () => current.close();
  return first;
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
