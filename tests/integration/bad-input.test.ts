// Bad input on every route of the API, walked from the app's own route list: a route added
// without an entry in ROUTES (tests/helpers/api-routes.ts) fails the first test, and every route gets garbage ids and bad
// bodies, signed out and signed in. Never a 5xx; errors in the one shape { code, message, fields? }.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MAX_BODY_BYTES } from '../../api/app.ts';
import { createWebhookEndpoint, emitEvent, listDeliveries } from '../../api/services/webhooks/webhooks.ts';
import { ROUTES, type RouteRule } from '../helpers/api-routes.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser, uniqueEmail } from '../helpers/factories.ts';
import { startStripeDouble, type StripeDouble } from '../helpers/stripe-double/server.ts';
import { widgetLeads } from '../../db/schema/widget.ts';
import { alertCreatedData } from '../helpers/webhook-data.ts';


// Path segments, already URL-encoded as a client would send them.
const GARBAGE_IDS = [
  '0',
  '-1',
  '1e999',
  'null',
  'abc',
  '%25',
  '%E0%A4%A',
  '%00',
  "1'%20OR%20'1'%3D'1",
  '..%2F..%2Fetc%2Fpasswd',
  '%F0%9F%92%A9',
  'x'.repeat(3000),
];

const JSON_TYPE = 'application/json';
const BAD_BODIES: Record<string, { body?: BodyInit; type?: string; shape: 'plain' | 'fields' }> = {
  'malformed JSON': { body: '{"email":', type: JSON_TYPE, shape: 'plain' },
  'an empty body': { body: '', type: JSON_TYPE, shape: 'plain' },
  'no body at all': { shape: 'plain' },
  'JSON null': { body: 'null', type: JSON_TYPE, shape: 'fields' },
  'a JSON array': { body: '[{"email":"a@example.com"}]', type: JSON_TYPE, shape: 'fields' },
  'a JSON string': { body: '"hello"', type: JSON_TYPE, shape: 'fields' },
  'a JSON number': { body: '42', type: JSON_TYPE, shape: 'fields' },
  'deeply nested JSON': { body: '['.repeat(5000) + ']'.repeat(5000), type: JSON_TYPE, shape: 'fields' },
  'missing fields': { body: '{}', type: JSON_TYPE, shape: 'fields' },
  'wrong types': {
    body: JSON.stringify({ email: 5, password: [], role: {}, name: null, message: true, fullName: 1, zip: 78701, consent: 'yes' }),
    type: JSON_TYPE,
    shape: 'fields',
  },
  // JSON cannot carry functions, so these make String(value) throw: a message must not call them.
  'objects with their own toString and valueOf in choice fields': {
    body: JSON.stringify({ email: true, password: 'x', role: { toString: 'x', valueOf: 1 }, state: { toString: 'x', valueOf: 1 }, threshold: { valueOf: 1 } }),
    type: JSON_TYPE,
    shape: 'fields',
  },
  'unknown fields': { body: JSON.stringify({ isAdmin: true, subscriptionTier: 'agency' }), type: JSON_TYPE, shape: 'fields' },
  'prototype keys': { body: '{"__proto__":{"isAdmin":true},"constructor":{"prototype":{"isAdmin":true}}}', type: JSON_TYPE, shape: 'fields' },
  'invalid UTF-8': { body: new Uint8Array([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]), type: JSON_TYPE, shape: 'fields' },
  'JSON sent as text/plain': { body: '{"email":"a@example.com"}', type: 'text/plain', shape: 'plain' },
  'a form post': { body: 'email=a%40example.com&password=x', type: 'application/x-www-form-urlencoded', shape: 'plain' },
  'JSON without a content type': { body: '{"email":"a@example.com"}', shape: 'plain' },
  'multipart': { body: '--b\r\nContent-Disposition: form-data; name="email"\r\n\r\nx\r\n--b--\r\n', type: 'multipart/form-data; boundary=b', shape: 'plain' },
};
const HUGE_BODY = JSON.stringify({ email: 'a@example.com', message: 'x'.repeat(MAX_BODY_BYTES) });

const PASSWORD = 'Unique-Passw0rd-For-Bad-Input';
const WRONG_PASSWORD = 'Wrong-Passw0rd-For-Bad-Input';

