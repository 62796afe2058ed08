// One migrated database file for the whole run (vitest's globalSetup): each test file's context
// starts from a copy of it instead of running every migration again. The copy is a plain file
// copy of a closed database (no WAL left beside it), so each file still gets its own database.
// And, for the integration tests, the bundles of the processes they start.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrateDb, openDb } from '../../db/client.ts';
import { buildEntries } from './entries.ts';
import { clearRecordedStatements } from './sql-statements.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    templateDb: string;
  }
}

export default async function setup(project: TestProject) {
  // The processes integration tests start run from bundles made here (tests/helpers/entries.ts).
  // (`npm test` builds them once for both passes.)
  if (!process.env.TEST_ENTRIES && project.vitest.projects.some((p) => p.name === 'integration')) await buildEntries();
  // The file pass records the statements its tests send afresh; the sqld pass reads them.
  if (process.env.TEST_DATABASE !== 'sqld') clearRecordedStatements();
  const dir = mkdtempSync(join(tmpdir(), 'localrank-template-'));
  const file = join(dir, 'app.db');
  const db = await openDb(`file:${file}`);
  await migrateDb(db);
  await db.$client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  db.$client.close();
  project.provide('templateDb', file);
  return () => rmSync(dir, { recursive: true, force: true });
}
