// Webhook endpoints on /account (issue 39): added, tested and removed with the session cookie, through
// the same service as /api/v1/webhooks. The plan must include the API; each refusal names its field;
// the secret is in the creation's answer only; "Send test" delivers `webhook.test` (signed, one
// attempt) to that endpoint whatever its events, and the log shows it; the API has the same test.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { WEBHOOK_TESTS_PER_HOUR } from '../../api/services/webhooks/webhooks.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
let hook: { url: string; port: number; received: Array<{ headers: IncomingHttpHeaders; body: string }>; close: () => Promise<void> };

beforeAll(async () => {
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('got it');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as AddressInfo).port;
  hook = { url: `http://127.0.0.1:${port}/hooks`, port, received, close: () => new Promise<void>((r) => server.close(() => r())) };
  t = await createTestContext({}, { webhookUrls: { allowLoopback: true, extraPorts: [port] } });
});
afterAll(async () => {
  await hook.close();
  await t.close();
});

async function drain() {
  const worker = createWorker(t.ctx, { registry: testRegistry({ webhookFetch: { allowLoopback: true, extraPorts: [hook.port] } }) });
  while (await worker.runNext());
}

describe('webhook endpoints on the account screen', () => {
  it('adds one (the secret once), sends it a signed test event, shows the delivery, and removes it', async () => {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const created = await call(t.app, 'POST', '/api/webhooks', { url: hook.url, events: ['alert.created'], description: 'Staging' }, owner.cookie);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: hook.url, events: ['alert.created'], description: 'Staging', state: 'active' });
    expect(created.body.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
    const listed = await call(t.app, 'GET', '/api/webhooks', undefined, owner.cookie);
    expect(listed.body.endpoints).toHaveLength(1);
    expect(JSON.stringify(listed.body)).not.toContain(created.body.secret);

    // A test, although the endpoint receives only alert.created.
    const test = await call(t.app, 'POST', `/api/webhooks/${created.body.id}/test`, undefined, owner.cookie);
    expect(test.status).toBe(202);
    expect(test.body).toMatchObject({ type: 'webhook.test', status: 'pending' });
    await drain();
    expect(hook.received).toHaveLength(1);
    const { headers, body } = hook.received[0]!;
    const event = new Webhook(created.body.secret).verify(body, {
      'webhook-id': String(headers['webhook-id']),
      'webhook-timestamp': String(headers['webhook-timestamp']),
      'webhook-signature': String(headers['webhook-signature']),
    });
    expect(event).toMatchObject({ type: 'webhook.test', data: { endpointId: created.body.id } });
    const log = await call(t.app, 'GET', '/api/webhooks', undefined, owner.cookie);
    expect(log.body.endpoints[0].deliveries).toHaveLength(1);
    expect(log.body.endpoints[0].deliveries[0]).toMatchObject({ id: test.body.id, type: 'webhook.test', status: 'delivered', attempts: [{ responseStatus: 200, excerpt: 'got it' }] });
    expect(log.body.endpoints[0]).toMatchObject({ state: 'active', consecutiveFailures: 0 });

    // Another account sees none of it.
    const stranger = await createUser(t.ctx, { tier: 'agency' });
    expect((await call(t.app, 'POST', `/api/webhooks/${created.body.id}/test`, undefined, stranger.cookie)).status).toBe(404);
    expect((await call(t.app, 'DELETE', `/api/webhooks/${created.body.id}`, undefined, stranger.cookie)).status).toBe(404);

    const removed = await call(t.app, 'DELETE', `/api/webhooks/${created.body.id}`, undefined, owner.cookie);
    expect(removed).toMatchObject({ status: 200, body: { deleted: true } });
    expect((await call(t.app, 'GET', '/api/webhooks', undefined, owner.cookie)).body.endpoints).toEqual([]);
    expect((await call(t.app, 'POST', `/api/webhooks/${created.body.id}/test`, undefined, owner.cookie)).status).toBe(404);
  });

  it('names the field of each refusal: an address that is not one, a private one, no event, a long description', async () => {
    const owner = await createUser(t.ctx, { tier: 'agency' });
    const add = (body: unknown) => call(t.app, 'POST', '/api/webhooks', body, owner.cookie);
    const notUrl = await add({ url: 'hooks.example.com/in', events: ['report.completed'] });
    expect(notUrl.status).toBe(400);
    expect(notUrl.body.fields).toEqual({ url: 'Enter an http:// or https:// address' });
    const internal = await add({ url: 'https://10.1.2.3/in', events: ['report.completed'] });
    expect(internal.status).toBe(400);
    expect(internal.body.fields.url).toBe('Deliveries never go to private, loopback or reserved addresses (10.1.2.3 is private)');
    const none = await add({ url: 'https://hooks.example.com/in', events: [] });
    expect(none.body.fields).toEqual({ events: 'Choose at least one event' });
    const long = await add({ url: 'https://hooks.example.com/in', events: ['report.completed'], description: 'x'.repeat(201) });
    expect(Object.keys(long.body.fields)).toEqual(['description']);
    expect((await call(t.app, 'GET', '/api/webhooks', undefined, owner.cookie)).body.endpoints).toEqual([]);
  });

  it('refuses a plan without API access, and signed-out callers', async () => {
    const pro = await createUser(t.ctx, { tier: 'pro' });
    const res = await call(t.app, 'POST', '/api/webhooks', { url: 'https://hooks.example.com/in', events: ['report.completed'] }, pro.cookie);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'plan_required', message: expect.stringContaining('Enterprise and Agency') });
    expect((await call(t.app, 'POST', '/api/webhooks', { url: 'https://hooks.example.com/in', events: ['report.completed'] })).status).toBe(401);
  });

  it('the API sends the same test: POST /api/v1/webhooks/{id}/test, limited per hour', async () => {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const key = (await call(t.app, 'POST', '/api/api-keys', { name: 'Hooks', scopes: ['webhooks:write'] }, owner.cookie)).body.key as string;
    const v1 = async (method: string, path: string, body?: unknown) => {
      const res = await t.app.request(`/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
      return { status: res.status, body: await res.json() };
    };
    const endpoint = await v1('POST', '/webhooks', { url: hook.url, events: ['report.completed'] });
    const before = hook.received.length;
    const sent = await v1('POST', `/webhooks/${endpoint.body.id}/test`);
    expect(sent).toMatchObject({ status: 202, body: { type: 'webhook.test', status: 'pending' } });
    await drain();
    expect(hook.received).toHaveLength(before + 1);
    for (let i = 1; i < WEBHOOK_TESTS_PER_HOUR; i++) expect((await v1('POST', `/webhooks/${endpoint.body.id}/test`)).status).toBe(202);
    const over = await v1('POST', `/webhooks/${endpoint.body.id}/test`);
    expect(over.status).toBe(429);
  });
});
