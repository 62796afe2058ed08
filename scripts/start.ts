// `npm start`: build what is missing, migrate the database, serve the site and /api from one
// process, and run the job worker inside it (WORKER=off to run workers separately).
// `node scripts/start.ts --api-only`: the same process without the site (no build, nothing but
// /api answered; every other path 404), for tests and tools that run web processes before a build.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { getRequestListener } from '@hono/node-server';
import compression from 'compression';
import { createApp } from '../api/app.ts';
import { setSharedContext } from '../api/context.ts';
import { createContext } from '../api/create-context.ts';
import { loadEnvOrExit } from '../api/env.ts';
import { runWorker } from '../api/jobs/run-worker.ts';
import { startScheduler } from '../api/jobs/schedule.ts';
import { startReportFilesSweep } from '../api/report/files-sweep.ts';
import { REPORT_DOMAIN_NOT_FOUND, reportHostGate } from '../api/services/report-host.ts';
import { securityHeaders } from '../api/lib/security-headers.ts';
import { buildIfNeeded, SERVER_ENTRY } from './build-if-needed.ts';
import { ALLOWED_METHODS, answerClientError, refuseMethod } from './lib/methods.ts';
import { listen } from './lib/listen.ts';
import { pagePath, readPagePolicies, staticFiles } from './lib/static-files.ts';

const root = resolve(import.meta.dirname, '..');

const env = loadEnvOrExit();
const site = !process.argv.includes('--api-only');

if (site) buildIfNeeded(root);
const ctx = await createContext(env, { migrate: true });
setSharedContext(ctx);

process.env.ASTRO_NODE_AUTOSTART = 'disabled';
const astro: { handler: (req: IncomingMessage, res: ServerResponse) => void } = site
  ? await import(pathToFileURL(resolve(root, SERVER_ENTRY)).href)
  : { handler: (_req, res) => void res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: this process serves /api only.') };
const api = getRequestListener(createApp(ctx).fetch);
const pageHeaders = Object.entries(securityHeaders(env));

// Pre-rendered pages and bundles: compressed at build time, read from disk (decision 0090). Each
// page carries the policy the build wrote for it (its inline scripts' hashes; Stripe's origins on
// /subscribe). Server-rendered pages get theirs from Astro, which replaces the fallback set below.
const policies = site ? readPagePolicies(resolve(root, 'dist')) : new Map<string, string>();
const staticPageHeaders = (url: string): Array<[string, string]> => {
  const csp = policies.get(pagePath(url));
  return csp ? pageHeaders.map(([name, value]) => [name, name === 'Content-Security-Policy' ? csp : value]) : pageHeaders;
};
const serveStatic = site ? staticFiles(resolve(root, 'dist/client'), staticPageHeaders) : () => false;
// gzip/deflate/brotli for what is made per request (server-rendered pages, API answers; text
// types only, 1 KB and up), at the node:http level because the Astro handler and the Hono
// listener each write to `res` directly.
const compress = compression({ threshold: 1024 }) as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

// Agencies' report domains serve their reports only; other hosts nothing (decision 0172).
const hostGate = reportHostGate(ctx);

const server = createServer(async (req, res) => {
  // TRACE, TRACK, CONNECT and the like: the web Request both handlers build refuses them (500).
  if (!ALLOWED_METHODS.has(req.method ?? '')) return refuseMethod(env, req, res);
  const host = await hostGate(req.headers.host, req.url ?? '/').catch(() => ({ kind: 'refused', status: 421, message: 'This host is not served here.' }) as const);
  // A report domain's "not here" names nobody: not our 404 page, whose every line is ours.
  const notFoundThere = () => {
    res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...Object.fromEntries(pageHeaders) });
    res.end(REPORT_DOMAIN_NOT_FOUND);
  };
  if (host.kind === 'refused') {
    if (host.status === 404) return notFoundThere();
    res.writeHead(host.status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...Object.fromEntries(pageHeaders) });
    return res.end(host.message);
  }
  if (serveStatic(req, res)) return;
  if (host.kind === 'report-domain' && req.url?.startsWith('/_astro/')) return notFoundThere();
  compress(req, res, () => {
    if (req.url?.startsWith('/api/') || req.url === '/api') return api(req, res);
    for (const [name, value] of pageHeaders) res.setHeader(name, value);
    astro.handler(req, res);
  });
});

server.on('clientError', answerClientError);

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
