import { mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createClient, type Client } from '@libsql/client';
import { drizzle } from 'drizzle-orm/libsql';
import { migrate } from 'drizzle-orm/libsql/migrator';
import * as schema from './schema.ts';

export type Db = ReturnType<typeof drizzle<typeof schema>> & { $client: Client };

export const MIGRATIONS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Opens the database; a `file:` URL gets its folder created and WAL journaling. */
export async function openDb(url: string, authToken?: string): Promise<Db> {
  if (url.startsWith('file:')) mkdirSync(dirname(url.slice('file:'.length)), { recursive: true });
  // The client keeps a pool of connections and opens another whenever two calls overlap, so the
  // busy timeout goes in its config (every connection gets it), not in a PRAGMA (only the first
  // would). A write that meets another's lock then waits up to 5 s instead of failing at once.
  const client = createClient({ url, authToken, timeout: 5000 });
  if (url.startsWith('file:')) {
    await client.execute('PRAGMA journal_mode = WAL');
    // Reads map the file instead of a pread per page, and keep a 64 MB page cache (the default 2 MB
    // misses on every dashboard read once business_metrics rows with their data points grow).
    await client.execute('PRAGMA mmap_size = 268435456');
    await client.execute('PRAGMA cache_size = -65536');
  }
  await client.execute('PRAGMA foreign_keys = ON');
  return drizzle(client, { schema }) as Db;
}

export async function migrateDb(db: Db, migrationsFolder = MIGRATIONS_DIR): Promise<void> {
  await migrate(db, { migrationsFolder });
}
