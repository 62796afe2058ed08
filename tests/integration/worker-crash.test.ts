// A worker process killed (SIGKILL) in the middle of a report: after another worker takes the job
// over, the report is analysed once and arrives once.
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { businessMetrics } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { createReportRequest } from '../helpers/report-requests.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const children: ChildProcess[] = [];

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
});

function startWorker(env: Record<string, string>) {
  const child = spawn(process.execPath, [resolve(import.meta.dirname, '../helpers/crash-worker.ts')], {
    env: { ...process.env, DATA_DIR: t.dataDir, SMTP_URL: smtp.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const lines: string[] = [];
  child.stdout!.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
  const waitFor = async (line: string, ms = 45_000) => {
    const until = Date.now() + ms;
    while (!lines.includes(line)) {
      if (Date.now() > until) throw new Error(`worker never printed ${line}; got ${lines.join(', ')}`);
      await new Promise((r) => setTimeout(r, 25));
    }
  };
  return { child, lines, waitFor };
}

it('resumes a job whose worker was killed mid-report and sends the e-mail once', async () => {
  const { business, request, jobId } = await createReportRequest(t.ctx);
  const doomed = startWorker({ HANG_IN_RENDER: '1', LEASE_MS: '2000' });
  await doomed.waitFor('RENDERING');
  doomed.child.kill('SIGKILL');
  await new Promise((r) => doomed.child.once('exit', r));
  const mid = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
  expect(mid.status).toBe('running');
  expect(mid.progress).toMatchObject({ stage: 'persisted' });

  // A longer lease for the rescuer: its inline render may block its event loop on a busy machine.
  const rescuer = startWorker({ LEASE_MS: '5000' });
  const until = Date.now() + 45_000;
  for (;;) {
    const row = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
    if (row.status === 'done') break;
    if (Date.now() > until) throw new Error(`job still ${row.status}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  rescuer.child.kill('SIGTERM');
  expect(rescuer.lines).not.toContain('ANALYSED'); // resumed from the persisted report, not redone
  const done = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
  expect(done.attempts).toBe(2);
  expect(await t.ctx.db.select().from(businessMetrics).where(eq(businessMetrics.businessId, business.id))).toHaveLength(10);
  expect((await t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))[0]!.emailSent).toBe(true);
  const mails = smtp.received.filter((m) => m.envelope.to.includes(business.email));
  expect(mails).toHaveLength(1);
  expect(mails[0]!.parsed.attachments.some((a) => a.mimeType === 'application/pdf')).toBe(true);
}, 120_000);
