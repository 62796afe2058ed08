// The job worker against a real migrated database: lease, retry with back-off, give-up, resume
// after a dead worker, graceful shutdown.
import { eq } from 'drizzle-orm';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueue } from '../../api/jobs/queue.ts';
import type { JobRegistry } from '../../api/jobs/types.ts';
import { PermanentJobError, RetryLaterError } from '../../api/jobs/errors.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { jobs } from '../../db/schema/operations.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const jobRow = async (id: string) => (await t.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let n = 0;
const type = () => `test.job-${++n}`;

describe('worker', () => {
  it('runs a job once even when two workers race for it', async () => {
    const kind = type();
    let runs = 0;
    const registry: JobRegistry = { [kind]: { run: async () => { runs++; await sleep(50); } } };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {} }))!;
    const a = createWorker(t.ctx, { registry, id: 'a' });
    const b = createWorker(t.ctx, { registry, id: 'b' });
    const claimed = await Promise.all([a.runNext(), b.runNext()]);
    expect(claimed.filter(Boolean)).toHaveLength(1);
    expect(runs).toBe(1);
    const row = await jobRow(id);
    expect(row.status).toBe('done');
    expect(row.attempts).toBe(1);
    expect(row.finishedAt).toBeInstanceOf(Date);
  });

  it('claims nothing while canClaim says no (the inline worker under load), and runs the job once it says yes', async () => {
    const kind = type();
    let runs = 0;
    let allow = false;
    const registry: JobRegistry = { [kind]: { run: async () => { runs++; } } };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {} }))!;
    const worker = createWorker(t.ctx, { registry, pollMs: 20, canClaim: () => allow });
    worker.start();
    await sleep(200);
    expect(runs).toBe(0);
    expect((await jobRow(id)).status).toBe('queued');
    allow = true;
    for (let i = 0; i < 100 && (await jobRow(id)).status !== 'done'; i++) await sleep(20);
    await worker.stop();
    expect(runs).toBe(1);
  });

  it('retries a failed job later, keeping the error, then succeeds', async () => {
    const kind = type();
    let calls = 0;
    const registry: JobRegistry = { [kind]: { run: async () => { if (++calls === 1) throw new Error('provider timed out'); } } };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {} }))!;
    const worker = createWorker(t.ctx, { registry, backoffBaseMs: 60_000 });
    const before = Date.now();
    expect(await worker.runNext()).toBe(true);
    let row = await jobRow(id);
    expect(row.status).toBe('queued');
    expect(row.lastError).toBe('provider timed out');
    expect(row.runAt.getTime()).toBeGreaterThanOrEqual(before + 60_000);
    expect(await worker.runNext()).toBe(false); // not due yet
    await t.ctx.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, id));
    expect(await worker.runNext()).toBe(true);
    row = await jobRow(id);
    expect(row.status).toBe('done');
    expect(row.attempts).toBe(2);
    expect(row.lastError).toBeNull();
  });

  it("keeps a failed query's SQL and cause as the reason, not its values", async () => {
    const kind = type();
    const failure = new DrizzleQueryError('insert into reports (token, recipient_email) values (?, ?)', ['SecretToken123', 'dana@example.com'], new Error('SQLITE_BUSY: database is locked'));
    const registry: JobRegistry = { [kind]: { run: async () => { throw failure; } } };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {} }))!;
    expect(await createWorker(t.ctx, { registry, backoffBaseMs: 60_000 }).runNext()).toBe(true);
    expect((await jobRow(id)).lastError).toBe('Failed query: insert into reports (token, recipient_email) values (?, ?) (SQLITE_BUSY: database is locked)');
  });

  it('gives up after maxAttempts with the reason kept, and tells the job', async () => {
    const kind = type();
    const gaveUp: string[] = [];
    const registry: JobRegistry = {
      [kind]: { run: async () => { throw new Error('site unreachable'); }, onGiveUp: async (_ctx, job, reason) => { gaveUp.push(`${job.id}:${reason}`); } },
    };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {}, maxAttempts: 2 }))!;
    const worker = createWorker(t.ctx, { registry, backoffBaseMs: 0 });
    await worker.runNext();
    await t.ctx.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, id));
    await worker.runNext();
    const row = await jobRow(id);
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(2);
    expect(row.lastError).toBe('site unreachable');
    expect(gaveUp).toEqual([`${id}:site unreachable`]);
    expect(await worker.runNext()).toBe(false);
  });

  it('gives up at once on a permanent error', async () => {
    const kind = type();
    const registry: JobRegistry = { [kind]: { run: async () => { throw new PermanentJobError('business not found'); } } };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {} }))!;
    await createWorker(t.ctx, { registry }).runNext();
    const row = await jobRow(id);
    expect(row.status).toBe('failed');
    expect(row.attempts).toBe(1);
    expect(row.lastError).toBe('business not found');
  });

  it('resumes from saved progress when a worker dies, and the dead worker lets go', async () => {
    const kind = type();
    const seen: Array<Record<string, unknown>> = [];
    let deadSignal: AbortSignal | undefined;
    const registry: JobRegistry = {
      [kind]: {
        run: async (_ctx, job, tools) => {
          seen.push({ ...job.progress });
          if (!job.progress.analysed) {
            await tools.saveProgress({ analysed: true });
            deadSignal = tools.signal;
            await new Promise((resolve) => tools.signal.addEventListener('abort', resolve)); // hangs like a dead process
            return;
          }
          await tools.saveProgress({ delivered: true });
        },
      },
    };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {} }))!;
    const dead = createWorker(t.ctx, { registry, id: 'dead', leaseMs: 300 });
    const deadRun = dead.runNext();
    await sleep(100);
    // The dead worker's lease runs out (its process is gone). Here it still renews every 100 ms, and
    // a renewal may land after the lease was set back (a server's writes take longer than a
    // file's), so the lease is set back until the rescuer's claim wins.
    const rescuer = createWorker(t.ctx, { registry, id: 'rescuer' });
    let claimed = false;
    for (const end = Date.now() + 10_000; !claimed && Date.now() < end; ) {
      await t.ctx.db.update(jobs).set({ leaseUntil: new Date(Date.now() - 1) }).where(eq(jobs.id, id));
      claimed = await rescuer.runNext();
    }
    expect(claimed).toBe(true);
    await deadRun;
    expect(deadSignal?.aborted).toBe(true);
    expect(seen).toEqual([{}, { analysed: true }]);
    const row = await jobRow(id);
    expect(row.status).toBe('done');
    expect(row.lockedBy).toBe('rescuer');
    expect(row.attempts).toBe(2);
    expect(row.progress).toEqual({ analysed: true, delivered: true });
  });

  it('fails a job whose worker died during the last allowed attempt', async () => {
    const kind = type();
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {}, maxAttempts: 1 }))!;
    await t.ctx.db.update(jobs).set({ status: 'running', attempts: 1, lockedBy: 'gone', leaseUntil: new Date(Date.now() - 1000) }).where(eq(jobs.id, id));
    const registry: JobRegistry = { [kind]: { run: async () => {} } };
    expect(await createWorker(t.ctx, { registry }).runNext()).toBe(false);
    const row = await jobRow(id);
    expect(row.status).toBe('failed');
    expect(row.lastError).toBe('the worker stopped during the last attempt');
  });

  it('runs the give-up handler of a job whose worker died during the last allowed attempt', async () => {
    const kind = type();
    const id = (await enqueue(t.ctx.db, { type: kind, payload: { order: 7 }, maxAttempts: 2 }))!;
    await t.ctx.db.update(jobs).set({ status: 'running', attempts: 2, lockedBy: 'gone', leaseUntil: new Date(Date.now() - 1000) }).where(eq(jobs.id, id));
    const givenUp: Array<{ id: string; payload: unknown; reason: string }> = [];
    const registry: JobRegistry = { [kind]: { run: async () => {}, onGiveUp: async (_ctx, job, reason) => void givenUp.push({ id: job.id, payload: job.payload, reason }) } };
    const worker = createWorker(t.ctx, { registry });
    await worker.runNext();
    await worker.runNext(); // the job is failed now: nothing calls the handler again
    expect(givenUp).toEqual([{ id, payload: { order: 7 }, reason: 'the worker stopped during the last attempt' }]);
  });

  it('a job that must wait runs again later without spending an attempt, even on its last one', async () => {
    const kind = type();
    let runs = 0;
    const registry: JobRegistry = {
      [kind]: {
        run: async () => {
          if (++runs < 4) throw new RetryLaterError('someone else is at it', 0);
        },
      },
    };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {}, maxAttempts: 1 }))!;
    const worker = createWorker(t.ctx, { registry });
    await worker.runNext();
    let row = await jobRow(id);
    expect(row).toMatchObject({ status: 'queued', attempts: 0, lockedBy: null, lastError: 'someone else is at it' });
    await worker.drain();
    row = await jobRow(id);
    expect(runs).toBe(4);
    expect(row).toMatchObject({ status: 'done', attempts: 1 });
  });

  it('a job that must wait comes back after the delay it asked for', async () => {
    const kind = type();
    const registry: JobRegistry = { [kind]: { run: async () => { throw new RetryLaterError('not yet', 60_000); } } };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {} }))!;
    const before = Date.now();
    await createWorker(t.ctx, { registry }).runNext();
    const row = await jobRow(id);
    expect(row.runAt.getTime()).toBeGreaterThanOrEqual(before + 60_000);
    expect(row.runAt.getTime()).toBeLessThan(Date.now() + 61_000);
  });

  it('on stop, finishes a job that ends within the grace period', async () => {
    const kind = type();
    const registry: JobRegistry = { [kind]: { run: async () => { await sleep(150); } } };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {} }))!;
    const worker = createWorker(t.ctx, { registry, pollMs: 20, graceMs: 2_000 });
    worker.start();
    while (worker.activeCount() === 0) await sleep(10);
    await worker.stop();
    expect((await jobRow(id)).status).toBe('done');
  });

  it('on stop, releases a job that outlasts the grace period, without counting the attempt', async () => {
    const kind = type();
    let signal: AbortSignal | undefined;
    const registry: JobRegistry = {
      [kind]: { run: async (_ctx, _job, tools) => { signal = tools.signal; await new Promise((r) => tools.signal.addEventListener('abort', r)); } },
    };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {} }))!;
    const worker = createWorker(t.ctx, { registry, pollMs: 20, graceMs: 100 });
    worker.start();
    while (worker.activeCount() === 0) await sleep(10);
    await worker.stop();
    expect(signal?.aborted).toBe(true);
    const row = await jobRow(id);
    expect(row.status).toBe('queued');
    expect(row.attempts).toBe(0);
    expect(row.lockedBy).toBeNull();
    expect(row.leaseUntil).toBeNull();
    const again = createWorker(t.ctx, { registry: { [kind]: { run: async () => {} } } });
    expect(await again.runNext()).toBe(true);
    expect((await jobRow(id)).status).toBe('done');
  });

  it('renews the lease while a long job works', async () => {
    const kind = type();
    let leaseSeen: number[] = [];
    const registry: JobRegistry = {
      [kind]: {
        run: async (_ctx, job) => {
          for (let i = 0; i < 3; i++) {
            await sleep(120);
            leaseSeen.push((await jobRow(job.id)).leaseUntil!.getTime());
          }
        },
      },
    };
    await enqueue(t.ctx.db, { type: kind, payload: {} });
    await createWorker(t.ctx, { registry, leaseMs: 150 }).runNext();
    expect(leaseSeen).toHaveLength(3);
    expect(leaseSeen[2]!).toBeGreaterThan(leaseSeen[0]!);
    leaseSeen = [];
  });
});

