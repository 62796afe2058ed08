// The one way the product fetches a URL it did not choose (a business's website, a competitor's
// website). Rules (ARCHITECTURE.md "Data sources"): http/https only; ports 80/443 unless allowed;
// the address actually connected to must be public unicast (no loopback, private, link-local,
// metadata, CGNAT, multicast, ULA, IPv4-mapped/translated IPv6...), checked at DNS lookup time,
// again on the connected socket, and again for every redirect (at most 5); a time limit for the
// whole exchange and a body size limit.
//
// Two explicit exceptions, both opt-in by the caller, never by a URL:
// - `inProcess`: URLs under the product's own sample-site prefix are answered by a handler in
//   this process (the sample provider's websites; decision 0041). No socket is opened.
// - `allowLoopback`: tests that serve fixture sites on 127.0.0.1 turn it on; production never does.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, Socket } from 'node:net';
import { checkServerIdentity, type PeerCertificate, type TLSSocket } from 'node:tls';
import zlib, { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import ipaddr from 'ipaddr.js';

export const SAFE_FETCH_DEFAULTS = { timeoutMs: 8000, maxBytes: 2 * 1024 * 1024, maxRedirects: 5, ports: [80, 443] } as const;

export type SafeFetchRefusal = 'scheme' | 'port' | 'address' | 'dns' | 'redirects' | 'too_large' | 'timeout' | 'network' | 'credentials' | 'certificate';

export class SafeFetchError extends Error {
  readonly reason: SafeFetchRefusal;
  constructor(reason: SafeFetchRefusal, message: string) {
    super(message);
    this.name = 'SafeFetchError';
    this.reason = reason;
  }
}

export interface InProcessSite {
  /** Origin + path prefix answered in-process, e.g. `http://localhost:4321/api/sample-sites/`. */
  prefix: string;
  handle: (url: URL) => Promise<Response> | Response;
}

export interface SafeFetchOptions {
  timeoutMs?: number;
  maxBytes?: number;
  maxRedirects?: number;
  /** Extra ports besides 80 and 443 (SAFE_FETCH_PORTS). */
  extraPorts?: number[];
  /** Tests only: let 127.0.0.1/::1 through (fixture servers). */
  allowLoopback?: boolean;
  inProcess?: InProcessSite;
  headers?: Record<string, string>;
  /** POST sends `body` (outgoing webhooks); give it maxRedirects 0, as a redirect would turn it into a GET. */
  method?: 'GET' | 'HEAD' | 'POST';
  body?: string;
  /** DNS resolver (tests inject one that answers with a private address); defaults to dns.lookup. */
  resolver?: typeof dnsLookup;
  /** Keep what was read instead of failing (a website read as a visitor meets it): a body past
   *  `maxBytes` is cut there (`truncated: 'size'`, the rest counted, not kept, up to
   *  `countBytes`, while the time lasts), and a body still arriving at the time limit is what
   *  arrived (`truncated: 'time'`). Without it either one is a SafeFetchError. */
  partial?: boolean;
  /** With `partial`: how many bytes past `maxBytes` are counted for the body's size (default 10 × maxBytes). */
  countBytes?: number;
  /** 'report': an HTTPS certificate a browser would warn about (expired, self-signed, made for
   *  another name) does not stop the read; the answer says what was wrong (`certificate`), as a
   *  visitor clicking past the warning would see the page. Default 'reject': it is a
   *  SafeFetchError ('certificate'). Nothing is ever sent to such a server but the GET. */
  certificates?: 'reject' | 'report';
}

/** Why a browser would warn about a server's certificate (decision 0230). */
export interface CertificateProblem {
  problem: 'expired' | 'name' | 'self_signed' | 'untrusted';
  /** The TLS verification code ("CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT"...). */
  code: string;
  /** When it expired (ISO 8601), for an expired one. */
  expiredAt: string | null;
  /** The names it is made for, for one made for another name ("shop.example.net"). */
  names: string | null;
}

export interface SafeResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  text: () => string;
  /** Time to the full body, ms. */
  elapsedMs: number;
  redirects: string[];
  /** The address connected to ('in-process' for the product's sample sites). */
  address: string;
  /** With `partial`: why the body is only the first part of what the server sent, or null. */
  truncated: 'size' | 'time' | null;
  /** The body's full size in bytes: the declared Content-Length, else the bytes received (kept
   *  or only counted); `sizeExact` is false when reading stopped before the end without a
   *  declared length (then it is a lower bound). */
  size: number;
  sizeExact: boolean;
  /** With `certificates: 'report'`: what a browser would warn about on the way (the first
   *  address whose certificate failed), or null. */
  certificate: CertificateProblem | null;
}

