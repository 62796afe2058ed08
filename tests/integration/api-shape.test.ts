import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Logger } from '../../api/log.ts';
import { API_CSP } from '../../api/lib/security-headers.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('every API answer', () => {
  it('carries a request id and the security headers', async () => {
    const res = await call(t.app, 'GET', '/api/health');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-request-id')).toMatch(/[0-9a-f-]{36}/);
    // Data, not documents: nothing in an API answer may run (no inline script, no script at all).
    expect(res.headers.get('content-security-policy')).toBe(API_CSP);
    expect(res.headers.get('content-security-policy')).not.toContain('unsafe-inline');
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(res.headers.get('strict-transport-security')).toBeNull();
  });

  it('is an error in one shape for an unknown route', async () => {
    const res = await call(t.app, 'GET', '/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'not_found', message: 'Not found' });
  });
});

describe('an unexpected failure', () => {
  let broken: TestContext;
  beforeAll(async () => {
    broken = await createTestContext();
  });
  afterAll(() => broken.close());

  it("is a 500 in the one shape, logged without the values of the failed query (a report link's token)", async () => {
    const lines: string[] = [];
    const keep = (msg: string, fields?: Record<string, unknown>) => void lines.push(JSON.stringify({ msg, ...fields }));
    broken.ctx.log = { debug: keep, info: keep, warn: keep, error: keep } satisfies Logger;
    await broken.ctx.db.run(sql`DROP TABLE reports`);
    const token = 'SecretReportLinkToken_0123456789';
    const res = await call(broken.app, 'GET', `/api/reports/${token}/report.pdf`);
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ code: 'internal', message: 'Something went wrong on our side. Please try again.' });
    const log = lines.join('\n');
    expect(log).toContain('unhandled error');
    expect(log).toContain('"route":"GET /api/reports/:token/report.pdf"');
    expect(log).toContain('Failed query: select');
    expect(log).toContain('no such table: reports');
    expect(log).toMatch(/at .*reports\.ts/);
    expect(log).not.toContain(token);
  });
});

describe('in production', () => {
  let prod: TestContext;
  beforeAll(async () => {
    prod = await createTestContext({ NODE_ENV: 'production', ALLOW_SAMPLE_DATA: 'true', PUBLIC_BASE_URL: 'https://localrank.example' });
  });
  afterAll(() => prod.close());

  it('adds HSTS and Secure session cookies', async () => {
    const health = await call(prod.app, 'GET', '/api/health');
    expect(health.headers.get('strict-transport-security')).toContain('max-age=');
    const signup = await call(prod.app, 'POST', '/api/auth/signup', { email: 'secure@example.com', password: 'longenough', role: 'client' });
    expect(signup.status).toBe(201);
    expect(signup.headers.get('set-cookie')).toMatch(/; Secure/);
  });
});
