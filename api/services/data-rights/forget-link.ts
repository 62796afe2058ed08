// The report e-mail's "Delete my data" link: signed (api/lib/signed-link.ts) with the request it
// answered, valid for the retention period (the data is gone by then anyway). Opening it shows a
// confirmation; confirming erases what visitors left under the address the report went to
// (forgetEmail). The request goes with it, so the link works once.
import { eq } from 'drizzle-orm';
import { businesses, reportRequests } from '../../../db/schema/businesses.ts';
import { reports } from '../../../db/schema/reports.ts';
import type { AppContext } from '../../context.ts';
import type { Branding } from '../../report/model/branding.ts';
import { reportBranding } from '../branding/sender.ts';
import { checkLink, signLink } from '../../lib/signed-link.ts';
import { forgetEmail, type ErasureSummary } from './erasure.ts';

export const FORGET_PATH = '/delete-data';

export async function forgetLinkUrl(ctx: AppContext, requestId: string, now = new Date()): Promise<string> {
  const expires = new Date(now);
  expires.setUTCMonth(expires.getUTCMonth() + ctx.env.FREE_REPORT_RETENTION_MONTHS);
  return `${ctx.env.PUBLIC_BASE_URL}${FORGET_PATH}?token=${encodeURIComponent(await signLink(ctx, 'forget-request', requestId, expires))}`;
}

export type ForgetLinkState =
  | { state: 'confirm'; email: string; company: string }
  | { state: 'done'; email: string; summary: ErasureSummary }
  /** Signed by us, but the request is gone: the link was used, or the data was purged. */
  | { state: 'used' }
  | { state: 'expired' }
  | { state: 'invalid' };

export async function lookupForgetLink(ctx: AppContext, token: string, now = new Date()): Promise<ForgetLinkState> {
  const link = await checkLink(ctx, 'forget-request', token, now);
  if (link.state !== 'valid') return { state: link.state };
  const [row] = await ctx.db
    .select({ email: reportRequests.email, company: businesses.company })
    .from(reportRequests)
    .innerJoin(businesses, eq(businesses.id, reportRequests.businessId))
    .where(eq(reportRequests.id, link.subject));
  if (!row) return { state: 'used' };
  return { state: 'confirm', email: row.email, company: row.company };
}

/** The branding of the report a link's request was answered with (an agency's widget lead's is
 *  the agency's), while the request exists; null for our own reports and for a used or bad link. */
export async function forgetLinkBranding(ctx: AppContext, token: string, now = new Date()): Promise<Branding | null> {
  const link = await checkLink(ctx, 'forget-request', token, now);
  if (link.state !== 'valid') return null;
  const [report] = await ctx.db.select({ consultantId: reports.consultantId, brandingProfileId: reports.brandingProfileId }).from(reports).where(eq(reports.requestId, link.subject)).limit(1);
  return report ? await reportBranding(ctx, report) : null;
}

/** The confirmation's POST: erases, or says why the link cannot. */
export async function forgetByLink(ctx: AppContext, token: string, now = new Date()): Promise<ForgetLinkState> {
  const found = await lookupForgetLink(ctx, token, now);
  if (found.state !== 'confirm') return found;
  return { state: 'done', email: found.email, summary: await forgetEmail(ctx, found.email) };
}
