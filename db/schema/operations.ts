// Tables the product runs on rather than shows: the job queue, rate limits, contact messages.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt, id, updatedAt } from './columns.ts';

export const jobs = sqliteTable(
  'jobs',
  {
    id: id(),
    type: text('type').notNull(),
    // Idempotency key: enqueueing the same key twice creates one job (e.g. monthly:2026-11:business-42).
    key: text('key').unique(),
    payload: text('payload', { mode: 'json' }).notNull(),
    status: text('status', { enum: ['queued', 'running', 'done', 'failed'] }).notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: integer('run_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    leaseUntil: integer('lease_until', { mode: 'timestamp_ms' }),
    lockedBy: text('locked_by'),
    progress: text('progress', { mode: 'json' }),
    lastError: text('last_error'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    finishedAt: integer('finished_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('jobs_claim_idx').on(t.status, t.runAt), index('jobs_lease_idx').on(t.status, t.leaseUntil)],
);

export const rateLimits = sqliteTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: integer('reset_at', { mode: 'timestamp_ms' }).notNull(),
  },
  // The prune deletes by it (api/services/rate-limit.ts).
  (t) => [index('rate_limits_reset_at_idx').on(t.resetAt)],
);

export const contactMessages = sqliteTable(
  'contact_messages',
  {
    id: id(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    ipAddress: text('ip_address'),
    notifiedAt: integer('notified_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_created_at_idx').on(t.createdAt)],
);

/**
 * Named leases: one holder at a time across every process on the database, until `expiresAt`
 * (renewed while the work runs; a holder that died lets go when it lapses). `withLease`
 * (api/lib/lease.ts) takes, renews and releases them; e.g. one subscription start per user.
 */
export const leases = sqliteTable('leases', {
  name: text('name').primaryKey(),
  holder: text('holder').notNull(),
  expiresAt: integer('expires_at', { mode: 'timestamp_ms' }).notNull(),
});

/**
 * Counters every process reads to learn that something happened elsewhere, without a message bus:
 * `report-files` goes up with each erasure, and each process sweeps its cached report files when
 * it sees it change (api/report/files/sweep.ts, decision 0242). Only a number: nothing erased is named.
 */
export const signals = sqliteTable('signals', {
  name: text('name').primaryKey(),
  generation: integer('generation').notNull(),
});

/**
 * One row per call to a paid provider (Google Places per SKU, Yelp per endpoint, the geocoder), with
 * what made it: the ledger every process adds to, so the day's spend is one sum whichever worker
 * spent it (api/lib/provider-calls.ts; prices in api/lib/provider-prices.ts, decision 0270).
 */
export const providerCalls = sqliteTable(
  'provider_calls',
  {
    id: id(),
    /** UTC day, YYYY-MM-DD: the budget's day and Google's month are read from it. */
    day: text('day').notNull(),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
    provider: text('provider').notNull(),
    sku: text('sku').notNull(),
    /** The HTTP status, or 0 when no answer came. */
    status: integer('status').notNull(),
    /** What made the call: report (the request's id), scan, grid, review-check, cli... */
    subjectType: text('subject_type'),
    subjectId: text('subject_id'),
    /** Tokens in and out, for a call billed by the token as well (the AI engines, issue 50). */
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
  },
  (t) => [index('provider_calls_day_idx').on(t.day, t.provider, t.sku), index('provider_calls_subject_idx').on(t.subjectId)],
);
