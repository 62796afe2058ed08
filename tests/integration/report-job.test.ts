// report.generate end to end through the worker, with the analysis injected and mail in the outbox.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAIM_IN_FLIGHT_MS } from '../../api/report/deliver.ts';
import { readOutboxMessage } from '../../api/email/outbox.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { reportFiles } from '../../api/report/files/store.ts';
import { businesses, businessMetrics, competitors, reportRequests } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: 'https://reports.example.com' });
});
afterAll(async () => t.close());

const outbox = () => (existsSync(join(t.dataDir, 'outbox')) ? readdirSync(join(t.dataDir, 'outbox')).filter((f) => f.endsWith('.eml')) : []);

describe('report.generate', () => {
  it('persists, renders and e-mails the report once; a second run adds history but no e-mail', async () => {
    let analysed = 0;
    const registry = testRegistry({ analyse: async () => (analysed++, reportDataFixture()) });
    const { business, request, jobId } = await createReportRequest(t.ctx);
    const before = outbox().length;
    expect(await createWorker(t.ctx, { registry }).runNext()).toBe(true);

    const job = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
    expect(job.status).toBe('done');
    expect(job.progress).toMatchObject({ stage: 'delivered', email: 'sent' });
    const report = (await t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))[0]!;
    expect(report.emailSent).toBe(true);
    expect(report.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(report.signedUrl).toBe(`https://reports.example.com/report/${report.token}`);
    expect(report.pdfUrl).toBe(`https://reports.example.com/api/reports/${report.token}/report.pdf`);
    expect(report.expiresAt!.getTime() - report.createdAt.getTime()).toBe(30 * 24 * 60 * 60 * 1000);
    const files = reportFiles(t.ctx, report.id);
    expect(readFileSync(files.pdf).subarray(0, 5).toString()).toBe('%PDF-');
    expect(readFileSync(files.png).subarray(1, 4).toString()).toBe('PNG');

    const b = (await t.ctx.db.select().from(businesses).where(eq(businesses.id, business.id)))[0]!;
    expect(b.latitude).toBeCloseTo(30.2672, 4);
    expect(b.category).toBe('Dentist');
    const comps = await t.ctx.db.select().from(competitors).where(eq(competitors.businessId, business.id));
    expect(comps).toHaveLength(9);
    expect(comps.every((c) => c.distanceFromBusiness! > 0 && c.distanceFromBusiness! <= 20)).toBe(true);
    const metrics = await t.ctx.db.select().from(businessMetrics).where(eq(businessMetrics.businessId, business.id));
    expect(metrics).toHaveLength(10);
    expect(metrics.filter((m) => m.isMainBusiness)).toHaveLength(1);
    const main = metrics.find((m) => m.isMainBusiness)!;
    expect(main.competitorId).toBeNull();
    expect(main.techStackData).toMatchObject({ cms: expect.any(String) });
    expect(main.reviewVelocityData).toHaveProperty('last30Days');
    expect(main.sentimentData).toHaveProperty('positive');
    expect(main.adAnalysisData).toHaveProperty('googleAds');
    expect((main.dataPoints as unknown[]).length).toBeGreaterThanOrEqual(90);
    expect((await t.ctx.db.select().from(reportRequests).where(eq(reportRequests.id, request.id)))[0]!.status).toBe('sent');
    expect(outbox().length).toBe(before + 1);

    // Run the same job again (e.g. an operator re-queues it): nothing is analysed or sent twice.
    await t.ctx.db.update(jobs).set({ status: 'queued', runAt: new Date() }).where(eq(jobs.id, jobId));
    await createWorker(t.ctx, { registry }).runNext();
    expect(analysed).toBe(1);
    expect(outbox().length).toBe(before + 1);

    // A new request for the same business is a new run: history accumulates, competitors are reused.
    const again = await createReportRequest(t.ctx);
    await t.ctx.db.update(reportRequests).set({ businessId: business.id }).where(eq(reportRequests.id, again.request.id));
    await t.ctx.db.update(jobs).set({ payload: { requestId: again.request.id, businessId: business.id } }).where(eq(jobs.id, again.jobId));
    await createWorker(t.ctx, { registry }).runNext();
    expect(await t.ctx.db.select().from(businessMetrics).where(eq(businessMetrics.businessId, business.id))).toHaveLength(20);
    expect(await t.ctx.db.select().from(competitors).where(eq(competitors.businessId, business.id))).toHaveLength(9);
  });

  it('resumes after a crash between stages without analysing or e-mailing twice', async () => {
    let analysed = 0;
    let crash = true;
    const { request, jobId } = await createReportRequest(t.ctx);
    const registry = testRegistry({
      analyse: async () => (analysed++, reportDataFixture({ seed: 3 })),
      onStage: (stage) => {
        if (stage === 'renderPdf' && crash) {
          crash = false;
          throw new Error('worker killed while rendering');
        }
      },
    });
    const before = outbox().length;
    await createWorker(t.ctx, { registry, backoffBaseMs: 0 }).runNext();
    let job = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
    expect(job.status).toBe('queued');
    expect(job.progress).toMatchObject({ stage: 'persisted' });
    expect(outbox().length).toBe(before);
    await createWorker(t.ctx, { registry }).runNext();
    job = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
    expect(job.status).toBe('done');
    expect(analysed).toBe(1);
    expect(outbox().length).toBe(before + 1);
    expect((await t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))).toHaveLength(1);
  });

  it('does not send again when an interrupted send reached the outbox', async () => {
    const { request, jobId } = await createReportRequest(t.ctx);
    const registry = testRegistry({ analyse: async () => reportDataFixture({ seed: 5 }) });
    await createWorker(t.ctx, { registry }).runNext();
    const before = outbox().length;
    // Simulate a crash after the message was written but before emailSent was recorded.
    await t.ctx.db.update(reports).set({ emailSent: false, emailClaimedAt: new Date(Date.now() - 10 * 60_000) }).where(eq(reports.requestId, request.id));
    await t.ctx.db.update(jobs).set({ status: 'queued', runAt: new Date() }).where(eq(jobs.id, jobId));
    await createWorker(t.ctx, { registry }).runNext();
    expect(outbox().length).toBe(before);
    expect((await t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))[0]!.emailSent).toBe(true);
  });

  it('after a worker died mid-send, waits for the claim to age without spending attempts, then sends exactly once', async () => {
    const { request, jobId } = await createReportRequest(t.ctx);
    const registry = testRegistry({ analyse: async () => reportDataFixture({ seed: 6 }) });
    await createWorker(t.ctx, { registry }).runNext();
    const sent = outbox();
    const report = (await t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))[0]!;
    // The worker died 10 s ago while sending (its claim is young), before the message was written.
    rmSync(join(t.dataDir, 'outbox', sent.find((f) => f.includes(report.id))!));
    const claimedAt = new Date(Date.now() - 10_000);
    await t.ctx.db.update(reports).set({ emailSent: false, emailClaimedAt: claimedAt }).where(eq(reports.id, report.id));
    await t.ctx.db.update(jobs).set({ status: 'queued', runAt: new Date(), attempts: 4, maxAttempts: 5 }).where(eq(jobs.id, jobId));

    await createWorker(t.ctx, { registry }).runNext();
    let job = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
    expect(job).toMatchObject({ status: 'queued', attempts: 4 });
    expect(job.runAt.getTime()).toBeGreaterThanOrEqual(claimedAt.getTime() + CLAIM_IN_FLIGHT_MS);
    expect(outbox().length).toBe(sent.length - 1);

    // Two minutes on, the claim is old enough to judge: the outbox proves nothing went out.
    await t.ctx.db.update(reports).set({ emailClaimedAt: new Date(Date.now() - CLAIM_IN_FLIGHT_MS - 1000) }).where(eq(reports.id, report.id));
    await t.ctx.db.update(jobs).set({ runAt: new Date() }).where(eq(jobs.id, jobId));
    await createWorker(t.ctx, { registry }).drain();
    job = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
    expect(job.status).toBe('done');
    expect(outbox().length).toBe(sent.length);
    expect((await t.ctx.db.select().from(reportRequests).where(eq(reportRequests.id, request.id)))[0]!.status).toBe('sent');
  });

  it('tells the visitor when the worker died during the last attempt, too', async () => {
    const { request, jobId } = await createReportRequest(t.ctx);
    await t.ctx.db.update(jobs).set({ status: 'running', attempts: 5, maxAttempts: 5, lockedBy: 'gone', leaseUntil: new Date(Date.now() - 1000) }).where(eq(jobs.id, jobId));
    const before = outbox();
    const registry = testRegistry({ analyse: async () => reportDataFixture() });
    await createWorker(t.ctx, { registry }).drain();
    expect((await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!.status).toBe('failed');
    expect((await t.ctx.db.select().from(reportRequests).where(eq(reportRequests.id, request.id)))[0]!.status).toBe('failed');
    const added = outbox().filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    expect((await readOutboxMessage(t.ctx, added[0]!))!.email.subject).toBe('We could not finish your LocalRank report for Austin Family Dental');
  });

  it('marks the request failed when the job gives up, and tells the visitor once by e-mail', async () => {
    const { request, jobId } = await createReportRequest(t.ctx);
    await t.ctx.db.update(jobs).set({ maxAttempts: 1 }).where(eq(jobs.id, jobId));
    const registry = testRegistry({ analyse: async () => { throw new Error('geocoder down'); } });
    const before = outbox();
    await createWorker(t.ctx, { registry }).drain();
    const job = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
    expect(job.status).toBe('failed');
    expect(job.lastError).toBe('geocoder down');
    expect((await t.ctx.db.select().from(reportRequests).where(eq(reportRequests.id, request.id)))[0]!.status).toBe('failed');

    const added = outbox().filter((f) => !before.includes(f));
    expect(added).toHaveLength(1);
    const mail = (await readOutboxMessage(t.ctx, added[0]!))!.email;
    expect(mail.subject).toBe('We could not finish your LocalRank report for Austin Family Dental');
    expect(mail.to?.[0]?.address).toBe(request.email);
    expect(mail.replyTo?.[0]?.address).toBe(t.ctx.env.OPERATOR_EMAIL);
    expect(mail.text).toContain('Hi Dana,');
    expect(mail.text).toContain('Austin Family Dental (100 Lamar Blvd, Austin, TX 78701)');
    expect(mail.text).toContain('Ask again: https://reports.example.com/#report-form');
    expect(mail.html).toContain('Ask for the report again');

    // An operator retrying the job (admin retry-job) and failing again sends nothing more.
    await t.ctx.db.update(jobs).set({ status: 'queued', runAt: new Date(), attempts: 0 }).where(eq(jobs.id, jobId));
    await createWorker(t.ctx, { registry }).drain();
    expect(outbox().filter((f) => !before.includes(f))).toHaveLength(1);
  });
});
