// Migration 0021_one_opt_out_per_address on a database built at the migration before it, holding
// the duplicate opt-outs repeated one-click POSTs left (one address three times, one in two
// spellings of case, one once): one row per address remains, the latest, in lower case, and a
// second row for an address is refused. On a file, and on sqld in the sqld pass.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { migrateDb, openDb, type Db } from '../../db/client.ts';
import { ON_SQLD } from '../helpers/context.ts';
import { startSqld, type Sqld } from '../helpers/sqld.ts';

const TAG = '0021_one_opt_out_per_address';
const MIGRATIONS = resolve(import.meta.dirname, '../../db/migrations');
const T0 = 1_790_000_000_000;

let dir: string;
let sqld: Sqld | null = null;
let db: Db;

/** The migrations folder as it was before TAG: the journal stops short of it. */
function migrationsBefore(): string {
  const folder = join(dir, 'migrations-before');
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag === TAG);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

const optOut = (id: string, email: string, at: number) =>
  db.$client.execute({ sql: 'INSERT INTO email_opt_outs (id, email, report_id, created_at) VALUES (?, ?, NULL, ?)', args: [id, email, T0 + at] });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'localrank-migration-'));
  sqld = ON_SQLD ? await startSqld() : null;
  db = await openDb(sqld ? sqld.url : `file:${join(dir, 'copy.db')}`);
  await migrateDb(db, migrationsBefore());
  await optOut('a1', 'dana@client.example', 1);
  await optOut('a2', 'dana@client.example', 2);
  await optOut('a3', 'dana@client.example', 3);
  await optOut('b1', 'Pat@Client.example', 5);
  await optOut('b2', 'pat@client.example', 4);
  await optOut('c1', 'sam@client.example', 7);
  await migrateDb(db);
}, 120_000);

afterAll(async () => {
  db?.$client.close();
  await sqld?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it('keeps one opt-out per address, the latest, in lower case, and refuses a second', async () => {
  const { rows } = await db.$client.execute('SELECT id, email, created_at FROM email_opt_outs ORDER BY email');
  expect(rows.map((r) => [r.id, r.email, Number(r.created_at) - T0])).toEqual([
    ['a3', 'dana@client.example', 3],
    ['b1', 'pat@client.example', 5],
    ['c1', 'sam@client.example', 7],
  ]);
  await expect(optOut('a4', 'dana@client.example', 9)).rejects.toThrow(/UNIQUE/);
});
