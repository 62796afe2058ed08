// Every refusal the public API can answer is in its document (issue 39): each operation is sent
// each refusal that applies to it (no key, a lapsed plan, a key without the scope, too many
// requests, invalid input, an unknown id, a body over 64 KB, a body that is not JSON, headers over
// 16 KB) and the answer is checked against the document: the status declared for that operation,
// problem details with the code that says what happened, the headers the document promises. And
// the other way round: every refusal the document declares for an operation is one it answers.
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { API_SCOPES, type ApiScope } from '../../common/schemas/api-keys.ts';
import { users } from '../../db/schema/auth.ts';
import { answerClientError } from '../../api/lib/methods.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';
import { checked, expectDocumented, type OpenApiDocument } from '../helpers/openapi.ts';

type Operation = { parameters?: { name: string; in: string; schema: Record<string, unknown> }[]; requestBody?: unknown; responses: Record<string, unknown> };
// Every scope there is, so a new one (businesses:write came with rank settings) is not forgotten here.
const ALL: ApiScope[] = [...API_SCOPES];
/** The refusals any operation may be sent, whatever it does (409 and 422 are each operation's own). */
const GENERIC = ['400', '401', '403', '404', '413', '415', '429', '431'];
/** A body each operation accepts, so that what is refused is what the case changes. */
const VALID_BODY: Record<string, unknown> = {
  'post /reports': { fullName: 'Dana Whitfield', email: 'dana@whitfield.example', company: 'Whitfield Dental', role: 'owner', website: 'https://whitfield-dental.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  'put /businesses/{businessId}/alert-threshold': { threshold: 3 },
  'post /clients': { clientName: 'Dana Whitfield', clientEmail: 'dana@whitfield.example', company: 'Whitfield Dental', website: 'https://whitfield-dental.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', reportFrequency: 'monthly' },
  'patch /clients/{clientId}': { reportFrequency: 'weekly' },
  'post /webhooks': { url: 'https://hooks.example-agency.com/in', events: ['report.completed'] },
};

let t: TestContext;
let limited: TestContext;
let server: Server;
let doc: OpenApiDocument & { paths: Record<string, Record<string, Operation>> };
const keys: Record<'all' | 'lapsed' | 'reportsOnly' | 'businessesOnly' | 'limited', string> = { all: '', lapsed: '', reportsOnly: '', businessesOnly: '', limited: '' };

async function keyOf(ctx: TestContext, scopes: ApiScope[], lapse = false) {
  const user = await createUser(ctx.ctx, { tier: 'agency', role: 'consultant' });
  const { key } = (await call(ctx.app, 'POST', '/api/api-keys', { name: 'Refusals', scopes }, user.cookie)).body as { key: string };
  if (lapse) await ctx.ctx.db.update(users).set({ subscriptionStatus: 'suspended' }).where(eq(users.id, user.userId));
  return key;
}

beforeAll(async () => {
  t = await createTestContext({ API_RATE_LIMIT_AGENCY: '1000000' });
  limited = await createTestContext({ API_RATE_LIMIT_AGENCY: '1' });
  doc = (await call(t.app, 'GET', '/api/v1/openapi.json')).body;
  const owner = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
  keys.all = ((await call(t.app, 'POST', '/api/api-keys', { name: 'Refusals', scopes: ALL }, owner.cookie)).body as { key: string }).key;
  own.businessId = (await seedBusiness(t.ctx, { userId: owner.userId })).business.id;
  const client = await t.app.request('/api/v1/clients', { method: 'POST', headers: { authorization: `Bearer ${keys.all}`, 'content-type': 'application/json' }, body: JSON.stringify(VALID_BODY['post /clients']) });
  own.clientId = ((await client.json()) as { id: string }).id;
  keys.lapsed = await keyOf(t, ALL, true);
  keys.reportsOnly = await keyOf(t, ['reports:read']);
  keys.businessesOnly = await keyOf(t, ['businesses:read']);
  keys.limited = await keyOf(limited, ALL);
  // The node server as api/server.ts makes it: node itself answers headers over 16 KB.
  server = createServer(getRequestListener(t.app.fetch));
  server.on('clientError', answerClientError);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
});
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  await t.close();
  await limited.close();
});

