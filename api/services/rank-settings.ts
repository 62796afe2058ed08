// The owner's choice whether the rank counts their brand's other locations (decision 0235): a
// setting of the business, read by the next analysis (paid plans only) and by the dashboard at once.
// The callers check who may change it (the dashboard's viewer rule, the API key's owner).
import { eq } from 'drizzle-orm';
import { businesses } from '../../db/schema/businesses.ts';
import type { AppContext } from '../context.ts';

export async function setRankWithBranches(ctx: AppContext, businessId: string, rankWithBranches: boolean) {
  await ctx.db.update(businesses).set({ rankWithBranches }).where(eq(businesses.id, businessId));
  return { businessId, rankWithBranches };
}
