// Named leases (api/lib/lease.ts, decision 0221): two holders of one name on two contexts over one
// database (two processes) never run at once; a lease whose holder died is taken over once it
// lapses; a waiter that cannot have it in time gets the caller's error; the lease is released after
// the work, whether it succeeded or threw.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppContext } from '../../api/context.ts';
import { createContext } from '../../api/create-context.ts';
import { loadEnv } from '../../api/env.ts';
import { withLease } from '../../api/lib/lease.ts';
import { leases } from '../../db/schema/operations.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext;
let otherDir: string;
let other: AppContext;

beforeAll(async () => {
  t = await createTestContext();
  otherDir = mkdtempSync(join(tmpdir(), 'localrank-test-'));
  other = await createContext(loadEnv({ NODE_ENV: 'test', DATA_DIR: otherDir, LOG_LEVEL: 'silent', WORKER: 'off', DATABASE_URL: t.ctx.env.DATABASE_URL }));
});
afterAll(async () => {
  other.db.$client.close();
  rmSync(otherDir, { recursive: true, force: true });
  await t.close();
});

const busy = () => new Error('busy');

describe('withLease', () => {
  it('runs the holders of one name one after the other, across two contexts, and releases each', async () => {
    const log: string[] = [];
    const work = (who: string) => async () => {
      log.push(`${who} in`);
      await new Promise((r) => setTimeout(r, 50));
      log.push(`${who} out`);
      return who;
    };
    const results = await Promise.all([0, 1, 2, 3].map((i) => withLease(i % 2 ? other : t.ctx, 'test:serial', work(`w${i}`), { busy })));
    expect(results).toEqual(['w0', 'w1', 'w2', 'w3']);
    // Never two inside at once: every "in" is followed by its own "out".
    for (let i = 0; i < log.length; i += 2) expect(log[i + 1]).toBe(log[i]!.replace(' in', ' out'));
    expect(await t.ctx.db.select().from(leases).where(eq(leases.name, 'test:serial'))).toEqual([]);
  });

  it('releases the lease when the work throws', async () => {
    await expect(withLease(t.ctx, 'test:throws', async () => Promise.reject(new Error('boom')), { busy })).rejects.toThrow('boom');
    expect(await withLease(other, 'test:throws', async () => 'next', { busy, waitMs: 0 })).toBe('next');
  });

  it('takes over a lease whose holder died once it has lapsed, and refuses a live one with the caller\'s error', async () => {
    await t.ctx.db.insert(leases).values({ name: 'test:dead', holder: 'a process that died', expiresAt: new Date(Date.now() - 1) });
    expect(await withLease(other, 'test:dead', async () => 'taken over', { busy, waitMs: 0 })).toBe('taken over');
    await t.ctx.db.insert(leases).values({ name: 'test:live', holder: 'a process still working', expiresAt: new Date(Date.now() + 60_000) });
    let ran = false;
    await expect(withLease(other, 'test:live', async () => (ran = true), { busy, waitMs: 100 })).rejects.toThrow('busy');
    expect(ran).toBe(false);
    expect((await t.ctx.db.select().from(leases).where(eq(leases.name, 'test:live')))[0]!.holder).toBe('a process still working');
  });
});
