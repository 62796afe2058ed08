// API keys on /account (issue 16): created on Enterprise and Agency plans only, shown once, stored
// as a hash with a checksum in the key, rolled with a grace period, revoked; another user's key
// answers 404.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flushLastUsed, generateApiKey, hashApiKey, isWellFormedApiKey, verifyApiKey } from '../../api/services/api-keys.ts';
import { apiKeys } from '../../db/schema/api.ts';
import { users } from '../../db/schema/auth.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('API keys', () => {
  it('makes keys with a checksum that catches a changed character', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^lr_live_[0-9A-Za-z]{36}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    const last = key.at(-7)!;
    const altered = key.slice(0, -7) + (last === 'a' ? 'b' : 'a') + key.slice(-6);
    expect(isWellFormedApiKey(altered)).toBe(false);
    expect(generateApiKey()).not.toBe(key);
  });

  it('creates a key once in full, stores only its hash and lists it with prefix and last four', async () => {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const created = await call(t.app, 'POST', '/api/api-keys', { name: 'CI', scopes: ['reports:read', 'businesses:read'] }, owner.cookie);
    expect(created.status).toBe(201);
    const { key, apiKey } = created.body;
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(apiKey).toMatchObject({ name: 'CI', scopes: ['reports:read', 'businesses:read'], prefix: key.slice(0, 12), lastFour: key.slice(-4), lastUsedAt: null });
    const [row] = await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row!.hash).toBe(hashApiKey(key));
    expect(JSON.stringify(row)).not.toContain(key);
    const list = await call(t.app, 'GET', '/api/api-keys', undefined, owner.cookie);
    expect(list.body.apiKeys.map((k: { id: string }) => k.id)).toEqual([apiKey.id]);
    expect(JSON.stringify(list.body)).not.toContain(key);
  });

  it('writes no row on the request path: last used is recorded for many keys in one batch', async () => {
    const owners = await Promise.all(Array.from({ length: 3 }, () => createUser(t.ctx, { tier: 'enterprise' })));
    const keys = await Promise.all(owners.map(async (o) => (await call(t.app, 'POST', '/api/api-keys', { name: 'Batch', scopes: ['businesses:read'] }, o.cookie)).body));
    for (const { key } of keys) expect((await t.app.request('/api/v1/businesses', { headers: { authorization: `Bearer ${key}` } })).status).toBe(200);
    const lastUsed = async () => (await t.ctx.db.select({ at: apiKeys.lastUsedAt }).from(apiKeys).where(inArray(apiKeys.id, keys.map((k) => k.apiKey.id)))).map((r) => r.at);
    expect(await lastUsed()).toEqual([null, null, null]);
    await flushLastUsed(t.ctx);
    expect((await lastUsed()).every((at) => at instanceof Date && Date.now() - at.getTime() < 60_000)).toBe(true);
  });

  it('refuses keys on plans without the API, and bad input per field', async () => {
    const pro = await createUser(t.ctx, { tier: 'pro' });
    const refused = await call(t.app, 'POST', '/api/api-keys', { name: 'CI', scopes: ['reports:read'] }, pro.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('plan_required');
    const owner = await createUser(t.ctx, { tier: 'agency' });
    const bad = await call(t.app, 'POST', '/api/api-keys', { name: '', scopes: ['everything'] }, owner.cookie);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['name', 'scopes.0']);
    expect((await call(t.app, 'GET', '/api/api-keys')).status).toBe(401);
  });

  it('rolls a key: the old one works until its grace period ends; revoking stops a key at once', async () => {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const { key: oldKey, apiKey } = (await call(t.app, 'POST', '/api/api-keys', { name: 'Deploy', scopes: ['alerts:read'] }, owner.cookie)).body;
    const rolled = await call(t.app, 'POST', `/api/api-keys/${apiKey.id}/roll`, { graceHours: 2 }, owner.cookie);
    expect(rolled.status).toBe(201);
    expect(rolled.body.apiKey).toMatchObject({ name: 'Deploy', scopes: ['alerts:read'] });
    const now = Date.now();
    expect((await verifyApiKey(t.ctx, `Bearer ${oldKey}`, now + 3_600_000)).userId).toBe(owner.userId);
    await expect(verifyApiKey(t.ctx, `Bearer ${oldKey}`, now + 3 * 3_600_000)).rejects.toMatchObject({ code: 'unauthenticated' });
    expect((await verifyApiKey(t.ctx, `Bearer ${rolled.body.key}`)).scopes.has('alerts:read')).toBe(true);

    const stranger = await createUser(t.ctx, { tier: 'enterprise' });
    expect((await call(t.app, 'DELETE', `/api/api-keys/${rolled.body.apiKey.id}`, undefined, stranger.cookie)).status).toBe(404);
    expect((await call(t.app, 'POST', `/api/api-keys/${rolled.body.apiKey.id}/roll`, {}, stranger.cookie)).status).toBe(404);
    expect((await call(t.app, 'DELETE', `/api/api-keys/${rolled.body.apiKey.id}`, undefined, owner.cookie)).status).toBe(200);
    await expect(verifyApiKey(t.ctx, `Bearer ${rolled.body.key}`)).rejects.toMatchObject({ code: 'unauthenticated' });
  });

  it('offers and accepts only the scopes the account type can use: a business owner has no clients scopes', async () => {
    const owner = await createUser(t.ctx, { tier: 'enterprise' });
    const offered = await call(t.app, 'GET', '/api/api-keys', undefined, owner.cookie);
    expect(offered.body.scopes).toEqual(['reports:read', 'reports:write', 'businesses:read', 'businesses:write', 'alerts:read', 'alerts:write', 'reviews:read', 'reviews:write', 'webhooks:write']);
    for (const scope of ['clients:read', 'clients:write']) {
      const refused = await call(t.app, 'POST', '/api/api-keys', { name: 'CRM', scopes: ['reports:read', scope] }, owner.cookie);
      expect(refused.status).toBe(400);
      expect(refused.body.fields).toEqual({ scopes: `"${scope}" is for consultant accounts, which have clients` });
    }
    expect(await t.ctx.db.select().from(apiKeys).where(eq(apiKeys.userId, owner.userId))).toEqual([]);
    const consultant = await createUser(t.ctx, { tier: 'enterprise', role: 'consultant' });
    expect((await call(t.app, 'GET', '/api/api-keys', undefined, consultant.cookie)).body.scopes).toContain('clients:write');
    expect((await call(t.app, 'POST', '/api/api-keys', { name: 'CRM', scopes: ['clients:read', 'clients:write'] }, consultant.cookie)).status).toBe(201);
  });

  it('a key of a lapsed plan answers 403 plan_required, not 401', async () => {
    const owner = await createUser(t.ctx, { tier: 'agency' });
    const { key } = (await call(t.app, 'POST', '/api/api-keys', { name: 'CI', scopes: ['reports:read'] }, owner.cookie)).body;
    await t.ctx.db.update(users).set({ subscriptionStatus: 'suspended' }).where(eq(users.id, owner.userId));
    await expect(verifyApiKey(t.ctx, `Bearer ${key}`)).rejects.toMatchObject({ code: 'plan_required' });
  });
});
