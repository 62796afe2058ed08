// An agency's own SMTP server for its white-label mail (issue 25, decision 0170): stored with the
// password encrypted (AES-256-GCM, key from MAIL_SECRET_KEY), tested with "Send a test", and used
// by every white-label e-mail of that agency. The password never leaves the server again: not in
// an answer, an export, a log line or an error message.
//
// It is a server the agency chose, so it is never trusted with our time or our words (decision
// 0210): every exchange has one deadline in all (AGENCY_MAIL_DEADLINE_MS for an e-mail,
// AGENCY_MAIL_TEST_DEADLINE_MS for a test), what the agency reads is said in our words
// (agency-mail-words.ts), and a send that fails tells the worker whether to wait for the server
// (CustomerServerUnavailableError) or to give up (PermanentJobError: a 5xx refusal, the login
// refused, an address refused, not a mail server).
import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { eq, sql } from 'drizzle-orm';
import { MAIL_SERVER_TESTS_PER_HOUR, type MailServerInput } from '../../../common/schemas/branding.ts';
import { agencyMailServers } from '../../../db/schema/consultants.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { Mailer, MailMessage } from '../../email/mailer.ts';
import { AGENCY_MAIL_UNAVAILABLE, type AgencyMailUnavailablePayload } from '../../email/agency-mail-unavailable.ts';
import { whiteLabelAddress } from '../../email/report-email.ts';
import { CustomerServerUnavailableError, PermanentJobError } from '../../jobs/errors.ts';
import { enqueue, runWaitingForServerNow } from '../../jobs/queue.ts';
import { seal, sealingKey, unseal } from '../../lib/sealed.ts';
import { SmtpSessionError, smtpSend, type SmtpSent, type SmtpSteps } from '../../lib/smtp-session.ts';
import { checkedMailAddress, MailHostNotFound, mailHostToSave } from './address.ts';
import { failureWords, sentWords } from './words.ts';
import type { ConsultantAccess } from '../plans/consultant-access.ts';
import { consumeRateLimit } from '../rate-limit.ts';

type ServerRow = typeof agencyMailServers.$inferSelect;

export interface MailServerView {
  host: string;
  port: number;
  security: ServerRow['security'];
  username: string | null;
  hasPassword: boolean;
  fromAddress: string;
  testedAt: string | null;
  lastError: string | null;
  /** Since when the server has been away (e-mail waiting for it), or null. */
  unavailableSince: string | null;
}


const keyOf = (ctx: AppContext) => sealingKey('agency-mail', ctx.env.MAIL_SECRET_KEY);

export function encryptSecret(ctx: AppContext, plain: string): string {
  const key = keyOf(ctx);
  if (!key) throw new Error('MAIL_SECRET_KEY is not set');
  return seal(key, 'v1', plain);
}

/** The plain secret, or null when it cannot be read (no key, another key, a damaged value). */
export const decryptSecret = (ctx: AppContext, stored: string): string | null => unseal(keyOf(ctx), 'v1', stored);

const view = (row: ServerRow): MailServerView => ({
  host: row.host,
  port: row.port,
  security: row.security,
  username: row.username,
  hasPassword: row.passwordEncrypted !== null,
  fromAddress: row.fromAddress,
  testedAt: row.testedAt?.toISOString() ?? null,
  lastError: row.lastError,
  unavailableSince: row.unavailableSince?.toISOString() ?? null,
});

const rowOf = (ctx: AppContext, consultantId: string) => ctx.db.query.agencyMailServers.findFirst({ where: eq(agencyMailServers.consultantId, consultantId) });

export async function getMailServer(ctx: AppContext, access: ConsultantAccess) {
  const row = await rowOf(ctx, access.consultant.id);
  return { server: row ? view(row) : null, canStorePassword: keyOf(ctx) !== null, fallbackFrom: whiteLabelAddress(ctx) };
}

export async function saveMailServer(ctx: AppContext, access: ConsultantAccess, input: MailServerInput) {
  // An address in any spelling, or a name that is private whatever the DNS says, is refused at
  // once with the reason; other names are checked at each connection (checkedMailAddress).
  const checked = mailHostToSave(input.host, ctx.env.AGENCY_MAIL_PRIVATE_ADDRESSES);
  if ('refusal' in checked) throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { host: checked.refusal } });
  const { host } = checked;
  const existing = await rowOf(ctx, access.consultant.id);
  let passwordEncrypted = existing?.passwordEncrypted ?? null;
  if (input.password !== undefined) {
    if (input.password !== '' && !keyOf(ctx)) {
      throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { password: 'This server cannot store passwords: the operator has not set MAIL_SECRET_KEY.' } });
    }
    passwordEncrypted = input.password === '' ? null : encryptSecret(ctx, input.password);
  }
  const values = { host, port: input.port, security: input.security, username: input.username, passwordEncrypted, fromAddress: input.fromAddress, testedAt: null, lastError: null, unavailableSince: null, updatedAt: new Date() };
  await ctx.db
    .insert(agencyMailServers)
    .values({ consultantId: access.consultant.id, ...values })
    .onConflictDoUpdate({ target: agencyMailServers.consultantId, set: values });
  // New settings: what waited for the old ones is tried with these now.
  await runWaitingForServerNow(ctx.db, access.consultant.id);
  return getMailServer(ctx, access);
}