describe('operator job commands', () => {
  it('lists failed jobs with their reason and queues one again', async () => {
    const { listJobs, retryJob } = await import('../../api/jobs/admin.ts');
    const kind = type();
    let fail = true;
    const registry: JobRegistry = { [kind]: { run: async () => { if (fail) throw new PermanentJobError('bad address'); } } };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {} }))!;
    await createWorker(t.ctx, { registry }).runNext();
    const failed = await listJobs({ ctx: t.ctx, status: 'failed' });
    expect(failed.find((j) => j.id === id)?.lastError).toBe('bad address');
    await expect(listJobs({ ctx: t.ctx, status: 'stuck' })).rejects.toThrow("Unknown status 'stuck'");
    await expect(retryJob({ ctx: t.ctx, id: 'nope' })).rejects.toThrow('No job nope.');
    await retryJob({ ctx: t.ctx, id });
    fail = false;
    await createWorker(t.ctx, { registry }).runNext();
    expect((await jobRow(id)).status).toBe('done');
    await expect(retryJob({ ctx: t.ctx, id })).rejects.toThrow('only failed jobs can be retried');
  });
});

describe('a stalled worker', () => {
  it('does not claim its own running job again when the lease lapsed', async () => {
    const kind = type();
    let runs = 0;
    let release: () => void = () => {};
    const registry: JobRegistry = { [kind]: { run: async () => { runs++; await new Promise<void>((r) => (release = r)); } } };
    const id = (await enqueue(t.ctx.db, { type: kind, payload: {} }))!;
    const worker = createWorker(t.ctx, { registry, concurrency: 2, leaseMs: 60_000 });
    const first = worker.runNext();
    while (runs === 0) await sleep(10);
    await t.ctx.db.update(jobs).set({ leaseUntil: new Date(Date.now() - 1) }).where(eq(jobs.id, id));
    expect(await worker.runNext()).toBe(false);
    expect(runs).toBe(1);
    release();
    await first;
    expect((await jobRow(id)).status).toBe('done');
  });
});
