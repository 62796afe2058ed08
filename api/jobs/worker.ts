// The job worker: claims jobs from the `jobs` table with a lease, renews the lease while the
// handler works, retries with back-off, gives up after maxAttempts keeping the reason, and on
// stop finishes or releases what it holds. Several workers (processes) may share one database:
// the claim is one atomic UPDATE … RETURNING, and every later write checks `locked_by`.
//
// Two lanes (decision 0210): jobs that talk to servers customers choose (an agency's mail server,
// a webhook endpoint; JobDefinition.customerServer) run in slots of their own, so however slow
// such a server is, our own jobs (reports, account e-mails) always have `concurrency` slots. Every
// attempt has a deadline: past it the job is aborted, its slot freed, and it goes back in line
// without spending an attempt, up to DEADLINE_LIMIT times.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { and, eq, gte, inArray, lt, lte, notInArray, or, sql } from 'drizzle-orm';
import { jobs } from '../../db/schema/operations.ts';
import type { AppContext } from '../context.ts';
import { errorMessage } from '../log.ts';
import { CustomerServerUnavailableError, PermanentJobError, RetryLaterError } from './errors.ts';
import { CUSTOMER_SERVER_WAIT_PREFIX, MAIL_RETRY_DELAYS_MS, MAIL_WAIT_PREFIX, MailUnavailableError, noteStorageFault, noteStorageOk, STORAGE_PAUSE_MAX_MS, STORAGE_PAUSE_MS, storageFault, warnOncePerMinute, type StorageFault } from './faults.ts';
import type { JobDefinition, JobRegistry, JobRun } from './types.ts';
import { withCallSubject, type CallSubject } from '../lib/provider-calls.ts';

export interface WorkerOptions {
  registry: JobRegistry;
  /** Slots for our own jobs (WORKER_CONCURRENCY). */
  concurrency?: number;
  /** Slots for jobs that talk to servers customers choose, besides `concurrency`
   *  (WORKER_CUSTOMER_CONCURRENCY). */
  customerConcurrency?: number;
  /** An attempt's deadline for job types that name none (JOB_DEADLINE_MS). */
  deadlineMs?: number;
  /** How long a claim lasts without renewal; a dead worker's job is claimed again after it. */
  leaseMs?: number;
  pollMs?: number;
  /** On stop, how long running jobs may take to finish before they are released. */
  graceMs?: number;
  backoffBaseMs?: number;
  backoffMaxMs?: number;
  id?: string;
  /** Asked before each claim: false leaves the job to another worker or a later poll (the
   *  inline worker declines while the web process's event loop lags). */
  canClaim?: () => boolean;
  /** How long a job waits for the mail server (ours or a customer's) each time it is unavailable
   *  (tests shorten it). */
  mailRetryDelaysMs?: readonly number[];
}

export interface Worker {
  id: string;
  start: () => void;
  /** Stops claiming; waits up to graceMs for running jobs, then releases them. */
  stop: () => Promise<void>;
  /** Claims and runs one job to its end; false when nothing was claimable. For tests and the CLI. */
  runNext: () => Promise<boolean>;
  /** Runs jobs until none is claimable now. */
  drain: () => Promise<number>;
  activeCount: () => number;
}

type JobRow = typeof jobs.$inferSelect;
type Lane = 'own' | 'customer';
const SWEEP_EVERY_MS = 5_000;
/** An attempt's deadline unless its job type says otherwise: generous, as a report's analysis of
 *  ten places and their websites takes seconds and its sends a minute at most. */
export const JOB_DEADLINE_MS = 10 * 60_000;
/** Provider calls a job makes are recorded against what it works on: the report request, else the
 *  business, else the job (decision 0270). */
function callSubjectOf(run: Pick<JobRun, 'id' | 'type' | 'payload'>): CallSubject {
  const p = run.payload;
  const id = typeof p.requestId === 'string' ? p.requestId : typeof p.businessId === 'string' ? p.businessId : run.id;
  return { type: run.type, id };
}

