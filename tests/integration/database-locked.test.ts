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
});
