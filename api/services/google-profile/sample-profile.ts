// "Connect" with the sample data provider and no OAuth settings: a labelled sample profile (made-up
// reviews and figures, deterministic), so a fresh clone shows the whole feature. It never calls
// Google; every surface that shows it says "Sample Business Profile".
import { eq } from 'drizzle-orm';
import { googleConnections, profileMetrics, profileReviews } from '../../../db/schema/google-profile.ts';
import type { AppContext } from '../../context.ts';

export const SAMPLE_PROFILE_TITLE = 'Sample Business Profile (example reviews, not your real profile)';
const DAY_MS = 86_400_000;
const WORDS = ['Friendly staff and quick service.', 'Booked online, seen on time.', 'A bit pricey but worth it.', 'Parking was hard to find.', 'They explained everything clearly.', 'Waited 40 minutes past my appointment.', 'Best in town, will be back.', 'Front desk was rude on the phone.'];
const NAMES = ['Jordan P.', 'Sam K.', 'Alex R.', 'Taylor M.', 'Morgan L.', 'Casey D.', 'Riley B.', 'Jamie S.'];

export async function connectSampleProfile(ctx: AppContext, businessId: string, userId: string, now = Date.now()): Promise<void> {
  const values = { businessId, userId, status: 'sample' as const, accountName: 'accounts/sample', locationName: `locations/sample-${businessId}`, locationTitle: SAMPLE_PROFILE_TITLE, placeId: null, refreshToken: null, accessToken: null, accessExpiresAt: null, fullReadAt: new Date(now), lastPolledAt: new Date(now), metricsFetchedAt: new Date(now), lastError: null, disconnectedAt: null };
  await ctx.db.insert(googleConnections).values(values).onConflictDoUpdate({ target: googleConnections.businessId, set: values });
  await ctx.db.delete(profileReviews).where(eq(profileReviews.businessId, businessId));
  await ctx.db.delete(profileMetrics).where(eq(profileMetrics.businessId, businessId));
  const reviews = Array.from({ length: 120 }, (_, i) => {
    const rating = [5, 5, 4, 5, 3, 4, 5, 2, 5, 1][i % 10]!;
    const at = new Date(now - (i * 2 + 1) * DAY_MS + (i % 7) * 3_600_000);
    return { businessId, reviewId: `sample-${i}`, author: NAMES[i % NAMES.length]!, rating, text: WORDS[(i * 3) % WORDS.length]!, createdAt: at, updatedAt: at, replyText: i % 4 === 0 ? 'Thank you for your review!' : null, replyUpdatedAt: i % 4 === 0 ? at : null, removedAt: null, seenAt: new Date(now) };
  });
  for (let i = 0; i < reviews.length; i += 40) await ctx.db.insert(profileReviews).values(reviews.slice(i, i + 40));
  const days = Array.from({ length: 90 }, (_, i) => {
    const day = new Date(now - (90 - i) * DAY_MS).toISOString().slice(0, 10);
    const wave = 1 + Math.sin(i / 6) * 0.3;
    return { businessId, day, calls: Math.round(6 * wave), websiteClicks: Math.round(14 * wave), directionRequests: Math.round(9 * wave), impressions: Math.round(320 * wave) };
  });
  for (let i = 0; i < days.length; i += 45) await ctx.db.insert(profileMetrics).values(days.slice(i, i + 45));
}
