// Erasure of what a visitor without an account left with us: the report e-mail's "Delete my data"
// link, `npm run admin -- forget <email>` and the retention purge all end in `eraseRows`. What each
// table gets is in ./registry.ts; the rows go by the schema's cascades (a business takes its
// competitors, metrics, requests, reports and review alerts with it). Decision 0130.
import { createHmac } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { InStatement } from '@libsql/client';
import type { AppContext } from '../../context.ts';
import { outboxDir } from '../../email/mailer.ts';
import { reportFiles } from '../../report/files/store.ts';
import { countErasure } from '../../report/files/sweep.ts';
import { secretOf } from '../../auth.ts';
import { enqueueErasureSettle } from './erasure-settle.ts';
import { scrubFreedBytes } from './scrub-freed-bytes.ts';

export interface ErasureSummary {
  requests: number;
  businesses: number;
  reports: number;
  reportFiles: number;
  consentRecordsPseudonymised: number;
  optOuts: number;
  contactMessages: number;
  jobs: number;
  rateLimits: number;
  verifications: number;
  outboxCopies: number;
  /** Businesses the address asked about that an account or a consultant's client record holds: kept. */
  businessesKeptForAccounts: number;
  /** An account uses the address: its data stays until the account is deleted. */
  accountExists: boolean;
  /** A consultant's client records name the address: they are the consultant's to keep or delete. */
  clientRecords: number;
}

const EMPTY: ErasureSummary = {
  requests: 0,
  businesses: 0,
  reports: 0,
  reportFiles: 0,
  consentRecordsPseudonymised: 0,
  optOuts: 0,
  contactMessages: 0,
  jobs: 0,
  rateLimits: 0,
  verifications: 0,
  outboxCopies: 0,
  businessesKeptForAccounts: 0,
  accountExists: false,
  clientRecords: 0,
};

// A business no account holds: not saved to one (user_id) and no consultant's client.
const UNHELD = `b.user_id IS NULL AND NOT EXISTS (SELECT 1 FROM clients cl WHERE cl.business_id = b.id)`;

// Everything a job row carries as text.
const JOB_TEXT = `coalesce(key, '') || ' ' || payload || ' ' || coalesce(progress, '') || ' ' || coalesce(last_error, '')`;

const placeholders = (n: number) => Array.from({ length: n }, () => '?').join(', ');
const CHUNK = 200;
function chunks<T>(items: T[]): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += CHUNK) out.push(items.slice(i, i + CHUNK));
  return out;
}

async function column(ctx: AppContext, sql: string, args: (string | number)[]): Promise<string[]> {
  return (await ctx.db.$client.execute({ sql, args })).rows.map((r) => String(r[0]));
}

/** The address in a consent record kept after erasure: a keyed hash, the same for the same address. */
export async function pseudonym(ctx: AppContext, email: string): Promise<string> {
  return `erased:${createHmac('sha256', await secretOf(ctx)).update(`consent-email:${email.trim().toLowerCase()}`).digest('hex').slice(0, 32)}`;
}

/**
 * Deletes the businesses (with everything that cascades from them), the requests and the addresses
 * given, in one transaction; keeps their consent records pseudonymised; then removes the files
 * and outbox copies that named them.
 */
