// A database another process keeps locked for longer than the busy timeout (5 s): a submit is
// answered 503 with Retry-After, not 500; the health check says the database is locked; once the
// lock is gone, submits are taken again.
import { join } from 'node:path';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, ON_SQLD, type TestContext } from '../helpers/context.ts';
import { submitForm } from '../helpers/report-requests.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: 'true' });
});
afterAll(() => t.close());

const submit = () => submitForm(t.app);

describe.skipIf(ON_SQLD)('a database file locked by another process', () => {
  it('refuses submits with 503 and Retry-After while the lock lasts, and takes them again after', async () => {
    const other = new Database(join(t.dataDir, 'app.db'));
    other.exec('BEGIN IMMEDIATE');
    try {
      const refused = await submit();
      expect(refused.status).toBe(503);
      expect(refused.body.code).toBe('busy');
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      const health = (await (await t.app.request('/api/health')).json()) as { status: string; problems: string[] };
      expect(health).toMatchObject({ status: 'degraded', problems: ['database_locked'] });
    } finally {
      other.exec('ROLLBACK');
      other.close();
    }
    // Within the Retry-After it was given, the client is served again.
    const end = Date.now() + 5_000;
    let after = await submit();
    while (after.status === 503 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 200));
      after = await submit();
    }
    expect(after, JSON.stringify(after.body)).toMatchObject({ status: 202 });
  }, 30_000);

  it('keeps a write made on the same process right after a busy failure (the failed statement is left with its connection)', async () => {
    const path = join(t.dataDir, 'app.db');
    await t.ctx.db.$client.execute('CREATE TABLE IF NOT EXISTS scratch (id INTEGER PRIMARY KEY, v INTEGER)');
    await t.ctx.db.$client.execute('INSERT OR REPLACE INTO scratch VALUES (1, 1)');
    const other = new Database(path);
    other.exec('BEGIN IMMEDIATE');
    await expect(t.ctx.db.$client.execute('UPDATE scratch SET v = 99 WHERE id = 1')).rejects.toThrow(/SQLITE_BUSY|locked/);
    other.exec('ROLLBACK');
    await t.ctx.db.$client.execute('UPDATE scratch SET v = 2 WHERE id = 1');
    const read = () => Number((other.prepare('SELECT v FROM scratch WHERE id = 1').get() as { v: number }).v);
    expect(read()).toBe(2);
    // Once the failed statement has been finalised (a collection runs shortly after the failure),
    // the write is still there: it was not part of the failed statement's transaction.
    await new Promise((r) => setTimeout(r, 1_500));
    expect(read()).toBe(2);
    expect(Number((await t.ctx.db.$client.execute('SELECT v FROM scratch WHERE id = 1')).rows[0]!.v)).toBe(2);
    other.close();
  }, 30_000);
});
