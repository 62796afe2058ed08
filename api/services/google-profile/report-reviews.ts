// A connected profile's reviews for the business's own report (issue 48, decision 0322): every
// review not removed, newest first, with the owner's answers, instead of the 5 reviews Places picks
// by relevance. Only while the profile is connected (or the sample one) and the business is on a
// plan with the Early Warning Monitor; otherwise null and the report reads Places as before.
import type { Review } from '../../report/model/types.ts';
import type { AppContext } from '../../context.ts';
import { businessCan } from '../plans/payers.ts';

export interface ProfileReviewsForReport {
  reviews: Review[];
  count: number;
  average: number | null;
  sample: boolean;
}

const REVIEWS_SQL = `
SELECT r.rating, r.text, r.author, r.created_at, r.reply_text, r.reply_updated_at, c.status
FROM google_connections c JOIN profile_reviews r ON r.business_id = c.business_id
WHERE c.business_id = ?1 AND c.status IN ('connected', 'sample') AND r.removed_at IS NULL
ORDER BY r.created_at DESC, r.review_id DESC`;

export async function profileReviewsForReport(ctx: AppContext, businessId: string): Promise<ProfileReviewsForReport | null> {
  const rows = await ctx.db.$read(REVIEWS_SQL, [businessId]);
  if (rows.length === 0 || !(await businessCan(ctx, businessId, 'earlyWarning'))) return null;
  const reviews = rows.map((r): Review => ({
    rating: Number(r.rating),
    text: r.text === null ? '' : String(r.text),
    author: r.author === null ? null : String(r.author),
    date: new Date(Number(r.created_at)).toISOString(),
    url: null,
    ownerResponse: r.reply_text === null ? null : { date: r.reply_updated_at === null ? null : new Date(Number(r.reply_updated_at)).toISOString(), text: String(r.reply_text) },
  }));
  const average = reviews.reduce((n, r) => n + r.rating, 0) / reviews.length;
  return { reviews, count: reviews.length, average: Math.round(average * 10) / 10, sample: rows[0]!.status === 'sample' };
}
