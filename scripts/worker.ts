// `npm run worker`: a job worker process on its own. Run as many as the volume needs, against
// one database; start the web processes with WORKER=off then.
import { createContext } from '../api/create-context.ts';
import { loadEnvOrExit } from '../api/env.ts';
import { runWorker } from '../api/jobs/run-worker.ts';
import { startScheduler } from '../api/jobs/schedule.ts';
import { startReportFilesSweep } from '../api/report/files/sweep.ts';

const env = loadEnvOrExit();

const ctx = await createContext(env, { migrate: true });
const stopWorker = runWorker(ctx, { inline: false });
// Re-analyses and monthly reports for paid plans; keyed per period, so several workers may tick.
const stopScheduler = startScheduler(ctx);
// Cached report files of reports erased elsewhere go, in every process (decision 0208).
const stopSweep = startReportFilesSweep(ctx);
const stop = async () => {
  await stopScheduler();
  await stopSweep();
  await stopWorker();
};
console.log(`LocalRank worker running (concurrency ${env.WORKER_CONCURRENCY}); Ctrl+C stops it after the running jobs finish or are released.`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  ctx.log.info('worker shutting down', { signal });
  await stop();
  ctx.db.$client.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
