import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KNOWN_BROWSER_COOKIE, LOGIN_LIMIT_PER_ACCOUNT_NEW_BROWSERS } from '../../api/services/accounts.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser, uniqueEmail } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('POST /api/auth/signup', () => {
  it('creates a consultant with a consultants row and signs them in', async () => {
    const email = uniqueEmail('consultant');
    const res = await call(t.app, 'POST', '/api/auth/signup', { email, password: 'longenough', role: 'consultant', companyName: 'Acme' });
    expect(res.status).toBe(201);
    expect(res.body.user).toMatchObject({ email, role: 'consultant', subscriptionTier: 'free', subscriptionStatus: 'active' });
    expect(res.body.consultant).toMatchObject({ companyName: 'Acme', subscriptionTier: 'free', subscriptionStatus: 'active' });
    expect(JSON.stringify(res.body)).not.toContain('longenough');
    expect(res.headers.get('set-cookie')).toMatch(/HttpOnly/);
    expect(res.headers.get('set-cookie')).toMatch(/SameSite=Lax/);

    const me = await call(t.app, 'GET', '/api/auth/me', undefined, res.cookie);
    expect(me.status).toBe(200);
    expect(me.body.user.email).toBe(email);
    expect(me.body.consultant.companyName).toBe('Acme');
  });

  it('creates a client without a consultant profile, ignoring a company name', async () => {
    const res = await call(t.app, 'POST', '/api/auth/signup', { email: uniqueEmail('client'), password: 'longenough', role: 'client', companyName: 'X' });
    expect(res.status).toBe(201);
    expect(res.body.consultant).toBeUndefined();
  });

  it('answers the spec messages per field', async () => {
    const res = await call(t.app, 'POST', '/api/auth/signup', { email: 'not-an-email', password: 'short', role: 'consultant' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'invalid_input',
      fields: { email: 'Invalid email', password: 'Password must be at least 8 characters long', companyName: 'Company name is required for consultants' },
    });
  });

  it('refuses a second sign-up with the same e-mail and leaves the first account alone', async () => {
    const first = await createUser(t.ctx, { password: 'first-password' });
    const again = await call(t.app, 'POST', '/api/auth/signup', { email: first.email.toUpperCase(), password: 'other-password', role: 'client' });
    expect(again.status).toBe(409);
    expect(again.body.fields.email).toBe('An account with this email already exists');
    const login = await call(t.app, 'POST', '/api/auth/login', { email: first.email, password: 'first-password' });
    expect(login.status).toBe(200);
  });

  it('refuses an e-mail address longer than 254 characters, as the other forms do', async () => {
    const email = `${'a'.repeat(64)}.${'b'.repeat(180)}@example.com`;
    expect(email.length).toBeGreaterThan(254);
    const res = await call(t.app, 'POST', '/api/auth/signup', { email, password: 'longenough', role: 'client' });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ email: 'Invalid email' });
    expect((await call(t.app, 'POST', '/api/auth/login', { email, password: 'longenough' })).body.fields).toEqual({ email: 'Invalid email' });
  });

  it('answers the same 409 to the losers of two sign-ups with one e-mail at once', async () => {
    const email = uniqueEmail('race');
    const all = await Promise.all([1, 2, 3].map(() => call(t.app, 'POST', '/api/auth/signup', { email, password: 'longenough', role: 'client' })));
    expect(all.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    for (const lost of all.filter((r) => r.status === 409)) expect(lost.body.fields).toEqual({ email: 'An account with this email already exists' });
  });

  it('answers 400 for malformed JSON, wrong types and unknown fields, 413 for a huge body, never 500', async () => {
    expect((await call(t.app, 'POST', '/api/auth/signup', '{"email":')).status).toBe(400);
    const wrongTypes = await call(t.app, 'POST', '/api/auth/signup', { email: 5, password: [], role: 'admin' });
    expect(wrongTypes.status).toBe(400);
    expect(wrongTypes.body.fields).toMatchObject({ email: 'Expected string, received number', role: "Invalid enum value. Expected 'consultant' | 'client', received 'admin'" });
    const unknown = await call(t.app, 'POST', '/api/auth/signup', { email: uniqueEmail(), password: 'longenough', role: 'client', isAdmin: true });
    expect(unknown.status).toBe(400);
    expect(unknown.body.fields).toEqual({ isAdmin: "Unrecognized key(s) in object: 'isAdmin'" });
    const huge = await call(t.app, 'POST', '/api/auth/signup', { email: uniqueEmail(), password: 'x'.repeat(100_000), role: 'client' });
    expect(huge.status).toBe(413);
  });
});

describe('POST /api/auth/login and logout', () => {
  it('signs in, reports the session, and signs out', async () => {
    const user = await createUser(t.ctx, { role: 'consultant', companyName: 'North' });
    const login = await call(t.app, 'POST', '/api/auth/login', { email: user.email, password: user.password });
    expect(login.status).toBe(200);
    expect(login.body.consultant.companyName).toBe('North');
    const logout = await call(t.app, 'POST', '/api/auth/logout', undefined, login.cookie);
    expect(logout.status).toBe(200);
    expect((await call(t.app, 'GET', '/api/auth/me', undefined, login.cookie)).status).toBe(401);
  });

  it('gives one answer for a wrong password and an unknown e-mail', async () => {
    const user = await createUser(t.ctx);
    const wrong = await call(t.app, 'POST', '/api/auth/login', { email: user.email, password: 'wrong-password' });
    const unknown = await call(t.app, 'POST', '/api/auth/login', { email: uniqueEmail('nobody'), password: 'wrong-password' });
    expect(wrong.status).toBe(401);
    expect(unknown.status).toBe(401);
    expect(wrong.body).toEqual(unknown.body);
  });

  it('limits login attempts per e-mail and address with a 429 and a clear message', async () => {
    const user = await createUser(t.ctx);
    let last;
    for (let i = 0; i < 11; i++) last = await call(t.app, 'POST', '/api/auth/login', { email: user.email, password: 'wrong-password' });
    expect(last!.status).toBe(429);
    expect(last!.body.message).toBe('Too many login attempts. Please wait 15 minutes and try again.');
    expect(last!.headers.get('retry-after')).toBeTruthy();
  });

  it('says 401 to /api/auth/me when signed out', async () => {
    const res = await call(t.app, 'GET', '/api/auth/me');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 'unauthenticated', message: 'Not authenticated' });
  });
});

