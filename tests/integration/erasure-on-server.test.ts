// Erasure on a libSQL server leaves nothing in any of the server's files: a visitor forgotten the
// way `npm run admin -- forget` does it is found, byte for byte, in no file under sqld's --db-path
// (the database file, its write-ahead log, the replication log `wallog`, the snapshots) once the
// server has checkpointed, compacted and merged past the erasure. The server runs with the flags
// docs/operations.md gives, scaled down to seconds (--checkpoint-interval-s and --max-log-duration
// 1 instead of 60, DATABASE_LOG_DURATION_S to match); the limit polled up to is the bound those
// docs state for them: 40 ticks 3 s apart after the erasure, plus a checkpoint. Decision 0209.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { ERASURE_SETTLE_TICKS } from '../../api/services/data-rights/erasure-settle.ts';
import { forgetEmail } from '../../api/services/data-rights/erasure.ts';
import { createTestContext, ON_SQLD, type TestContext } from '../helpers/context.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { validForm } from '../helpers/report-requests.ts';
import { startSqld, type Sqld } from '../helpers/sqld.ts';

const INTERVAL_S = 1;
// The documented bound for these flags: every tick (interval + 2 s apart), then a checkpoint; and
// as much again for a slow machine.
const LIMIT_MS = 2 * (ERASURE_SETTLE_TICKS * (INTERVAL_S + 2) + INTERVAL_S) * 1000;

/** Every file under a folder; one the server removes while it is listed is left out. */
function filesUnder(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    try {
      return statSync(path).isDirectory() ? filesUnder(path) : [path];
    } catch {
      return [];
    }
  });
}

/** Where each string occurs (any case, as stored in UTF-8), file by file. */
function findBytes(dir: string, needles: string[]): Record<string, string[]> {
  const found: Record<string, string[]> = {};
  for (const path of filesUnder(dir)) {
    let text: string;
    try {
      text = readFileSync(path).toString('latin1').toLowerCase();
    } catch {
      continue;
    }
    const hits = needles.filter((n) => text.includes(Buffer.from(n.toLowerCase(), 'utf8').toString('latin1')));
    if (hits.length) found[relative(dir, path)] = hits;
  }
  return found;
}

let sqld: Sqld;
let t: TestContext;
let ip = 0;
beforeAll(async () => {
  if (!ON_SQLD) return;
  sqld = await startSqld(['--checkpoint-interval-s', String(INTERVAL_S), '--max-log-duration', String(INTERVAL_S)]);
  t = await createTestContext({ DATABASE_URL: sqld.url, DATABASE_LOG_DURATION_S: String(INTERVAL_S), TRUST_PROXY: 'true' });
});
afterAll(async () => {
  await t?.close();
  await sqld?.stop();
});

async function submit(form: Record<string, unknown>) {
  const headers = { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${++ip}` };
  const res = await t.app.request('/api/submit-request', { method: 'POST', headers, body: JSON.stringify(form) });
  expect(res.status).toBe(202);
  return (await res.json()) as { requestId: string };
}

describe.runIf(ON_SQLD)('a visitor forgotten on a libSQL server', () => {
  it('is in none of the server files once it has checkpointed, compacted and merged past the erasure', async () => {
    const others = [];
    for (let i = 0; i < 10; i++) others.push(await submit(validForm({ email: uniqueEmail('neighbour'), consent: i % 2 === 0 })));
    const email = uniqueEmail('wren-forgotten');
    const company = `Wrenfield Quay Dental ${Date.now().toString(36)}`;
    const first = await submit(validForm({ email, company, consent: true }));
    await submit(validForm({ email, company: `${company} Annex`, consent: true }));
    const businessId = String((await t.ctx.db.$client.execute({ sql: 'SELECT business_id FROM report_requests WHERE id = ?', args: [first.requestId] })).rows[0]![0]);
    for (let i = 0; i < 10; i++) others.push(await submit(validForm({ email: uniqueEmail('neighbour'), consent: true })));
    const needles = [email, company, businessId, first.requestId];

    // The hard case: the rows are in the server's snapshots (a compacted log) before they go.
    const deadline = Date.now() + 30_000;
    while (!Object.keys(findBytes(sqld.dir, needles)).some((f) => f.endsWith('.snap')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    const before = findBytes(sqld.dir, needles);
    expect(Object.keys(before).some((f) => f.endsWith('.snap'))).toBe(true);

    const summary = await forgetEmail(t.ctx, email);
    expect([summary.requests, summary.businesses, summary.consentRecordsPseudonymised]).toEqual([2, 2, 2]);

    // The workers run what the erasure queued (the ticks) while the server does its part.
    const worker = createWorker(t.ctx, { registry: testRegistry({}) });
    const erasedAt = Date.now();
    let after = findBytes(sqld.dir, needles);
    while (Object.keys(after).length > 0 && Date.now() - erasedAt < LIMIT_MS) {
      await worker.runNext();
      await new Promise((r) => setTimeout(r, 250));
      after = findBytes(sqld.dir, needles);
    }
    console.log(`server files naming the visitor before the erasure: ${JSON.stringify(before)}; ${((Date.now() - erasedAt) / 1000).toFixed(1)} s after: ${JSON.stringify(after)}`);
    expect(after).toEqual({});

    // Only free bytes were overwritten: the database is sound and the others' requests are whole.
    expect((await t.ctx.db.$client.execute('PRAGMA integrity_check')).rows[0]![0]).toBe('ok');
    const kept = await t.ctx.db.$client.execute(`SELECT count(*) FROM report_requests r JOIN businesses b ON b.id = r.business_id WHERE r.id IN (${others.map(() => '?').join(', ')})`, others.map((o) => o.requestId));
    expect(Number(kept.rows[0]![0])).toBe(others.length);
  }, LIMIT_MS + 60_000);
});
