// Sends a report's e-mail, at least once, and a second time only after an interrupted send. The
// report row is claimed with one atomic UPDATE before sending, with the e-mail's Message-ID (the
// "sending" record); the first write after the server's acceptance sets `email_sent` (the "sent"
// record), retried through database faults for as long as no other attempt could act. A send the
// transport reports as failed releases the claim so a retry can send. A send that was interrupted
// between the claim and the "sent" record (the process died) is judged once the claim is old
// enough: the outbox can tell whether the message was written; an SMTP server cannot, so it is
// sent again with the same Message-ID, which makes a second copy recognisable as the same message
// (mail systems drop or thread it) rather than the report silently never arriving (decision 0051,
// amended). Every send ends within SEND_DEADLINE_MS, and a stopping process waits for its sends
// to be recorded (`reportSendsSettled`), so only a process killed outright (or a database away for
// the whole CLAIM_IN_FLIGHT_MS) sends a second copy.
import { and, eq, isNull } from 'drizzle-orm';
import { businesses } from '../../db/schema/businesses.ts';
import { reports } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { RetryLaterError } from '../jobs/errors.ts';
import { warnOncePerMinute } from '../jobs/faults.ts';
import { errorMessage } from '../log.ts';
import { reportSender } from '../services/branding/sender.ts';
import type { ReportData } from './model/types.ts';
import { agencyMailer } from '../services/agency-mail/mail-server.ts';
import { whiteLabelAddress } from '../email/report-email.ts';
import { domainOf, type Mailer, mailerFor, messageIdFor } from '../email/mailer.ts';
import { reportEmail } from '../email/report-email.ts';
import { forgetLinkUrl } from '../services/data-rights/forget-link.ts';

/** A claim younger than this may belong to a worker that is sending right now. */
export const CLAIM_IN_FLIGHT_MS = 2 * 60 * 1000;
/** A send ends by this long whatever the mail server does: well inside CLAIM_IN_FLIGHT_MS, so no
 *  other attempt sends while this one may still be talking to the server. */
export const SEND_DEADLINE_MS = 60 * 1000;
/** The "sent" record is tried until the claim is this close to being judged by another attempt. */
const RECORD_MARGIN_MS = 5 * 1000;

type ReportRow = typeof reports.$inferSelect;
type BusinessRow = typeof businesses.$inferSelect;

export type DeliveryOutcome = 'sent' | 'already-sent';

export interface DeliveryInput {
  report: ReportRow;
  /** The business, with the recipient's address and name in place of the form's where they differ. */
  business: BusinessRow;
  png: Buffer;
  pdf: Buffer;
  /** A client report's copy to the consultant (its own message, its own unsubscribe): the client it went to. */
  copyOf?: { name: string; email: string } | null;
}

const inFlight = new WeakMap<AppContext, Set<Promise<unknown>>>();

/** Waits, up to `withinMs`, for the report e-mails this context is delivering to be sent and
 *  recorded: a stopping process must not cut a send between the server's acceptance and its record. */
export async function reportSendsSettled(ctx: AppContext, withinMs = SEND_DEADLINE_MS + RECORD_MARGIN_MS): Promise<void> {
  const pending = [...(inFlight.get(ctx) ?? [])];
  if (pending.length === 0) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.allSettled(pending), new Promise((done) => (timer = setTimeout(done, withinMs)))]);
  clearTimeout(timer);
}

export async function deliverReport(
  ctx: AppContext,
  input: DeliveryInput,
): Promise<DeliveryOutcome> {
  let sends = inFlight.get(ctx);
  if (!sends) inFlight.set(ctx, (sends = new Set()));
  const delivery = deliver(ctx, input);
  sends.add(delivery);
  try {
    return await delivery;
  } finally {
    sends.delete(delivery);
  }
}

async function deliver(ctx: AppContext, input: DeliveryInput): Promise<DeliveryOutcome> {
  // White-label or not is read from the report row, like its files and its online page; white-label
  // mail leaves through the agency's own server when it has one (api/services/agency-mail/mail-server.ts).
  const sender = await reportSender(ctx, input.report);
  const agency = sender.branding && sender.consultant ? await agencyMailer(ctx, sender.consultant.id) : null;
  const whiteLabelFrom = sender.branding ? (agency?.fromAddress ?? whiteLabelAddress(ctx)) : null;
  const mailer = agency?.mailer ?? mailerFor(ctx);
  try {
    return await claimAndSend(ctx, input, { sender, whiteLabelFrom, mailer });
  } finally {
    agency?.mailer.close();
  }
}

