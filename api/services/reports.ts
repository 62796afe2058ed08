// The online report behind a signed link: look it up by token, save its business to the signed-in
// user's account, and one-click unsubscribe. The token is the proof: whoever holds the link got it
// at the report's e-mail address.
import { and, eq, inArray, isNull, or } from 'drizzle-orm';
import { businesses, consentRecords, emailOptOuts, reportRequests } from '../../db/schema/businesses.ts';
import { reports } from '../../db/schema/reports.ts';
import type { AppContext } from '../context.ts';
import { AppError, notFound } from '../errors.ts';
import { checkLink, signLink } from '../lib/signed-link.ts';
import type { ReportData } from '../report/model/types.ts';

export type ReportRow = typeof reports.$inferSelect;
export type BusinessRow = typeof businesses.$inferSelect;

export type ReportLookup =
  | { state: 'valid'; report: ReportRow; business: BusinessRow; data: ReportData }
  | { state: 'expired'; report: ReportRow; business: BusinessRow }
  | { state: 'unknown' };

const TOKEN_SHAPE = /^[A-Za-z0-9_-]{16,128}$/;

export async function findReportByToken(ctx: AppContext, token: string, now = new Date()): Promise<ReportLookup> {
  if (!TOKEN_SHAPE.test(token)) return { state: 'unknown' };
  const report = await ctx.db.query.reports.findFirst({ where: eq(reports.token, token) });
  if (!report || !report.data) return { state: 'unknown' };
  const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, report.businessId) });
  if (!business) return { state: 'unknown' };
  if (report.expiresAt && report.expiresAt.getTime() <= now.getTime()) return { state: 'expired', report, business };
  return { state: 'valid', report, business, data: report.data as ReportData };
}

export const reportGone = () => new AppError('gone', 'This report link has expired. Request a new free report to get a fresh one.');
export const reportNotFound = () => notFound('No report was found for this link.');

/** A report that may be read now, or the error that says why not. */
export async function requireValidReport(ctx: AppContext, token: string) {
  const found = await findReportByToken(ctx, token);
  if (found.state === 'unknown') throw reportNotFound();
  if (found.state === 'expired') throw reportGone();
  return found;
}

/** Makes the report's business the user's own. Someone else's business stays theirs. */
export async function saveReportToAccount({ ctx, token, userId }: { ctx: AppContext; token: string; userId: string }) {
  const { business } = await requireValidReport(ctx, token);
  if (business.userId === userId) return { businessId: business.id, alreadySaved: true };
  const updated = await ctx.db
    .update(businesses)
    .set({ userId, updatedAt: new Date() })
    .where(and(eq(businesses.id, business.id), or(isNull(businesses.userId), eq(businesses.userId, userId))))
    .returning({ id: businesses.id });
  if (updated.length === 0) throw new AppError('conflict', 'This business is already saved to another account.');
  return { businessId: business.id, alreadySaved: false };
}

/**
 * Withdraws marketing consent for the address the report was sent to (a monthly report's account
 * address, else the business's form address) and records the opt-out, once per address: a second
 * POST (mail clients retry one-click) changes nothing, and the date shown ("unsubscribed on …")
 * stays the first one. An address that consented again since its opt-out opts out anew.
 */
export async function unsubscribeByReportToken({ ctx, token }: { ctx: AppContext; token: string }) {
  const target = await unsubscribeTarget(ctx, token);
  if (!target) throw notFound('This unsubscribe link is not valid.');
  const { reportId } = target;
  const email = target.email.toLowerCase();
  if (await isUnsubscribed(ctx, email)) return { email };
  const now = new Date();
  await ctx.db.batch([
    ctx.db.update(consentRecords).set({ withdrawnAt: now }).where(and(eq(consentRecords.email, email), isNull(consentRecords.withdrawnAt))),
    ctx.db.update(reportRequests).set({ marketingConsent: false }).where(eq(reportRequests.email, email)),
    // One row per address (a unique index): a stale one, from before a later consent, is moved on.
    ctx.db.insert(emailOptOuts).values({ email, reportId, createdAt: now }).onConflictDoUpdate({ target: emailOptOuts.email, set: { reportId, createdAt: now } }),
  ]);
  ctx.log.info('unsubscribed', { reportId, via: reportId ? 'report' : 'address link' });
  return { email };
}

