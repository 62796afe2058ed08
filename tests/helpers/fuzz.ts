// The fuzz suite's requests and its property, shared by tests/integration/fuzz.test.ts (in-process,
// fixed seed, a few hundred requests in `npm test`) and scripts/fuzz.ts (`npm run fuzz`, over HTTP
// against `npm start`, 10,000 requests with the pages too). Hostile values: wrong types, objects
// with their own toString/valueOf, prototype keys, NUL, lone surrogates, emoji, huge strings,
// deep nesting, wrong content types, invalid JSON, oversized bodies, junk cookies and ids.
import fc from 'fast-check';
import { ROUTES, V1_ROUTES } from './api-routes.ts';

/** Every API route and method (tests/integration/fuzz.test.ts checks this against the app). */
export const API_ROUTES = [...Object.keys(ROUTES), ...V1_ROUTES];

/** Pages, for the HTTP run: pre-rendered, server-rendered, with ids and tokens. */
export const PAGES = [
  'GET /',
  'GET /faq',
  'GET /help-center',
  'GET /contact',
  'GET /privacy',
  'GET /terms',
  'GET /login',
  'GET /signup',
  'GET /account',
  'GET /subscribe',
  'GET /dashboard',
  'GET /dashboard/:id',
  'GET /early-warning/:id',
  'GET /report/:token',
  'GET /unsubscribe',
  'POST /unsubscribe',
  'GET /delete-data',
  'POST /delete-data',
  'GET /restore-account',
  'POST /restore-account',
  'GET /privacy/data',
  'GET /dev/mailbox',
  'GET /dev/mailbox/:file',
  'GET /dev/mailbox/:file/:part',
  'GET /no-such-page/:id',
] as const;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;

/** A string as a URL path segment, whatever it holds (a lone surrogate becomes its raw UTF-8 bytes). */
export function segment(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value].map((c) => (c.isWellFormed() ? encodeURIComponent(c) : '%ED%A0%80')).join('');
  }
}

const HOSTILE_TEXT = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  '\udfff',
  'x\ud83d',
  '😀',
  '👨‍👩‍👧‍👦',
  '\u2028\u2029',
  '\r\nSet-Cookie: a=b',
  '<script>alert(1)</script>',
  '</script><script>alert(1)</script>',
  "' OR '1'='1",
  '../../etc/passwd',
  '%00',
  '%',
  '__proto__',
  'constructor',
  'toString',
  'null',
  'undefined',
  'NaN',
  '1e309',
  '-0',
  'x'.repeat(300),
  'x'.repeat(5000),
];

export const hostileText = fc.oneof(fc.constantFrom(...HOSTILE_TEXT), fc.string({ unit: 'binary', maxLength: 40 }), fc.string({ maxLength: 20 }));

/** Path ids and tokens, already encoded: hostile text, raw percent bytes, plausible shapes. */
const PERCENT = ['%00', '%ED%A0%80', '%F0%9F%98%80', '%E0%A4%A', '%25', '%C0%80', '%FF%FE', '..%2F..%2Fetc%2Fpasswd', '%2e%2e', '%5C', '%0D%0A'];
export const pathValue = fc.oneof(
  hostileText.map(segment),
  fc.constantFrom(...PERCENT),
  fc.uuid(),
  fc.stringMatching(/^[A-Za-z0-9_-]{16,64}$/),
  // A sample-site id: base64url JSON with hostile profile text.
  fc.record({ n: hostileText, a: hostileText, p: hostileText, c: fc.constantFrom('dentist', 'plumber', '\u0000', '\ud800'), q: fc.oneof(fc.integer(), fc.double()) }).map((p) =>
    Buffer.from(JSON.stringify(p), 'utf8').toString('base64url'),
  ),
);

