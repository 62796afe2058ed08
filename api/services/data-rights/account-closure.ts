// Delete my account: closed at once (sessions end, what the registry's `onClose` names stops,
// scheduled work for it is no longer queued, a paid subscription is cancelled when billing is
// configured), erased for good after the grace period (POLICY.dataExportDaysAfterTermination,
// the terms' export window). During it a signed link restores the account or e-mails an export.
// Decision 0132.
import { and, eq, isNotNull, lt } from 'drizzle-orm';
import { POLICY } from '../../../common/constants.ts';
import type { DeleteAccountInput } from '../../../common/schemas/data-rights.ts';
import { accounts, users } from '../../../db/schema/auth.ts';
import { dataExports } from '../../../db/schema/data-rights.ts';
import type { AppContext } from '../../context.ts';
import { enqueueAccountEmail } from '../../email/account-email.ts';
import { AppError } from '../../errors.ts';
import { checkLink, signLink } from '../../lib/signed-link.ts';
import { verifyPassword } from '../../lib/password-hash.ts';
import { billingConfigured, stripeFor } from '../billing/stripe.ts';
import { syncSubscription } from '../billing/subscriptions.ts';
import { consumeRateLimit } from '../rate-limit.ts';
import { eraseRows, type ErasureSummary } from './erasure.ts';
import { disconnectAccountProfiles } from '../google-profile/connection.ts';
import { requestExport } from './export.ts';
import { ACCOUNT_BUSINESSES, TABLES } from './registry.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
export const ACCOUNT_GRACE_DAYS = POLICY.dataExportDaysAfterTermination;
export const RESTORE_PATH = '/restore-account';

const fieldError = (field: string, message: string) => new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { [field]: message } });

export async function restoreLinkUrl(ctx: AppContext, userId: string, purgeAfter: Date): Promise<string> {
  return `${ctx.env.PUBLIC_BASE_URL}${RESTORE_PATH}?token=${encodeURIComponent(await signLink(ctx, 'restore-account', userId, purgeAfter))}`;
}

/** Closes the signed-in user's account after checking the password and the typed address. */
export async function closeAccount({ ctx, userId, input, now = new Date() }: { ctx: AppContext; userId: string; input: DeleteAccountInput; now?: Date }) {
  await consumeRateLimit({ ctx, input: { key: `close-account:user:${userId}`, limit: 10, windowMs: 60 * 60 * 1000, message: 'Too many attempts. Please try again in an hour.' } });
  const user = await ctx.db.query.users.findFirst({ where: eq(users.id, userId) });
  if (!user || user.closedAt) throw new AppError('unauthenticated', 'Not authenticated');
  if (input.confirmEmail.trim().toLowerCase() !== user.email.toLowerCase()) throw fieldError('confirmEmail', 'This is not the e-mail address of your account');
  const credential = await ctx.db.query.accounts.findFirst({ where: and(eq(accounts.userId, userId), eq(accounts.providerId, 'credential')) });
  if (!credential?.password || !(await verifyPassword({ hash: credential.password, password: input.password }, ctx.env.SCRYPT_COST))) {
    throw fieldError('password', 'The password is not correct');
  }
  // The subscription first: if Stripe is unreachable the account stays open and the user can retry,
  // rather than a closed account that keeps being charged.
  if (user.stripeSubscriptionId && billingConfigured(ctx.env)) {
    const stripe = stripeFor(ctx);
    const subscription = await stripe.subscriptions.retrieve(user.stripeSubscriptionId);
    if (subscription.status !== 'canceled') await stripe.subscriptions.cancel(subscription.id, {}, { idempotencyKey: `close-account-${subscription.id}` });
    await syncSubscription({ ctx, subscriptionId: subscription.id, now: now.getTime() });
  }
  // Google grants are revoked at Google, not only forgotten here (issue 48).
  await disconnectAccountProfiles(ctx, userId, ACCOUNT_BUSINESSES);
  const purgeAfter = new Date(now.getTime() + ACCOUNT_GRACE_DAYS * DAY_MS);
  const args = { userId, now: now.getTime() };
  await ctx.db.$client.batch(
    [
      { sql: 'UPDATE users SET closed_at = :now, purge_after = :purgeAfter WHERE id = :userId', args: { ...args, purgeAfter: purgeAfter.getTime() } },
      ...Object.values(TABLES).flatMap((rule) => (rule.onClose ? [{ sql: rule.onClose, args }] : [])),
      // Work queued for the account's businesses or clients would mail a closed account.
      {
        sql: `DELETE FROM jobs WHERE status = 'queued' AND (instr(payload, :userId) > 0 OR EXISTS (
          SELECT 1 FROM (${ACCOUNT_BUSINESSES}) b WHERE instr(jobs.payload, b.id) > 0) OR EXISTS (
          SELECT 1 FROM clients cl JOIN consultants c ON c.id = cl.consultant_id WHERE c.user_id = :userId AND instr(jobs.payload, cl.id) > 0))`,
        args: { userId },
      },
    ],
    'write',
  );
  await enqueueAccountEmail(ctx.db, { kind: 'account-closed', to: user.email, url: await restoreLinkUrl(ctx, userId, purgeAfter) });
  ctx.log.info('account closed', { userId, purgeAfter: purgeAfter.toISOString() });
  return { purgeAfter };
}

