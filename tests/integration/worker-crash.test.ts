// A worker process killed (SIGKILL) at chosen points of a report job, with a real SMTP server:
// after another worker takes the job over, the report e-mail arrives once. Killed inside the SMTP
// conversation after the server kept the message, the recipient may get a second copy with the
// same Message-ID (decision 0051), never none.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { businessMetrics } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { createReportRequest } from '../helpers/report-requests.ts';
import { crashSuite, until } from '../helpers/crash-suite.ts';
import type { SmtpOptions } from '../helpers/smtp.ts';

const suite = crashSuite();

const jobRow = async (id: string) => (await suite.t.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;

type Point = 'analysed' | 'rendering' | 'delivered' | 'smtp before the server kept it' | 'smtp after the server kept it';

async function killAt(point: Point) {
  const { business, request, jobId } = await createReportRequest(suite.t.ctx);
  let doomedEnv: Record<string, string> = { LEASE_MS: '2000' };
  let holding: Awaited<ReturnType<typeof suite.extraSmtp>> | undefined;
  let dataStarted = false;
  if (point.startsWith('smtp')) {
    const options: SmtpOptions = { hold: point.includes('before') ? 'before-keeping' : 'after-keeping', onMessageData: () => (dataStarted = true) };
    holding = await suite.extraSmtp(options);
    doomedEnv = { ...doomedEnv, SMTP_URL: holding.url };
  } else {
    doomedEnv.STOP_AT = point;
  }
  const doomed = suite.startWorker(doomedEnv);
  if (holding) {
    const kept = holding;
    if (point.includes('after')) await until('the message kept', () => kept.received.length > 0);
    else await until('the message data', () => dataStarted);
  } else {
    await until(`STOPPED ${point}`, () => doomed.lines.includes(`STOPPED ${point}`));
  }
  doomed.child.kill('SIGKILL');
  await new Promise((r) => (doomed.child.exitCode !== null ? r(null) : doomed.child.once('exit', r)));
  expect((await jobRow(jobId)).status).toBe('running');
  if (holding) {
    // The two minutes a claim is left to a worker that may still be sending (CLAIM_IN_FLIGHT_MS) pass.
    await suite.t.ctx.db.update(reports).set({ emailClaimedAt: new Date(Date.now() - 3 * 60_000) }).where(eq(reports.requestId, request.id));
  }

  // A longer lease for the rescuer: its inline render may block its event loop on a busy machine.
  const rescuer = suite.startWorker({ LEASE_MS: '5000' });
  await until('the job done', async () => (await jobRow(jobId)).status === 'done');
  rescuer.child.kill('SIGTERM');
  const report = (await suite.t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id)))[0]!;
  expect(report.emailSent).toBe(true);
  expect(await suite.t.ctx.db.select().from(businessMetrics).where(eq(businessMetrics.businessId, business.id))).toHaveLength(10);
  const mails = [...suite.smtp.received, ...(holding?.received ?? [])].filter((m) => m.envelope.to.includes(business.email));
  return { mails, rescuer, job: await jobRow(jobId) };
}

describe('a worker killed mid-report, then another takes the job over', () => {
  it('after the analysis, before anything is persisted: analysed again, one e-mail', async () => {
    const { mails, rescuer } = await killAt('analysed');
    expect(rescuer.lines).toContain('ANALYSED');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.parsed.attachments.some((a) => a.mimeType === 'application/pdf')).toBe(true);
  }, 120_000);

  it('during the render: resumed from the persisted report (not analysed again), one e-mail', async () => {
    const { mails, rescuer, job } = await killAt('rendering');
    expect(rescuer.lines).not.toContain('ANALYSED');
    expect(job.attempts).toBe(2);
    expect(mails).toHaveLength(1);
  }, 120_000);

  it('inside the SMTP conversation before the server kept the message: sent by the rescuer, one e-mail', async () => {
    const { mails } = await killAt('smtp before the server kept it');
    expect(mails).toHaveLength(1);
  }, 120_000);

  it('inside the SMTP conversation after the server kept the message: a second copy with the same Message-ID, never none', async () => {
    const { mails } = await killAt('smtp after the server kept it');
    expect(mails).toHaveLength(2);
    expect(new Set(mails.map((m) => m.parsed.messageId)).size).toBe(1);
    expect(new Set(mails.map((m) => m.parsed.subject)).size).toBe(1);
  }, 120_000);

  it('after the e-mail was sent and recorded: not sent again, one e-mail', async () => {
    const { mails } = await killAt('delivered');
    expect(mails).toHaveLength(1);
  }, 120_000);
});