// Values a field may be sent: plausible ones (so deeper checks run) and hostile ones.
const objectWithOwnConversions = fc.constantFrom<unknown>({ toString: 'x', valueOf: 1 }, { toString: {}, valueOf: {} }, { toJSON: 1 }, { length: 1e9 }, { then: 'x' });
const leaf = fc.oneof(
  hostileText,
  fc.constantFrom<unknown>(true, false, null, 0, -1, 1e308, 4.5, 2 ** 53 + 1),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  objectWithOwnConversions,
);
const { value: hostileValue } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, fc.array(tie('value'), { maxLength: 4 }), fc.dictionary(hostileText, tie('value'), { maxKeys: 4 })),
}));

const PLAUSIBLE: Record<string, unknown[]> = {
  email: ['owner@example.com', 'OWNER@Example.com', 'a@b.co', 'not-an-email'],
  password: ['correct-horse-battery', 'short', 'x'.repeat(129)],
  role: ['client', 'consultant', 'owner', 'manager', 'other', 'admin'],
  companyName: ['Acme Consulting'],
  fullName: ['Maria Lopez'],
  company: ['Lopez Plumbing'],
  website: ['https://lopezplumbing.example.com', 'javascript:alert(1)', 'http://[::a9fe:a9fe]/'],
  address: ['1200 Barton Springs Rd'],
  city: ['Austin', 'Nowhere'],
  state: ['TX', 'ZZ', 'tx'],
  zip: ['78704', '00000', '7870'],
  consent: [true, false, 'yes'],
  name: ['Sam'],
  subject: ['Question'],
  message: ['Hello there, a question about plans.'],
  threshold: [1, 2, 3, 4, 5, 0, 6, 2.5, '3'],
  isAdmin: [true],
  subscriptionTier: ['agency'],
};
const FIELDS = Object.keys(PLAUSIBLE);
const field = (name: string) =>
  fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...PLAUSIBLE[name]!) }, { weight: 1, arbitrary: objectWithOwnConversions }, { weight: 2, arbitrary: hostileValue });
const shapedBody = fc.subarray(FIELDS, { minLength: 1 }).chain((names) => fc.record(Object.fromEntries(names.map((n) => [n, field(n)]))));

const RAW_BODIES = [
  '',
  '{',
  '{"email":',
  'null',
  '[]',
  '"hello"',
  '42',
  '{"__proto__":{"isAdmin":true},"role":"client"}',
  '{"constructor":{"prototype":{"isAdmin":true}}}',
  '{"email":"a@b.co","email":"c@d.co"}',
  '\u0000',
  '\ufeff{}',
  '[' .repeat(10_000) + ']'.repeat(10_000),
  '{"a":'.repeat(3000) + '1' + '}'.repeat(3000),
  JSON.stringify({ message: 'x'.repeat(70 * 1024) }),
  'email=a%40b.co&password=x',
];

export const body = fc.oneof(
  { weight: 4, arbitrary: shapedBody.map((b) => JSON.stringify(b)) },
  { weight: 1, arbitrary: hostileValue.map((v) => JSON.stringify(v) ?? 'undefined') },
  { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
  { weight: 1, arbitrary: fc.constant(undefined) },
);

const CONTENT_TYPES = [
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'application/ld+json',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  '',
  '\u0000',
];

export interface FuzzRequest {
  method: string;
  path: string;
  /** Matches API_ROUTES or PAGES (for reporting). */
  route: string;
  body?: string;
  headers: Record<string, string>;
  kind: 'api' | 'website' | 'page';
}

function fill(template: string, values: string[]): string {
  let i = 0;
  return template.replace(/:\w+(\{[^}]*\})?/g, () => values[i++ % values.length]!);
}