export type RestoreLinkState =
  | { state: 'closed'; email: string; purgeAfter: Date; exportRequestedRecently: boolean }
  | { state: 'restored'; email: string }
  | { state: 'export-requested'; email: string }
  /** Signed by us, but there is no closed account behind it: restored already, or erased. */
  | { state: 'not-closed' }
  | { state: 'expired' }
  | { state: 'invalid' };

async function closedUser(ctx: AppContext, token: string, now: Date) {
  const link = await checkLink(ctx, 'restore-account', token, now);
  if (link.state !== 'valid') return { link: link.state } as const;
  const user = await ctx.db.query.users.findFirst({ where: and(eq(users.id, link.subject), isNotNull(users.closedAt)) });
  return { link: 'valid', user } as const;
}

export async function lookupRestoreLink(ctx: AppContext, token: string, now = new Date()): Promise<RestoreLinkState> {
  const found = await closedUser(ctx, token, now);
  if (found.link !== 'valid') return { state: found.link };
  if (!found.user) return { state: 'not-closed' };
  const latest = await ctx.db.query.dataExports.findFirst({ where: eq(dataExports.userId, found.user.id), orderBy: (e, { desc }) => [desc(e.createdAt)] });
  return {
    state: 'closed',
    email: found.user.email,
    purgeAfter: found.user.purgeAfter!,
    exportRequestedRecently: Boolean(latest && now.getTime() - latest.createdAt.getTime() < DAY_MS),
  };
}

/** Reopens a closed account in its grace period. A cancelled subscription stays cancelled. */
export async function restoreAccount(ctx: AppContext, token: string, now = new Date()): Promise<RestoreLinkState> {
  const found = await closedUser(ctx, token, now);
  if (found.link !== 'valid') return { state: found.link };
  if (!found.user) return { state: 'not-closed' };
  const args = { userId: found.user.id, closedAt: found.user.closedAt ? found.user.closedAt.getTime() : null };
  await ctx.db.$client.batch(
    [
      ...Object.values(TABLES).flatMap((rule) => (rule.onRestore ? [{ sql: rule.onRestore, args }] : [])),
      { sql: 'UPDATE users SET closed_at = NULL, purge_after = NULL WHERE id = :userId', args: { userId: found.user.id } },
    ],
    'write',
  );
  ctx.log.info('account restored', { userId: found.user.id });
  return { state: 'restored', email: found.user.email };
}

/** The terms' promise: an export can be requested during the grace period, without reopening. */
export async function exportClosedAccount(ctx: AppContext, token: string, now = new Date()): Promise<RestoreLinkState> {
  const found = await closedUser(ctx, token, now);
  if (found.link !== 'valid') return { state: found.link };
  if (!found.user) return { state: 'not-closed' };
  await requestExport(ctx, found.user.id, now);
  return { state: 'export-requested', email: found.user.email };
}

