// The production report job with the real analysis (sample provider): request → analysis → persist
// → render → e-mail in the outbox, with 9 competitors and 90+ data points per business stored.
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MIN_DATA_POINTS } from '../../common/constants.ts';
import { productionDeps } from '../../api/jobs/production.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import type { DataPoint } from '../../api/report/model/types.ts';
import { businessMetrics, competitors } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: 'http://localhost:4321', SITE_FETCH_TIMEOUT_MS: '1500' });
});
afterAll(() => t.close());

it('a queued request becomes a persisted, e-mailed report made by the real analysis', async () => {
  const { business, request, jobId } = await createReportRequest(t.ctx);
  const worker = createWorker(t.ctx, { registry: testRegistry(productionDeps) });
  expect(await worker.runNext()).toBe(true);

  const job = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
  expect(job.status).toBe('done');
  const report = (await t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))[0]!;
  expect(report.emailSent).toBe(true);
  const outbox = join(t.dataDir, 'outbox');
  expect(existsSync(outbox) && readdirSync(outbox).some((f) => f.endsWith('.eml'))).toBe(true);

  const comps = await t.ctx.db.select().from(competitors).where(eq(competitors.businessId, business.id));
  expect(comps).toHaveLength(9);
  expect(comps.every((c) => c.distanceFromBusiness! <= 20)).toBe(true);
  const metrics = await t.ctx.db.select().from(businessMetrics).where(eq(businessMetrics.businessId, business.id));
  expect(metrics).toHaveLength(10);
  for (const m of metrics) expect((m.dataPoints as DataPoint[]).length).toBeGreaterThanOrEqual(MIN_DATA_POINTS);
  const read = metrics.filter((m) => (m.techStackData as { read?: boolean }).read === true);
  expect(read.length).toBeGreaterThanOrEqual(5);
  expect(metrics.find((m) => !m.isMainBusiness)!.reviewVelocityData).toHaveProperty('last30Days');
}, 60_000);
