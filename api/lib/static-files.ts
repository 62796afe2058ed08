// The built site's static files (dist/client): compressed once at build time (brotli at its best
// quality and gzip, next to each file as .br and .gz), then served from memory-mapped knowledge of
// what exists, so a pre-rendered page costs a file read instead of a compression per request
// (decision 0090). Anything not found here goes on to Astro (server-rendered pages).
import { createReadStream, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { WIDGET_BASE_PATH, WIDGET_MAX_AGE } from '../../common/widget.ts';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.xml': 'application/xml; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.webp': 'image/webp',
  '.jpg': 'image/jpeg',
  '.pdf': 'application/pdf',
  '.tgz': 'application/gzip',
};
/** Text formats worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = new Set(['.html', '.js', '.mjs', '.css', '.svg', '.xml', '.txt', '.json', '.webmanifest', '.ico']);
const MIN_BYTES = 1024;

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...walk(path));
    else if (entry.isFile()) out.push(path);
  }
  return out;
}

/** Writes file.br and file.gz beside every compressible file of 1 KB or more, and beside the
 *  widget's files whatever their size (the loader is under 1 KB, and every embedding page's first
 *  request for it crosses a slow network: issue 26). Run after the build. */
export function precompress(clientDir: string): { files: number; bytes: number; brotliBytes: number } {
  let files = 0;
  let bytes = 0;
  let brotliBytes = 0;
  const widgetDir = join(clientDir, WIDGET_BASE_PATH);
  for (const file of walk(clientDir)) {
    if (!COMPRESSIBLE.has(extname(file))) continue;
    const body = readFileSync(file);
    if (body.length < MIN_BYTES && !file.startsWith(widgetDir)) continue;
    const br = brotliCompressSync(body, {
      params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gzipSync(body, { level: 9 }));
    files++;
    bytes += body.length;
    brotliBytes += br.length;
  }
  return { files, bytes, brotliBytes };
}

interface StaticFile {
  path: string;
  type: string;
  size: number;
  etag: string;
  lastModified: string;
  br?: { path: string; size: number };
  gz?: { path: string; size: number };
  cacheControl: string;
}

/**
 * Content-hashed files (Astro's bundles) are cached for a year; the widget's files, at stable
 * addresses a snippet names, for a few minutes, so a release reaches embedding pages soon;
 * everything else revalidates.
 */
export function cacheControlFor(url: string): string {
  if (url.startsWith('/_astro/')) return 'public, max-age=31536000, immutable';
  if (url.startsWith(WIDGET_BASE_PATH)) return `public, max-age=${WIDGET_MAX_AGE}`;
  return 'public, max-age=0';
}

/** Prefers brotli, then gzip, honouring q=0; identity otherwise. */
export function pickEncoding(acceptEncoding: string | undefined): 'br' | 'gzip' | null {
  if (!acceptEncoding) return null;
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name, ...params] = part.trim().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const weight = q ? Number(q.slice(2)) : 1;
    if (name) accepted.set(name.trim(), Number.isFinite(weight) ? weight : 0);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return null;
}

/** A pre-rendered page's path as the build names it: `/faq` for `/faq/`, `/faq?x` and `/faq/index.html`. */
export function pagePath(url: string): string {
  const path = url.split(/[?#]/)[0]!.replace(/\/index\.html$/, '/');
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : '/';
}

/**
 * The Content-Security-Policy Astro wrote for each pre-rendered page (dist/_headers.json, from
 * `security.csp` with the node adapter's `staticHeaders`): the hashes of exactly the inline scripts
 * that page carries (decision 0133).
 */
export function readPagePolicies(distDir: string): Map<string, string> {
  const entries = JSON.parse(readFileSync(join(distDir, '_headers.json'), 'utf8')) as Array<{ pathname: string; headers: Array<{ key: string; value: string }> }>;
  const policies = new Map<string, string>();
  for (const { pathname, headers } of entries) {
    const csp = headers.find((header) => header.key.toLowerCase() === 'content-security-policy');
    if (csp) policies.set(pagePath(pathname), csp.value);
  }
  return policies;
}

/**
 * A request handler for the built static files: true when it answered. Pages are found by their
 * clean path (`/faq` and `/faq/` are faq/index.html), everything else by its file path.
 */
export function staticFiles(clientDir: string, pageHeaders: (url: string) => Array<[string, string]>) {
  const byPath = new Map<string, StaticFile>();
  const all = walk(clientDir);
  const present = new Set(all);
  for (const path of all) {
    const ext = extname(path);
    if (ext === '.br' || ext === '.gz' || !TYPES[ext]) continue;
    const stat = statSync(path);
    const variant = (suffix: string) => (present.has(path + suffix) ? { path: path + suffix, size: statSync(path + suffix).size } : undefined);
    const url = `/${relative(clientDir, path).split(sep).join('/')}`;
    const file: StaticFile = {
      path,
      type: TYPES[ext]!,
      size: stat.size,
      etag: `"${stat.size.toString(36)}-${Math.floor(stat.mtimeMs).toString(36)}"`,
      lastModified: stat.mtime.toUTCString(),
      br: variant('.br'),
      gz: variant('.gz'),
      cacheControl: cacheControlFor(url),
    };
    byPath.set(url, file);
    if (url.endsWith('/index.html')) {
      const dir = url.slice(0, -'index.html'.length);
      byPath.set(dir, file);
      if (dir !== '/') byPath.set(dir.slice(0, -1), file);
    }
  }

  return function serveStatic(req: IncomingMessage, res: ServerResponse): boolean {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = (req.url ?? '/').split(/[?#]/)[0]!;
    const file = byPath.get(path);
    if (!file) return false;
    const encoding = pickEncoding(req.headers['accept-encoding']);
    const variant = encoding === 'br' ? file.br : encoding === 'gzip' ? file.gz : undefined;
    // Every file gets the security headers, not only pages: an image or a script read as another
    // type (no nosniff), or framed, is as much a risk as a page.
    for (const [name, value] of pageHeaders(req.url ?? '/')) res.setHeader(name, value);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Content-Type', file.type);
    res.setHeader('Cache-Control', file.cacheControl);
    // The widget's scripts are loaded by other sites' pages (issue 15).
    if (path.startsWith(WIDGET_BASE_PATH)) res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.setHeader('Last-Modified', file.lastModified);
    if (file.br || file.gz) res.setHeader('Vary', 'Accept-Encoding');
    // One ETag per representation, so a cache never serves a brotli body to a gzip-only client.
    const etag = variant ? `${file.etag.slice(0, -1)}-${encoding}"` : file.etag;
    res.setHeader('ETag', etag);
    if (req.headers['if-none-match'] === etag) {
      res.statusCode = 304;
      res.end();
      return true;
    }
    if (variant) res.setHeader('Content-Encoding', encoding!);
    res.setHeader('Content-Length', String(variant ? variant.size : file.size));
    res.statusCode = 200;
    if (req.method === 'HEAD') {
      res.end();
      return true;
    }
    const stream = createReadStream(variant ? variant.path : file.path);
    stream.on('error', () => res.destroy());
    stream.pipe(res);
    return true;
  };
}
