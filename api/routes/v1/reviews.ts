// A business's reviews over the API (issue 48): from its connected Google Business Profile,
// newest first, with answers written and removed on Google, and the profile's daily calls,
// clicks and directions. The Early Warning rules are the screen's (services/google-profile).
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { createMiddleware } from 'hono/factory';
import { REPLY_MAX_BYTES, replyTextSchema } from '../../../common/schemas/google-profile.ts';
import type { AppContext } from '../../context.ts';
import type { ProfileReview } from '../../../common/schemas/google-profile.ts';
import { deleteReviewReply, listProfileReviews, profileMetricsOf, replyToReview } from '../../services/google-profile/reviews.ts';
import { monitoredBusinessOf, type Monitored } from '../../services/review-alerts.ts';
import { jsonContent, NO_STORE, pathId, problems, scope, validPathId, type V1Env } from './common.ts';
import { profileMetricsSchema, reviewListSchema, reviewSchema } from './schemas.ts';

type ReviewsEnv = V1Env & { Variables: { business: Monitored } };
const PAGE = { default: 50, max: 100 } as const;

const out = (r: ProfileReview) => ({ id: r.id, source: 'google_business_profile' as const, rating: r.rating, text: r.text, author: r.author, createdAt: r.createdAt, updatedAt: r.updatedAt, reply: r.reply });

export function reviewRoutes(ctx: AppContext) {
  const params = pathId('businessId', 'A business id from the list.');
  const reviewParams = params.extend({ reviewId: z.string().min(1).max(200).openapi({ param: { name: 'reviewId', in: 'path' }, description: 'A review id from the list.' }) });
  const business = createMiddleware<ReviewsEnv>(async (c, next) => {
    c.set('business', await monitoredBusinessOf(ctx, { kind: 'user', id: c.get('caller').userId }, validPathId(params, c, 'businessId'), Date.now()));
    await next();
  });

  const list = createRoute({
    method: 'get',
    path: '/businesses/{businessId}/reviews',
    operationId: 'listReviews',
    tags: ['Reviews'],
    summary: 'List reviews',
    description: "Every review of the business's connected Google Business Profile, newest first (by last change), with its answer. Empty when no profile is connected.",
    middleware: [scope('reviews:read'), business] as const,
    request: {
      params,
      query: z.object({
        cursor: z.string().max(200).optional().openapi({ description: 'The `nextCursor` of the previous page.' }),
        limit: z.coerce.number().int().min(1).max(PAGE.max).default(PAGE.default).openapi({ description: `How many reviews at most (1 to ${PAGE.max}; ${PAGE.default} when not given).` }),
      }),
    },
    responses: { 200: jsonContent(reviewListSchema, 'A page of reviews.'), ...problems(400, 404) },
  });

  const replyBody = z.strictObject({ text: replyTextSchema.openapi({ description: `The answer, posted on Google under the business's name (up to ${REPLY_MAX_BYTES} bytes).`, example: 'Thank you, we are sorry for the wait.' }) });
  const putReply = createRoute({
    method: 'put',
    path: '/businesses/{businessId}/reviews/{reviewId}/reply',
    operationId: 'replyToReview',
    tags: ['Reviews'],
    summary: 'Answer a review',
    description: "Posts the answer on Google (or replaces the one there). Google takes 10 edits a minute per profile (429 beyond); an answer Google refuses is a 400 whose `fields.text` gives Google's reason.",
    middleware: [scope('reviews:write'), business] as const,
    request: { params: reviewParams, body: { required: true, content: { 'application/json': { schema: replyBody } } } },
    responses: { 200: jsonContent(reviewSchema, 'The review with its answer.'), ...problems(400, 404, 409) },
  });

  const deleteReplyRoute = createRoute({
    method: 'delete',
    path: '/businesses/{businessId}/reviews/{reviewId}/reply',
    operationId: 'deleteReviewReply',
    tags: ['Reviews'],
    summary: 'Remove an answer',
    description: 'Removes the answer from Google.',
    middleware: [scope('reviews:write'), business] as const,
    request: { params: reviewParams },
    responses: { 200: jsonContent(reviewSchema, 'The review without an answer.'), ...problems(404, 409) },
  });

  const metrics = createRoute({
    method: 'get',
    path: '/businesses/{businessId}/profile-metrics',
    operationId: 'getProfileMetrics',
    tags: ['Reviews'],
    summary: 'Calls, clicks and directions',
    description: "The connected Google Business Profile's calls, website clicks, direction requests and impressions per day.",
    middleware: [scope('reviews:read'), business] as const,
    request: { params, query: z.object({ days: z.coerce.number().int().min(1).max(90).default(90).openapi({ description: 'How many days back (1 to 90; 90 when not given).' }) }) },
    responses: { 200: jsonContent(profileMetricsSchema, 'The daily figures.'), ...problems(400, 404) },
  });

  return new OpenAPIHono<ReviewsEnv>()
    .openapi(list, async (c) => {
      const { cursor, limit } = c.req.valid('query');
      const page = await listProfileReviews(ctx, c.get('business'), { limit, cursor });
      return c.json({ reviews: page.reviews.map(out), nextCursor: page.nextCursor }, 200, NO_STORE);
    })
    .openapi(putReply, async (c) => c.json(out(await replyToReview(ctx, c.get('business'), c.req.valid('param').reviewId, c.req.valid('json').text)), 200, NO_STORE))
    .openapi(deleteReplyRoute, async (c) => c.json(out(await deleteReviewReply(ctx, c.get('business'), c.req.valid('param').reviewId)), 200, NO_STORE))
    .openapi(metrics, async (c) => {
      const m = await profileMetricsOf(ctx, c.get('business'), c.req.valid('query').days);
      return c.json({ businessId: m.businessId, connected: m.connected, days: m.days }, 200, NO_STORE);
    });
}