async function claimAndSend(
  ctx: AppContext,
  input: DeliveryInput,
  { sender, whiteLabelFrom, mailer }: { sender: Awaited<ReturnType<typeof reportSender>>; whiteLabelFrom: string | null; mailer: Mailer },
): Promise<DeliveryOutcome> {
  const { business } = input;
  const now = new Date();
  const messageId = messageIdFor(ctx, `report-${input.report.id}`, whiteLabelFrom ? domainOf(whiteLabelFrom) : undefined);

  const claimed = await ctx.db
    .update(reports)
    .set({ emailClaimedAt: now, emailMessageId: messageId })
    .where(and(eq(reports.id, input.report.id), eq(reports.emailSent, false), isNull(reports.emailClaimedAt)))
    .returning({ emailClaimedAt: reports.emailClaimedAt, emailMessageId: reports.emailMessageId });
  // Only the claim's own columns come back: the rest of the row, its data among them, is in hand.
  let report = claimed[0] && { ...input.report, ...claimed[0] };
  if (!report) {
    const current = (await ctx.db.query.reports.findFirst({ where: eq(reports.id, input.report.id) }))!;
    if (current.emailSent) return 'already-sent';
    const claimAge = current.emailClaimedAt ? now.getTime() - current.emailClaimedAt.getTime() : Infinity;
    if (claimAge < CLAIM_IN_FLIGHT_MS) {
      // Waiting is not failing: the job comes back once that attempt must have ended, with its
      // attempts intact, instead of spending them all before the claim is old enough to judge.
      throw new RetryLaterError('the e-mail is being sent by another attempt; checking again when it must have ended', CLAIM_IN_FLIGHT_MS - claimAge);
    }
    const delivered = mailer.wasDelivered(current.emailMessageId ?? messageId);
    if (delivered === true) {
      await recordSent(ctx, current.id, now);
      return 'already-sent';
    }
    if (delivered === null) ctx.log.warn('report e-mail sent again after an interrupted send', { reportId: current.id });
    const reclaimed = await ctx.db
      .update(reports)
      .set({ emailClaimedAt: now })
      .where(and(eq(reports.id, current.id), eq(reports.emailSent, false), eq(reports.emailClaimedAt, current.emailClaimedAt!)))
      .returning();
    report = reclaimed[0];
    if (!report) throw new RetryLaterError('another attempt claimed the e-mail meanwhile; checking again when it must have ended', CLAIM_IN_FLIGHT_MS);
  }

  const client = report.reportType.startsWith('client');
  const message = reportEmail(ctx, {
    to: business.email,
    fullName: business.fullName,
    data: report.data as ReportData,
    token: report.token!,
    reportUrl: report.signedUrl!,
    expiresAt: report.expiresAt!,
    messageId: report.emailMessageId ?? messageId,
    scoreCard: input.png,
    pdf: input.pdf,
    kind: report.reportType === 'monthly' ? 'monthly' : client ? 'client' : 'free',
    branding: sender.branding,
    replyTo: sender.consultant?.email ?? null,
    consultantName: sender.consultant?.companyName ?? null,
    // A visitor's free report: the address may erase what it left with us. Account holders and a
    // consultant's clients have their data in an account instead.
    ...(report.requestId && report.reportType === 'free' ? { deleteDataUrl: await forgetLinkUrl(ctx, report.requestId) } : {}),
    whiteLabelFrom,
    copyOf: input.copyOf ?? null,
  });
  // One recipient per message, so its unsubscribe link is that address's alone: a client report's
  // copy to the consultant is a message of its own (api/report/client-report-job.ts), never a Cc.
  try {
    await mailer.send({ ...message, signal: AbortSignal.timeout(SEND_DEADLINE_MS) });
  } catch (error) {
    // Not sent: let a later attempt try again.
    await ctx.db.update(reports).set({ emailClaimedAt: null }).where(eq(reports.id, report.id));
    throw error;
  }
  // Nothing before this write: until it lands, a process killed outright means a second copy.
  await recordSent(ctx, report.id, report.emailClaimedAt ?? now);
  ctx.log.info('report e-mail sent', { reportId: report.id, via: whiteLabelFrom && mailer !== mailerFor(ctx) ? 'agency-smtp' : mailer.kind });
  return 'sent';
}

/**
 * The "sent" record. A database that refuses or does not answer is tried again, with back-off,
 * until shortly before another attempt could judge the claim (CLAIM_IN_FLIGHT_MS after it): given
 * up at once, the job would be retried and the e-mail sent a second time. A failure is kept as
 * words only: its error holds the failed statement, which keeps a file database's connection from
 * committing until the error is collected (db/client.ts), so it must not be held while waiting.
 */
async function recordSent(ctx: AppContext, reportId: string, claimedAt: Date): Promise<void> {
  const until = claimedAt.getTime() + CLAIM_IN_FLIGHT_MS - RECORD_MARGIN_MS;
  for (let wait = 100; ; wait = Math.min(5_000, wait * 2)) {
    // In a transaction of its own: on a file, a plain write made while an earlier failed write of
    // this connection awaits finalisation is reported done, then undone when that one is
    // finalised; a COMMIT says so ("statements in progress"), and the record is tried again.
    const failure = await ctx.db
      .batch([ctx.db.update(reports).set({ emailSent: true, emailSentAt: new Date() }).where(eq(reports.id, reportId))])
      .then(
        () => null,
        (error: unknown) => errorMessage(error),
      );
    if (failure === null) return;
    if (Date.now() + wait >= until) {
      ctx.log.error('report e-mail sent but not recorded: it may be sent again with the same Message-ID', { reportId, error: failure });
      throw new Error(`the e-mail was sent but could not be recorded: ${failure}`);
    }
    warnOncePerMinute(ctx, `record-sent:${reportId}`, 'report e-mail sent, recording it failed: trying again', { reportId, error: failure });
    await new Promise((r) => setTimeout(r, wait));
  }
}
