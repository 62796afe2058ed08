import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
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

describe('in production', () => {
  let prod: TestContext;
  beforeAll(async () => {
    prod = await createTestContext({ NODE_ENV: 'production', PUBLIC_BASE_URL: 'https://localrank.example' });
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