const IPV4_COMPATIBLE = ipaddr.parseCIDR('::/96') as [ipaddr.IPv6, number];
const NAT64 = ipaddr.parseCIDR('64:ff9b::/96') as [ipaddr.IPv6, number];

/** Why an address is refused, or null when it is public unicast. */
export function addressRefusal(address: string, allowLoopback = false): string | null {
  let parsed: ipaddr.IPv4 | ipaddr.IPv6;
  try {
    parsed = ipaddr.parse(address.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  } catch {
    return `not an IP address: ${address}`;
  }
  if (parsed.kind() === 'ipv6') {
    const v6 = parsed as ipaddr.IPv6;
    // The deprecated IPv4-compatible block ::/96 (`::a9fe:a9fe` is 169.254.169.254 to some
    // stacks; ipaddr.js calls it unicast): never a public web server, refused whole.
    // ::1 and :: are in it too, but are named for what they are (loopback, unspecified).
    if (v6.match(IPV4_COMPATIBLE) && v6.range() === 'unicast') return `${v6.toString()} is in the deprecated IPv4-compatible block ::/96`;
    // NAT64 (64:ff9b::/96) reaches the IPv4 address in its last 32 bits: as safe as that address.
    if (v6.match(NAT64)) {
      const bytes = v6.toByteArray().slice(12);
      const inner = addressRefusal(bytes.join('.'));
      return inner ? `${v6.toString()} is NAT64 to ${inner}` : null;
    }
  }
  const range = parsed.range();
  if (allowLoopback && range === 'loopback') return null;
  if (range === 'unicast') return null;
  return `${parsed.toString()} is ${range}`;
}

/**
 * What the fetcher refuses about an address before any lookup (scheme, credentials, port, a
 * private or loopback IP, localhost), or null. Checked again at every request and redirect; an
 * outgoing webhook's address is checked with it when it is added, so the refusal comes at once.
 */
export function urlRefusal(url: URL, options: Pick<SafeFetchOptions, 'extraPorts' | 'allowLoopback'> = {}): SafeFetchError | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return new SafeFetchError('scheme', `refused scheme ${url.protocol}`);
  if (url.username || url.password) return new SafeFetchError('credentials', 'refused URL with credentials');
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const allowed = [...SAFE_FETCH_DEFAULTS.ports, ...(options.extraPorts ?? [])];
  if (!allowed.includes(port)) return new SafeFetchError('port', `refused port ${port}`);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const why = ipaddr.isValid(host) ? addressRefusal(host, options.allowLoopback ?? false) : null;
  if (why) return new SafeFetchError('address', `refused address (${why})`);
  if (/(^|\.)localhost\.?$/i.test(host) && !options.allowLoopback) return new SafeFetchError('address', 'refused host localhost');
  // `.internal` is reserved for private networks (ICANN, 2024): the clouds' metadata services
  // (metadata.google.internal) and internal hosts, whatever a resolver answers for them here.
  if (/\.internal\.?$/i.test(host)) return new SafeFetchError('address', `refused (${host.toLowerCase()} is a private-use name)`);
  return null;
}

const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'ENODATA', 'EAI_NONAME', 'ESERVFAIL', 'ETIMEOUT']);

/**
 * What the fetcher would refuse about the addresses `hostname` resolves to, or null: the same
 * lookup guard a request uses, asked ahead (an outgoing webhook's name, when it is added).
 */
