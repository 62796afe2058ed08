import { sql } from 'drizzle-orm';
import { index, integer, real, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import { businesses, reportRequests } from './businesses.ts';
import { createdAt, id } from './columns.ts';
import { brandingProfiles, clients, consultants } from './consultants.ts';

export const reports = sqliteTable(
  'reports',
  {
    id: id(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    requestId: text('request_id').references(() => reportRequests.id, { onDelete: 'set null' }),
    consultantId: text('consultant_id').references(() => consultants.id, { onDelete: 'set null' }),
    clientId: text('client_id').references(() => clients.id, { onDelete: 'set null' }),
    brandingProfileId: text('branding_profile_id').references(() => brandingProfiles.id, { onDelete: 'set null' }),
    runId: text('run_id'),
    reportType: text('report_type').notNull(),
    // Random, unguessable: the online report's address (/report/{token}) and the unsubscribe key.
    // Nullable only because SQLite cannot add a NOT NULL column; every report gets one.
    token: text('token').unique(),
    // The ReportData snapshot the e-mail, the PDF and the online report were made from.
    data: text('data', { mode: 'json' }),
    pdfUrl: text('pdf_url'),
    signedUrl: text('signed_url'),
    // Where the e-mail went when that is not the business's form address (a monthly report goes to
    // the account: the owner's or the consultant's e-mail). The unsubscribe link acts on it.
    recipientEmail: text('recipient_email'),
    emailSent: integer('email_sent', { mode: 'boolean' }).notNull().default(false),
    // Set atomically just before sending, with the Message-ID ("sending"): only one attempt sends
    // at a time, and one that finds it old and `email_sent` unset sends again with that Message-ID.
    emailClaimedAt: integer('email_claimed_at', { mode: 'timestamp_ms' }),
    emailSentAt: integer('email_sent_at', { mode: 'timestamp_ms' }),
    emailMessageId: text('email_message_id'),
    // A copy of the e-mail to the consultant (client reports).
    ccEmail: text('cc_email'),
    // First time the online report was opened from its link; when the job gave up on the report.
    openedAt: integer('opened_at', { mode: 'timestamp_ms' }),
    failedAt: integer('failed_at', { mode: 'timestamp_ms' }),
    // A client report whose e-mail waits for the agency's own mail server: since when, and what the
    // server did (in our words); or, once failed, why (decision 0210). Shown where the agency looks.
    mailWaitingSince: integer('mail_waiting_since', { mode: 'timestamp_ms' }),
    mailProblem: text('mail_problem'),
    createdAt: createdAt(),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
  },
  (t) => [
    index('reports_business_id_idx').on(t.businessId),
    uniqueIndex('reports_request_id_idx').on(t.requestId),
    index('reports_consultant_id_idx').on(t.consultantId),
    index('reports_client_id_idx').on(t.clientId),
    index('reports_branding_profile_id_idx').on(t.brandingProfileId),
  ],
);

export const reviewAlerts = sqliteTable(
  'review_alerts',
  {
    id: id(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    consultantId: text('consultant_id').references(() => consultants.id, { onDelete: 'set null' }),
    clientId: text('client_id').references(() => clients.id, { onDelete: 'set null' }),
    // 'google_business_profile': read from the owner's connected profile (issue 48), not the public sample.
    platform: text('platform', { enum: ['google', 'yelp', 'facebook', 'other', 'google_business_profile'] }).notNull(),
    reviewRating: real('review_rating').notNull(),
    reviewText: text('review_text'),
    reviewUrl: text('review_url'),
    reviewAuthor: text('review_author'),
    reviewDate: integer('review_date', { mode: 'timestamp_ms' }),
    alertTriggered: integer('alert_triggered', { mode: 'boolean' }).notNull().default(false),
    emailSent: integer('email_sent', { mode: 'boolean' }).notNull().default(false),
    // When alert.created went to the webhooks of the accounts monitoring the business (issue 16).
    pushedAt: integer('pushed_at', { mode: 'timestamp_ms' }),
    alertThreshold: real('alert_threshold').notNull().default(3.0),
    createdAt: createdAt(),
  },
  (t) => [
    index('review_alerts_business_created_idx').on(t.businessId, t.createdAt),
    index('review_alerts_consultant_id_idx').on(t.consultantId),
    index('review_alerts_client_id_idx').on(t.clientId),
    // One alert per review, however many analysis runs see it (decision 0076). Author and date may
    // be missing, and NULLs never collide in a unique index, hence the coalesce.
    uniqueIndex('review_alerts_review_idx').on(t.businessId, t.platform, sql`coalesce(${t.reviewAuthor}, '')`, sql`coalesce(${t.reviewDate}, 0)`, t.reviewRating),
  ],
);