export async function eraseRows(
  ctx: AppContext,
  input: {
    businessIds: string[];
    requestIds: string[];
    emails: string[];
    userIds?: string[];
    /** Ids of other rows that go (an account's consultant profile, clients, keys, leads…): jobs naming them go too. */
    otherIds?: string[];
    /** Reports that stay (a visitor's) whose cached files show what goes (an agency's brand): the
     *  files are removed, and rendered again from the database when asked for. */
    staleReportIds?: string[];
    /** Names that go (an agency's company and brands): outbox copies naming them are removed. */
    names?: string[];
  },
): Promise<ErasureSummary> {
  const summary = { ...EMPTY };
  const emails = [...new Set(input.emails.map((e) => e.trim().toLowerCase()))];
  const businessIds = [...new Set(input.businessIds)];
  const requestIds = new Set(input.requestIds);
  const reportIds: string[] = [];
  for (const part of chunks(businessIds)) {
    for (const id of await column(ctx, `SELECT id FROM report_requests WHERE business_id IN (${placeholders(part.length)})`, part)) requestIds.add(id);
    reportIds.push(...(await column(ctx, `SELECT id FROM reports WHERE business_id IN (${placeholders(part.length)})`, part)));
  }
  const requests = [...requestIds];

  const statements: InStatement[] = [];
  // Consent records: kept, without the address, the IP address or the browser (registry: consent_records).
  const consent = new Map<string, string>();
  for (const part of chunks(requests)) {
    for (const r of (await ctx.db.$client.execute({ sql: `SELECT id, email FROM consent_records WHERE request_id IN (${placeholders(part.length)})`, args: part })).rows) {
      consent.set(String(r.id), String(r.email));
    }
  }
  for (const email of emails) {
    for (const r of (await ctx.db.$client.execute({ sql: 'SELECT id, email FROM consent_records WHERE lower(email) = ?', args: [email] })).rows) consent.set(String(r.id), String(r.email));
  }
  for (const [id, email] of consent) {
    statements.push({ sql: 'UPDATE consent_records SET email = ?, ip_address = NULL, user_agent = NULL, request_id = NULL WHERE id = ?', args: [await pseudonym(ctx, email), id] });
  }
  summary.consentRecordsPseudonymised = consent.size;

  // Jobs whose payload names what goes (a queued report for an erased request must not run).
  const userIds = input.userIds ?? [];
  // The key, the saved progress and the last error too: each can carry an id or an address.
  const named = [...businessIds, ...requests, ...reportIds, ...userIds, ...(input.otherIds ?? [])];
  for (const part of chunks(named)) {
    statements.push({ sql: `DELETE FROM jobs WHERE ${part.map(() => `instr(${JOB_TEXT}, ?) > 0`).join(' OR ')}`, args: part });
  }
  for (const email of emails) {
    statements.push({ sql: `DELETE FROM jobs WHERE instr(lower(${JOB_TEXT}), ?) > 0`, args: [email] });
    statements.push({ sql: 'DELETE FROM email_opt_outs WHERE lower(email) = ?', args: [email] });
    statements.push({ sql: 'DELETE FROM contact_messages WHERE lower(email) = ?', args: [email] });
    // A lead an agency's widget took from this visitor names them too.
    statements.push({ sql: 'DELETE FROM widget_leads WHERE lower(email) = ?', args: [email] });
    statements.push({ sql: "DELETE FROM rate_limits WHERE lower(key) LIKE '%:' || ?", args: [email] });
    statements.push({ sql: 'DELETE FROM verifications WHERE instr(lower(identifier), ?) > 0 OR instr(lower(value), ?) > 0', args: [email, email] });
  }
  for (const part of chunks(requests)) statements.push({ sql: `DELETE FROM report_requests WHERE id IN (${placeholders(part.length)})`, args: part });
  for (const part of chunks(businessIds)) statements.push({ sql: `DELETE FROM businesses WHERE id IN (${placeholders(part.length)})`, args: part });
  // An account: its sessions, credentials, consultant profile (clients, branding profiles) and
  // exports cascade from it.
  for (const id of userIds) {
    statements.push({ sql: 'DELETE FROM users WHERE id = ?', args: [id] });
    // Counters keyed by the account (close-account:user:{id}, verify:user:{id}, …).
    statements.push({ sql: 'DELETE FROM rate_limits WHERE instr(key, ?) > 0', args: [id] });
    // A lease named by the account (subscribe:{id}), held at the moment of the erasure.
    statements.push({ sql: 'DELETE FROM leases WHERE instr(name, ?) > 0', args: [id] });
    // better-auth's one-time tokens (a reset link's row holds the user id).
    statements.push({ sql: 'DELETE FROM verifications WHERE instr(identifier, ?) > 0 OR instr(value, ?) > 0', args: [id, id] });
  }

  // A report that stays (another's) may have been copied to the address, or sent to it.
  for (const email of emails) {
    statements.push({ sql: 'UPDATE reports SET cc_email = NULL WHERE lower(cc_email) = ?', args: [email] });
    statements.push({ sql: 'UPDATE reports SET recipient_email = NULL WHERE lower(recipient_email) = ?', args: [email] });
  }

  // Every other process sweeps its cached copies when it sees this count go up (decision 0242).
  statements.push(countErasure());
  const results = await ctx.db.$client.batch(statements, 'write');
  let i = consent.size;
  for (let n = 0; n < chunks(named).length; n++) summary.jobs += results[i++]!.rowsAffected;
  for (let n = 0; n < emails.length; n++) {
    summary.jobs += results[i++]!.rowsAffected;
    summary.optOuts += results[i++]!.rowsAffected;
    summary.contactMessages += results[i++]!.rowsAffected;
    i++; // widget leads
    summary.rateLimits += results[i++]!.rowsAffected;
    summary.verifications += results[i++]!.rowsAffected;
  }
  // Requests deleted here, plus those that went with their business.
  summary.requests = requests.length;
  summary.businesses = businessIds.length;
  summary.reports = reportIds.length;

  // This process's cached copies. Every other process has refused its own since the batch above
  // (the row is gone, or names no brand any more) and its sweep removes them (decision 0208)
  // within ERASURE_POLL_MS, told by the count the batch raised (decision 0242).
  for (const id of [...reportIds, ...(input.staleReportIds ?? [])]) {
    const { dir } = reportFiles(ctx, id);
    if (existsSync(dir)) {
      rmSync(dir, { recursive: true, force: true });
      summary.reportFiles++;
    }
  }
  // A report's e-mail carries its id in the Message-ID (report-{id}@…), and the address in To.
  summary.outboxCopies = removeOutboxCopies(ctx, [...emails, ...reportIds.map((id) => `report-${id}`), ...(input.names ?? []).map((n) => n.toLowerCase())]);
  await flushErased(ctx, [...emails, ...businessIds, ...requests, ...reportIds, ...userIds, ...(input.otherIds ?? []), ...(input.names ?? [])]);
  return summary;
}