export function lookupRefusal(hostname: string, options: Pick<SafeFetchOptions, 'allowLoopback' | 'resolver'> = {}): Promise<SafeFetchError | null> {
  if (ipaddr.isValid(hostname.replace(/^\[|\]$/g, ''))) return Promise.resolve(null);
  return new Promise((resolve) => {
    guardedLookup(options.allowLoopback ?? false, options.resolver)(hostname, { all: true }, (error) => {
      if (!error) return resolve(null);
      if (error instanceof SafeFetchError) return resolve(error);
      const code = (error as NodeJS.ErrnoException).code ?? '';
      resolve(new SafeFetchError('dns', NOT_FOUND_CODES.has(code) ? `host not found: ${hostname}` : `${code || error.message}`));
    });
  });
}

function checkUrl(url: URL, options: SafeFetchOptions): void {
  const refusal = urlRefusal(url, options);
  if (refusal) throw refusal;
}

/** A DNS lookup that refuses any non-public answer before a connection is attempted. */
function guardedLookup(allowLoopback: boolean, resolver: typeof dnsLookup = dnsLookup): LookupFunction {
  return (hostname, opts, callback) => {
    resolver(hostname, { ...opts, all: true }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      const list = addresses as LookupAddress[];
      for (const a of list) {
        const why = addressRefusal(a.address, allowLoopback);
        if (why) return callback(new SafeFetchError('address', `refused ${hostname}: ${why}`), '', 0);
      }
      if (list.length === 0) return callback(new SafeFetchError('dns', `no address for ${hostname}`), '', 0);
      if ((opts as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, list);
      callback(null, list[0]!.address, list[0]!.family);
    });
  };
}

interface OneResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  address: string;
  truncated: 'size' | 'time' | null;
  size: number;
  sizeExact: boolean;
  certificate: CertificateProblem | null;
}