let t: TestContext;
let stripe: StripeDouble;
let signedIn: Awaited<ReturnType<typeof createUser>>;
let otherBusinessId: string;
let otherClientId: string;
let otherProfileId: string;
let otherKeyId: string;
let otherLeadId: string;
let otherApiKeyId: string;
let otherEndpointId: string;
let otherDeliveryId: string;
const output: string[] = [];
const spies: Array<{ mockRestore: () => void }> = [];

beforeAll(async () => {
  // Everything the process writes is kept, at the most talkative level, for the last test.
  for (const target of [process.stdout, process.stderr] as const) {
    spies.push(vi.spyOn(target, 'write').mockImplementation(((chunk: unknown) => (output.push(String(chunk)), true)) as never));
  }
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
    spies.push(vi.spyOn(console, method).mockImplementation((...args: unknown[]) => void output.push(args.map(String).join(' '))));
  }
  // Billing configured (against the local Stripe API double), so its routes answer for real.
  stripe = await startStripeDouble();
  t = await createTestContext({ LOG_LEVEL: 'debug', ...stripe.env() });
  signedIn = await createUser(t.ctx, { role: 'consultant', tier: 'agency', password: PASSWORD });
  const other = await createUser(t.ctx, { tier: 'pro' });
  otherBusinessId = (await seedBusiness(t.ctx, { userId: other.userId, snapshots: [{ daysAgo: 1 }] })).business.id;
  const otherAgency = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
  otherProfileId = ((await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Other Agency' }, otherAgency.cookie)).body as { id: string }).id;
  const { business } = await seedBusiness(t.ctx, { snapshots: [{ daysAgo: 1 }] });
  otherClientId = (await addClient(t.ctx, otherAgency.viewer.consultant!.id, business.id)).id;
  const otherKey = await call(t.app, 'POST', '/api/widget/keys', { name: 'Theirs', allowedHostnames: ['other.example'], brandingProfileId: null, components: ['report-form'], scoreCardClientId: null, leadEmails: 'each' }, otherAgency.cookie);
  otherKeyId = (otherKey.body as { id: string }).id;
  const [lead] = await t.ctx.db
    .insert(widgetLeads)
    .values({ consultantId: otherAgency.viewer.consultant!.id, widgetKeyId: otherKeyId, fullName: 'Riley Park', email: 'riley@other.example', company: 'Theirs', payload: {}, sourceHostname: 'other.example', status: 'queued' })
    .returning();
  otherLeadId = lead!.id;
  otherApiKeyId = ((await call(t.app, 'POST', '/api/api-keys', { name: 'Other', scopes: ['reports:read'] }, otherAgency.cookie)).body as { apiKey: { id: string } }).apiKey.id;
  otherEndpointId = (await createWebhookEndpoint(t.ctx, { userId: otherAgency.userId, input: { url: 'https://hooks.other-agency.com/in', events: ['alert.created'] } })).id;
  await emitEvent(t.ctx, { userId: otherAgency.userId, type: 'alert.created', eventKey: 'alert.created:bad-input', data: alertCreatedData('bad-input') });
  otherDeliveryId = (await listDeliveries(t.ctx, { userId: otherAgency.userId, endpointId: otherEndpointId })).deliveries[0]!.id;
});
afterAll(async () => {
  for (const spy of spies) spy.mockRestore();
  await t.close();
  await stripe.close();
});

// The public API (/api/v1) takes keys, not sessions, and answers problem+json: it has its own walk
// of garbage ids and bad bodies in tests/integration/api-v1.test.ts.
const routeKeys = () => [...new Set(t.app.routes.filter((r) => r.method !== 'ALL' && !r.path.startsWith('/api/v1/')).map((r) => `${r.method} ${r.path}`))];

/** The route's path with every parameter set to `value`. */
const fill = (path: string, value: string) => path.replace(/:\w+(\{[^}]*\})?/g, value);

async function send(method: string, path: string, options: { body?: BodyInit; type?: string; cookie?: string } = {}) {
  const headers: Record<string, string> = {};
  if (options.type) headers['content-type'] = options.type;
  if (options.cookie) headers.cookie = options.cookie;
  const res = await t.app.request(path, { method, headers, body: options.body });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON: checked by the caller
  }
  return { status: res.status, type: res.headers.get('content-type') ?? '', body: body as { code?: unknown; message?: unknown; fields?: unknown } };
}

