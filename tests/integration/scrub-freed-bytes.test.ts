// The page scrub a libSQL server's erasure runs (decision 0209), on a database file with
// secure_delete off, as a server has it: deleted rows, their stale copies and their overflow pages
// leave no byte of the erased strings in the file, and every row that stays reads back the same.
// On a file the product itself keeps secure_delete on; this file is the scrub's own, so it runs once.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, type Client } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scrubFreedBytes, zeroFreeSpace } from '../../api/services/data-rights/scrub-freed-bytes.ts';
import { ON_SQLD } from '../helpers/context.ts';

let dir: string;
let file: string;
let client: Client;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'localrank-scrub-'));
  file = join(dir, 'scrub.db');
  client = createClient({ url: `file:${file}` });
});
afterAll(() => {
  client?.close();
  rmSync(dir, { recursive: true, force: true });
});

const contents = (rows: Record<string, unknown>[]) => JSON.stringify(rows.map((r) => [r.id, r.email, r.status, r.note]));

describe.skipIf(ON_SQLD)('scrubbing freed bytes', () => {
  it('leaves no copy of the erased strings in the file, and the rows that stay as they were', async () => {
    expect((await client.execute('PRAGMA secure_delete')).rows[0]![0]).toBe(0);
    await client.execute('CREATE TABLE people (id TEXT PRIMARY KEY, email TEXT NOT NULL, status TEXT NOT NULL, note TEXT)');
    await client.execute('CREATE INDEX people_email_idx ON people (email)');
    const insert = (id: string, email: string, note: string) => ({ sql: "INSERT INTO people VALUES (?, ?, 'queued', ?)", args: [id, email, note] });
    const statements = [];
    for (let i = 0; i < 400; i++) statements.push(insert(`keep-${i}`, `neighbour-${i}@example.com`, `note ${i} `.repeat(1 + (i % 40))));
    // The erased person: small rows among the others, one with overflow pages, each rewritten
    // at other sizes (the stale copies a status change leaves in its page).
    for (let i = 0; i < 5; i++) statements.push(insert(`gone-${i}`, 'Kestrel.Forgotten@Example.org', `Kestrel Forgotten lives at 7 Larch Row ${i}`));
    statements.push(insert('gone-big', 'kestrel.forgotten@example.org', `Kestrel Forgotten's long story. `.repeat(600)));
    await client.batch(statements, 'write');
    await client.execute("UPDATE people SET status = 'processing' WHERE id LIKE 'gone-%'");
    await client.execute("UPDATE people SET status = 'done, after a long while' WHERE id LIKE 'gone-%'");
    const kept = contents((await client.execute("SELECT * FROM people WHERE id LIKE 'keep-%' ORDER BY id")).rows);
    await client.execute("DELETE FROM people WHERE id LIKE 'gone-%'");

    const needles = ['kestrel.forgotten@example.org', 'Kestrel Forgotten'];
    const inFile = () => {
      const text = readFileSync(file).toString('latin1').toLowerCase();
      return needles.filter((n) => text.includes(n.toLowerCase()));
    };
    expect(inFile()).toEqual(needles);

    const result = await scrubFreedBytes(client, needles);
    expect(result.pages).toBeGreaterThan(0);
    expect(result.freePages).toBeGreaterThan(0);
    expect(inFile()).toEqual([]);
    expect((await client.execute('PRAGMA integrity_check')).rows[0]![0]).toBe('ok');
    expect(contents((await client.execute("SELECT * FROM people WHERE id LIKE 'keep-%' ORDER BY id")).rows)).toBe(kept);
    expect((await client.execute("SELECT count(*) FROM people WHERE email = 'neighbour-7@example.com'")).rows[0]![0]).toBe(1);

    // A second run finds nothing left to do.
    expect(await scrubFreedBytes(client, needles)).toEqual({ pages: 0, freePages: 0 });
  });

  it('leaves alone a page that is not a well-formed b-tree page', () => {
    const page = new Uint8Array(4096).fill(7);
    page[0] = 13;
    expect(zeroFreeSpace(page, 2, 4096)).toBe(false);
    expect(page.every((b, i) => b === (i === 0 ? 13 : 7))).toBe(true);
  });
});
