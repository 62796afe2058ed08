// A worker process running a consultant's scheduled client report, killed (SIGKILL) mid-way, then
// another worker taking the job over: the client gets exactly one e-mail for the period (and the
// consultant its own copy), and the period queued again (a second tick) sends nothing more.
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { enqueue } from '../../api/jobs/queue.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { CLIENT_REPORT, clientReportKey, type ClientReportPayload } from '../../api/services/client-report-schedule.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { crashSuite, until } from '../helpers/crash-suite.ts';
import type { SmtpOptions } from '../helpers/smtp.ts';

const suite = crashSuite();

/** A consultant's client whose first report is already out (run in this process). */
async function clientWithFirstReport(email: string) {
  const consultant = await createUser(suite.t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const { body } = await call(suite.t.app, 'POST', '/api/clients', { clientName: 'Dana', clientEmail: email, company: 'Crash Dental', website: 'https://crash-dental.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' }, consultant.cookie);
  const worker = createWorker(suite.t.ctx, { registry: testRegistry({ analyse: async () => reportDataFixture() }) });
  while (await worker.runNext());
  return { consultant, clientId: (body as { id: string }).id };
}

type Point = 'rendering' | 'delivered' | 'smtp before the server kept it';

async function killAt(point: Point, email: string) {
  const { consultant, clientId } = await clientWithFirstReport(email);
  const payload: ClientReportPayload = { clientId, kind: 'scheduled', period: '2026-11' };
  const jobId = (await enqueue(suite.t.ctx.db, { type: CLIENT_REPORT, payload: { ...payload }, key: clientReportKey(payload) }))!;
  let doomedEnv: Record<string, string> = { LEASE_MS: '2000' };
  let dataStarted = false;
  if (point.startsWith('smtp')) {
    const options: SmtpOptions = { hold: 'before-keeping', onMessageData: () => (dataStarted = true) };
    const holding = await suite.extraSmtp(options);
    doomedEnv = { ...doomedEnv, SMTP_URL: holding.url };
  } else {
    doomedEnv.STOP_AT = point;
  }
  const doomed = suite.startWorker(doomedEnv);
  if (point.startsWith('smtp')) await until('the message data', () => dataStarted);
  else await until(`STOPPED ${point}`, () => doomed.lines.includes(`STOPPED ${point}`));
  doomed.child.kill('SIGKILL');
  await new Promise((r) => (doomed.child.exitCode !== null ? r(null) : doomed.child.once('exit', r)));
  const job = async () => (await suite.t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
  expect((await job()).status).toBe('running');
  if (point.startsWith('smtp')) {
    // The two minutes a claim is left to a worker that may still be sending pass.
    await suite.t.ctx.db.update(reports).set({ emailClaimedAt: new Date(Date.now() - 3 * 60_000) }).where(and(eq(reports.clientId, clientId), eq(reports.emailSent, false)));
  }

  const rescuer = suite.startWorker({ LEASE_MS: '5000' });
  await until('the job done', async () => (await job()).status === 'done');
  rescuer.child.kill('SIGTERM');
  // The same period queued again, as a second scheduler tick would: refused by its key.
  expect(await enqueue(suite.t.ctx.db, { type: CLIENT_REPORT, payload: { ...payload }, key: clientReportKey(payload) })).toBeNull();
  const scheduled = (await suite.t.ctx.db.select().from(reports).where(eq(reports.clientId, clientId))).filter((r) => r.reportType === 'client');
  // One report row for the first report, one for the period.
  expect(scheduled).toHaveLength(2);
  expect(scheduled.every((r) => r.emailSent)).toBe(true);
  const mails = suite.smtp.received.filter((m) => m.envelope.to.includes(email));
  return { mails, consultant, job: await job() };
}

describe('a worker killed mid client report, then another takes the job over', () => {
  it("during the render: one e-mail for the period, and the consultant's copy of it", async () => {
    const { mails, consultant, job } = await killAt('rendering', 'render-crash@client.example');
    expect(job.attempts).toBe(2);
    expect(mails).toHaveLength(2); // the first report and the period's
    expect(mails[1]!.parsed.cc ?? []).toEqual([]);
    // The consultant's copy of each, a message of its own.
    expect(suite.smtp.received.filter((m) => m.envelope.to.includes(consultant.email))).toHaveLength(2);
  }, 120_000);

  it('inside the SMTP conversation before the server kept the message: one e-mail for the period', async () => {
    const { mails } = await killAt('smtp before the server kept it', 'smtp-crash@client.example');
    expect(mails).toHaveLength(2);
  }, 120_000);

  it('after the e-mail was sent and recorded: not sent again', async () => {
    const { mails } = await killAt('delivered', 'delivered-crash@client.example');
    expect(mails).toHaveLength(2);
    expect(new Set(mails.map((m) => m.parsed.messageId)).size).toBe(2);
  }, 120_000);
});