const SELF_SIGNED = new Set(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN']);
const CERTIFICATE_CODES = /CERT|ERR_TLS_CERT_ALTNAME_INVALID|UNABLE_TO_VERIFY_LEAF_SIGNATURE|UNABLE_TO_GET_ISSUER/;

/** What is wrong with a certificate, the way a browser names it: expired first (whoever made it),
 *  then made for another name, then self-signed, else not trusted. */
export function certificateProblem(code: string, cert: PeerCertificate | null, host: string, now = Date.now()): CertificateProblem {
  const validTo = cert?.valid_to ? new Date(cert.valid_to) : null;
  const expired = code === 'CERT_HAS_EXPIRED' || (validTo !== null && Number.isFinite(validTo.getTime()) && validTo.getTime() < now);
  if (expired) return { problem: 'expired', code, expiredAt: validTo && Number.isFinite(validTo.getTime()) ? validTo.toISOString() : null, names: null };
  const wrongName = code === 'ERR_TLS_CERT_ALTNAME_INVALID' || (cert?.subject !== undefined && checkServerIdentity(host.replace(/^\[|\]$/g, ''), cert) !== undefined);
  if (wrongName) return { problem: 'name', code, expiredAt: null, names: cert?.subjectaltname?.replace(/(DNS|IP Address):/g, '') ?? cert?.subject?.CN?.toString() ?? null };
  return { problem: SELF_SIGNED.has(code) ? 'self_signed' : 'untrusted', code, expiredAt: null, names: null };
}

function flatHeaders(raw: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

async function readLimited(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<Buffer> {
  if (!body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new SafeFetchError('too_large', `body larger than ${maxBytes} bytes`);
    }
    chunks.push(Buffer.from(value));
  }
  return Buffer.concat(chunks);
}

function requestOnce(url: URL, options: SafeFetchOptions, signal: AbortSignal, maxBytes: number): Promise<OneResponse> {
  const allowLoopback = options.allowLoopback ?? false;
  const lib = url.protocol === 'https:' ? https : http;
  const report = url.protocol === 'https:' && options.certificates === 'report';
  return new Promise<OneResponse>((resolve, reject) => {
    const req = lib.request(
      url,
      {
        ...(report ? { rejectUnauthorized: false } : {}),
        method: options.method ?? 'GET',
        lookup: guardedLookup(allowLoopback, options.resolver),
        signal,
        agent: false,
        headers: {
          'user-agent': 'LocalRankBot/1.0 (+https://localrank.app/methodology)',
          accept: 'text/html,application/xhtml+xml,text/plain,application/xml;q=0.9,*/*;q=0.5',
          'accept-encoding': 'identity',
          ...options.headers,
        },
      },
      (res) => {
        const address = res.socket?.remoteAddress ?? '';
        const tlsSocket = report ? (res.socket as TLSSocket) : null;
        const certificate = tlsSocket && !tlsSocket.authorized ? certificateProblem(String(tlsSocket.authorizationError ?? 'UNTRUSTED'), tlsSocket.getPeerCertificate() ?? null, url.hostname) : null;
        const chunks: Buffer[] = [];
        let size = 0;
        let kept = 0;
        const declared = Number(res.headers['content-length'] ?? 0);
        const partial = options.partial ?? false;
        const countLimit = maxBytes + (options.countBytes ?? 10 * maxBytes);
        const done = (truncated: 'size' | 'time' | null, sizeExact: boolean) => {
          signal.removeEventListener('abort', onAbort);
          resolve({ status: res.statusCode ?? 0, headers: flatHeaders(res.headers), body: Buffer.concat(chunks), address, truncated, size: declared > size ? declared : size, sizeExact: sizeExact || declared >= size, certificate });
        };
        // A body still arriving at the time limit: what arrived is the page as far as a visitor
        // waiting that long would see it.
        const onAbort = () => {
          if (!partial) return;
          done(kept < size ? 'size' : 'time', false);
          res.destroy();
        };
        signal.addEventListener('abort', onAbort);
        if (declared > maxBytes && !partial) {
          res.destroy();
          return reject(new SafeFetchError('too_large', `body larger than ${maxBytes} bytes`));
        }
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > maxBytes) {
            if (!partial) {
              res.destroy();
              reject(new SafeFetchError('too_large', `body larger than ${maxBytes} bytes`));
              return;
            }
            if (kept < maxBytes) {
              chunks.push(chunk.subarray(0, maxBytes - kept));
              kept = maxBytes;
            }
            // The declared length is the size; else count on (not keeping) up to the limit.
            if (declared > 0 || size >= countLimit) {
              done('size', declared > 0);
              res.destroy();
            }
            return;
          }
          kept += chunk.length;
          chunks.push(chunk);
        });
        res.on('end', () => done(kept < size ? 'size' : null, true));
        res.on('error', reject);
      },
    );
    // The connected address, checked again (a resolver answer may differ from what was used).
    req.on('socket', (socket: Socket) => {
      socket.once('connect', () => {
        const why = socket.remoteAddress ? addressRefusal(socket.remoteAddress, allowLoopback) : 'no remote address';
        if (why) req.destroy(new SafeFetchError('address', `refused connected address (${why})`));
      });
    });
    req.on('error', (error) => {
      if (error instanceof SafeFetchError) return reject(error);
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof SafeFetchError) return reject(cause);
      if (signal.aborted) return reject(new SafeFetchError('timeout', `no answer within the time limit`));
      const code = (error as NodeJS.ErrnoException).code;
      if (NOT_FOUND_CODES.has(code ?? '')) return reject(new SafeFetchError('dns', `host not found: ${url.hostname}`));
      if (code && CERTIFICATE_CODES.test(code)) return reject(new SafeFetchError('certificate', code));
      reject(new SafeFetchError('network', `${code ?? error.message}`));
    });
    req.end(options.body);
  });
}