/**
 * On a file, with secure_delete on (db/client.ts), the erased rows are zeros in the database file,
 * but their earlier page images are still in the write-ahead log until it is checkpointed and cut
 * back: done here, at once, rather than whenever SQLite next gets round to it (decision 0201).
 * On a libSQL server, which refuses secure_delete and checkpoints, the free bytes of the pages that
 * still hold any of `erased` (addresses, ids, names) and every free page are overwritten here, and
 * small writes are queued that make the server compact and merge its log past the erasure; the
 * server's flags bound the rest (decision 0209, docs/operations.md).
 */
export async function flushErased(ctx: AppContext, erased: string[] = []): Promise<void> {
  if (!ctx.env.DATABASE_URL.startsWith('file:')) {
    const scrub = await scrubFreedBytes(ctx.db.$client, erased);
    if (scrub.skipped) ctx.log.warn('erasure: free space on the database server not overwritten', { reason: scrub.skipped });
    // Nothing named (a daily purge that found nothing due): no copy to wait out.
    if (erased.length) await enqueueErasureSettle(ctx);
    return;
  }
  const { rows } = await ctx.db.$client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  // busy = 1: a reader or a writer of another process held the log; the next erasure (or SQLite's
  // own checkpoint) finishes the job.
  if (Number(rows[0]?.[0] ?? 0) !== 0) ctx.log.warn('erasure: the write-ahead log could not be cut back yet', {});
}

