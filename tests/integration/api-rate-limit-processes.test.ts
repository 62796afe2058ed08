// The public API's per-key limit across processes (issue 35): two app contexts on one database, as
// two web processes behind a load balancer, take one key's requests in turn. Each counts in memory
// and syncs with the database (api/services/rate-meter.ts): the key gets its limit, plus at most
// the other process's allowance (ceil(limit / 20)), and is never refused below it. Before the
// sync on a process's allowance, both processes admitted the whole limit each (120 for 60).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { AppContext } from '../../api/context.ts';
import { createContext } from '../../api/create-context.ts';
import { loadEnv } from '../../api/env.ts';
import { API_RATE_WINDOW_MS, createApiKey } from '../../api/services/api-keys.ts';
import { flushRateMeters, meterAllowance } from '../../api/services/rate-meter.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

const LIMIT = 60;
let t: TestContext;
let otherDir: string;
let other: { ctx: AppContext; app: ReturnType<typeof createApp> };

beforeAll(async () => {
  t = await createTestContext({ API_RATE_LIMIT_ENTERPRISE: String(LIMIT) });
  // A second process: its own DATA_DIR, the same database (a file or a libSQL server).
  otherDir = mkdtempSync(join(tmpdir(), 'localrank-test-'));
  const ctx = await createContext(loadEnv({ NODE_ENV: 'test', DATA_DIR: otherDir, LOG_LEVEL: 'silent', WORKER: 'off', DATABASE_URL: t.ctx.env.DATABASE_URL, API_RATE_LIMIT_ENTERPRISE: String(LIMIT) }));
  other = { ctx, app: createApp(ctx) };
});
afterAll(async () => {
  other.ctx.db.$client.close();
  rmSync(otherDir, { recursive: true, force: true });
  await t.close();
});

// Every test runs from the start of a window, so no window ends halfway through (the clock runs on).
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], shouldAdvanceTime: true });
  vi.setSystemTime(Math.ceil(Date.now() / API_RATE_WINDOW_MS) * API_RATE_WINDOW_MS + 1000);
});
afterEach(() => vi.useRealTimers());

async function newKey() {
  const owner = await createUser(t.ctx, { tier: 'enterprise' });
  const { key } = await createApiKey({ ctx: t.ctx, userId: owner.userId, plan: { subscriptionTier: 'enterprise', subscriptionStatus: 'active' }, role: 'client', input: { name: 'Two processes', scopes: ['businesses:read'] } });
  return key;
}

const ask = (app: TestContext['app'], key: string) => app.request('/api/v1/businesses', { headers: { authorization: `Bearer ${key}` } });

function tally(statuses: number[]) {
  const ok = statuses.filter((s) => s === 200).length;
  expect(ok + statuses.filter((s) => s === 429).length).toBe(statuses.length);
  return ok;
}

const bound = LIMIT + meterAllowance(LIMIT, 0);

describe('one API key on two processes over one database', () => {
  it('requests in turn: the limit, plus at most the other process\'s allowance', async () => {
    const key = await newKey();
    const statuses: number[] = [];
    for (let i = 0; i < 3 * LIMIT; i++) statuses.push((await ask(i % 2 ? other.app : t.app, key)).status);
    const ok = tally(statuses);
    expect(ok).toBeGreaterThanOrEqual(LIMIT);
    expect(ok).toBeLessThanOrEqual(bound);
    // Refused from then on, on both processes.
    expect(statuses.slice(bound)).toEqual(statuses.slice(bound).map(() => 429));
  });

  it('bursts at once on both: the same bound', async () => {
    const key = await newKey();
    const statuses: number[] = [];
    for (let round = 0; round < 6; round++) {
      const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => ask(i % 2 ? other.app : t.app, key)));
      statuses.push(...burst.map((r) => r.status));
    }
    const ok = tally(statuses);
    expect(ok).toBeGreaterThanOrEqual(LIMIT);
    expect(ok).toBeLessThanOrEqual(bound);
  });

  it('a process that joins late in the window admits only its allowance before it syncs: the bound, reached', async () => {
    const key = await newKey();
    const first: number[] = [];
    for (let i = 0; i < LIMIT; i++) first.push((await ask(t.app, key)).status);
    expect(tally(first)).toBe(LIMIT);
    await flushRateMeters(t.ctx);
    const late: number[] = [];
    for (let i = 0; i < LIMIT; i++) late.push((await ask(other.app, key)).status);
    expect(tally(late)).toBe(meterAllowance(LIMIT, 0));
    expect((await ask(t.app, key)).status).toBe(429);
  });

  it('one process alone never goes over the limit, and says what is left', async () => {
    const key = await newKey();
    const answers = [];
    for (let i = 0; i < LIMIT + 10; i++) answers.push(await ask(t.app, key));
    expect(tally(answers.map((r) => r.status))).toBe(LIMIT);
    expect(answers[LIMIT - 1]!.headers.get('ratelimit')).toMatch(/^"per-key";r=0;t=\d+$/);
    expect(answers[LIMIT]!.headers.get('retry-after')).toMatch(/^\d+$/);
  });
});
