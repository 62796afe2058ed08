// The report e-mail between the mail server's acceptance (its 250) and the worker's "sent" record
// (issue 35): the database takes no writes from the moment the server keeps the message, for
// longer than a write waits (on a file another connection holds the write lock; a libSQL server
// stops answering), as a busy or slow database does. A worker that lives records the send once
// the database takes writes again, and the e-mail is sent once; a worker killed in that gap leaves
// the e-mail to be sent again by the next attempt, with the same Message-ID (at least once:
// decision 0051, amended).
import { createClient } from '@libsql/client';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { ON_SQLD } from '../helpers/context.ts';
import { crashSuite, until } from '../helpers/crash-suite.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

const suite = crashSuite();
/** Longer than a write waits: 5 s for a lock on a file; on a server, a call's 10 s deadline and
 *  then 10 s for the server to answer `SELECT 1` (db/client.ts, decision 0310). */
const HELD_MS = ON_SQLD ? 22_000 : 7_000;

const jobRow = async (id: string) => (await suite.t.ctx.db.select().from(jobs).where(eq(jobs.id, id)))[0]!;
const reportOf = async (requestId: string) => (await suite.t.ctx.db.select().from(reports).where(eq(reports.requestId, requestId)))[0]!;

/** From now until the returned function is called, the database takes no writes. A libSQL server
 *  is stopped outright: it lets a lock held by an idle transaction go after a few seconds. */
async function stallDatabase() {
  const server = suite.t.sqld?.process;
  if (server) {
    server.kill('SIGSTOP');
    return async () => void server.kill('SIGCONT');
  }
  const client = createClient({ url: suite.t.ctx.env.DATABASE_URL });
  const tx = await client.transaction('write');
  await tx.execute('DELETE FROM rate_limits WHERE 0');
  return async () => {
    await tx.rollback();
    client.close();
  };
}

/** A worker on an SMTP server that, once it has kept a message, stalls the database and then accepts. */
async function sendWithDatabaseStalledAtAcceptance() {
  const { business, request, jobId } = await createReportRequest(suite.t.ctx);
  let release: (() => Promise<void>) | null = null;
  let acceptedAt = 0;
  const smtp = await suite.extraSmtp({
    beforeAccept: async () => {
      release = await stallDatabase();
      acceptedAt = Date.now();
    },
  });
  const worker = suite.startWorker({ SMTP_URL: smtp.url });
  await until('the message accepted', () => acceptedAt > 0);
  const mails = () => [...suite.smtp.received, ...smtp.received].filter((m) => m.envelope.to.includes(business.email));
  const resume = async () => {
    const once = release;
    release = null;
    await once?.();
  };
  return { business, request, jobId, worker, mails, acceptedAt, resume };
}

describe('the report e-mail after the server accepted it, the database refusing writes', () => {
  it('a worker that lives records the send once the database takes writes again: one e-mail', async () => {
    const sent = await sendWithDatabaseStalledAtAcceptance();
    try {
      await new Promise((r) => setTimeout(r, Math.max(0, sent.acceptedAt + HELD_MS - Date.now())));
      await sent.resume();
      await until('the job done', async () => (await jobRow(sent.jobId)).status === 'done', 30_000);
    } finally {
      await sent.resume();
      sent.worker.child.kill('SIGTERM');
    }
    expect((await reportOf(sent.request.id)).emailSent).toBe(true);
    // Done by the attempt that sent it, not by another after the two minutes a claim is left.
    expect((await jobRow(sent.jobId)).attempts).toBe(1);
    expect(sent.mails()).toHaveLength(1);
  }, 90_000);

  it('a worker killed before its record: the next attempt sends it again, with the same Message-ID', async () => {
    const sent = await sendWithDatabaseStalledAtAcceptance();
    try {
      await new Promise((r) => setTimeout(r, 1_000));
      sent.worker.child.kill('SIGKILL');
      await new Promise((r) => (sent.worker.child.exitCode !== null || sent.worker.child.signalCode !== null ? r(null) : sent.worker.child.once('exit', r)));
    } finally {
      await sent.resume();
    }
    const claimed = await reportOf(sent.request.id);
    expect(claimed.emailSent).toBe(false);
    expect(claimed.emailMessageId).toBe(sent.mails()[0]!.parsed.messageId);
    // The two minutes a claim is left to a worker that may still be sending (CLAIM_IN_FLIGHT_MS) pass.
    await suite.t.ctx.db.update(reports).set({ emailClaimedAt: new Date(Date.now() - 3 * 60_000) }).where(eq(reports.id, claimed.id));
    const rescuer = suite.startWorker({ LEASE_MS: '5000' });
    // The killed worker's lease (30 s) runs out first.
    await suite.t.ctx.db.update(jobs).set({ leaseUntil: new Date(Date.now() - 1000) }).where(eq(jobs.id, sent.jobId));
    await until('the job done', async () => (await jobRow(sent.jobId)).status === 'done', 60_000);
    rescuer.child.kill('SIGTERM');
    expect((await reportOf(sent.request.id)).emailSent).toBe(true);
    const mails = sent.mails();
    expect(mails).toHaveLength(2);
    expect(new Set(mails.map((m) => m.parsed.messageId))).toEqual(new Set([claimed.emailMessageId]));
  }, 120_000);
});
