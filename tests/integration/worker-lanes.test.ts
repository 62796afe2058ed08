// The worker's lanes and deadlines (decision 0210): jobs that talk to servers customers choose run
// in slots of their own, so however many of them hang, our own jobs still run; and an attempt that
// overruns its deadline is aborted, its slot freed, and the job put back without spending the
// attempt, until it has overrun DEADLINE_LIMIT times.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { retryJob } from '../../api/jobs/admin.ts';
import { enqueue } from '../../api/jobs/queue.ts';
import type { JobRegistry } from '../../api/jobs/types.ts';
import { createWorker, DEADLINE_LIMIT } from '../../api/jobs/worker.ts';
import { jobs } from '../../db/schema/operations.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { until } from '../helpers/crash-suite.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const jobRow = async (id: string) => (await t.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
let n = 0;
const type = (name: string) => `test.${name}-${++n}`;
/** A handler that never ends by itself; it ends (rejects) when the worker lets go of it. */
const hang = (started: string[], name: string) => (_ctx: unknown, _job: unknown, tools: { signal: AbortSignal }) =>
  new Promise<void>((_, reject) => {
    started.push(name);
    tools.signal.addEventListener('abort', () => reject(tools.signal.reason as Error));
  });

describe('lanes', () => {
  it("runs our own jobs while customers' servers hold every slot of their lane", async () => {
    const started: string[] = [];
    const slow = type('customer');
    const lead = type('report-for-a-lead');
    const own = type('own');
    let ownRuns = 0;
    const registry: JobRegistry = {
      [slow]: { run: hang(started, 'customer'), customerServer: true },
      // In the customer lane only when its payload names a consultant (a report for an agency's lead).
      [lead]: { run: async (_ctx, job) => void started.push(`lead:${String(job.payload.consultantId ?? 'none')}`), customerServer: { payloadField: 'consultantId' } },
      [own]: { run: async () => void ownRuns++ },
    };
    const customerJobs = [await enqueue(t.ctx.db, { type: slow, payload: {} }), await enqueue(t.ctx.db, { type: slow, payload: {} })];
    const agencyLead = (await enqueue(t.ctx.db, { type: lead, payload: { consultantId: 'c-1' } }))!;
    const worker = createWorker(t.ctx, { registry, concurrency: 1, customerConcurrency: 1, pollMs: 20, graceMs: 100 });
    worker.start();
    try {
      await until('a customer job holds the customer lane', () => started.includes('customer'));
      const visitor = (await enqueue(t.ctx.db, { type: lead, payload: {} }))!;
      const mine = (await enqueue(t.ctx.db, { type: own, payload: {} }))!;
      await until('our own jobs done', async () => (await jobRow(mine)).status === 'done' && (await jobRow(visitor)).status === 'done', 30_000);
      expect(ownRuns).toBe(1);
      expect(started).toContain('lead:none');
      // The customer lane has one slot: the other customer job and the agency's lead wait behind it.
      expect(started.filter((s) => s === 'customer')).toHaveLength(1);
      expect(started).not.toContain('lead:c-1');
      expect((await jobRow(agencyLead)).status).toBe('queued');
      expect((await Promise.all(customerJobs.map((id) => jobRow(id!)))).map((j) => j.status).sort()).toEqual(['queued', 'running']);
    } finally {
      await worker.stop();
    }
  });
});

describe('deadlines', () => {
  it('aborts an attempt past its deadline, frees its slot, puts the job back without spending the attempt, and fails it after DEADLINE_LIMIT overruns', async () => {
    const started: string[] = [];
    const stuck = type('stuck');
    const next = type('next');
    let nextRuns = 0;
    const reasons: string[] = [];
    const registry: JobRegistry = {
      [stuck]: { run: hang(started, 'stuck'), deadlineMs: 300, onGiveUp: async (_ctx, _job, reason) => void reasons.push(reason) },
      [next]: { run: async () => void nextRuns++ },
    };
    const id = (await enqueue(t.ctx.db, { type: stuck, payload: {} }))!;
    const worker = createWorker(t.ctx, { registry, concurrency: 1, customerConcurrency: 1, pollMs: 20, backoffBaseMs: 50 });
    worker.start();
    try {
      await until('the stuck job started', () => started.length === 1);
      const after = (await enqueue(t.ctx.db, { type: next, payload: {} }))!;
      await until('the job behind it ran', async () => (await jobRow(after)).status === 'done', 30_000);
      expect(nextRuns).toBe(1);
      await until('the stuck job back in line once', async () => ((await jobRow(id)).progress as { overruns?: number } | null)?.overruns !== undefined, 30_000);
      const row = await jobRow(id);
      expect(row.lastError).toMatch(new RegExp(`^the attempt did not finish within 300 ms \\([12]/${DEADLINE_LIMIT}\\)$`));
      expect(row.attempts).toBeLessThanOrEqual(1);
      await until('the job failed for good', async () => (await jobRow(id)).status === 'failed', 30_000);
      const failed = await jobRow(id);
      expect(started).toHaveLength(DEADLINE_LIMIT);
      expect(failed.attempts).toBe(1);
      expect(failed.lastError).toMatch(new RegExp(`did not finish within 300 ms \\(${DEADLINE_LIMIT}/${DEADLINE_LIMIT}\\)`));
      expect(reasons).toEqual([failed.lastError]);
    } finally {
      await worker.stop();
    }
    // Brought back by the operator, it has its overruns again (the rest of its progress kept).
    await retryJob({ ctx: t.ctx, id });
    const retried = await jobRow(id);
    expect(retried.status).toBe('queued');
    expect((retried.progress as Record<string, unknown>).overruns).toBeUndefined();
  });
});
