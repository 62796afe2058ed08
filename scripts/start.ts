// `npm start`: build what is missing, migrate the database, serve the site and /api from one
// process, and run the job worker inside it (WORKER=off to run workers separately).
// `node scripts/start.ts --api-only`: the same process without the site (no build, nothing but
// /api answered; every other path 404), for tests and tools that run web processes before a build.
import { type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { setSharedContext } from '../api/context.ts';
import { createContext } from '../api/create-context.ts';
import { loadEnvOrExit } from '../api/env.ts';
import { runWorker } from '../api/jobs/run-worker.ts';
import { startScheduler } from '../api/jobs/schedule.ts';
import { startReportFilesSweep } from '../api/report/files/sweep.ts';
import { createHttpServer } from '../api/server.ts';
import { buildIfNeeded, SERVER_ENTRY } from './build-if-needed.ts';
import { listen } from './lib/listen.ts';

const root = resolve(import.meta.dirname, '..');

const env = loadEnvOrExit();
const site = !process.argv.includes('--api-only');

if (site) buildIfNeeded(root);
const ctx = await createContext(env, { migrate: true });
setSharedContext(ctx);

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const astro: { handler: (req: IncomingMessage, res: ServerResponse) => void } | null = site ? await import(pathToFileURL(resolve(root, SERVER_ENTRY)).href) : null;
const server = createHttpServer(ctx, { astro: astro?.handler ?? null, distDir: site ? resolve(root, 'dist') : undefined });

let port: number;
try {
  port = await listen(server, env.PORT, env.HOST);
} catch (error) {
  console.error(`LocalRank could not start: ${(error as Error).message}`);
  ctx.db.$client.close();
  process.exit(1);
}

// Jobs only once the process serves: one that cannot listen takes none.
const stoppers: Array<() => Promise<void>> = [];
// Cached report files of reports erased elsewhere go, in every process (decision 0208).
stoppers.push(startReportFilesSweep(ctx));
if (env.WORKER === 'inline') {
  stoppers.push(runWorker(ctx, { inline: true }));
  // Re-analyses and monthly reports for paid plans; keyed per period, so several processes may tick.
  stoppers.push(startScheduler(ctx));
}
// The address the product's own links use (e-mails, reports): one sign-in cookie for both.
const local = ['0.0.0.0', '::', '127.0.0.1', '::1'].includes(env.HOST);
console.log(`LocalRank is serving on ${local && port === env.PORT ? env.PUBLIC_BASE_URL : `http://${local ? 'localhost' : env.HOST}:${port}`}/`);

let stopping = false;
async function shutdown(signal: string) {
  if (stopping) return;
  stopping = true;
  ctx.log.info('shutting down', { signal });
  server.close();
  server.closeAllConnections();
  await Promise.allSettled(stoppers.map((stop) => stop()));
  ctx.db.$client.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
