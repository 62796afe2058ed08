// The rate_limits table stays bounded: a refused attempt writes nothing, expired counters are
// pruned, and a burst of logins is refused early (503 with Retry-After) instead of queueing.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HASH_CONCURRENCY, HASH_QUEUE, hashPassword, verifyPassword } from '../../api/lib/password-hash.ts';
import { consumeRateLimit, pruneRateLimits } from '../../api/services/rate-limit.ts';
import { rateLimits } from '../../db/schema/operations.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: 'true' });
});
afterAll(() => t.close());

const rows = async () => (await t.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM rate_limits`))[0]!.n;
const limit = (key: string) => ({ key, limit: 3, windowMs: 60_000, message: 'Too many.' });

it('counts up to the limit, then refuses without writing', async () => {
  for (let i = 0; i < 3; i++) await consumeRateLimit({ ctx: t.ctx, input: limit('test:a') });
  await expect(consumeRateLimit({ ctx: t.ctx, input: limit('test:a') })).rejects.toMatchObject({ code: 'rate_limited' });
  const before = (await t.ctx.db.select().from(rateLimits).where(sql`key = 'test:a'`))[0]!;
  for (let i = 0; i < 20; i++) await expect(consumeRateLimit({ ctx: t.ctx, input: limit('test:a') })).rejects.toMatchObject({ code: 'rate_limited' });
  expect((await t.ctx.db.select().from(rateLimits).where(sql`key = 'test:a'`))[0]!.count).toBe(before.count);
});

it('a client over its address limit adds no row for each e-mail it tries', { timeout: 60_000 }, async () => {
  const from = (i: number) =>
    t.app.request('/api/auth/login', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.200' },
      body: JSON.stringify({ email: `junk${i}@example.com`, password: 'wrong-password' }),
    });
  for (let i = 0; i < 50; i++) await from(i);
  const at = await rows();
  for (let i = 50; i < 80; i++) expect((await from(i)).status).toBe(429);
  expect(await rows()).toBe(at);
});

it('prunes counters whose window has ended', async () => {
  await t.ctx.db.insert(rateLimits).values(Array.from({ length: 500 }, (_, i) => ({ key: `old:${i}`, count: 1, resetAt: new Date(Date.now() - 1000) })));
  await consumeRateLimit({ ctx: t.ctx, input: limit('test:live') });
  expect(await pruneRateLimits(t.ctx, Date.now(), true)).toBe(500);
  expect((await t.ctx.db.all<{ n: number }>(sql`SELECT count(*) AS n FROM rate_limits WHERE key LIKE 'old:%'`))[0]!.n).toBe(0);
  expect((await t.ctx.db.select().from(rateLimits).where(sql`key = 'test:live'`)).length).toBe(1);
});

it('hashes passwords in the thread pool, at most HASH_CONCURRENCY at once, and refuses beyond the queue with 503 and Retry-After', async () => {
  const hash = await hashPassword('correct-horse');
  expect(await verifyPassword({ hash, password: 'correct-horse' })).toBe(true);
  expect(await verifyPassword({ hash, password: 'wrong' })).toBe(false);
  const user = await createUser(t.ctx);
  // Fill every slot and the queue, then one more is refused at once.
  const burst = Array.from({ length: HASH_CONCURRENCY + HASH_QUEUE }, () => verifyPassword({ hash, password: 'x' }));
  const refused = await t.app.request('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.200' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(refused.status).toBe(503);
  expect(refused.headers.get('retry-after')).toBe('2');
  expect(await refused.json()).toMatchObject({ code: 'busy' });
  await Promise.all(burst);
  // Once the burst is through, the same login works.
  const ok = await t.app.request('/api/auth/login', {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '198.51.100.200' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  expect(ok.status).toBe(200);
}, 60_000);