/** How long an address's unsubscribe link works (RFC 8058 asks that it keep working). */
const UNSUBSCRIBE_LINK_DAYS = 400;

/** A signed unsubscribe token for an address (e-mails that are not about one report: the Early
 *  Warning alerts). The report links' tokens have no dot; these have one. */
export async function unsubscribeToken(ctx: AppContext, email: string, now = new Date()) {
  return signLink(ctx, 'unsubscribe', email.toLowerCase(), new Date(now.getTime() + UNSUBSCRIBE_LINK_DAYS * 24 * 60 * 60 * 1000));
}

/** Whom an unsubscribe token stands for: a report's recipient, or a signed address; null when invalid. */
export async function unsubscribeTarget(ctx: AppContext, token: string): Promise<{ email: string; reportId: string | null; report: ReportRow | null } | null> {
  if (token.includes('.')) {
    const check = await checkLink(ctx, 'unsubscribe', token);
    // An expired address link still unsubscribes: stopping mail must never fail for age.
    return check.state === 'invalid' ? null : { email: check.subject, reportId: null, report: null };
  }
  const found = await findReportByToken(ctx, token);
  if (found.state === 'unknown') return null;
  return { email: found.report.recipientEmail ?? found.business.email, reportId: found.report.id, report: found.report };
}

type ConsentRow = { consentedAt: Date; withdrawnAt: Date | null };

/**
 * The one rule of an opt-out: since when the address has opted out (marketing, monthly and client
 * report mail must skip it), or null. Its latest consent is withdrawn, or it used an unsubscribe
 * link after its latest consent (an address that never sent the form, such as a consultant's or a
 * client's, has only the latter).
 */
export function optedOutSince(latestConsent: ConsentRow | null | undefined, optOutAt: Date | null | undefined): Date | null {
  if (latestConsent?.withdrawnAt) return latestConsent.withdrawnAt;
  return optOutAt && (!latestConsent || optOutAt.getTime() >= latestConsent.consentedAt.getTime()) ? optOutAt : null;
}

/** Since when each of these addresses has opted out, for those that have (keys lower case). */
export async function optOutsOf(ctx: AppContext, addresses: readonly string[]): Promise<Map<string, Date>> {
  const emails = [...new Set(addresses.map((a) => a.toLowerCase()))];
  const out = new Map<string, Date>();
  if (emails.length === 0) return out;
  const [consents, optOuts] = await Promise.all([
    ctx.db.select({ email: consentRecords.email, consentedAt: consentRecords.consentedAt, withdrawnAt: consentRecords.withdrawnAt }).from(consentRecords).where(inArray(consentRecords.email, emails)),
    ctx.db.select({ email: emailOptOuts.email, at: emailOptOuts.createdAt }).from(emailOptOuts).where(inArray(emailOptOuts.email, emails)),
  ]);
  const latest = new Map<string, ConsentRow>();
  for (const c of consents) {
    const key = c.email.toLowerCase();
    if ((latest.get(key)?.consentedAt.getTime() ?? -Infinity) <= c.consentedAt.getTime()) latest.set(key, c);
  }
  const optOutAt = new Map(optOuts.map((o) => [o.email.toLowerCase(), o.at]));
  for (const email of emails) {
    const since = optedOutSince(latest.get(email), optOutAt.get(email));
    if (since) out.set(email, since);
  }
  return out;
}

/** True when the address has opted out (optedOutSince). */
export async function isUnsubscribed(ctx: AppContext, email: string): Promise<boolean> {
  return (await optOutsOf(ctx, [email])).size > 0;
}

/** The first time a report's online page was opened (the client page shows "Opened"). */
export async function recordOpened(ctx: AppContext, reportId: string, now = new Date()) {
  await ctx.db.update(reports).set({ openedAt: now }).where(and(eq(reports.id, reportId), isNull(reports.openedAt)));
}
