// Scaled out: two app instances (two connections, as two web processes) on one database take 20
// identical submissions at once. The unique dedupe key makes it one request, one job, one report.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { AppContext } from '../../api/context.ts';
import { createContext } from '../../api/create-context.ts';
import { loadEnv } from '../../api/env.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { lightRenderer } from '../helpers/light-renderer.ts';
import { reportRequests } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { createTestContext, databaseEnv, type TestContext } from '../helpers/context.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { validForm } from '../helpers/report-requests.ts';

let t: TestContext;
let second: AppContext;
beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: 'true' });
  second = await createContext(loadEnv({ ...process.env, NODE_ENV: 'test', ...databaseEnv(t), LOG_LEVEL: 'silent', WORKER: 'off', TRUST_PROXY: 'true' }));
});
afterAll(async () => {
  second.db.$client.close();
  await t.close();
});

it('20 identical concurrent submissions over two instances make 1 request and 1 report', async () => {
  const apps = [t.app, createApp(second)];
  const email = uniqueEmail('burst');
  const body = JSON.stringify(validForm({ email, company: 'Lopez Plumbing Burst' }));
  const answers = await Promise.all(
    Array.from({ length: 20 }, async (_, i) => {
      const res = await apps[i % 2]!.request('/api/submit-request', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `198.51.100.${i + 1}` },
        body,
      });
      return { status: res.status, body: (await res.json()) as { requestId?: string; code?: string } };
    }),
  );
  // Every answer is the one request (202), or a designed refusal (429: the e-mail's hourly limit
  // counted a duplicate before its winner was written); never a 5xx.
  expect(answers.every((a) => a.status === 202 || a.status === 429), JSON.stringify(answers)).toBe(true);
  const ids = new Set(answers.filter((a) => a.status === 202).map((a) => a.body.requestId));
  expect(ids.size).toBe(1);
  const rows = await t.ctx.db.select().from(reportRequests).where(eq(reportRequests.email, email));
  expect(rows).toHaveLength(1);
  expect(rows[0]!.id).toBe([...ids][0]);
  const queued = await t.ctx.db.select().from(jobs).where(eq(jobs.key, `report.generate:${rows[0]!.id}`));
  expect(queued).toHaveLength(1);

  const worker = createWorker(t.ctx, { registry: testRegistry({ analyse: async () => reportDataFixture(), renderer: lightRenderer() }) });
  await worker.drain();
  expect(await t.ctx.db.select().from(reports).where(eq(reports.requestId, rows[0]!.id))).toHaveLength(1);
}, 60_000);