/** A cookie for the call: the shared session, or a fresh one for routes that end it. */
async function cookieFor(rule: RouteRule): Promise<string> {
  if (!rule.endsSession) return signedIn.cookie;
  return (await call(t.app, 'POST', '/api/auth/login', { email: signedIn.email, password: PASSWORD })).cookie;
}

function expectErrorShape(res: Awaited<ReturnType<typeof send>>, where: string) {
  expect(res.type, where).toContain('application/json');
  expect(typeof res.body.code, where).toBe('string');
  expect(typeof res.body.message, where).toBe('string');
  if (res.body.fields !== undefined) {
    expect(Object.values(res.body.fields as object).every((m) => typeof m === 'string' && m.length > 0), where).toBe(true);
  }
}

describe('the route table', () => {
  it('lists every route of the app, and only those', () => {
    expect(routeKeys().sort()).toEqual(Object.keys(ROUTES).sort());
  });

  it("exposes none of better-auth's own endpoints", async () => {
    for (const path of ['/api/auth/sign-up/email', '/api/auth/sign-in/email', '/api/auth/get-session', '/api/auth/update-user']) {
      expect((await send('POST', path, { body: '{}', type: JSON_TYPE })).status, path).toBe(404);
    }
  });
});

describe('garbage ids', () => {
  it('never make a 5xx, signed out or in, and errors keep the one shape', async () => {
    for (const key of routeKeys()) {
      const [method, path] = key.split(' ') as [string, string];
      const rule = ROUTES[key]!;
      const ids = path.includes(':') ? GARBAGE_IDS : [''];
      for (const id of ids) {
        for (const who of ['visitor', 'signed in'] as const) {
          const where = `${key} with ${id.slice(0, 40) || 'no id'}, ${who}`;
          const res = await send(method, fill(path, id), { cookie: who === 'visitor' ? undefined : await cookieFor(rule) });
          expect(res.status, where).toBeLessThan(500);
          if (rule.access === 'signed-in' && who === 'visitor') {
            expect(res.status, where).toBe(401);
            expect(res.body.code, where).toBe('unauthenticated');
          }
          if (res.status >= 400 && !rule.website) expectErrorShape(res, where);
        }
      }
    }
  });

  it("answer like a missing id for another user's object, on every signed-in route that takes an id", async () => {
    // Another user's object for each kind of id; a new kind of id must be added here.
    const owned: Record<string, string> = { businessId: otherBusinessId, clientId: otherClientId, profileId: otherProfileId, keyId: otherKeyId, leadId: otherLeadId, apiKeyId: otherApiKeyId, endpointId: otherEndpointId, deliveryId: otherDeliveryId };
    // Ids that name no user's object: a report link's token is itself the proof of access; a
    // Google review id is looked up within the business the route names (whose id is checked).
    const unowned = new Set(['token', 'file', 'reviewId']);
    for (const key of routeKeys()) {
      const [method, path] = key.split(' ') as [string, string];
      const params = [...path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
      if (ROUTES[key]!.access !== 'signed-in') continue;
      for (const p of params) expect(p in owned || unowned.has(p), `${key}: another user's :${p} for this test`).toBe(true);
      const others = params.filter((p) => owned[p]);
      if (others.length === 0) continue;
      const withIds = (ids: Record<string, string>) => path.replace(/:(\w+)/g, (_, p: string) => ids[p] ?? 'x');
      const missing = await send(method, withIds(Object.fromEntries(others.map((p) => [p, crypto.randomUUID()]))), { cookie: signedIn.cookie });
      const theirs = await send(method, withIds(owned), { cookie: signedIn.cookie });
      expect(missing.status, key).toBe(404);
      expect(theirs, key).toEqual(missing);
    }
  });
});

describe('bad bodies', () => {
  for (const [name, bad] of Object.entries(BAD_BODIES)) {
    it(`${name}: 400 in the one shape on every JSON route, never a 5xx on the others`, async () => {
      for (const key of routeKeys()) {
        const [method, path] = key.split(' ') as [string, string];
        if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') continue;
        const rule = ROUTES[key]!;
        const res = await send(method, fill(path, 'abc'), { body: bad.body, type: bad.type, cookie: await cookieFor(rule) });
        expect(res.status, key).toBeLessThan(500);
        if (!rule.json) continue;
        expect(res.status, key).toBe(400);
        if (rule.form && bad.type === 'application/x-www-form-urlencoded') continue;
        expectErrorShape(res, key);
        expect(res.body.code, key).toBe('invalid_input');
        if (bad.shape === 'fields') expect(Object.keys(res.body.fields ?? {}).length, key).toBeGreaterThan(0);
      }
    });
  }

  it(`over ${MAX_BODY_BYTES / 1024} KB: 413 on every route that takes a body (an upload over its own limit)`, async () => {
    for (const key of routeKeys()) {
      const [method, path] = key.split(' ') as [string, string];
      if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') continue;
      const own = ROUTES[key]!.limit;
      if (own) {
        const res = await send(method, fill(path, 'abc'), { body: new Uint8Array(own.bytes + 1), type: own.type, cookie: signedIn.cookie });
        expect(res.status, key).toBe(413);
        continue;
      }
      const res = await send(method, fill(path, 'abc'), { body: HUGE_BODY, type: JSON_TYPE, cookie: await cookieFor(ROUTES[key]!) });
      expect(res.status, key).toBe(413);
      expectErrorShape(res, key);
      expect(res.body.code, key).toBe('payload_too_large');
    }
  });

  it('says why a body that is not JSON is refused', async () => {
    const res = await send('POST', '/api/submit-request', { body: 'fullName=Dana&email=dana%40example.com&company=Dana+Dental', type: 'application/x-www-form-urlencoded' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 'invalid_input', message: 'The request body must be JSON (Content-Type: application/json).' });
    // JSON media types with parameters or a +json suffix are JSON.
    const ok = await send('POST', '/api/auth/login', { body: JSON.stringify({ email: signedIn.email, password: PASSWORD }), type: 'application/json; charset=UTF-8' });
    expect(ok.status).toBe(200);
  });
});

describe('passwords', () => {
  it('never appear in an answer or a log line', async () => {
    const answers = [
      await call(t.app, 'POST', '/api/auth/signup', { email: signedIn.email, password: WRONG_PASSWORD, role: 'client' }),
      await call(t.app, 'POST', '/api/auth/signup', { email: uniqueEmail(), password: WRONG_PASSWORD, role: 'admin' }),
      await call(t.app, 'POST', '/api/auth/signup', { email: 'not-an-email', password: WRONG_PASSWORD, role: 'client', extra: 1 }),
      await call(t.app, 'POST', '/api/auth/signup', { email: uniqueEmail(), password: `${WRONG_PASSWORD}${'x'.repeat(200)}`, role: 'client' }),
      await call(t.app, 'POST', '/api/auth/login', { email: signedIn.email, password: WRONG_PASSWORD }),
      await call(t.app, 'POST', '/api/auth/login', { email: uniqueEmail(), password: WRONG_PASSWORD }),
      await call(t.app, 'POST', '/api/auth/login', { email: signedIn.email, password: PASSWORD, remember: PASSWORD }),
      await call(t.app, 'POST', '/api/auth/login', { email: signedIn.email, password: PASSWORD }),
      await call(t.app, 'GET', '/api/auth/me', undefined, signedIn.cookie),
    ];
    // Two sign-ups with one e-mail at once (the unique index decides).
    const email = uniqueEmail('race');
    answers.push(...(await Promise.all([1, 2, 3].map(() => call(t.app, 'POST', '/api/auth/signup', { email, password: WRONG_PASSWORD, role: 'client' })))));
    for (const res of answers) {
      expect(res.status).toBeLessThan(500);
      const text = JSON.stringify(res.body) + JSON.stringify([...res.headers]);
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(WRONG_PASSWORD);
    }
    const log = output.join('\n');
    expect(log).not.toContain(PASSWORD);
    expect(log).not.toContain(WRONG_PASSWORD);
    // Nor did anything in this file fail unexpectedly on the server's side.
    expect(log).not.toContain('unhandled error');
    // better-auth's own messages (the race's failed insert) are our one-line JSON, without the
    // values of the row it tried to write.
    const lines = log.split('\n').filter(Boolean);
    expect(lines.some((line) => line.includes('auth: '))).toBe(true);
    for (const line of lines) expect(() => JSON.parse(line), line).not.toThrow();
    expect(log).not.toContain(email);
  });
});
