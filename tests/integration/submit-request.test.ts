import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_TEXT_VERSION } from '../../common/schemas/report-request-rules.ts';
import { businesses, consentRecords, reportRequests } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser, uniqueEmail } from '../helpers/factories.ts';
import { validForm } from '../helpers/report-requests.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: 'true', INTAKE_RATE_LIMIT_PER_IP: '4', INTAKE_RATE_LIMIT_PER_EMAIL: '3' });
});
afterAll(() => t.close());

let ipSeq = 0;
const nextIp = () => `203.0.113.${++ipSeq}`;

const valid = validForm;

async function submit(body: unknown, options: { ip?: string; cookie?: string; userAgent?: string } = {}) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'x-forwarded-for': options.ip ?? nextIp() };
  if (options.cookie) headers.cookie = options.cookie;
  if (options.userAgent) headers['user-agent'] = options.userAgent;
  const res = await t.app.request('/api/submit-request', { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Record<string, any>, headers: res.headers }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

describe('POST /api/submit-request validation', () => {
  const cases: Array<[string, unknown, string]> = [
    ['fullName', '', 'Required'],
    ['fullName', 'M', 'String must contain at least 2 character(s)'],
    ['email', '', 'Required'],
    ['email', 'maria@', 'Invalid email'],
    ['company', '  ', 'Required'],
    ['company', 'L', 'String must contain at least 2 character(s)'],
    ['role', '', 'Required'],
    ['role', 'ceo', "Invalid enum value. Expected 'owner' | 'director' | 'gm' | 'marketing' | 'other', received 'ceo'"],
    ['website', '', 'Required'],
    ['website', 'lopezplumbing.com', 'Invalid url'],
    ['website', 'ftp://lopezplumbing.com', 'Invalid url'],
    ['website', 'javascript:alert(1)', 'Invalid url'],
    ['address', '', 'Required'],
    ['address', '12 A', 'String must contain at least 5 character(s)'],
    ['city', '', 'Required'],
    ['city', 'A', 'String must contain at least 2 character(s)'],
    ['state', '', 'Required'],
    ['state', 'Texas', expect.stringContaining("Invalid enum value. Expected 'AL' | 'AK'") as unknown as string],
    ['state', 'DC', expect.stringContaining("received 'DC'") as unknown as string],
    ['zip', '', 'Required'],
    ['zip', '7870', 'ZIP code must be 5 digits or ZIP+4 (12345-6789)'],
    ['zip', '78704-12', 'ZIP code must be 5 digits or ZIP+4 (12345-6789)'],
    ['consent', 'yes', 'Expected boolean, received string'],
  ];
  it.each(cases)('%s = %j answers 400 with its message', async (field, value, message) => {
    const res = await submit(valid({ [field]: value }));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_input');
    expect(res.body.fields).toEqual({ [field]: message });
  });

  it('names every missing field', async () => {
    const res = await submit({});
    expect(res.status).toBe(400);
    expect(Object.keys(res.body.fields).sort()).toEqual(['address', 'city', 'company', 'email', 'fullName', 'role', 'state', 'website', 'zip']);
    expect(new Set(Object.values(res.body.fields))).toEqual(new Set(['Required']));
  });

  it('answers 400, not 500, to malformed JSON', async () => {
    const res = await t.app.request('/api/submit-request', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"fullName":' });
    expect(res.status).toBe(400);
  });

  it('refuses an address it cannot locate (neither ZIP nor city known), and takes an unknown ZIP in a known city', async () => {
    const lost = await submit(valid({ email: 'nobody@nowhere.example', city: 'Nowhereville', zip: '00001' }));
    expect(lost.status).toBe(400);
    expect(lost.body).toEqual({
      code: 'invalid_input',
      message: 'We could not find this address. Please check the ZIP code and the city.',
      fields: { zip: 'ZIP code not found', city: 'No city of this name in TX' },
    });
    expect(await t.ctx.db.select().from(reportRequests).where(eq(reportRequests.email, 'nobody@nowhere.example'))).toHaveLength(0);
    expect((await submit(valid({ zip: '00001' }))).status).toBe(202);
  });

  it('accepts ZIP+4 and every valid role', async () => {
    for (const role of ['owner', 'director', 'gm', 'marketing', 'other']) {
      expect((await submit(valid({ role, zip: '78704-1234' }))).status).toBe(202);
    }
  });
});

describe('POST /api/submit-request storing', () => {
  it('stores the business and the request and enqueues report.generate, answering 202 with the id', async () => {
    const input = valid({ email: '  Maria.Lopez@Example.COM ' });
    const res = await submit(input, { userAgent: 'vitest-agent' });
    expect(res.status).toBe(202);
    expect(res.body.requestId).toMatch(/^[0-9a-f-]{36}$/);

    const request = await t.ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, res.body.requestId) });
    expect(request).toMatchObject({ email: 'maria.lopez@example.com', marketingConsent: false, userId: null, userAgent: 'vitest-agent', status: 'queued' });
    const business = await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, request!.businessId) });
    expect(business).toMatchObject({ fullName: 'Maria Lopez', company: input.company, role: 'owner', state: 'TX', zip: '78704', userId: null });
    const queued = await t.ctx.db.select().from(jobs).where(eq(jobs.key, `report.generate:${res.body.requestId}`));
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ type: 'report.generate', status: 'queued', payload: { requestId: res.body.requestId, businessId: business!.id } });
    // Without consent: the report is still made, but no consent record (no marketing mail).
    expect(await t.ctx.db.select().from(consentRecords).where(eq(consentRecords.requestId, res.body.requestId))).toHaveLength(0);
  });

  it('records consent with time, IP, user agent and the text version when consent is true', async () => {
    const before = Date.now();
    const res = await submit(valid({ consent: true }), { ip: '198.51.100.77', userAgent: 'consenting-browser' });
    expect(res.status).toBe(202);
    const [record] = await t.ctx.db.select().from(consentRecords).where(eq(consentRecords.requestId, res.body.requestId));
    expect(record).toMatchObject({ ipAddress: '198.51.100.77', userAgent: 'consenting-browser', textVersion: CONSENT_TEXT_VERSION, withdrawnAt: null });
    expect(record!.consentedAt.getTime()).toBeGreaterThanOrEqual(before - 5);
    const request = await t.ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, res.body.requestId) });
    expect(request!.marketingConsent).toBe(true);
  });

  it('stores no consent record when consent is false', async () => {
    const res = await submit(valid({ consent: false }));
    expect(res.status).toBe(202);
    expect(await t.ctx.db.select().from(consentRecords).where(eq(consentRecords.requestId, res.body.requestId))).toHaveLength(0);
  });

  it('records the consent of a repeat that ticks the box, once, without a second request', async () => {
    const input = valid({ consent: false });
    const first = await submit(input);
    const again = await submit({ ...input, consent: true }, { userAgent: 'second-thoughts' });
    expect(again.status).toBe(202);
    expect(again.body.requestId).toBe(first.body.requestId);
    await submit({ ...input, consent: true });
    const records = await t.ctx.db.select().from(consentRecords).where(eq(consentRecords.requestId, first.body.requestId));
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ userAgent: 'second-thoughts', textVersion: CONSENT_TEXT_VERSION });
    const request = await t.ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, first.body.requestId) });
    expect(request!.marketingConsent).toBe(true);
    expect(await t.ctx.db.select().from(jobs).where(eq(jobs.key, `report.generate:${first.body.requestId}`))).toHaveLength(1);
  });

  it('gives the business to the signed-in user', async () => {
    const user = await createUser(t.ctx);
    const res = await submit(valid({ email: user.email }), { cookie: user.cookie });
    expect(res.status).toBe(202);
    const request = await t.ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, res.body.requestId) });
    expect(request!.userId).toBe(user.userId);
    const business = await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, request!.businessId) });
    expect(business!.userId).toBe(user.userId);
  });

  it('ignores a cookie that is not a session', async () => {
    const res = await submit(valid(), { cookie: 'better-auth.session_token=forged' });
    expect(res.status).toBe(202);
    const request = await t.ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, res.body.requestId) });
    expect(request!.userId).toBeNull();
  });

  it('returns the first id for the same request within 10 minutes and enqueues nothing more', async () => {
    const input = valid();
    const first = await submit(input);
    const jobsBefore = await t.ctx.db.$count(jobs);
    const businessesBefore = await t.ctx.db.$count(businesses);
    const again = await submit({ ...input, email: input.email.toUpperCase(), city: ' austin ' }, { ip: nextIp() });
    expect(again.status).toBe(202);
    expect(again.body.requestId).toBe(first.body.requestId);
    expect(await t.ctx.db.$count(jobs)).toBe(jobsBefore);
    expect(await t.ctx.db.$count(businesses)).toBe(businessesBefore);

    // Once the first request is older than 10 minutes, the same details make a new request.
    await t.ctx.db.update(reportRequests).set({ createdAt: new Date(Date.now() - 11 * 60 * 1000) }).where(eq(reportRequests.id, first.body.requestId));
    const later = await submit(input);
    expect(later.status).toBe(202);
    expect(later.body.requestId).not.toBe(first.body.requestId);
    expect(await t.ctx.db.$count(jobs)).toBe(jobsBefore + 1);
  });

  it('treats a different business from the same person as a new request', async () => {
    const input = valid();
    const first = await submit(input);
    const other = await submit({ ...input, company: `${input.company} North` });
    expect(other.body.requestId).not.toBe(first.body.requestId);
  });
});