export async function deleteMailServer(ctx: AppContext, access: ConsultantAccess) {
  await ctx.db.delete(agencyMailServers).where(eq(agencyMailServers.consultantId, access.consultant.id));
  // Without a server of its own, what waited for it leaves from our address now.
  await runWaitingForServerNow(ctx.db, access.consultant.id);
  return getMailServer(ctx, access);
}

/** How a job's error about the agency's server begins; what follows is said to the agency. */
export const AGENCY_MAIL_REASON = "the agency's mail server: ";

/** The name we greet an agency's server with: our public host's (never this machine's name). */
const greetingName = (ctx: AppContext) => (ctx.env.PUBLIC_BASE_URL ? new URL(ctx.env.PUBLIC_BASE_URL).hostname : hostname());

/** One message through the agency's server within `deadlineMs` in all, the name's lookup included.
 *  Rejects with what agency-mail-words.ts describes. */
async function sendThrough(ctx: AppContext, row: ServerRow, message: MailMessage, deadlineMs: number) {
  const password = row.passwordEncrypted ? decryptSecret(ctx, row.passwordEncrypted) : null;
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const lookupOver = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new MailHostNotFound(row.host)), deadlineMs)));
  try {
    const address = await Promise.race([checkedMailAddress(row.host, ctx.env.AGENCY_MAIL_PRIVATE_ADDRESSES), lookupOver]);
    clearTimeout(timer);
    const target = { address, host: row.host, port: row.port, security: row.security, auth: row.username ? { user: row.username, pass: password ?? '' } : null };
    const sent: SmtpSent = await smtpSend(target, message, { deadlineMs: Math.max(1, deadlineMs - (Date.now() - started)), clientName: greetingName(ctx) });
    return { sent, password };
  } catch (error) {
    throw Object.assign(new Error('agency mail failed'), { cause: error, password });
  } finally {
    clearTimeout(timer);
  }
}

/** What failed and whether to wait for it, from what sendThrough threw. */
function failureOf(ctx: AppContext, row: ServerRow, thrown: unknown, deadlineMs: number) {
  const { cause, password } = thrown as { cause: unknown; password: string | null };
  const words = failureWords({ host: row.host, port: row.port, deadlineMs, secret: password }, cause);
  const transient = cause instanceof MailHostNotFound || (cause instanceof SmtpSessionError && cause.transient);
  const steps: SmtpSteps = cause instanceof SmtpSessionError ? cause.steps : { connected: false, greeted: false, tls: false, auth: null };
  return { words, transient, steps, code: cause instanceof SmtpSessionError ? cause.failure : cause instanceof MailHostNotFound ? 'dns' : 'address' };
}

/** The job that tells an agency its server is away, keyed by the outage's start: once per outage. */
const agencyMailUnavailableKey = (p: AgencyMailUnavailablePayload) => `${AGENCY_MAIL_UNAVAILABLE}:${p.consultantId}:${Date.parse(p.since)}`;

/** The agency's server is away: noted from the outage's start, and the agency told once per
 *  outage, through our own mail server (api/email/agency-mail-unavailable.ts). */
async function noteUnavailable(ctx: AppContext, consultantId: string, words: string) {
  const [row] = await ctx.db
    .update(agencyMailServers)
    .set({ lastError: words, unavailableSince: sql`coalesce(${agencyMailServers.unavailableSince}, ${Date.now()})` })
    .where(eq(agencyMailServers.consultantId, consultantId))
    .returning({ since: agencyMailServers.unavailableSince });
  if (!row?.since) return;
  const payload: AgencyMailUnavailablePayload = { consultantId, since: row.since.toISOString() };
  await enqueue(ctx.db, { type: AGENCY_MAIL_UNAVAILABLE, payload: { ...payload }, key: agencyMailUnavailableKey(payload) });
}

/** The server answered (it took the message, or refused it in SMTP): an outage is over, and what
 *  waited for the server goes now. */
async function noteReachable(ctx: AppContext, consultantId: string, lastError: string | null) {
  const [before] = await ctx.db.select({ since: agencyMailServers.unavailableSince }).from(agencyMailServers).where(eq(agencyMailServers.consultantId, consultantId));
  await ctx.db.update(agencyMailServers).set({ lastError, unavailableSince: null }).where(eq(agencyMailServers.consultantId, consultantId));
  if (before?.since) {
    const due = await runWaitingForServerNow(ctx.db, consultantId);
    ctx.log.info("agency mail server back", { consultantId, downForMs: Date.now() - before.since.getTime(), waitingJobsDue: due });
  }
}

