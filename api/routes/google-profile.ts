// The connected Google Business Profile on Early Warning and the dashboard (issue 48): its status
// and reviews, answers posted to Google, disconnect, and the daily calls/clicks/directions. Access
// is the Early Warning rule, checked before the body is read; tokens never leave the server.
import { Hono } from 'hono';
import { z } from '../../common/zod.ts';
import { reviewReplySchema } from '../../common/schemas/google-profile.ts';
import type { AppContext } from '../context.ts';
import { validate } from '../lib/validate.ts';
import { disconnectProfile } from '../services/google-profile/connection.ts';
import { deleteReviewReply, listProfileReviews, profileMetricsOf, profileStatus, replyToReview } from '../services/google-profile/reviews.ts';
import { monitoredBusiness, type Monitored } from '../services/review-alerts.ts';

const NO_STORE = { 'Cache-Control': 'private, no-store' };
const listQuery = z.object({ cursor: z.string().max(200).optional(), limit: z.coerce.number({ error: 'Must be a whole number from 1 to 100' }).int('Must be a whole number from 1 to 100').min(1, 'Must be a whole number from 1 to 100').max(100, 'Must be a whole number from 1 to 100').default(20) });
const daysQuery = z.object({ days: z.coerce.number({ error: 'Must be a whole number of days from 1 to 90' }).int('Must be a whole number of days from 1 to 90').min(1, 'Must be a whole number of days from 1 to 90').max(90, 'Must be a whole number of days from 1 to 90').default(90) });

export function googleProfileRoutes(ctx: AppContext) {
  return new Hono<{ Variables: { business: Monitored } }>()
    .use('/business/:businessId/google-profile/*', async (c, next) => {
      c.set('business', await monitoredBusiness(ctx, c.req.header('cookie'), c.req.param('businessId') ?? '', Date.now()));
      await next();
    })
    .use('/business/:businessId/google-profile', async (c, next) => {
      c.set('business', await monitoredBusiness(ctx, c.req.header('cookie'), c.req.param('businessId') ?? '', Date.now()));
      await next();
    })
    .get('/business/:businessId/google-profile', validate('query', listQuery), async (c) => {
      const b = c.get('business');
      const { limit, cursor } = c.req.valid('query');
      return c.json({ ...(await profileStatus(ctx, b)), ...(await listProfileReviews(ctx, b, { limit, cursor })) }, 200, NO_STORE);
    })
    .delete('/business/:businessId/google-profile', async (c) => {
      await disconnectProfile(ctx, c.get('business').id);
      return c.json({ disconnected: true }, 200, NO_STORE);
    })
    .get('/business/:businessId/google-profile/metrics', validate('query', daysQuery), async (c) => c.json(await profileMetricsOf(ctx, c.get('business'), c.req.valid('query').days), 200, NO_STORE))
    .put('/business/:businessId/google-profile/reviews/:reviewId/reply', validate('json', reviewReplySchema), async (c) =>
      c.json(await replyToReview(ctx, c.get('business'), c.req.param('reviewId'), c.req.valid('json').text), 200, NO_STORE),
    )
    .delete('/business/:businessId/google-profile/reviews/:reviewId/reply', async (c) => c.json(await deleteReviewReply(ctx, c.get('business'), c.req.param('reviewId')), 200, NO_STORE));
}
