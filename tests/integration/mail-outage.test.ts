// The mail server away for longer than the worker's whole retry schedule: the reports wait for it
// (their attempts intact, the requests still being processed, the backlog on the health check and
// in `admin jobs`), then every one arrives exactly once when it is back. The schedules are the
// product's, shortened: the worker's back-off starts at 100 ms (1.5 s for all five attempts) and
// the mail waits are 0.3 s, 0.6 s, 1.2 s, … instead of 30 s, 1 min, 2 min, ….
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { MAIL_RETRY_DELAYS_MS, MAIL_RETRY_WINDOW_MS } from '../../api/jobs/faults.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker, type Worker } from '../../api/jobs/worker.ts';
import { lightRenderer } from '../helpers/light-renderer.ts';
import { reportRequests } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { runAdmin } from '../helpers/admin.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { until } from '../helpers/crash-suite.ts';
import { createReportRequest } from '../helpers/report-requests.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

const BACKOFF_BASE_MS = 100;
const MAIL_DELAYS_MS = MAIL_RETRY_DELAYS_MS.map((ms) => ms / 100);

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let worker: Worker;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  await worker?.stop();
  closeMailer(t.ctx);
  await smtp.close();
  await t.close();
});

describe('the mail server down for longer than the whole retry schedule', () => {
  it('keeps the reports waiting, shows the backlog, and delivers each once when the server is back', async () => {
    expect(MAIL_RETRY_WINDOW_MS).toBeGreaterThanOrEqual(24 * 60 * 60 * 1000);
    const port = Number(new URL(smtp.url).port);
    await smtp.close();
    const requests = await Promise.all([1, 2, 3].map((n) => createReportRequest(t.ctx, { company: `Harbor Dental ${n}` })));
    worker = createWorker(t.ctx, {
      registry: testRegistry({ analyse: async () => reportDataFixture(), renderer: lightRenderer() }),
      concurrency: 2,
      pollMs: 50,
      backoffBaseMs: BACKOFF_BASE_MS,
      mailRetryDelaysMs: MAIL_DELAYS_MS,
    });
    worker.start();

    // Down for five times the worker's whole schedule of five attempts (1.5 s).
    const whole = [1, 2, 3, 4].reduce((sum, n) => sum + BACKOFF_BASE_MS * 2 ** (n - 1), 0);
    await new Promise((r) => setTimeout(r, 5 * whole));
    const ids = requests.map((r) => r.jobId);
    const waiting = await t.ctx.db.select().from(jobs).where(inArray(jobs.id, ids));
    for (const job of waiting) {
      expect(job.status === 'queued' || job.status === 'running').toBe(true);
      expect(job.attempts).toBeLessThanOrEqual(1);
    }
    expect(waiting.some((j) => j.lastError?.startsWith('waiting for the mail server'))).toBe(true);
    for (const r of await t.ctx.db.select().from(reportRequests).where(inArray(reportRequests.id, requests.map((q) => q.request.id)))) {
      expect(r.status).toBe('processing');
    }
    const health = (await (await t.app.request('/api/health')).json()) as { status: string; problems: string[]; mailBacklog: { waiting: number } };
    expect(health.status).toBe('degraded');
    expect(health.problems).toContain('mail_backlog');
    expect(health.mailBacklog.waiting).toBeGreaterThan(0);
    const listed = await runAdmin(t, 'jobs');
    expect(listed.code).toBe(0);
    expect(listed.out).toMatch(/^Waiting for the mail server: \d+ job\(s\)/);
    expect(await t.ctx.db.select().from(jobs).where(eq(jobs.type, 'report.failed'))).toEqual([]);

    smtp = await startSmtpServer({ port });
    await until('every report sent', async () => (await t.ctx.db.select().from(reportRequests).where(inArray(reportRequests.id, requests.map((q) => q.request.id)))).every((r) => r.status === 'sent'), 90_000);
    for (const { business } of requests) {
      expect(smtp.received.filter((m) => m.envelope.to.includes(business.email))).toHaveLength(1);
    }
    expect(smtp.received).toHaveLength(3);
    const done = await t.ctx.db.select().from(jobs).where(inArray(jobs.id, ids));
    expect(done.map((j) => [j.status, j.attempts])).toEqual(done.map(() => ['done', 1]));
    expect((await runAdmin(t, 'jobs')).out).not.toContain('Waiting for the mail server');
  }, 150_000);
});
