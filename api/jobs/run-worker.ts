// Starts the job worker for a process (the web process with WORKER=inline, or `npm run worker`)
// and returns the function that stops it: finish or release the jobs, let a report e-mail being
// sent be sent and recorded, then close the render threads and the mail transport.
import { availableParallelism } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { AppContext } from '../context.ts';
import { reportSendsSettled } from '../report/deliver.ts';
import { closeMailer } from '../email/mailer.ts';
import { setRenderLane } from '../report/render/render-lane.ts';
import { threadRenderer } from '../report/render/renderer.ts';
import { productionDeps } from './production.ts';
import { createRegistry } from './registry.ts';
import { createWorker } from './worker.ts';
import { runWaitingForBudgetNow } from './queue.ts';

/** The inline worker's bound: at most this many of our jobs at once in the web process, and as
 *  many of those talking to servers customers choose, in their own lane (decision 0210). */
export const INLINE_CONCURRENCY = 1;
export const INLINE_CUSTOMER_CONCURRENCY = 1;
/** The inline worker claims nothing while the event loop's recent delay (p99) is above this. */
export const INLINE_MAX_LOOP_DELAY_MS = 50;
export const INLINE_MAX_WAIT_MS = 5_000;

export function runWorker(ctx: AppContext, options: { inline: boolean }): () => Promise<void> {
  // In the web process the worker takes one job at a time, and none while requests are waiting
  // on the event loop: a report's analysis (parsing websites, scoring) runs on that loop, and at
  // the start of a burst several jobs at once held answers back for seconds (decision 0093).
  // Rendering runs in threads either way. `npm run worker` runs WORKER_CONCURRENCY jobs. Jobs that
  // talk to customers' servers (mostly waiting on them) have slots of their own besides.
  const concurrency = options.inline ? Math.min(ctx.env.WORKER_CONCURRENCY, INLINE_CONCURRENCY) : ctx.env.WORKER_CONCURRENCY;
  const customerConcurrency = options.inline ? Math.min(ctx.env.WORKER_CUSTOMER_CONCURRENCY, INLINE_CUSTOMER_CONCURRENCY) : ctx.env.WORKER_CUSTOMER_CONCURRENCY;
  const cores = Math.max(1, availableParallelism() - (options.inline ? 1 : 0));
  const renderer = threadRenderer(Math.min(concurrency + customerConcurrency, cores));
  // The web process's branding previews render in these threads too, in their own lane.
  const leaveLane = setRenderLane(renderer);
  const delay = options.inline ? monitorEventLoopDelay({ resolution: 10 }) : undefined;
  delay?.enable();
  let sampledAt = Date.now();
  let allowedAt = Date.now();
  const canClaim = delay
    ? () => {
        const now = Date.now();
        const busy = delay.percentile(99) / 1e6 > INLINE_MAX_LOOP_DELAY_MS;
        // A window of about a second: recent load counts, an old spike does not.
        if (now - sampledAt > 1000) {
          delay.reset();
          sampledAt = now;
        }
        // Under load that never ends, one job still starts every INLINE_MAX_WAIT_MS.
        if (busy && now - allowedAt < INLINE_MAX_WAIT_MS) return false;
        allowedAt = now;
        return true;
      }
    : undefined;
  const worker = createWorker(ctx, { registry: createRegistry({ ...productionDeps, renderer }), concurrency, customerConcurrency, canClaim });
  // Reports waiting for the provider budget try again now: the operator may have raised it.
  runWaitingForBudgetNow(ctx.db)
    .then((n) => n && ctx.log.info('reports waiting for the provider budget are due now', { count: n }))
    .catch((error) => ctx.log.warn('waiting reports not released', { error: error instanceof Error ? error.message : String(error) }));
  worker.start();
  return async () => {
    delay?.disable();
    await worker.stop();
    // A released job may be inside an SMTP conversation: cut now, it would be sent again later.
    await reportSendsSettled(ctx);
    leaveLane();
    await renderer.close();
    closeMailer(ctx);
  };
}