const CONSULTANT_OF = 'SELECT id FROM consultants WHERE user_id = :userId';
// The ids of the rows that cascade from an account besides its businesses and requests.
const OWNED_ROWS = `
  SELECT id FROM consultants WHERE user_id = :userId
  UNION SELECT id FROM clients WHERE consultant_id IN (${CONSULTANT_OF})
  UNION SELECT id FROM branding_profiles WHERE consultant_id IN (${CONSULTANT_OF})
  UNION SELECT id FROM widget_keys WHERE consultant_id IN (${CONSULTANT_OF})
  UNION SELECT id FROM widget_leads WHERE consultant_id IN (${CONSULTANT_OF})
  UNION SELECT id FROM api_keys WHERE user_id = :userId
  UNION SELECT id FROM webhook_endpoints WHERE user_id = :userId
  UNION SELECT d.id FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.user_id = :userId
  UNION SELECT id FROM data_exports WHERE user_id = :userId`;

/**
 * Erases an account for good: its businesses that no one else holds (its own, and a consultant's
 * clients'), with everything that cascades from them; the account with its sessions, credentials,
 * consultant profile, clients, branding profiles with their logos and exports with their archives
 * (rows of the database, decision 0208); its requests, consent (pseudonymised), messages and
 * counters under its address; report files and outbox copies.
 */
export async function eraseAccount(ctx: AppContext, userId: string): Promise<ErasureSummary> {
  const user = await ctx.db.query.users.findFirst({ where: eq(users.id, userId) });
  if (!user) throw new AppError('not_found', 'No such account.');
  const args = { userId };
  const ids = async (sql: string) => (await ctx.db.$client.execute({ sql, args })).rows.map((r) => String(r[0]));
  const businessIds = await ids(
    `SELECT b.id FROM businesses b WHERE b.id IN (${ACCOUNT_BUSINESSES}) AND (b.user_id IS NULL OR b.user_id = :userId)
       AND NOT EXISTS (SELECT 1 FROM clients cl JOIN consultants c ON c.id = cl.consultant_id WHERE cl.business_id = b.id AND c.user_id <> :userId)`,
  );
  const requestIds = (await ctx.db.$client.execute({ sql: 'SELECT id FROM report_requests WHERE user_id = ? OR lower(email) = ?', args: [userId, user.email.toLowerCase()] })).rows.map((r) => String(r[0]));
  // Every other row that goes with the account, so no job keeps its id (a lead's e-mail, a webhook's
  // delivery, a client report), and the visitors' reports made under its brand (widget leads): they
  // stay, unbranded, and their cached files, which show the brand, are removed.
  const otherIds = await ids(OWNED_ROWS);
  const staleReportIds = await ids(
    `SELECT r.id FROM reports r WHERE r.consultant_id IN (${CONSULTANT_OF}) OR r.branding_profile_id IN (SELECT id FROM branding_profiles WHERE consultant_id IN (${CONSULTANT_OF}))`,
  );
  const names = await ids(`SELECT company_name FROM consultants WHERE user_id = :userId UNION SELECT company_name FROM branding_profiles WHERE consultant_id IN (${CONSULTANT_OF})`);
  const summary = await eraseRows(ctx, {
    businessIds,
    requestIds,
    emails: [user.email],
    userIds: [userId],
    otherIds,
    staleReportIds,
    names: names.filter((n) => n && n !== 'null'),
  });
  ctx.log.info('account erased', { businesses: summary.businesses, reports: summary.reports });
  return summary;
}

/** The purge after the grace period: every closed account whose purgeAfter has passed. */
export async function purgeClosedAccounts(ctx: AppContext, now = new Date()): Promise<number> {
  const due = await ctx.db.select({ id: users.id }).from(users).where(and(isNotNull(users.closedAt), lt(users.purgeAfter, now)));
  for (const { id } of due) await eraseAccount(ctx, id);
  return due.length;
}
