// A libSQL server (sqld) as several web processes and workers share it: a statement given named
// arguments it does not use is accepted; a server that stops answering (its process stopped, as a
// stalled host or a full network queue leaves it) makes requests answer 503 with Retry-After
// within DATABASE_TIMEOUT_MS instead of hanging, and the health check answer within 2 s saying
// so; a server that is gone is "unreachable"; everything is served again once it answers.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { health } from '../../api/services/health.ts';
import { openDb } from '../../db/client.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { submitForm } from '../helpers/report-requests.ts';
import { until } from '../helpers/crash-suite.ts';
import { startSqld, type Sqld } from '../helpers/sqld.ts';

let sqld: Sqld;
let t: TestContext;
beforeAll(async () => {
  sqld = await startSqld();
  t = await createTestContext({ TRUST_PROXY: 'true', DATABASE_URL: sqld.url, DATABASE_TIMEOUT_MS: '3000' });
});
afterAll(async () => {
  sqld.process.kill('SIGCONT');
  await t.close();
  await sqld.stop();
});

type Health = { status: string; problems: string[]; database: string };
async function timedHealth(): Promise<{ ms: number; body: Health }> {
  const started = Date.now();
  const res = await t.app.request('/api/health');
  return { ms: Date.now() - started, body: (await res.json()) as Health };
}

describe('a libSQL server', () => {
  it('takes a statement given named arguments it does not use (a file ignores them, the server refused them)', async () => {
    const { rows } = await t.ctx.db.$client.execute({ sql: 'SELECT :used AS v', args: { used: 7, unused: 'x' } });
    expect(Number(rows[0]!.v)).toBe(7);
    const [batch] = await t.ctx.db.$client.batch([{ sql: 'SELECT $a AS v', args: { a: 1, b: 2, c: 3 } }], 'read');
    expect(Number(batch!.rows[0]!.v)).toBe(1);
  });

  it('that stops answering: 503 with Retry-After within the deadline, health degraded within 2 s, then served again', async () => {
    expect((await timedHealth()).body).toMatchObject({ status: 'ok', database: 'ok' });
    sqld.process.kill('SIGSTOP');
    // Every thread of the server stopped before the probe goes out (the signal takes effect when
    // each is next scheduled).
    await until('sqld stopped', () => /^\d+ \(.*\) T/.test(readFileSync(`/proc/${sqld.process.pid}/stat`, 'utf8')));
    try {
      const health = await timedHealth();
      // The probe is given 1.5 s; whatever the server does, the answer comes by 2 s (plus this
      // machine's scheduling, so the bound checked is loose).
      expect(health.body).toMatchObject({ status: 'degraded', database: 'slow' });
      expect(health.body.problems).toContain('database_slow');
      expect(health.ms).toBeLessThan(10_000);
      const started = Date.now();
      const refused = await submitForm(t.app);
      expect(refused.status).toBe(503);
      expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      // Given up at the deadline (3 s here), not after minutes.
      expect(Date.now() - started).toBeLessThan(30_000);
    } finally {
      sqld.process.kill('SIGCONT');
    }
    // Back (a statement answered): health no longer says unreachable (it did for a minute after).
    await t.ctx.db.$client.execute('SELECT 1');
    const back = await timedHealth();
    expect(back.body.problems).not.toContain('database_unreachable');
    expect(back.body.problems).toContain('database_slow');
    const end = Date.now() + 20_000;
    let after = await submitForm(t.app);
    while (after.status !== 202 && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 200));
      after = await submitForm(t.app);
    }
    expect(after.status).toBe(202);
  }, 60_000);

  it('that is gone: the health check says unreachable at once', async () => {
    const gone = await startSqld();
    const db = await openDb(gone.url, undefined, { deadlineMs: 3_000 });
    await gone.stop();
    const said = await health({ ...t.ctx, db });
    expect(said).toMatchObject({ status: 'degraded', database: 'unreachable' });
    expect(said.problems).toContain('database_unreachable');
    db.$client.close();
  });
});
