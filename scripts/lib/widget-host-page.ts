// A plain HTML page on another origin that embeds the widget, as an agency's site would: served
// with a strict CSP that names only the product's origin for scripts and connections, and (when
// asked) hostile CSS that would break a widget not isolated from the page. Used by
// `npm run bench:widget` and the widget's browser tests.
import { createServer, type Server } from 'node:http';
import { WIDGET_QUEUE_STUB } from '../../common/widget.ts';

/** Styles an unfriendly host page might have: they must not reach into the widget. */
export const HOSTILE_CSS = `* { all: unset; }
input { display: none !important; }
form { border: 8px dashed red; font-family: "Comic Sans MS", cursive; color: hotpink; }
button { background: yellow; }
body { display: block; padding: 16px; }`;

export interface HostPage {
  url: string;
  origin: string;
  close(): Promise<void>;
}

/** The nonce the Trusted Types page's policy admits (`<script nonce=…>` on the snippet). */
export const HOST_NONCE = 'northstar-nonce-2026';

/**
 * A stricter policy, as sites hardened against DOM XSS have: Trusted Types required for every
 * script sink (no default policy: the widget must bring its own) and scripts trusted by nonce,
 * then by whoever loads them ('strict-dynamic', which ignores the origin list).
 */
export const trustedTypesPolicy = (product: string) =>
  [
    "default-src 'none'",
    `script-src 'nonce-${HOST_NONCE}' 'strict-dynamic'`,
    `connect-src ${product}`,
    "style-src 'self'",
    "require-trusted-types-for 'script'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

/**
 * Pages by path answer `pages[path]`'s HTML body (read per request: a caller may add pages);
 * `scripts[path]` are the page's own scripts, `styles[path]` its own stylesheets and
 * `policies[path]` a page's Content-Security-Policy instead of the default strict one.
 * `/host.css` is the hostile stylesheet and `/queue-stub.js` the queue API's stub.
 */
export function startHostPage({
  port,
  host = '127.0.0.1',
  product,
  pages,
  scripts = {},
  styles = {},
  policies = {},
}: {
  port: number;
  host?: string;
  product: string;
  pages: Record<string, string>;
  scripts?: Record<string, string>;
  styles?: Record<string, string>;
  policies?: Record<string, string>;
}): Promise<HostPage> {
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${product}`,
    `connect-src ${product}`,
    "style-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    if (path === '/host.css') return void res.writeHead(200, { 'Content-Type': 'text/css' }).end(HOSTILE_CSS);
    if (styles[path] !== undefined) return void res.writeHead(200, { 'Content-Type': 'text/css' }).end(styles[path]);
    if (path === '/queue-stub.js') return void res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(WIDGET_QUEUE_STUB);
    if (scripts[path] !== undefined) return void res.writeHead(200, { 'Content-Type': 'text/javascript' }).end(scripts[path]);
    const body = pages[path];
    if (body === undefined) return void res.writeHead(404).end();
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Security-Policy': policies[path] ?? csp, 'Cache-Control': 'no-store' });
    res.end(`<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Northstar Marketing: free report</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="stylesheet" href="/host.css"></head>
<body><main><h1>Northstar Marketing</h1>${body}</main></body></html>`);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    // Every interface: the page is also opened as localhost (a hostname the key does not list).
    server.listen(port, '0.0.0.0', () => {
      const origin = `http://${host}:${(server.address() as { port: number }).port}`;
      // closeAllConnections: a browser's kept-alive connections must not hold the close open.
      resolve({ url: `${origin}/`, origin, close: () => new Promise((done) => (server.close(() => done()), server.closeAllConnections())) });
    });
  });
}

/**
 * How many requests to the product happened one after another (each waiting for an earlier one
 * to end) among `entries` (the page's resource timings): 1 + the longest chain where a request
 * starts only after the one before it in the chain has ended.
 */
export function roundTrips(entries: ReadonlyArray<{ startTime: number; responseEnd: number }>): number {
  const sorted = [...entries].sort((a, b) => a.startTime - b.startTime);
  const depth: number[] = [];
  sorted.forEach((entry, i) => {
    depth[i] = 1 + Math.max(0, ...sorted.slice(0, i).map((before, j) => (before.responseEnd <= entry.startTime ? depth[j]! : 0)));
  });
  return Math.max(0, ...depth);
}
