// POST /api/contact: the spec's messages per field, the message stored with its notification job
// in one batch, the rate limits, and the e-mail to the operator through the worker.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { contactMessages, jobs } from '../../db/schema/operations.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { uniqueEmail } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: 'true', CONTACT_RATE_LIMIT_PER_IP: '3', CONTACT_RATE_LIMIT_PER_EMAIL: '2' });
});
afterAll(() => t.close());

let seq = 0;
const nextIp = () => `198.51.100.${++seq}`;
const valid = (overrides: Record<string, unknown> = {}) => ({
  name: 'Dana Whitfield',
  email: uniqueEmail('dana'),
  subject: 'billing',
  message: 'Can I switch my Pro plan to annual billing mid-cycle?',
  ...overrides,
});

async function send(body: unknown, ip = nextIp()) {
  const res = await t.app.request('/api/contact', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('validation', () => {
  const cases: Array<[string, unknown, string]> = [
    ['name', undefined, 'Name must be at least 2 characters'],
    ['name', '', 'Name must be at least 2 characters'],
    ['name', ' D ', 'Name must be at least 2 characters'],
    ['name', 'D'.repeat(101), 'Name must be at most 100 characters'],
    ['email', undefined, 'Please enter a valid email'],
    ['email', 'dana@', 'Please enter a valid email'],
    ['email', 42, 'Please enter a valid email'],
    ['subject', undefined, 'Please select a subject'],
    ['subject', '', 'Please select a subject'],
    ['subject', 'complaint', 'Please select a subject'],
    ['message', undefined, 'Message must be at least 10 characters'],
    ['message', 'Too short', 'Message must be at least 10 characters'],
    ['message', '          hi          ', 'Message must be at least 10 characters'],
    ['message', 'x'.repeat(5001), 'Message must be at most 5000 characters'],
  ];
  it.each(cases)('%s = %j → 400 "%s"', async (field, value, message) => {
    const body: Record<string, unknown> = valid();
    if (value === undefined) delete body[field];
    else body[field] = value;
    const res = await send(body);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_input');
    expect(res.body.fields).toEqual({ [field]: message });
  });

  it('reports every bad field at once, and stores nothing', async () => {
    const before = (await t.ctx.db.select().from(contactMessages)).length;
    const res = await send({});
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      name: 'Name must be at least 2 characters',
      email: 'Please enter a valid email',
      subject: 'Please select a subject',
      message: 'Message must be at least 10 characters',
    });
    expect((await t.ctx.db.select().from(contactMessages)).length).toBe(before);
  });

  it('answers malformed JSON and unknown fields with 400, not 500', async () => {
    expect((await send('{"name":')).status).toBe(400);
    const extra = await send(valid({ admin: true }));
    expect(extra.status).toBe(400);
  });
});

describe('a valid message', () => {
  it('is stored (trimmed, e-mail lower-cased) with its contact.notify job, and answers 201', async () => {
    const email = uniqueEmail('Dana').toUpperCase();
    const res = await send(valid({ name: '  Dana Whitfield ', email, subject: 'sales' }), '198.51.100.200');
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.body.status).toBe('received');
    const [row] = await t.ctx.db.select().from(contactMessages).where(eq(contactMessages.id, res.body.id));
    expect(row).toMatchObject({ name: 'Dana Whitfield', email: email.toLowerCase(), subject: 'sales', ipAddress: '198.51.100.200', notifiedAt: null });
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.key, `contact.notify:${res.body.id}`));
    expect(job).toMatchObject({ type: 'contact.notify', status: 'queued', payload: { messageId: res.body.id } });
  });

  it('reaches the operator: the worker runs the job and marks the message notified', async () => {
    const res = await send(valid());
    const worker = createWorker(t.ctx, { registry: testRegistry({}) });
    while (await worker.runNext()) {
      /* drain the queue */
    }
    const [row] = await t.ctx.db.select().from(contactMessages).where(eq(contactMessages.id, res.body.id));
    expect(row!.notifiedAt).toBeInstanceOf(Date);
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.key, `contact.notify:${res.body.id}`));
    expect(job!.status).toBe('done');
  });
});

describe('rate limits', () => {
  it('limits one IP address per hour (429 with Retry-After), counting nothing stored beyond', async () => {
    const ip = '198.51.100.250';
    for (let i = 0; i < 3; i++) expect((await send(valid(), ip)).status).toBe(201);
    const before = (await t.ctx.db.select().from(contactMessages)).length;
    const refused = await send(valid(), ip);
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ code: 'rate_limited', message: 'Too many messages from your network. Please try again in an hour.' });
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3500);
    expect((await t.ctx.db.select().from(contactMessages)).length).toBe(before);
  });

  it('limits one e-mail address per hour, whatever the IP', async () => {
    const email = uniqueEmail('repeat');
    for (let i = 0; i < 2; i++) expect((await send(valid({ email }))).status).toBe(201);
    const refused = await send(valid({ email: email.toUpperCase() }));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toBe('Too many messages from this email address. Please try again in an hour.');
  });
});
