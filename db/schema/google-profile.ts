import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { users } from './auth.ts';
import { businesses } from './businesses.ts';
import { createdAt, id, updatedAt } from './columns.ts';

// A business's Google Business Profile connected by OAuth (issue 48, decision 0280). The tokens are
// AES-256-GCM ciphertext (key from TOKEN_SECRET_KEY), never returned, logged or exported. A
// location is connected to one business at a time; 'sample' rows are the labelled sample profile.
export const googleConnections = sqliteTable(
  'google_connections',
  {
    id: id(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    // Who connected it (the owner, or the agency's user): the one the reconnect e-mail goes to.
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['connected', 'disconnected', 'sample'] }).notNull(),
    accountName: text('account_name').notNull(),
    locationName: text('location_name').notNull(),
    locationTitle: text('location_title').notNull(),
    placeId: text('place_id'),
    refreshToken: text('refresh_token'),
    accessToken: text('access_token'),
    accessExpiresAt: integer('access_expires_at', { mode: 'timestamp_ms' }),
    // Set once every page was read; later reads stop at the first known, unchanged review.
    fullReadAt: integer('full_read_at', { mode: 'timestamp_ms' }),
    lastPolledAt: integer('last_polled_at', { mode: 'timestamp_ms' }),
    // When the 90 days of calls, clicks and directions were last read (once a day).
    metricsFetchedAt: integer('metrics_fetched_at', { mode: 'timestamp_ms' }),
    lastError: text('last_error'),
    disconnectedAt: integer('disconnected_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('google_connections_business_idx').on(t.businessId),
    uniqueIndex('google_connections_location_idx').on(t.locationName).where(sql`status = 'connected'`),
    index('google_connections_user_idx').on(t.userId),
  ],
);

// The consent under way: bound to the session that started it (a hash of its token), with the
// PKCE verifier; one use, ten minutes. When the Google account holds several locations the
// exchanged grant waits here (encrypted) for the user to pick one.
export const googleConnectStates = sqliteTable(
  'google_connect_states',
  {
    state: text('state').primaryKey(),
    sessionHash: text('session_hash').notNull(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    verifier: text('verifier').notNull(),
    // Started from an agency's client page: the client it goes back to (checked against the agency).
    clientId: text('client_id'),
    pendingRefreshToken: text('pending_refresh_token'),
    choices: text('choices', { mode: 'json' }).$type<Array<{ accountName: string; locationName: string; title: string; placeId: string | null }>>(),
    createdAt: createdAt(),
  },
  // Led by each foreign key, so deleting a business or a user finds its pending consents without a scan.
  (t) => [index('google_connect_states_created_idx').on(t.createdAt), index('google_connect_states_business_idx').on(t.businessId), index('google_connect_states_user_idx').on(t.userId)],
);

// Every review of a connected profile, as Google has it now; `removedAt` when it left the profile.
export const profileReviews = sqliteTable(
  'profile_reviews',
  {
    id: id(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    reviewId: text('review_id').notNull(),
    author: text('author'),
    rating: real('rating').notNull(),
    text: text('text'),
    createdAt: integer('created_at', { mode: 'timestamp_ms' }).notNull(),
    updatedAt: integer('updated_at', { mode: 'timestamp_ms' }).notNull(),
    replyText: text('reply_text'),
    replyUpdatedAt: integer('reply_updated_at', { mode: 'timestamp_ms' }),
    // Google's reason when our last answer was refused.
    replyError: text('reply_error'),
    removedAt: integer('removed_at', { mode: 'timestamp_ms' }),
    seenAt: integer('seen_at', { mode: 'timestamp_ms' }).notNull(),
  },
  (t) => [uniqueIndex('profile_reviews_business_review_idx').on(t.businessId, t.reviewId), index('profile_reviews_business_updated_idx').on(t.businessId, t.updatedAt)],
);

// Calls, website clicks, direction requests and impressions per day (the Performance API).
export const profileMetrics = sqliteTable(
  'profile_metrics',
  {
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    day: text('day').notNull(),
    calls: integer('calls').notNull().default(0),
    websiteClicks: integer('website_clicks').notNull().default(0),
    directionRequests: integer('direction_requests').notNull().default(0),
    impressions: integer('impressions').notNull().default(0),
  },
  (t) => [uniqueIndex('profile_metrics_business_day_idx').on(t.businessId, t.day)],
);