/** Deletes the outbox's copies of e-mail that name any of the strings (addresses, report message ids). */
function removeOutboxCopies(ctx: AppContext, needles: string[]): number {
  const dir = outboxDir(ctx);
  if (needles.length === 0 || !existsSync(dir)) return 0;
  let removed = 0;
  for (const file of readdirSync(dir)) {
    if (!file.endsWith('.eml')) continue;
    const text = readFileSync(join(dir, file), 'latin1').toLowerCase();
    if (needles.some((n) => text.includes(n))) {
      rmSync(join(dir, file), { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * Erases what visitors left under an address: its free-report requests, the businesses they were
 * about unless an account holds them, their reports and files, contact messages, opt-outs, rate
 * counters, queued jobs and outbox copies; consent records stay, pseudonymised. An account's own
 * data is not touched (the account is deleted from /account); the summary says when one exists.
 */
export async function forgetEmail(ctx: AppContext, rawEmail: string): Promise<ErasureSummary> {
  const email = rawEmail.trim().toLowerCase();
  const requests = await column(ctx, 'SELECT id FROM report_requests WHERE lower(email) = ?', [email]);
  // Businesses the address asked about (by request or as the form's address) that no account holds,
  // and that no one else asked about.
  const candidates = await column(
    ctx,
    `SELECT b.id FROM businesses b WHERE (lower(b.email) = ? OR b.id IN (SELECT business_id FROM report_requests WHERE lower(email) = ?))`,
    [email, email],
  );
  const erasable = await column(
    ctx,
    `SELECT b.id FROM businesses b WHERE (lower(b.email) = ? OR b.id IN (SELECT business_id FROM report_requests WHERE lower(email) = ?)) AND ${UNHELD}
       AND NOT EXISTS (SELECT 1 FROM report_requests r WHERE r.business_id = b.id AND lower(r.email) <> ?)`,
    [email, email, email],
  );
  const summary = await eraseRows(ctx, { businessIds: erasable, requestIds: requests, emails: [email] });
  summary.businessesKeptForAccounts = candidates.length - erasable.length;
  summary.accountExists = (await column(ctx, 'SELECT id FROM users WHERE lower(email) = ?', [email])).length > 0;
  summary.clientRecords = (await column(ctx, 'SELECT id FROM clients WHERE lower(client_email) = ?', [email])).length;
  ctx.log.info('visitor data erased', { requests: summary.requests, businesses: summary.businesses, reports: summary.reports });
  return summary;
}

/**
 * The retention purge: free reports no account holds whose latest request (or, without one, the
 * business itself) is older than FREE_REPORT_RETENTION_MONTHS are erased like a visitor's request.
 */
export async function purgeExpiredFreeReports(ctx: AppContext, now = new Date()): Promise<ErasureSummary & { cutoff: Date }> {
  const cutoff = new Date(now);
  cutoff.setUTCMonth(cutoff.getUTCMonth() - ctx.env.FREE_REPORT_RETENTION_MONTHS);
  const expired = await column(
    ctx,
    `SELECT b.id FROM businesses b WHERE ${UNHELD}
       AND coalesce((SELECT max(r.created_at) FROM report_requests r WHERE r.business_id = b.id), b.created_at) < ?
       AND coalesce((SELECT max(p.created_at) FROM reports p WHERE p.business_id = b.id), 0) < ?`,
    [cutoff.getTime(), cutoff.getTime()],
  );
  const summary = await eraseRows(ctx, { businessIds: expired, requestIds: [], emails: [] });
  if (expired.length) ctx.log.info('expired free reports purged', { businesses: summary.businesses, reports: summary.reports });
  return { ...summary, cutoff };
}

/** What `admin forget` prints: one line per kind of row or file, then what was kept and why. */
export function describeErasure(email: string, s: ErasureSummary): string {
  const lines = [
    `Erased for ${email}:`,
    `  report requests        ${s.requests}`,
    `  businesses             ${s.businesses} (with their competitors, metrics, review alerts)`,
    `  reports                ${s.reports}`,
    `  report file folders    ${s.reportFiles}`,
    `  contact messages       ${s.contactMessages}`,
    `  unsubscribe records    ${s.optOuts}`,
    `  queued or past jobs    ${s.jobs}`,
    `  rate-limit counters    ${s.rateLimits}`,
    `  one-time tokens        ${s.verifications}`,
    `  outbox copies          ${s.outboxCopies}`,
    `Kept: ${s.consentRecordsPseudonymised} consent record(s), pseudonymised (no address, IP or browser).`,
  ];
  if (s.businessesKeptForAccounts) lines.push(`Kept: ${s.businessesKeptForAccounts} business(es) an account or a consultant's client record holds.`);
  if (s.accountExists) lines.push('An account uses this address: its data stays until the account is deleted (from /account).');
  if (s.clientRecords) lines.push(`${s.clientRecords} consultant client record(s) name this address: they are the consultant's; ask the consultant.`);
  return lines.join('\n');
}
