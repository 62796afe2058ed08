// Every request that changes something with the session cookie must come from our own pages
// (decision 0240). Walked over the app's own route list, so a new route cannot forget it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FOREIGN_ORIGIN_MESSAGE } from '../../api/lib/same-origin.ts';
import { ROUTES } from '../helpers/api-routes.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

const PASSWORD = 'Unique-Passw0rd-For-Same-Origin';
// Routes that never act on the session, each with its own proof: the widget's publishable key and
// the Origin its key allows (called from other sites by design), Stripe's signature.
const NOT_BY_SESSION = new Set(['POST /api/stripe/webhook', 'POST /api/widget/v1/:publishableKey/leads']);

let t: TestContext;
let user: Awaited<ReturnType<typeof createUser>>;
let own: string;

beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: 'https://localrank.example' });
  own = new URL(t.ctx.env.PUBLIC_BASE_URL).origin;
  user = await createUser(t.ctx, { role: 'consultant', tier: 'agency', password: PASSWORD });
});
afterAll(() => t.close());

const changing = () =>
  [...new Set(t.app.routes.filter((r) => !['ALL', 'GET', 'HEAD', 'OPTIONS'].includes(r.method)).map((r) => `${r.method} ${r.path}`))].filter((key) => !key.includes(' /api/v1/'));

async function send(method: string, path: string, headers: Record<string, string>, body?: string) {
  const res = await t.app.request(path, { method, headers, body });
  const text = await res.text();
  let json: { code?: string; message?: string } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // not JSON: the status says enough
  }
  return { status: res.status, body: json };
}

/** A session of the user's own: routes that end one get a fresh one each time. */
const freshCookie = async () => (await call(t.app, 'POST', '/api/auth/login', { email: user.email, password: PASSWORD })).cookie;

const createKey = async () =>
  (await call(t.app, 'POST', '/api/widget/keys', { name: 'Site', allowedHostnames: ['shop.example'], brandingProfileId: null, components: ['report-form'], scoreCardClientId: null, leadEmails: 'each' }, user.cookie)).body.id as string;

describe('a changing request with the session cookie from another site', () => {
  it('walks a route table that lists every route of the app', () => {
    const listed = Object.keys(ROUTES).filter((key) => !/^(GET|HEAD|OPTIONS) /.test(key));
    expect(changing().sort()).toEqual(listed.sort());
    for (const key of NOT_BY_SESSION) expect(listed, key).toContain(key);
  });

  const foreign: Record<string, Record<string, string>> = {
    'another site': { origin: 'https://evil.example' },
    'a sibling subdomain': { origin: 'https://attacker.localrank.example' },
    'another port of the same host': { origin: 'https://localrank.example:8443' },
    'a sandboxed frame (Origin: null)': { origin: 'null' },
    'no Origin, Sec-Fetch-Site cross-site': { 'sec-fetch-site': 'cross-site' },
    'no Origin, Sec-Fetch-Site same-site': { 'sec-fetch-site': 'same-site' },
  };
  for (const [from, headers] of Object.entries(foreign)) {
    it(`is refused on every route with 403, from ${from}`, async () => {
      for (const key of changing()) {
        if (NOT_BY_SESSION.has(key)) continue;
        const [method, path] = key.split(' ') as [string, string];
        const cookie = ROUTES[key]!.endsSession ? await freshCookie() : user.cookie;
        // A form-encoded body: a plain HTML form needs no preflight.
        const res = await send(method, path.replace(/:\w+(\{[^}]*\})?/g, crypto.randomUUID()), { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' }, '');
        expect(res.status, key).toBe(403);
        expect(res.body, key).toEqual({ code: 'forbidden', message: FOREIGN_ORIGIN_MESSAGE });
      }
    });
  }

  it('changes nothing: the widget key stays, the session stays', async () => {
    const keyId = await createKey();
    const other = await freshCookie();
    for (const path of [`/api/widget/keys/${keyId}/revoke`, '/api/auth/sessions/revoke-others', '/api/auth/logout']) {
      expect((await send('POST', path, { origin: 'https://evil.example', cookie: user.cookie, 'content-type': 'application/x-www-form-urlencoded' }, '')).status, path).toBe(403);
    }
    const keys = (await call(t.app, 'GET', '/api/widget/keys', undefined, user.cookie)).body as { keys: Array<{ id: string; revokedAt: string | null }> };
    expect(keys.keys.find((k) => k.id === keyId)?.revokedAt ?? null).toBeNull();
    expect((await call(t.app, 'GET', '/api/auth/me', undefined, other)).status).toBe(200);
  });
});

describe('the same requests from our own pages, and from clients that are no browser', () => {
  it('pass with our Origin, with Sec-Fetch-Site same-origin, and with neither header', async () => {
    const senders: Array<Record<string, string>> = [{ origin: own }, { 'sec-fetch-site': 'same-origin' }, {}];
    for (const headers of senders) {
      const keyId = await createKey();
      const res = await send('POST', `/api/widget/keys/${keyId}/revoke`, { ...headers, cookie: user.cookie });
      expect(res.status, JSON.stringify(headers)).toBe(200);
    }
  });

  it('pass from another site without the session cookie (a sign-up, the one-click unsubscribe)', async () => {
    const res = await send('POST', '/api/unsubscribe', { origin: 'https://mail.example', 'content-type': 'application/x-www-form-urlencoded' }, '');
    expect(res.status).not.toBe(403);
  });

  it('leaves the public API to its key: a Bearer call from another site with a cookie passes', async () => {
    const { key } = (await call(t.app, 'POST', '/api/api-keys', { name: 'Script', scopes: ['businesses:read', 'clients:write'] }, user.cookie)).body as { key: string };
    const res = await send('POST', '/api/v1/clients', { origin: 'https://evil.example', cookie: user.cookie, authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': crypto.randomUUID() }, '{}');
    expect(res.status).toBe(400);
  });

  it("leaves the widget's and Stripe's routes to their own proof", async () => {
    const lead = await send('POST', '/api/widget/v1/pk_unknown/leads', { origin: 'https://evil.example', cookie: user.cookie, 'content-type': 'application/json' }, '{}');
    expect(lead.status).toBe(403);
    expect(lead.body.message).not.toBe(FOREIGN_ORIGIN_MESSAGE);
    const stripe = await send('POST', '/api/stripe/webhook', { origin: 'https://evil.example', cookie: user.cookie, 'content-type': 'application/json' }, '{}');
    expect(stripe.body.message).not.toBe(FOREIGN_ORIGIN_MESSAGE);
  });
});
