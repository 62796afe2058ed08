// A libSQL server (sqld) as several web processes and workers share it: a statement given named
// arguments it does not use is accepted; a server that stops answering (its process stopped, as a
// stalled host or a full network queue leaves it) makes requests answer 503 with Retry-After
// within DATABASE_TIMEOUT_MS instead of hanging, and the health check answer within 2 s saying
// so; a server that is gone is "unreachable"; everything is served again once it answers. A server
// that answers, but writes only after the deadline (writes queued behind others), is waited for: a
// burst of 24 submits through two processes is taken whole (decision 0310).
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { health } from '../../api/services/health.ts';
import { reportRequests } from '../../db/schema/businesses.ts';
import { openDb } from '../../db/client.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { submitForm, validForm } from '../helpers/report-requests.ts';
import { until } from '../helpers/crash-suite.ts';
import { freePort, startSqld, type Sqld } from '../helpers/sqld.ts';

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

  it('that answers, but takes every write after the deadline: 24 submits at once through two processes are all taken, none refused', async () => {
    // Reads (SELECT 1 among them) answer at once; each statement that writes is answered 2.5 s
    // after it was taken, past the 1 s deadline, as a server answers the last of a queue of writes.
    const slow = await slowWrites(sqld.url, 2_500);
    const settings = { TRUST_PROXY: 'true', DATABASE_URL: slow.url, DATABASE_TIMEOUT_MS: '1000', INTAKE_RATE_LIMIT_PER_IP: '100000' };
    const machines = [await createTestContext(settings), await createTestContext(settings)];
    try {
      const emails = Array.from({ length: 24 }, () => uniqueEmail('slow-server'));
      const answers = await Promise.all(
        emails.map(async (email, i) => {
          const res = await machines[i % 2]!.app.request('/api/submit-request', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(validForm({ email })) });
          return `${res.status} ${res.status === 202 ? '' : await res.text()}`;
        }),
      );
      expect(answers).toEqual(emails.map(() => '202 '));
      expect(slow.delayed()).toBeGreaterThanOrEqual(24);
      for (const email of emails) expect(await t.ctx.db.select({ id: reportRequests.id }).from(reportRequests).where(eq(reportRequests.email, email)), email).toHaveLength(1);
    } finally {
      for (const m of machines) await m.close();
      await slow.close();
    }
  }, 120_000);
});

/** A libSQL server's address in front of `target` whose writes are answered `ms` after they were taken. */
async function slowWrites(target: string, ms: number): Promise<{ url: string; delayed: () => number; close: () => Promise<void> }> {
  let delayed = 0;
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([name]) => !['host', 'content-length', 'connection'].includes(name))) as Record<string, string>;
    const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body: req.method === 'GET' || req.method === 'HEAD' ? undefined : body });
    const bytes = Buffer.from(await answer.arrayBuffer());
    if (/\b(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(body.toString('utf8'))) {
      delayed++;
      await new Promise((r) => setTimeout(r, ms));
    }
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' }).end(bytes);
  });
  const port = await freePort();
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', done));
  return { url: `http://127.0.0.1:${port}`, delayed: () => delayed, close: () => new Promise((done) => server.close(() => done())) };
}
