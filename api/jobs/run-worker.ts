// Starts the job worker for a process (the web process with WORKER=inline, or `npm run worker`)
// and returns the function that stops it: finish or release the jobs, then close the render
// threads and the mail transport.
import { availableParallelism } from 'node:os';
import type { AppContext } from '../context.ts';
import { closeMailer } from '../email/mailer.ts';
import { threadRenderer } from '../report/render/renderer.ts';
import { productionDeps } from './production.ts';
import { createRegistry } from './registry.ts';
import { createWorker } from './worker.ts';

export function runWorker(ctx: AppContext, options: { inline: boolean }): () => Promise<void> {
  // Render threads: one per concurrent job, leaving a core to the web server when it shares the process.
  const cores = Math.max(1, availableParallelism() - (options.inline ? 1 : 0));
  const renderer = threadRenderer(Math.min(ctx.env.WORKER_CONCURRENCY, cores));
  const worker = createWorker(ctx, { registry: createRegistry({ ...productionDeps, renderer }) });
  worker.start();
  return async () => {
    await worker.stop();
    await renderer.close();
    closeMailer(ctx);
  };
}
