// Every request that changes something with the session cookie must come from our own pages
// (decision 0240): PUBLIC_BASE_URL's origin, or an agency's verified report domain for a request
// sent to that domain (decision 0311). Walked over the app's own route list, so a new route cannot
// forget it, and the whole database compared before and after; better-auth's own endpoints are
// reached only through those routes.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brandingProfiles } from '../../db/schema/consultants.ts';
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
    it(`is refused on every route with 403, from ${from}, and changes nothing in the database`, async () => {
      const routes = changing().filter((key) => !NOT_BY_SESSION.has(key));
      const cookies = new Map<string, string>();
      for (const key of routes) cookies.set(key, ROUTES[key]!.endsSession ? await freshCookie() : user.cookie);
      const before = await everyRow();
      for (const key of routes) {
        const [method, path] = key.split(' ') as [string, string];
        const cookie = cookies.get(key)!;
        // A form-encoded body: a plain HTML form needs no preflight.
        const res = await send(method, path.replace(/:\w+(\{[^}]*\})?/g, crypto.randomUUID()), { ...headers, cookie, 'content-type': 'application/x-www-form-urlencoded' }, '');
        expect(res.status, key).toBe(403);
        expect(res.body, key).toEqual({ code: 'forbidden', message: FOREIGN_ORIGIN_MESSAGE });
      }
      expect(await everyRow()).toEqual(before);
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

describe("an agency's verified report domain", () => {
  const DOMAIN = 'reports.northstar.example';
  beforeAll(async () => {
    const profile = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing' }, user.cookie)).body as { id: string };
    await t.ctx.db.update(brandingProfiles).set({ customDomain: DOMAIN, domainVerifiedAt: new Date() }).where(eq(brandingProfiles.id, profile.id));
    const unverified = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Unverified' }, user.cookie)).body as { id: string };
    await t.ctx.db.update(brandingProfiles).set({ customDomain: 'reports.unverified.example' }).where(eq(brandingProfiles.id, unverified.id));
  });

  it('is ours for a request its own page sends to it', async () => {
    const keyId = await createKey();
    const res = await send('POST', `/api/widget/keys/${keyId}/revoke`, { origin: `https://${DOMAIN}`, host: DOMAIN, cookie: user.cookie, 'content-type': 'application/x-www-form-urlencoded' }, '');
    expect(res.status).toBe(200);
  });

  it('is not ours for a request sent to another host, over another scheme, or from a domain not verified', async () => {
    const keyId = await createKey();
    const senders: Array<Record<string, string>> = [
      { origin: `https://${DOMAIN}`, host: 'localrank.example' },
      { origin: `http://${DOMAIN}`, host: DOMAIN },
      { origin: 'https://reports.unverified.example', host: 'reports.unverified.example' },
    ];
    for (const headers of senders) {
      const res = await send('POST', `/api/widget/keys/${keyId}/revoke`, { ...headers, cookie: user.cookie, 'content-type': 'application/x-www-form-urlencoded' }, '');
      expect(res.status, JSON.stringify(headers)).toBe(403);
    }
  });
});

describe("better-auth's own endpoints", () => {
  it('are reached only through our routes: each of its paths that is not one of them answers 404', async () => {
    const ours = new Set(t.app.routes.map((r) => r.path));
    const paths = Object.values(t.ctx.auth.api as Record<string, { path?: string }>).flatMap((endpoint) => (endpoint.path ? [endpoint.path] : []));
    expect(paths).toContain('/sign-in/email');
    for (const path of paths) {
      const full = `/api/auth${path}`;
      if (ours.has(full)) continue;
      for (const method of ['GET', 'POST']) {
        const res = await send(method, full, { origin: own, cookie: user.cookie, 'content-type': 'application/json' }, method === 'POST' ? '{}' : undefined);
        expect(res.status, `${method} ${full}`).toBe(404);
      }
    }
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

/** Every row of every table, to compare: a refused request changed nothing. */
async function everyRow(): Promise<Record<string, string[]>> {
  const tables = (await t.ctx.db.$client.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")).rows.map((r) => String(r.name));
  const rows: Record<string, string[]> = {};
  const text = (_: string, v: unknown) => (v instanceof ArrayBuffer ? Buffer.from(v).toString('base64') : v);
  for (const name of tables) rows[name] = (await t.ctx.db.$client.execute(`SELECT * FROM "${name}"`)).rows.map((r) => JSON.stringify(r, text)).sort();
  return rows;
}