/** A job whose attempts overran their deadline this many times fails for good. */
export const DEADLINE_LIMIT = 3;
interface Active {
  job: JobRow;
  lane: Lane;
  controller: AbortController;
  done: Promise<void>;
}

/** Whether a job runs in the customer lane: what its definition says, read from the row. */
function laneOf(definition: JobDefinition | undefined, payload: unknown): Lane {
  const mark = definition?.customerServer;
  if (mark === true) return 'customer';
  if (mark && (payload as Record<string, unknown> | null)?.[mark.payloadField] != null) return 'customer';
  return 'own';
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** What became of a call: its value, or its failure told apart. A storage fault is kept as words
 *  only: its error holds the database statement that failed, which keeps the connection from
 *  committing until the error is collected (db/client.ts), so it must not be held while waiting. */
type Settled<T> = { ok: true; value: T } | { ok: false; fault: StorageFault | null; reason: string; error?: unknown };
async function settled<T>(call: () => Promise<T>): Promise<Settled<T>> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    const fault = storageFault(error);
    return { ok: false, fault, reason: errorMessage(error), ...(fault ? {} : { error }) };
  }
}

export function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  const exp = Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exp * (1 + Math.random() * 0.25));
}

export function createWorker(ctx: AppContext, options: WorkerOptions): Worker {
  const id = options.id ?? `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const concurrency = options.concurrency ?? ctx.env.WORKER_CONCURRENCY;
  const customerConcurrency = options.customerConcurrency ?? ctx.env.WORKER_CUSTOMER_CONCURRENCY;
  const defaultDeadlineMs = options.deadlineMs ?? JOB_DEADLINE_MS;
  const leaseMs = options.leaseMs ?? 30_000;
  const pollMs = options.pollMs ?? 250;
  const graceMs = options.graceMs ?? ctx.env.WORKER_GRACE_MS;
  const backoffBaseMs = options.backoffBaseMs ?? 2_000;
  const backoffMaxMs = options.backoffMaxMs ?? 5 * 60_000;
  const mailRetryDelaysMs = options.mailRetryDelaysMs ?? MAIL_RETRY_DELAYS_MS;
  const types = Object.keys(options.registry);
  const active = new Map<string, Active>();
  const busy = (lane: Lane) => [...active.values()].filter((a) => a.lane === lane).length;
  // The same rule as laneOf, in SQL: which rows the customer lane claims (json_extract is libSQL's
  // on a file and on a server alike; it is NULL when the field is absent or null).
  const customerTypes = types.filter((t) => options.registry[t]!.customerServer === true);
  const byField = types.flatMap((t) => {
    const mark = options.registry[t]!.customerServer;
    return mark && mark !== true ? [{ type: t, path: `$.${mark.payloadField}` }] : [];
  });
  const customerRows = or(
    customerTypes.length > 0 ? inArray(jobs.type, customerTypes) : sql`0`,
    ...byField.map((f) => and(eq(jobs.type, f.type), sql`json_extract(${jobs.payload}, ${f.path}) IS NOT NULL`)),
  )!;
  const inLane = (lane: Lane | 'any') => (lane === 'any' ? undefined : lane === 'customer' ? customerRows : sql`NOT (${customerRows})`);
  let running = false;
  let loopDone: Promise<void> = Promise.resolve();
  let wake: (() => void) | null = null;
  // After a storage fault (disk full, database locked) the worker claims nothing until pausedUntil,
  // the pause doubling while the fault lasts: the jobs are not at fault, so none spends attempts.
  let pauseMs = 0;
  let pausedUntil = 0;
  const pause = () => {
    pauseMs = Math.min(STORAGE_PAUSE_MAX_MS, pauseMs ? pauseMs * 2 : STORAGE_PAUSE_MS);
    pausedUntil = Date.now() + pauseMs;
  };
  const resume = () => {
    if (pauseMs === 0) return;
    pauseMs = 0;
    pausedUntil = 0;
    noteStorageOk(ctx);
  };

  /** A bookkeeping write, retried through storage faults (a busy or full database) until it goes
   *  through or the job is let go of, so the job is not left running until its lease lapses and
   *  then claimed again at the cost of an attempt. */
  async function persistently<T>(write: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    for (let i = 1, wait = 100; ; i++, wait = Math.min(STORAGE_PAUSE_MAX_MS, wait * 2)) {
      const result = await settled(write);
      if (result.ok) return result.value;
      // Once the job is let go of (stopping), a few tries only.
      if (!result.fault || (signal?.aborted && i >= 5)) throw result.error ?? new Error(result.reason);
      noteStorageFault(ctx, result.fault, 'job bookkeeping', result.reason);
      pause();
      await sleep(wait);
    }
  }

  const claimable = (now: Date, lane: Lane | 'any' = 'any') =>
    and(
      inArray(jobs.type, types),
      inLane(lane),
      // Never a job this worker is still running, even if a stall let its lease lapse.
      active.size > 0 ? notInArray(jobs.id, [...active.keys()]) : undefined,
      or(
        and(eq(jobs.status, 'queued'), lte(jobs.runAt, now)),
        and(eq(jobs.status, 'running'), lt(jobs.leaseUntil, now), lt(jobs.attempts, jobs.maxAttempts)),
      ),
    );

  let lastSweep = 0;
  async function sweep(now: Date) {
    // A job whose worker died during its last allowed attempt: give up on it, keeping why, and
    // run its give-up handler as a failed last attempt would have.
    lastSweep = now.getTime();
    const abandoned = await ctx.db
      .update(jobs)
      .set({ status: 'failed', finishedAt: now, leaseUntil: null, lastError: sql`coalesce(${jobs.lastError} || '; ', '') || 'the worker stopped during the last attempt'` })
      .where(and(inArray(jobs.type, types), eq(jobs.status, 'running'), lt(jobs.leaseUntil, now), gte(jobs.attempts, jobs.maxAttempts)))
      .returning();
    for (const job of abandoned) {
      ctx.log.error('job failed for good', { jobId: job.id, type: job.type, attempts: job.attempts, error: job.lastError });
      await giveUp(job, job.lastError ?? 'the worker stopped during the last attempt');
    }
  }

  async function giveUp(job: JobRow, reason: string) {
    const run: JobRun = { id: job.id, type: job.type, payload: job.payload as Record<string, unknown>, attempts: job.attempts, progress: (job.progress as Record<string, unknown> | null) ?? {} };
    await options.registry[job.type]?.onGiveUp?.(ctx, run, reason).catch((e) => ctx.log.error('onGiveUp failed', { jobId: job.id, error: errorMessage(e) }));
  }

  async function claim(lane: Lane | 'any' = 'any'): Promise<JobRow | null> {
    if (Date.now() - lastSweep >= SWEEP_EVERY_MS) await sweep(new Date());
    // After the sweep, so a job its give-up handlers enqueued is claimable now.
    const now = new Date();
    // Look before writing: an idle worker only reads, so it never holds SQLite's write lock.
    const next = ctx.db.select({ id: jobs.id }).from(jobs).where(claimable(now, lane)).orderBy(jobs.runAt).limit(1);
    if ((await next).length === 0) return null;
    const rows = await ctx.db
      .update(jobs)
      .set({ status: 'running', attempts: sql`${jobs.attempts} + 1`, leaseUntil: new Date(now.getTime() + leaseMs), lockedBy: id, updatedAt: now })
      .where(and(inArray(jobs.id, next), claimable(now, lane)))
      .returning();
    return rows[0] ?? null;
  }

  const mine = (jobId: string) => and(eq(jobs.id, jobId), eq(jobs.lockedBy, id), eq(jobs.status, 'running'));

  async function execute(job: JobRow, controller: AbortController): Promise<void> {
    const definition = options.registry[job.type]!;
    let progress = (job.progress as Record<string, unknown> | null) ?? {};
    const renew = setInterval(() => {
      ctx.db
        .update(jobs)
        .set({ leaseUntil: new Date(Date.now() + leaseMs), updatedAt: new Date() })
        .where(mine(job.id))
        .returning({ id: jobs.id })
        .then((rows) => {
          if (rows.length === 0 && !controller.signal.aborted) controller.abort(new Error('lease lost'));
        })
        .catch((error) => {
          const fault = storageFault(error);
          if (fault) noteStorageFault(ctx, fault, 'lease renewal', error);
          else warnOncePerMinute(ctx, `lease:${job.id}`, 'lease renewal failed', { jobId: job.id, error: errorMessage(error) });
        });
    }, Math.max(50, Math.floor(leaseMs / 3)));
    const run: JobRun = { id: job.id, type: job.type, payload: job.payload as Record<string, unknown>, attempts: job.attempts, progress };
    const tools = {
      signal: controller.signal,
      saveProgress: async (patch: Record<string, unknown>) => {
        progress = { ...progress, ...patch };
        run.progress = progress;
        const rows = await ctx.db.update(jobs).set({ progress, updatedAt: new Date() }).where(mine(job.id)).returning({ id: jobs.id });
        if (rows.length === 0) throw new Error('lease lost: the job is no longer held by this worker');
      },
    };
    const started = Date.now();
    const deadlineMs = definition.deadlineMs ?? defaultDeadlineMs;
    let deadline: NodeJS.Timeout | undefined;
    try {
      // The handler is told by its signal; the slot is freed at the deadline whether it listens or not.
      const overdue = new Promise<'overdue'>((resolve) => (deadline = setTimeout(() => resolve('overdue'), deadlineMs)));
      const outcome = await Promise.race([settled(() => withCallSubject(callSubjectOf(run), () => definition.run(ctx, run, tools))), overdue]);
      if (outcome === 'overdue') {
        if (controller.signal.aborted) return;
        controller.abort(new Error(`the job did not finish within ${deadlineMs} ms`));
        await overran(job, progress, deadlineMs);
        return;
      }
      if (controller.signal.aborted) return; // released on shutdown or lease lost: not ours to finish
      if (outcome.ok) {
        await persistently(() => ctx.db.update(jobs).set({ status: 'done', finishedAt: new Date(), leaseUntil: null, lastError: null }).where(mine(job.id)), controller.signal);
        ctx.log.info('job done', { jobId: job.id, type: job.type, attempt: job.attempts, ms: Date.now() - started });
        return;
      }
      const { reason, fault, error } = outcome;
      const mailWaits = Number(progress.mailWaits ?? 0);
      const serverWaits = Number(progress.serverWaits ?? 0);
      if (fault) {
        // Not the job's fault: back in line without spending the attempt, and the whole worker pauses.
        noteStorageFault(ctx, fault, `job ${job.type}`, reason);
        pause();
        const runAt = new Date(pausedUntil);
        await persistently(
          () =>
            ctx.db
              .update(jobs)
              .set({ status: 'queued', runAt, leaseUntil: null, lockedBy: null, lastError: reason, attempts: sql`max(${jobs.attempts} - 1, 0)` })
              .where(mine(job.id)),
          controller.signal,
        );
      } else if (error instanceof MailUnavailableError && mailWaits < mailRetryDelaysMs.length) {
        // The mail server refused or timed out: the job waits for it on its own schedule (about two
        // days), its attempts intact; past the schedule it fails like any other error.
        const runAt = new Date(Date.now() + mailRetryDelaysMs[mailWaits]!);
        progress = { ...progress, mailWaits: mailWaits + 1 };
        await persistently(
          () =>
            ctx.db
              .update(jobs)
              .set({ status: 'queued', runAt, leaseUntil: null, lockedBy: null, progress, lastError: `${MAIL_WAIT_PREFIX} (${mailWaits + 1}/${mailRetryDelaysMs.length}): ${reason}`, attempts: sql`max(${jobs.attempts} - 1, 0)` })
              .where(mine(job.id)),
          controller.signal,
        );
        warnOncePerMinute(ctx, 'mail', 'mail server unavailable: e-mail waits', { jobId: job.id, type: job.type, runAt: runAt.toISOString(), error: reason });
      } else if (error instanceof CustomerServerUnavailableError && serverWaits < mailRetryDelaysMs.length) {
        // A customer's server is away: this job waits for it on the same schedule, and only this
        // job: the worker goes on with everyone else's.
        const runAt = new Date(Date.now() + mailRetryDelaysMs[serverWaits]!);
        progress = { ...progress, serverWaits: serverWaits + 1, serverOwner: error.owner };
        await persistently(
          () =>
            ctx.db
              .update(jobs)
              .set({ status: 'queued', runAt, leaseUntil: null, lockedBy: null, progress, lastError: `${CUSTOMER_SERVER_WAIT_PREFIX} (${serverWaits + 1}/${mailRetryDelaysMs.length}): ${reason}`, attempts: sql`max(${jobs.attempts} - 1, 0)` })
              .where(mine(job.id)),
          controller.signal,
        );
        await definition.onWait?.(ctx, { ...run, progress }, reason).catch((e) => ctx.log.error('onWait failed', { jobId: job.id, error: errorMessage(e) }));
        ctx.log.info("job waits for a customer's server", { jobId: job.id, type: job.type, owner: error.owner, runAt: runAt.toISOString(), error: reason });
      } else if (error instanceof RetryLaterError) {
        const runAt = error.until ?? new Date(Date.now() + error.delayMs);
        await persistently(() =>
          ctx.db
            .update(jobs)
            .set({ status: 'queued', runAt, leaseUntil: null, lockedBy: null, lastError: reason, attempts: sql`max(${jobs.attempts} - 1, 0)` })
            .where(mine(job.id)),
          controller.signal,
        );
        ctx.log.info('job waits', { jobId: job.id, type: job.type, runAt: runAt.toISOString(), reason });
      } else if (error instanceof PermanentJobError || job.attempts >= job.maxAttempts) {
        await persistently(() => ctx.db.update(jobs).set({ status: 'failed', finishedAt: new Date(), leaseUntil: null, lastError: reason }).where(mine(job.id)), controller.signal);
        ctx.log.error('job failed for good', { jobId: job.id, type: job.type, attempts: job.attempts, error: reason });
        await giveUp({ ...job, progress }, reason);
      } else {
        const runAt = new Date(Date.now() + backoffMs(job.attempts, backoffBaseMs, backoffMaxMs));
        await persistently(() => ctx.db.update(jobs).set({ status: 'queued', runAt, leaseUntil: null, lockedBy: null, lastError: reason }).where(mine(job.id)), controller.signal);
        ctx.log.warn('job will retry', { jobId: job.id, type: job.type, attempt: job.attempts, runAt: runAt.toISOString(), error: reason });
      }
    } finally {
      clearTimeout(deadline);
      clearInterval(renew);
    }
  }

  /** An attempt past its deadline: back in line after a back-off without spending the attempt,
   *  like any fault that is not the job's; after DEADLINE_LIMIT overruns it fails for good. */
  async function overran(job: JobRow, progress: Record<string, unknown>, deadlineMs: number) {
    const overruns = Number(progress.overruns ?? 0) + 1;
    const within = deadlineMs % 60_000 === 0 ? `${deadlineMs / 60_000} min` : deadlineMs % 1000 === 0 ? `${deadlineMs / 1000} s` : `${deadlineMs} ms`;
    const reason = `the attempt did not finish within ${within} (${overruns}/${DEADLINE_LIMIT})`;
    const next = { ...progress, overruns };
    if (overruns >= DEADLINE_LIMIT) {
      await persistently(() => ctx.db.update(jobs).set({ status: 'failed', finishedAt: new Date(), leaseUntil: null, progress: next, lastError: reason }).where(mine(job.id)));
      ctx.log.error('job failed for good', { jobId: job.id, type: job.type, attempts: job.attempts, error: reason });
      await giveUp({ ...job, progress: next }, reason);
      return;
    }
    const runAt = new Date(Date.now() + backoffMs(overruns, backoffBaseMs, backoffMaxMs));
    await persistently(() =>
      ctx.db
        .update(jobs)
        .set({ status: 'queued', runAt, leaseUntil: null, lockedBy: null, progress: next, lastError: reason, attempts: sql`max(${jobs.attempts} - 1, 0)` })
        .where(mine(job.id)),
    );
    ctx.log.warn('job overran its deadline', { jobId: job.id, type: job.type, runAt: runAt.toISOString(), deadlineMs });
  }

  function launch(job: JobRow): Active {
    const controller = new AbortController();
    const entry: Active = { job, lane: laneOf(options.registry[job.type], job.payload), controller, done: Promise.resolve() };
    entry.done = execute(job, controller)
      .catch((error) => ctx.log.error('job bookkeeping failed', { jobId: job.id, error: errorMessage(error) }))
      .finally(() => {
        active.delete(job.id);
        wake?.();
      });
    active.set(job.id, entry);
    return entry;
  }

  /** The lane with a free slot ('any' when both have one), or null when both are full. */
  function freeLane(): Lane | 'any' | null {
    const own = busy('own') < concurrency;
    const customer = busy('customer') < customerConcurrency;
    return own && customer ? 'any' : own ? 'own' : customer ? 'customer' : null;
  }

  async function claimWhatFits() {
    for (let lane = freeLane(); running && lane && Date.now() >= pausedUntil && (options.canClaim?.() ?? true); lane = freeLane()) {
      const from = lane;
      const claimed = await settled(() => claim(from));
      if (!claimed.ok) {
        // Retried after a pause that doubles while it lasts, not every poll: a full disk or a
        // locked database is logged once a minute.
        pause();
        if (claimed.fault) noteStorageFault(ctx, claimed.fault, 'claim', claimed.reason);
        else warnOncePerMinute(ctx, 'claim', 'claim failed', { error: claimed.reason });
        return;
      }
      if (!claimed.value) return;
      resume(); // a claim is a write: the storage takes writes again
      launch(claimed.value);
    }
  }

  async function loop() {
    while (running) {
      await claimWhatFits();
      if (!running) break;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, pollMs);
        function done() {
          clearTimeout(timer);
          wake = null;
          resolve();
        }
        wake = done;
      });
    }
  }

  async function runNext(): Promise<boolean> {
    const job = await claim();
    if (!job) return false;
    await launch(job).done;
    return true;
  }

  async function release(entry: Active) {
    entry.controller.abort(new Error('worker stopping'));
    // The interrupted attempt does not count against the job: it did not fail. With the storage
    // refusing writes it cannot be put back: its lease runs out and another worker takes it over.
    const released = await persistently(
      () =>
        ctx.db
          .update(jobs)
          .set({ status: 'queued', runAt: new Date(), leaseUntil: null, lockedBy: null, attempts: sql`max(${jobs.attempts} - 1, 0)` })
          .where(mine(entry.job.id)),
      entry.controller.signal,
    ).then(
      () => true,
      (error) => (ctx.log.error('job release failed', { jobId: entry.job.id, error: errorMessage(error) }), false),
    );
    if (released) ctx.log.info('job released', { jobId: entry.job.id, type: entry.job.type });
  }

  return {
    id,
    start() {
      if (running || types.length === 0) return;
      running = true;
      loopDone = loop();
      ctx.log.info('worker started', { workerId: id, concurrency, customerConcurrency, types });
    },
    async stop() {
      running = false;
      wake?.();
      await loopDone;
      const pending = [...active.values()];
      if (pending.length === 0) return;
      let timer: NodeJS.Timeout | undefined;
      const graceOver = new Promise<'grace'>((resolve) => (timer = setTimeout(() => resolve('grace'), graceMs)));
      await Promise.race([Promise.all(pending.map((p) => p.done)), graceOver]);
      clearTimeout(timer);
      await Promise.all([...active.values()].map(release));
    },
    runNext,
    async drain() {
      let count = 0;
      while (await runNext()) count++;
      return count;
    },
    activeCount: () => active.size,
  };
}
