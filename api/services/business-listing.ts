// Once the provider has named a request's listing, the listing decides which of the account's
// businesses the snapshot belongs to (decision 0212). The intake only had the address to go by:
// - another of the account's businesses is that listing: the address was written another way
//   than the key folds ("Main St N" for "N Main St"), so the request moves to that business,
//   and the business the request made goes if it holds nothing else;
// - the business is already another listing: a second business at one street address with no
//   unit given (a restaurant and the bar next door, one owner), so the request moves to the
//   account's business of that listing, or a new one, and the first keeps the details of its
//   own latest request.
// Only an account's own business, and only a real listing id (isListingId): a client's business
// stays the client's place, a visitor's stays its own.
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, ne, sql } from 'drizzle-orm';
import type { BatchItem } from 'drizzle-orm/batch';
import type { ReportRequest } from '../../common/schemas/report-request.ts';
import { businesses, reportRequests } from '../../db/schema/businesses.ts';
import { clients } from '../../db/schema/consultants.ts';
import type { AppContext } from '../context.ts';
import { isListingId } from '../lib/place-key.ts';

const DETAILS = ['fullName', 'email', 'company', 'role', 'website', 'address', 'city', 'state', 'zip'] as const;
type Details = Pick<ReportRequest, (typeof DETAILS)[number]>;
const detailsOf = (row: Record<string, unknown>): Details => Object.fromEntries(DETAILS.map((k) => [k, String(row[k] ?? '')])) as Details;

/** The business the request's snapshot is to be stored on: `businessId`, or the one it was moved to. */
export async function settleListing(ctx: AppContext, { businessId, requestId, listingId }: { businessId: string; requestId: string; listingId: string }): Promise<string> {
  if (!isListingId(listingId)) return businessId;
  const business = await ctx.db.query.businesses.findFirst({ where: eq(businesses.id, businessId) });
  if (!business?.userId || business.placeId === listingId) return businessId;
  if (await ctx.db.query.clients.findFirst({ where: eq(clients.businessId, businessId), columns: { id: true } })) return businessId;
  const [other] = await ctx.db
    .select({ id: businesses.id })
    .from(businesses)
    .where(and(eq(businesses.userId, business.userId), eq(businesses.placeId, listingId), ne(businesses.id, businessId)))
    .orderBy(asc(businesses.createdAt), asc(businesses.id))
    .limit(1);
  const anotherListing = isListingId(business.placeId);
  if (!other && !anotherListing) return businessId;

  const request = await ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, requestId) });
  const details = detailsOf({ ...business, ...(request?.payload as Record<string, unknown> | undefined) });
  const now = new Date();
  const target = other?.id ?? randomUUID();
  const statements: BatchItem<'sqlite'>[] = [
    other
      ? ctx.db.update(businesses).set({ ...details, updatedAt: now }).where(eq(businesses.id, target))
      : ctx.db.insert(businesses).values({ id: target, userId: business.userId, ...details, createdAt: now, updatedAt: now }),
    ctx.db.update(reportRequests).set({ businessId: target }).where(eq(reportRequests.id, requestId)),
  ];
  const previous = anotherListing ? await latestOtherRequest(ctx, businessId, requestId) : undefined;
  if (previous) statements.push(ctx.db.update(businesses).set({ ...detailsOf(previous), updatedAt: now }).where(eq(businesses.id, businessId)));
  // The business this request made, now empty, goes (nothing cascades: it holds nothing).
  statements.push(
    ctx.db.delete(businesses).where(
      and(
        eq(businesses.id, businessId),
        sql`NOT EXISTS (SELECT 1 FROM report_requests WHERE business_id = ${businessId})`,
        sql`NOT EXISTS (SELECT 1 FROM reports WHERE business_id = ${businessId})`,
        sql`NOT EXISTS (SELECT 1 FROM business_metrics WHERE business_id = ${businessId})`,
        sql`NOT EXISTS (SELECT 1 FROM clients WHERE business_id = ${businessId})`,
      ),
    ),
  );
  await ctx.db.batch(statements as [BatchItem<'sqlite'>, ...BatchItem<'sqlite'>[]]);
  ctx.log.info('report request moved to its listing', { requestId, from: businessId, to: target, reason: other ? 'known listing' : 'another listing at the address' });
  return target;
}

async function latestOtherRequest(ctx: AppContext, businessId: string, requestId: string) {
  const [row] = await ctx.db
    .select({ payload: reportRequests.payload })
    .from(reportRequests)
    .where(and(eq(reportRequests.businessId, businessId), ne(reportRequests.id, requestId)))
    .orderBy(desc(reportRequests.createdAt))
    .limit(1);
  return row?.payload as Record<string, unknown> | undefined;
}