const operations = () => Object.entries(doc.paths).flatMap(([template, ops]) => Object.entries(ops).map(([method, op]) => ({ method, template, op })));
const hasBody = (op: Operation) => op.requestBody !== undefined;

interface Case {
  status: number;
  code: string;
  request: (method: string, template: string, op: Operation) => { path: string; headers?: Record<string, string>; body?: string; app?: TestContext } | null;
}

const idsIn = (template: string, id: string) => template.replace(/\{[^}]+\}/g, encodeURIComponent(id));
const json = (method: string, template: string) => JSON.stringify(VALID_BODY[`${method} ${template}`] ?? {});
const withBody = (method: string, template: string, op: Operation, headers: Record<string, string> = {}) =>
  hasBody(op) ? { headers: { ...headers, 'content-type': 'application/json' }, body: json(method, template) } : { headers };
/** The path with the caller's own ids: what is refused is then the case, not the id. */
const own: Record<string, string> = {};
const ownPath = (template: string) => template.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(own[name] ?? 'x'));

/** A query value its schema refuses. */
function badQuery(op: Operation): string | null {
  for (const p of op.parameters ?? []) {
    if (p.in !== 'query') continue;
    const s = p.schema;
    if (typeof s.minimum === 'number') return `${p.name}=${s.minimum - 1}`;
    if (typeof s.maxLength === 'number') return `${p.name}=${'x'.repeat(s.maxLength + 1)}`;
    if (typeof s.pattern === 'string') return `${p.name}=%20`;
  }
  return null;
}

const CASES: Record<string, Case> = {
  'no key': { status: 401, code: 'unauthenticated', request: (m, tpl, op) => ({ path: idsIn(tpl, 'x'), ...withBody(m, tpl, op, { authorization: '' }) }) },
  'lapsed plan': { status: 403, code: 'plan_required', request: (m, tpl, op) => ({ path: idsIn(tpl, 'x'), ...withBody(m, tpl, op, { authorization: `Bearer ${keys.lapsed}` }) }) },
  'over the limit': { status: 429, code: 'rate_limited', request: (m, tpl, op) => ({ path: idsIn(tpl, 'x'), app: limited, ...withBody(m, tpl, op, { authorization: `Bearer ${keys.limited}` }) }) },
  'invalid input': {
    status: 400,
    code: 'invalid_input',
    request: (m, tpl, op) => {
      if (/\{/.test(tpl)) return { path: idsIn(tpl, 'x'.repeat(101)), ...withBody(m, tpl, op) };
      if (hasBody(op)) return { path: ownPath(tpl), headers: { 'content-type': 'application/json' }, body: '[]' };
      const query = badQuery(op);
      return query ? { path: `${tpl}?${query}` } : null;
    },
  },
  'unknown id': {
    status: 404,
    code: 'not_found',
    request: (m, tpl, op) => {
      if (/\{/.test(tpl)) return { path: idsIn(tpl, 'no-such-id'), ...withBody(m, tpl, op) };
      // A report for a client: the client named in the body.
      if (m === 'post' && tpl === '/reports') return { path: tpl, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...(VALID_BODY['post /reports'] as object), clientId: '00000000-0000-4000-8000-000000000000' }) };
      return null;
    },
  },
  'body over 64 KB': { status: 413, code: 'payload_too_large', request: (m, tpl) => (m === 'get' ? null : { path: idsIn(tpl, 'x'), headers: { 'content-type': 'application/json' }, body: JSON.stringify({ padding: 'x'.repeat(70_000) }) }) },
  'body not JSON': { status: 415, code: 'unsupported_media_type', request: (m, tpl, op) => (hasBody(op) ? { path: ownPath(tpl), headers: { 'content-type': 'text/plain' }, body: json(m, tpl) } : null) },
};

