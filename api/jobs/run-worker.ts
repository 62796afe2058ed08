// Starts the job worker for a process (the web process with WORKER=inline, or `npm run worker`)
// and returns the function that stops it: finish or release the jobs, then close the render
// threads and the mail transport.
import type { AppContext } from '../context.ts';
import { closeMailer } from '../email/mailer.ts';
import { threadRenderer } from '../report/render/renderer.ts';
import { productionDeps } from './production.ts';
import { createRegistry } from './registry.ts';
import { createWorker } from './worker.ts';

export function runWorker(ctx: AppContext): () => Promise<void> {
  const renderer = threadRenderer(1);
  const worker = createWorker(ctx, { registry: createRegistry({ ...productionDeps, renderer }) });
  worker.start();
  return async () => {
    await worker.stop();
    await renderer.close();
    closeMailer(ctx);
  };
}
