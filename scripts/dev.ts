// `npm run dev`: Astro's dev server with hot reload; /api goes through site/pages/api. Like
// `npm start`, it checks the settings first (a bad one stops it, named), migrates the database and
// runs the job worker and the scheduler in the process unless WORKER=off, so a request made in
// development gets its report e-mail. The worker's code is loaded once: restart after changing it.
// The host gate and the method refusal are api/server.ts's, as in production.
import { resolve } from 'node:path';
import { dev } from 'astro';
import { setSharedContext } from '../api/context.ts';
import { createContext } from '../api/create-context.ts';
import { loadEnvOrExit } from '../api/env.ts';
import { runWorker } from '../api/jobs/run-worker.ts';
import { startScheduler } from '../api/jobs/schedule.ts';
import { startReportFilesSweep } from '../api/report/files/sweep.ts';
import { devServerPlugin } from '../api/server.ts';

const root = resolve(import.meta.dirname, '..');
process.env.NODE_ENV ??= 'development';
// The development mailbox shows the e-mail the app wrote to the outbox (loopback only).
process.env.DEV_MAILBOX ??= 'true';
const env = loadEnvOrExit();

// One context for the worker and the pages (sharedContext lives on globalThis, so the dev server's
// modules find it too).
const ctx = await createContext(env, { migrate: true });
setSharedContext(ctx);
const stoppers: Array<() => Promise<void>> = [startReportFilesSweep(ctx)];
if (env.WORKER === 'inline') {
  stoppers.push(runWorker(ctx, { inline: true }));
  stoppers.push(startScheduler(ctx));
}

const server = await dev({ root, vite: { plugins: [devServerPlugin(ctx)] } });

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  ctx.log.info('shutting down', { signal });
  await Promise.allSettled([server.stop(), ...stoppers.map((stop) => stop())]);
  ctx.db.$client.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