function sendOverHttp(method: string, path: string, headers: Record<string, string>): Promise<{ status: number; headers: Headers; text: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port: (server.address() as AddressInfo).port, method: method.toUpperCase(), path, headers }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => done({ status: res.statusCode!, headers: new Headers(Object.entries(res.headers).map(([k, v]): [string, string] => [k, String(v)])), text }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('each refusal, sent to every operation', () => {
  const seen = new Map<string, Set<string>>();
  const saw = (method: string, template: string, status: number) => {
    const label = `${method.toUpperCase()} ${template}`;
    seen.set(label, new Set([...(seen.get(label) ?? []), String(status)]));
  };

  it('is answered with its status and code, as the document declares it', async () => {
    // The limited key's one request of the minute: every later one is over the limit. The clock
    // stands still meanwhile: the API's windows are aligned on the clock's minutes, and the request
    // after a minute's end was let through (CI, on a busy machine).
    vi.useFakeTimers({ toFake: ['Date'] });
    onTestFinished(() => void vi.useRealTimers());
    await limited.app.request('/api/v1/webhooks', { headers: { authorization: `Bearer ${keys.limited}` } });
    const wrong: string[] = [];
    for (const { method, template, op } of operations()) {
      for (const [name, refusal] of Object.entries(CASES)) {
        const req = refusal.request(method, template, op);
        if (!req) continue;
        const url = `/api/v1${req.path}`;
        const headers: Record<string, string> = { authorization: `Bearer ${keys.all}`, 'idempotency-key': `refusal-${name.replace(/\W/g, '-')}`, ...req.headers };
        if (!headers.authorization) delete headers.authorization;
        const res = await (req.app ?? t).app.request(url, { method: method.toUpperCase(), headers, body: req.body });
        const text = await res.text();
        const body = text ? JSON.parse(text) : null;
        const label = `${method.toUpperCase()} ${template} [${name}]`;
        if (res.status !== refusal.status || body?.code !== refusal.code) {
          wrong.push(`${label}: ${res.status} ${text.slice(0, 200)}`);
          continue;
        }
        try {
          expectDocumented(doc, method, url, { status: res.status, headers: res.headers, body });
          saw(method, template, res.status);
        } catch (error) {
          wrong.push(`${label}: ${(error as Error).message.split('\n')[0]}`);
        }
      }
    }
    expect(wrong).toEqual([]);
  });

  it('answers a key without the scope 403 forbidden, as documented, on every operation', async () => {
    const wrong: string[] = [];
    for (const { method, template, op } of operations()) {
      // One of two keys lacks the operation's scope (no operation needs both).
      let answered = false;
      for (const key of [keys.reportsOnly, keys.businessesOnly]) {
        const url = `/api/v1${idsIn(template, 'x')}`;
        const res = await t.app.request(url, { method: method.toUpperCase(), headers: { authorization: `Bearer ${key}`, 'idempotency-key': 'scope', ...(hasBody(op) ? { 'content-type': 'application/json' } : {}) }, body: hasBody(op) ? json(method, template) : undefined });
        const body = (await res.json()) as { code?: string };
        if (res.status !== 403) continue;
        answered = true;
        if (body.code !== 'forbidden') wrong.push(`${method} ${template}: ${body.code}`);
        else expectDocumented(doc, method, url, { status: res.status, headers: res.headers, body });
      }
      if (!answered) wrong.push(`${method} ${template}: never 403`);
    }
    expect(wrong).toEqual([]);
  });

  it('answers headers over 16 KB with 431 headers_too_large (node itself), as documented, on every operation', async () => {
    for (const { method, template } of operations()) {
      const path = `/api/v1${idsIn(template, 'x')}`;
      const res = await sendOverHttp(method, path, { authorization: `Bearer ${keys.all}`, 'x-padding': 'a'.repeat(20_000) });
      const body = JSON.parse(res.text) as { code: string };
      expect(res.status, `${method} ${template}`).toBe(431);
      expect(body.code).toBe('headers_too_large');
      expectDocumented(doc, method, path, { status: res.status, headers: res.headers, body });
      saw(method, template, 431);
    }
  });

  it('every refusal the document declares for an operation was answered by it', () => {
    const unanswered: string[] = [];
    for (const { method, template, op } of operations()) {
      const declared = Object.keys(op.responses).filter((s) => GENERIC.includes(s) && s !== '403');
      const got = seen.get(`${method.toUpperCase()} ${template}`) ?? new Set();
      for (const status of declared) if (!got.has(status)) unanswered.push(`${method.toUpperCase()} ${template} ${status}`);
      // And the other way: each generic refusal that applies to it is declared.
      for (const status of got) if (!op.responses[status]) unanswered.push(`${method.toUpperCase()} ${template} ${status} answered, not declared`);
    }
    expect(unanswered).toEqual([]);
    expect(checked.size).toBeGreaterThan(0);
  });
});
