// Our own mail server has a deadline too (issue 36, decision 0210): a server that greets and then
// answers a line at a time forever (a tarpit) does not hold a report: past SMTP_DEADLINE_MS the
// connection is closed and the e-mail waits for the server, its attempts intact, as it does when
// the server does not answer at all.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { MAIL_WAIT_PREFIX } from '../../api/jobs/faults.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker, type Worker } from '../../api/jobs/worker.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { startTarpit, type LoopbackServer } from '../helpers/agency-servers.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { until } from '../helpers/crash-suite.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

let t: TestContext;
let tarpit: LoopbackServer;
let worker: Worker;
beforeAll(async () => {
  tarpit = await startTarpit(200);
  t = await createTestContext({ SMTP_URL: `smtp://${tarpit.host}:${tarpit.port}`, SMTP_DEADLINE_MS: '1500' });
});
afterAll(async () => {
  await worker?.stop();
  closeMailer(t.ctx);
  await tarpit.close();
  await t.close();
});

describe('our mail server, when it never finishes answering', () => {
  it('is left at SMTP_DEADLINE_MS and the report waits for it without spending its attempt', async () => {
    const { jobId } = await createReportRequest(t.ctx, { company: 'Harbor Dental' });
    worker = createWorker(t.ctx, { registry: testRegistry({ analyse: async () => reportDataFixture() }), pollMs: 20, mailRetryDelaysMs: Array.from({ length: 12 }, () => 10 * 60_000) });
    worker.start();
    const job = async () => (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
    await until('the report waiting for the mail server', async () => (await job()).lastError?.startsWith(MAIL_WAIT_PREFIX) ?? false, 60_000);
    const row = await job();
    expect(row.status).toBe('queued');
    expect(row.attempts).toBe(0);
    expect(row.lastError).toBe(`${MAIL_WAIT_PREFIX} (1/12): the mail server is unavailable: it did not finish within 1.5 s`);
    expect(tarpit.connections()).toBeGreaterThan(0);
    await until('the connection to the tarpit closed', () => tarpit.open() === 0, 30_000);
  }, 90_000);
});