describe('POST /api/submit-request rate limits', () => {
  it('limits requests per IP with 429 and a message', async () => {
    const ip = '192.0.2.10';
    for (let i = 0; i < 4; i++) expect((await submit(valid(), { ip })).status).toBe(202);
    const res = await submit(valid(), { ip });
    expect(res.status).toBe(429);
    expect(res.body).toMatchObject({ code: 'rate_limited', message: 'Too many report requests from your network. Please try again in an hour.' });
    expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    expect((await submit(valid(), { ip: '192.0.2.11' })).status).toBe(202);
  });

  it('limits requests per e-mail address across IPs', async () => {
    const email = uniqueEmail('limited');
    for (let i = 0; i < 3; i++) expect((await submit(valid({ email }))).status).toBe(202);
    const res = await submit(valid({ email: email.toUpperCase() }));
    expect(res.status).toBe(429);
    expect(res.body.message).toBe('Too many report requests for this email address. Please try again in an hour.');
  });

  it('stores nothing for a refused request', async () => {
    const email = uniqueEmail('refused');
    for (let i = 0; i < 3; i++) await submit(valid({ email }));
    const before = await t.ctx.db.$count(businesses);
    expect((await submit(valid({ email }))).status).toBe(429);
    expect(await t.ctx.db.$count(businesses)).toBe(before);
  });
});

describe('POST /api/submit-request atomicity', () => {
  it('stores no business without its job', async () => {
    const broken = await createTestContext({ LOG_LEVEL: 'silent' });
    try {
      await broken.ctx.db.run(sql`DROP TABLE jobs`);
      const res = await call(broken.app, 'POST', '/api/submit-request', valid());
      expect(res.status).toBe(500);
      expect(await broken.ctx.db.$count(businesses)).toBe(0);
      expect(await broken.ctx.db.$count(reportRequests)).toBe(0);
    } finally {
      await broken.close();
    }
  });
});