async function inProcessOnce(url: URL, site: InProcessSite, maxBytes: number): Promise<OneResponse> {
  const res = await site.handle(url);
  const headers: Record<string, string> = {};
  res.headers.forEach((v, k) => (headers[k.toLowerCase()] = v));
  const body = await readLimited(res.body, maxBytes);
  return { status: res.status, headers, body, address: 'in-process', truncated: null, size: body.length, sizeExact: true, certificate: null };
}

/** The body as text in the charset the Content-Type (or the page's own meta tag) names; UTF-8 otherwise. */
function decodeText(body: Buffer, contentType: string | undefined): string {
  const declared = /charset=["']?([\w-]+)/i.exec(contentType ?? '')?.[1] ?? /<meta[^>]+charset=["']?([\w-]+)/i.exec(body.subarray(0, 2048).toString('latin1'))?.[1];
  try {
    return new TextDecoder(declared ?? 'utf-8').decode(body);
  } catch {
    return body.toString('utf8');
  }
}

/** We ask for identity encoding; a server that compresses anyway is decoded, within the size
 *  limit; a body cut short is decoded as far as it goes. */
function decode(body: Buffer, encoding: string | undefined, maxBytes: number, cut = false): Buffer {
  const e = encoding?.trim().toLowerCase();
  if (!e || e === 'identity' || body.length === 0) return body;
  const flush = cut ? { finishFlush: zlib.constants.Z_SYNC_FLUSH } : {};
  try {
    if (e === 'gzip' || e === 'x-gzip') return gunzipSync(body, { maxOutputLength: maxBytes, ...flush });
    if (e === 'deflate') return inflateSync(body, { maxOutputLength: maxBytes, ...flush });
    if (e === 'br') return brotliDecompressSync(body, { maxOutputLength: maxBytes, ...(cut ? { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH } : {}) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw new SafeFetchError('too_large', `decoded body larger than ${maxBytes} bytes`);
    throw new SafeFetchError('network', `could not decode ${e} body`);
  }
  return body;
}

/** GET (or HEAD, or POST) a URL under the rules above. Throws SafeFetchError on any refusal or failure;
 *  an HTTP error status is a normal answer. */
export async function safeFetch(input: string, options: SafeFetchOptions = {}): Promise<SafeResponse> {
  const timeoutMs = options.timeoutMs ?? SAFE_FETCH_DEFAULTS.timeoutMs;
  const maxBytes = options.maxBytes ?? SAFE_FETCH_DEFAULTS.maxBytes;
  const maxRedirects = options.maxRedirects ?? SAFE_FETCH_DEFAULTS.maxRedirects;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  const started = performance.now();
  const redirects: string[] = [];
  let certificate: CertificateProblem | null = null;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    clearTimeout(timer);
    throw new SafeFetchError('scheme', `not a URL: ${input}`);
  }
  try {
    for (;;) {
      const site = options.inProcess;
      let one: OneResponse;
      if (site && url.href.startsWith(site.prefix)) {
        one = await Promise.race([
          inProcessOnce(url, site, maxBytes),
          new Promise<never>((_, reject) => controller.signal.addEventListener('abort', () => reject(new SafeFetchError('timeout', 'no answer within the time limit')))),
        ]);
      } else {
        checkUrl(url, options);
        one = await requestOnce(url, options, controller.signal, maxBytes);
      }
      certificate ??= one.certificate;
      const location = one.headers.location;
      if (one.status >= 300 && one.status < 400 && location) {
        if (redirects.length >= maxRedirects) throw new SafeFetchError('redirects', `more than ${maxRedirects} redirects`);
        const next = new URL(location, url);
        redirects.push(next.href);
        url = next;
        continue;
      }
      const body = decode(one.body, one.headers['content-encoding'], maxBytes, one.truncated !== null);
      return {
        url: url.href,
        status: one.status,
        headers: one.headers,
        body,
        text: () => decodeText(body, one.headers['content-type']),
        elapsedMs: performance.now() - started,
        redirects,
        address: one.address,
        truncated: one.truncated,
        size: one.size,
        sizeExact: one.sizeExact,
        certificate,
      };
    }
  } finally {
    clearTimeout(timer);
  }
}
