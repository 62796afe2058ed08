// Every statement the file pass sent, prepared on a libSQL server (the sqld pass of `npm test`):
// a statement only a file accepts (a function or syntax the server's SQLite lacks, an argument it
// refuses) fails here, whichever test sent it, though only the files whose subject is the database
// itself run again on sqld (scripts/test.ts). EXPLAIN prepares a statement and runs none of it;
// a table or index a test creates for itself is created first, so what uses it can be prepared.
import { inject } from 'vitest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDb, type Db } from '../../db/client.ts';
import { ON_SQLD } from '../helpers/context.ts';
import { recordedStatements, type RecordedStatement } from '../helpers/sql-statements.ts';
import { startSqld, type Sqld } from '../helpers/sqld.ts';

/** Statements of a connection to a file (its journal, its page cache), never sent to a server. */
const FILE_ONLY = /^\s*PRAGMA\b/i;
const CREATES = /^\s*CREATE\b/i;
/** A statement that is an EXPLAIN already runs nothing as it is. */
const EXPLAINS = /^\s*EXPLAIN\b/i;

describe.runIf(ON_SQLD)('the file pass\'s statements on a libSQL server', () => {
  let sqld: Sqld;
  let db: Db;
  beforeAll(async () => {
    sqld = await startSqld([], undefined, { seed: inject('templateDb') });
    db = await openDb(sqld.url);
  });
  afterAll(async () => {
    db?.$client.close();
    await sqld?.stop();
  });

  it('every one is prepared by the server', async () => {
    const statements = recordedStatements();
    // The file pass runs first and records them (npm test); without it there is nothing to check.
    expect(statements.length, 'statements recorded by the file pass (run it first: node scripts/test.ts integration)').toBeGreaterThan(300);
    const refused: string[] = [];
    const prepare = async (sql: string, args: RecordedStatement['args']) => {
      try {
        await db.$client.execute({ sql, args });
      } catch (error) {
        if (!/already exists/.test((error as Error).message)) refused.push(`${sql.slice(0, 200)}\n  → ${(error as Error).message}`);
      }
    };
    for (const { sql, args } of statements) if (CREATES.test(sql)) await prepare(sql, args);
    for (const { sql, args } of statements) if (!CREATES.test(sql) && !FILE_ONLY.test(sql)) await prepare(EXPLAINS.test(sql) ? sql : `EXPLAIN ${sql}`, args);
    expect(refused).toEqual([]);
  });
});