describe('sign-up limit per IP address', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({ TRUST_PROXY: 'true', SIGNUP_RATE_LIMIT_PER_IP: '2' });
  });
  afterAll(() => limited.close());

  const signupFrom = (ip: string, email: string) =>
    limited.app.request('/api/auth/signup', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ email, password: 'longenough', role: 'client' }),
    });

  it('refuses the third account from one address within the hour with a 429, and no account is made', async () => {
    expect((await signupFrom('203.0.113.7', uniqueEmail('first'))).status).toBe(201);
    expect((await signupFrom('203.0.113.7', uniqueEmail('second'))).status).toBe(201);
    const third = uniqueEmail('third');
    const refused = await signupFrom('203.0.113.7', third);
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited', message: 'Too many accounts were created from this network. Please try again in an hour.' });
    expect(refused.headers.get('retry-after')).toBeTruthy();
    expect((await call(limited.app, 'POST', '/api/auth/login', { email: third, password: 'longenough' })).status).toBe(401);
    expect((await signupFrom('198.51.100.2', third)).status).toBe(201);
  });
});

describe('login limit per IP address', () => {
  let limited: TestContext;
  beforeAll(async () => {
    limited = await createTestContext({ TRUST_PROXY: 'true' });
  });
  afterAll(() => limited.close());

  const loginFrom = (ip: string, email: string) =>
    limited.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ email, password: 'wrong-password' }),
    });

  it('refuses the 51st attempt from one address within 15 minutes, whatever the e-mail, and not other addresses', async () => {
    for (let i = 0; i < 50; i++) expect((await loginFrom('203.0.113.9', uniqueEmail(`guess${i}`))).status).toBe(401);
    const refused = await loginFrom('203.0.113.9', uniqueEmail('guess-more'));
    expect(refused.status).toBe(429);
    expect(await refused.json()).toMatchObject({ code: 'rate_limited', message: 'Too many login attempts. Please wait 15 minutes and try again.' });
    expect((await loginFrom('198.51.100.3', uniqueEmail('elsewhere'))).status).toBe(401);
  }, 60_000);

  it("a stranger's wrong passwords do not lock the owner out: the limit is per e-mail and address", async () => {
    const owner = await createUser(limited.ctx);
    for (let i = 0; i < 10; i++) expect((await loginFrom('203.0.113.50', owner.email)).status).toBe(401);
    expect((await loginFrom('203.0.113.50', owner.email)).status).toBe(429);
    const right = await limited.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.77' },
      body: JSON.stringify({ email: owner.email, password: owner.password }),
    });
    expect(right.status).toBe(200);
  }, 60_000);

  it('a guesser spread over many addresses meets a per-account limit, which a browser the owner signed in on passes', async () => {
    const owner = await createUser(limited.ctx);
    const other = await createUser(limited.ctx);
    const signIn = (ip: string, user: { email: string; password: string }, cookie?: string) =>
      limited.app.request('/api/auth/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip, ...(cookie ? { cookie } : {}) },
        body: JSON.stringify({ email: user.email, password: user.password }),
      });
    const knownBrowserOf = (res: Response) => {
      const set = res.headers.getSetCookie().find((c) => c.startsWith(`${KNOWN_BROWSER_COOKIE}=`))!;
      expect(set).toMatch(/; Path=\/api\/auth\/login; HttpOnly; SameSite=Strict/);
      return set.split(';')[0]!;
    };
    const ownersBrowser = knownBrowserOf(await signIn('198.51.100.10', owner));
    const othersBrowser = knownBrowserOf(await signIn('198.51.100.11', other));

    // The owner's first sign-in was from a new browser and counted; then one wrong password from
    // each of 49 addresses, none of them near its own limits.
    for (let i = 1; i < LOGIN_LIMIT_PER_ACCOUNT_NEW_BROWSERS; i++) expect((await loginFrom(`192.0.2.${i + 1}`, owner.email)).status).toBe(401);
    const stranger = await signIn('192.0.2.200', owner);
    expect(stranger.status).toBe(429);
    expect(await stranger.json()).toMatchObject({
      code: 'rate_limited',
      message: 'Too many login attempts for this account from browsers it has not been used on. Please sign in from a browser you have used before, or wait 15 minutes and try again.',
    });
    // Another account's cookie, or a forged one, is a new browser for this account.
    expect((await signIn('192.0.2.201', owner, othersBrowser)).status).toBe(429);
    expect((await signIn('192.0.2.202', owner, `${ownersBrowser.slice(0, -2)}xx`)).status).toBe(429);
    // The owner's browser signs in, from any address.
    expect((await signIn('192.0.2.203', owner, ownersBrowser)).status).toBe(200);
    // Other accounts are not affected.
    expect((await signIn('192.0.2.204', other)).status).toBe(200);
  }, 120_000);
});
