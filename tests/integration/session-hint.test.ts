// The session hint cookie: set on sign-up and login, kept fresh by the session check, cleared on
// logout and when the check finds no session. Never httpOnly (the browser must read it), never a secret.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { uniqueEmail } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const hintOf = (headers: Headers) => headers.getSetCookie().find((c) => c.startsWith('localrank_session='));

describe('session hint cookie', () => {
  it('is set on sign-up and login, readable by scripts, and cleared on logout', async () => {
    const email = uniqueEmail('hint');
    const signup = await call(t.app, 'POST', '/api/auth/signup', { email, password: 'longenough', role: 'client' });
    expect(signup.status).toBe(201);
    const set = hintOf(signup.headers)!;
    expect(set).toMatch(/^localrank_session=1; Max-Age=2592000; Path=\/; SameSite=Lax$/);
    expect(set).not.toMatch(/HttpOnly/i);

    const login = await call(t.app, 'POST', '/api/auth/login', { email, password: 'longenough' });
    expect(login.status).toBe(200);
    expect(hintOf(login.headers)).toMatch(/^localrank_session=1;/);

    const me = await call(t.app, 'GET', '/api/auth/me', undefined, login.cookie);
    expect(me.status).toBe(200);
    expect(hintOf(me.headers)).toMatch(/^localrank_session=1;/);

    const logout = await call(t.app, 'POST', '/api/auth/logout', undefined, login.cookie);
    expect(hintOf(logout.headers)).toMatch(/^localrank_session=; Max-Age=0;/);
  });

  it('is cleared when the session check finds no session', async () => {
    const me = await call(t.app, 'GET', '/api/auth/me', undefined, 'localrank_session=1');
    expect(me.status).toBe(401);
    expect(me.body).toEqual({ code: 'unauthenticated', message: 'Not authenticated' });
    expect(hintOf(me.headers)).toMatch(/^localrank_session=; Max-Age=0;/);
  });

  it('is not set when login fails', async () => {
    const res = await call(t.app, 'POST', '/api/auth/login', { email: uniqueEmail('nobody'), password: 'longenough' });
    expect(res.status).toBe(401);
    expect(hintOf(res.headers)).toBeUndefined();
  });

  it('is Secure in production', async () => {
    const prod = await createTestContext({ NODE_ENV: 'production', ALLOW_SAMPLE_DATA: 'true', AUTH_SECRET: 'x'.repeat(40), PUBLIC_BASE_URL: 'https://localrank.example' });
    try {
      const res = await call(prod.app, 'POST', '/api/auth/signup', { email: uniqueEmail('prod'), password: 'longenough', role: 'client' });
      expect(res.status).toBe(201);
      expect(hintOf(res.headers)).toMatch(/; Secure$/);
    } finally {
      await prod.close();
    }
  });
});