/** A request: a route's template with hostile parameters, or another method on its path. */
export function requests(options: { pages: boolean; sessionCookie?: () => string }) {
  const templates = [...API_ROUTES, ...(options.pages ? PAGES : [])];
  return fc
    .record({
      template: fc.constantFrom(...templates),
      otherMethod: fc.option(fc.constantFrom(...METHODS), { freq: 5 }),
      values: fc.array(pathValue, { minLength: 1, maxLength: 2 }),
      query: fc.oneof(fc.constant(''), pathValue.map((v) => `?token=${v}`), pathValue.map((v) => `?consultantId=${v}&plan=${v}`)),
      body,
      contentType: fc.oneof({ weight: 4, arbitrary: fc.constant('application/json') }, { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) }),
      cookie: fc.oneof(
        fc.constant(undefined),
        fc.constant('session'),
        pathValue.map((v) => `localrank.session_token=${v}`),
        pathValue.map((v) => `localrank.session_hint=${v}; localrank.session_token=${v}.${v}`),
      ),
      forwardedFor: fc.option(fc.oneof(fc.constantFrom('127.0.0.1', '::1', '10.0.0.1, 203.0.113.1', 'unknown', '\u0000'), pathValue), { freq: 3 }),
    })
    .map(({ template, otherMethod, values, query, body, contentType, cookie, forwardedFor }): FuzzRequest => {
      const [method, pathTemplate] = template.split(' ') as [string, string];
      const headers: Record<string, string> = {};
      const sendsBody = (otherMethod ?? method) !== 'GET' && (otherMethod ?? method) !== 'HEAD' && body !== undefined;
      if (sendsBody && contentType) headers['content-type'] = contentType.replace(/[^\t\x20-\x7e]/g, '');
      if (cookie === 'session') {
        const session = options.sessionCookie?.();
        if (session) headers.cookie = session;
      } else if (cookie) headers.cookie = cookie;
      if (forwardedFor) headers['x-forwarded-for'] = forwardedFor.replace(/[^\t\x20-\x7e]/g, '');
      const kind = template.startsWith('GET /api/sample-sites') ? 'website' : pathTemplate.startsWith('/api') ? 'api' : 'page';
      return { method: otherMethod ?? method, path: fill(pathTemplate, values) + query, route: template, body: sendsBody ? body : undefined, headers, kind };
    });
}

export interface FuzzAnswer {
  status: number;
  contentType: string;
  text: string;
  ms: number;
}

/** The property: no 5xx; an API error is JSON in our shape; answered within the bound. */
export function verdict(request: FuzzRequest, answer: FuzzAnswer, boundMs: number): string | null {
  if (answer.ms > boundMs) return `took ${Math.round(answer.ms)} ms (bound ${boundMs} ms)`;
  // 503 busy is a designed refusal under load (password hashing saturated), with Retry-After.
  if (answer.status >= 500 && !(answer.status === 503 && /"code":"busy"/.test(answer.text))) return `answered ${answer.status}: ${answer.text.slice(0, 200)}`;
  if (answer.status < 200 || answer.status >= 600) return `answered ${answer.status}`;
  // A route that also takes a plain HTML form post answers one with a page (RouteRule.form).
  const formPost = ROUTES[request.route]?.form && /^application\/x-www-form-urlencoded/i.test(request.headers['content-type'] ?? '');
  if (formPost && answer.status >= 400 && !answer.contentType.startsWith('text/html')) return `error ${answer.status} to a form post is ${answer.contentType || 'untyped'}, not a page`;
  if (request.kind === 'api' && answer.status >= 400 && request.method !== 'HEAD' && !formPost) {
    if (!/^application\/(problem\+)?json/.test(answer.contentType)) return `error ${answer.status} is ${answer.contentType || 'untyped'}, not JSON`;
    let parsed: unknown;
    try {
      parsed = JSON.parse(answer.text);
    } catch {
      return `error ${answer.status} body is not JSON`;
    }
    const p = parsed as { code?: unknown; message?: unknown; detail?: unknown; fields?: unknown };
    if (request.path.startsWith('/api/v1/')) {
      if (!answer.contentType.startsWith('application/problem+json')) return `error ${answer.status} of the public API is not problem+json`;
      if (typeof p.code !== 'string' || typeof p.detail !== 'string') return `error ${answer.status} is not a problem with code and detail`;
    } else if (typeof p.code !== 'string' || typeof p.message !== 'string') return `error ${answer.status} is not in the { code, message } shape`;
    if (p.fields !== undefined && (typeof p.fields !== 'object' || p.fields === null || !Object.values(p.fields).every((m) => typeof m === 'string'))) return 'fields is not a map of messages';
  }
  return null;
}

export const statusClass = (status: number) => `${Math.floor(status / 100)}xx`;
