// The HTTP server, composed once for `npm start`, `npm run dev` and the tests: the method refusal,
// the report-domain host gate (decision 0172), the built static files (decision 0090),
// compression (decision 0033), then the API or Astro's pages. The scripts only start it.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { resolve } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import compression from 'compression';
import { createApp } from './app.ts';
import type { AppContext } from './context.ts';
import { ALLOWED_METHODS, answerClientError, refuseMethod } from './lib/methods.ts';
import { securityHeaders } from './lib/security-headers.ts';
import { pagePath, readPagePolicies, staticFiles } from './lib/static-files.ts';
import { type HostDecision, REPORT_DOMAIN_NOT_FOUND, reportHostGate, withGateLookup } from './services/report-domains/host.ts';

export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

export interface ServerParts {
  /** Astro's handler (the build's server entry); null serves /api only, every other path 404. */
  astro: NodeHandler | null;
  /** The build's output (dist/): its client/ files are served from disk, its _headers.json gives each page's policy. */
  distDir?: string;
}

const API_ONLY: NodeHandler = (_req, res) => void res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' }).end('Not found: this process serves /api only.');

const notFoundThere = (res: ServerResponse, pageHeaders: Array<[string, string]>) =>
  void res.writeHead(404, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store', ...Object.fromEntries(pageHeaders) }).end(REPORT_DOMAIN_NOT_FOUND);

/**
 * Answers what the host gate refuses, and returns true then: a report domain's "not here" names
 * nobody (not our 404 page, whose every line is ours); another host is refused (421).
 */
function refuseHost(host: HostDecision, res: ServerResponse, pageHeaders: Array<[string, string]>): boolean {
  if (host.kind !== 'refused') return false;
  if (host.status === 404) notFoundThere(res, pageHeaders);
  else res.writeHead(host.status, { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store', ...Object.fromEntries(pageHeaders) }).end(host.message);
  return true;
}

/** The gate as the server asks it: a failure to decide refuses, it never lets a host in. */
function gate(ctx: AppContext) {
  const decide = reportHostGate(ctx);
  return (req: IncomingMessage): Promise<HostDecision> =>
    decide(req.headers.host, req.url ?? '/').catch(() => ({ kind: 'refused', status: 421, message: 'This host is not served here.' }) as const);
}

/** The request listener of the production server (and of the tests that serve as it does). */
export function createRequestListener(ctx: AppContext, parts: ServerParts): NodeHandler {
  const api = getRequestListener(createApp(ctx).fetch);
  const astro = parts.astro ?? API_ONLY;
  const pageHeaders = Object.entries(securityHeaders(ctx.env));
  // Each pre-rendered page carries the policy the build wrote for it (its inline scripts' hashes;
  // Stripe's origins on /subscribe). Server-rendered pages get theirs from Astro.
  const policies = parts.distDir ? readPagePolicies(parts.distDir) : new Map<string, string>();
  const staticPageHeaders = (url: string): Array<[string, string]> => {
    const csp = policies.get(pagePath(url));
    return csp ? pageHeaders.map(([name, value]) => [name, name === 'Content-Security-Policy' ? csp : value]) : pageHeaders;
  };
  const serveStatic = parts.distDir ? staticFiles(resolve(parts.distDir, 'client'), staticPageHeaders) : () => false;
  // gzip/deflate/brotli for what is made per request (text types, 1 KB and up), at the node:http
  // level because the Astro handler and the Hono listener each write to `res` directly.
  const compress = compression({ threshold: 1024 }) as unknown as (req: IncomingMessage, res: ServerResponse, next: () => void) => void;
  const hostOf = gate(ctx);

  return async (req, res) => {
    // TRACE, TRACK, CONNECT and the like: the web Request both handlers build refuses them (500).
    if (!ALLOWED_METHODS.has(req.method ?? '')) return refuseMethod(ctx.env, req, res);
    const host = await hostOf(req);
    if (refuseHost(host, res, pageHeaders)) return;
    if (serveStatic(req, res)) return;
    // A bundle the build does not have: not Astro's 404 page on a report domain.
    if (host.kind === 'report-domain' && req.url?.startsWith('/_astro/')) return notFoundThere(res, pageHeaders);
    compress(req, res, () =>
      withGateLookup(host.kind === 'report-domain' ? host.lookup : undefined, () => {
        if (req.url?.startsWith('/api/') || req.url === '/api') return api(req, res);
        for (const [name, value] of pageHeaders) res.setHeader(name, value);
        astro(req, res);
      }),
    );
  };
}

/** The production server: the listener above, with node's own refusals in the API's shape. */
export function createHttpServer(ctx: AppContext, parts: ServerParts): Server {
  const server = createServer(createRequestListener(ctx, parts));
  server.on('clientError', answerClientError);
  return server;
}

const DEV_MODULE_PATH = /^\/(@|node_modules\/|site\/)/;
type Next = (error?: unknown) => void;
type DevServer = { middlewares: { use: (fn: (req: IncomingMessage, res: ServerResponse, next: Next) => void) => void } };

/**
 * The same method refusal and host gate in front of Astro's dev server (a Vite plugin), which
 * serves the files, compresses and routes /api itself (site/pages/api). Vite's own host check
 * would refuse a report domain before the gate sees it, so the dev server allows every host and
 * the gate decides, as in production.
 */
export function devServerPlugin(ctx: AppContext) {
  const hostOf = gate(ctx);
  const pageHeaders = Object.entries(securityHeaders(ctx.env));
  return {
    name: 'localrank-server',
    config: () => ({ server: { allowedHosts: true as const } }),
    configureServer(server: DevServer) {
      server.middlewares.use((req, res, next) => {
        if (!ALLOWED_METHODS.has(req.method ?? '')) return refuseMethod(ctx.env, req, res);
        hostOf(req).then(
          (host) => {
            // Vite's module paths (the page's scripts and styles in development) pass on a report domain.
            if (host.kind === 'refused' && host.status === 404 && DEV_MODULE_PATH.test(req.url ?? '')) return next();
            if (refuseHost(host, res, pageHeaders)) return;
            withGateLookup(host.kind === 'report-domain' ? host.lookup : undefined, () => next());
          },
          (error: unknown) => next(error),
        );
      });
    },
  };
}
