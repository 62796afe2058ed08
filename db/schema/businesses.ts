import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { sql } from 'drizzle-orm';
import { users } from './auth.ts';
import { createdAt, id, updatedAt } from './columns.ts';

// userId is null for a request made by a visitor who was not signed in: the business becomes a
// user's only when submitted while signed in or saved from the report's signed link.
export const businesses = sqliteTable(
  'businesses',
  {
    id: id(),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    fullName: text('full_name').notNull(),
    email: text('email').notNull(),
    company: text('company').notNull(),
    role: text('role').notNull(),
    website: text('website').notNull(),
    address: text('address').notNull(),
    city: text('city').notNull(),
    state: text('state').notNull(),
    zip: text('zip').notNull(),
    latitude: real('latitude'),
    longitude: real('longitude'),
    placeId: text('place_id'),
    category: text('category'),
    // The Early Warning Monitor's threshold; null means ALERT_THRESHOLD.default (decision 0076).
    alertThreshold: real('alert_threshold'),
    // Keywords the owner chose for the local visibility grid (JSON array of strings), searched
    // before the category's defaults; null = the defaults (issue 27).
    visibilityKeywords: text('visibility_keywords', { mode: 'json' }).$type<string[]>(),
    // Whether the rank counts the competitors that are other locations of the business's brand;
    // by default it does not (decision 0235). A paid plan's setting.
    rankWithBranches: integer('rank_with_branches', { mode: 'boolean' }).notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('businesses_user_id_idx').on(t.userId), index('businesses_email_idx').on(t.email)],
);

export const competitors = sqliteTable(
  'competitors',
  {
    id: id(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    placeId: text('place_id').notNull(),
    address: text('address'),
    rating: real('rating'),
    reviewCount: integer('review_count'),
    website: text('website'),
    phone: text('phone'),
    latitude: real('latitude'),
    longitude: real('longitude'),
    distanceFromBusiness: real('distance_from_business'),
    // At the latest analysis, another location of the business's brand, and what told it
    // ('website', 'phone', 'name'); null for an independent competitor (decision 0235).
    brand: text('brand'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('competitors_business_place_idx').on(t.businessId, t.placeId)],
);

// One row per business and per competitor per analysis run, so history accumulates.
export const businessMetrics = sqliteTable(
  'business_metrics',
  {
    id: id(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    competitorId: text('competitor_id').references(() => competitors.id, { onDelete: 'cascade' }),
    runId: text('run_id').notNull(),
    isMainBusiness: integer('is_main_business', { mode: 'boolean' }).notNull().default(false),
    reviewScore: real('review_score'),
    digitalPresenceScore: real('digital_presence_score'),
    engagementScore: real('engagement_score'),
    marketShareScore: real('market_share_score'),
    marketSharePercent: real('market_share_percent'),
    overallScore: real('overall_score'),
    techStackData: text('tech_stack_data', { mode: 'json' }),
    reviewVelocityData: text('review_velocity_data', { mode: 'json' }),
    sentimentData: text('sentiment_data', { mode: 'json' }),
    adAnalysisData: text('ad_analysis_data', { mode: 'json' }),
    dataPoints: text('data_points', { mode: 'json' }),
    // Local visibility (issue 27): the place's Share of Local Voice (percent; null when the grid was
    // not measured), and on the business's own row the grid's summary (VisibilitySummary): the
    // history the dashboard card, the API and the SoLV-change webhook read.
    localVoiceShare: real('local_voice_share'),
    visibility: text('visibility', { mode: 'json' }),
    reportedAt: integer('reported_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
  },
  (t) => [
    index('business_metrics_business_reported_idx').on(t.businessId, t.reportedAt),
    // The dashboard's latest run and 90-day history of the business itself (docs/decisions/0060).
    index('business_metrics_business_main_reported_idx').on(t.businessId, t.isMainBusiness, t.reportedAt),
    // The same rows with every column the history reads, so it reads no table row: reported_at and
    // local_voice_share sit after data_points (~10 KB), and each history row would otherwise walk
    // its overflow pages (13 rows a read; the key route's p99 at 2,000 accounts, decision 0203).
    index('business_metrics_main_history_idx')
      .on(t.businessId, t.reportedAt, t.runId, t.reviewScore, t.digitalPresenceScore, t.engagementScore, t.marketShareScore, t.marketSharePercent, t.overallScore, t.localVoiceShare)
      .where(sql`is_main_business = 1`),
    index('business_metrics_competitor_id_idx').on(t.competitorId),
    index('business_metrics_run_id_idx').on(t.runId),
  ],
);

// A free-report request as the form sent it. The business row holds the latest details.
export const reportRequests = sqliteTable(
  'report_requests',
  {
    id: id(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    userId: text('user_id').references(() => users.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    fingerprint: text('fingerprint').notNull(),
    // The fingerprint and its ten-minute window: unique, so two processes taking the same request
    // at once make one row (decision 0094). Null for rows older than it.
    dedupeKey: text('dedupe_key'),
    payload: text('payload', { mode: 'json' }).notNull(),
    marketingConsent: integer('marketing_consent', { mode: 'boolean' }).notNull().default(false),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    status: text('status').notNull().default('queued'),
    createdAt: createdAt(),
  },
  (t) => [
    index('report_requests_fingerprint_idx').on(t.fingerprint, t.createdAt),
    uniqueIndex('report_requests_dedupe_key_idx').on(t.dedupeKey),
    index('report_requests_business_id_idx').on(t.businessId),
    index('report_requests_user_id_idx').on(t.userId),
    index('report_requests_email_idx').on(t.email),
  ],
);

// Kept when the request is erased (proof of what was agreed, and when): the request link is cut
// and the address pseudonymised by api/services/data-rights/erasure.ts (decision 0130).
export const consentRecords = sqliteTable(
  'consent_records',
  {
    id: id(),
    requestId: text('request_id').references(() => reportRequests.id, { onDelete: 'set null' }),
    email: text('email').notNull(),
    textVersion: text('text_version').notNull(),
    ipAddress: text('ip_address'),
    userAgent: text('user_agent'),
    consentedAt: integer('consented_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    withdrawnAt: integer('withdrawn_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('consent_records_request_id_idx').on(t.requestId), index('consent_records_email_idx').on(t.email)],
);

// An address that used a report e-mail's unsubscribe link. Consent records only exist for
// addresses that sent the form; a monthly report may go to an account (a consultant) that never
// did, and its opt-out must stick all the same. A later consent (a new form with the box ticked)
// outweighs an earlier opt-out. Decision 0066. One row per address, in lower case (issue 37): a
// repeated one-click POST changes nothing; an opt-out after a later consent moves the row's date.
export const emailOptOuts = sqliteTable(
  'email_opt_outs',
  {
    id: id(),
    email: text('email').notNull(),
    reportId: text('report_id'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('email_opt_outs_email_idx').on(t.email)],
);