/** A Mailer over the agency's server, for one send, or null without one. A failure is thrown as
 *  CustomerServerUnavailableError (wait for the server) or PermanentJobError (give up), with our
 *  words for it, also kept on the row so /branding shows it. */
export async function agencyMailer(ctx: AppContext, consultantId: string): Promise<{ mailer: Mailer; fromAddress: string } | null> {
  const row = await rowOf(ctx, consultantId);
  if (!row) return null;
  return {
    fromAddress: row.fromAddress,
    mailer: {
      kind: 'smtp',
      async send(message: MailMessage) {
        const deadlineMs = ctx.env.AGENCY_MAIL_DEADLINE_MS;
        try {
          const { sent } = await sendThrough(ctx, row, message, deadlineMs);
          // Sent to those the server took; one it refused (a copy's address, say) is noted for the agency.
          const note = sent.rejected.length > 0 ? `The server refused ${sent.rejected.join(', ')}` : null;
          await noteReachable(ctx, consultantId, note);
          return { messageId: message.messageId };
        } catch (error) {
          const failure = failureOf(ctx, row, error, deadlineMs);
          if (failure.transient) await noteUnavailable(ctx, consultantId, failure.words);
          else if (failure.steps.greeted) await noteReachable(ctx, consultantId, failure.words);
          else await ctx.db.update(agencyMailServers).set({ lastError: failure.words }).where(eq(agencyMailServers.consultantId, consultantId));
          const reason = `${AGENCY_MAIL_REASON}${failure.words}`;
          throw failure.transient ? new CustomerServerUnavailableError(reason, consultantId) : new PermanentJobError(reason);
        }
      },
      wasDelivered: () => null,
      close: () => {},
    },
  };
}

/** The message "Send a test" sends through the agency's server, from its address to the agency
 *  (also built by `npm run spam-scores`). */
export function mailServerTestMessage(row: { host: string; port: number; fromAddress: string }, to: string): MailMessage {
  return {
    messageId: `<test-${randomBytes(8).toString('hex')}@${row.fromAddress.split('@')[1]!}>`,
    from: row.fromAddress,
    to,
    subject: 'Test message from your report mail server',
    text: `This test went out through ${row.host}:${row.port}. Your clients' reports will be sent from ${row.fromAddress} this way.`,
  };
}

/**
 * "Send a test": a short message through the stored server to the agency's own address, at most
 * MAIL_SERVER_TESTS_PER_HOUR an hour per agency, within AGENCY_MAIL_TEST_DEADLINE_MS. Answers
 * whether it went out, how far it got, and in our words what happened; the outcome is kept on the
 * row so /branding shows it.
 */
export async function testMailServer(ctx: AppContext, access: ConsultantAccess) {
  const row = await rowOf(ctx, access.consultant.id);
  if (!row) throw new AppError('not_found', 'Save the mail server first.');
  await consumeRateLimit({
    ctx,
    input: { key: `mail-test:${access.consultant.id}`, limit: MAIL_SERVER_TESTS_PER_HOUR, windowMs: 60 * 60_000, message: `You can send ${MAIL_SERVER_TESTS_PER_HOUR} tests an hour. Please try again later.` },
  });
  const deadlineMs = ctx.env.AGENCY_MAIL_TEST_DEADLINE_MS;
  const message = mailServerTestMessage(row, access.user.email);
  let steps: SmtpSteps;
  let said: string;
  let lastError: string | null = null;
  try {
    const { sent, password } = await sendThrough(ctx, row, message, deadlineMs);
    steps = sent.steps;
    said = sentWords({ host: row.host, port: row.port, deadlineMs, secret: password }, sent.steps, sent.reply);
    if (sent.rejected.length > 0) lastError = said = `The server refused ${sent.rejected.join(', ')}.`;
  } catch (error) {
    const failure = failureOf(ctx, row, error, deadlineMs);
    ({ steps } = failure);
    said = lastError = failure.words;
    ctx.log.warn('agency mail server test failed', { consultantId: access.consultant.id, host: row.host, failure: failure.code });
  }
  await ctx.db.update(agencyMailServers).set({ testedAt: new Date() }).where(eq(agencyMailServers.consultantId, access.consultant.id));
  // A test that went out ends an outage and sends what waited for the server; one that did not
  // is kept for /branding, and does not start an outage (nothing waits on a test).
  if (lastError === null) await noteReachable(ctx, access.consultant.id, null);
  else await ctx.db.update(agencyMailServers).set({ lastError }).where(eq(agencyMailServers.consultantId, access.consultant.id));
  return { sent: lastError === null, to: access.user.email, error: lastError, said, steps: { connected: steps.connected, tls: steps.tls, auth: steps.auth } };
}

/** The address an agency's white-label mail leaves from: its own server's, else the operator's. */
export async function whiteLabelFromFor(ctx: AppContext, consultantId: string): Promise<string> {
  return (await rowOf(ctx, consultantId))?.fromAddress ?? whiteLabelAddress(ctx);
}
