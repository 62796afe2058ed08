// The public API's tables (issue 16): keys, stored only as a hash, and the answers kept for
// Idempotency-Key replays. Rows belong to a user and go with them (ON DELETE CASCADE).
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
import type { WebhookEvent } from '../../common/schemas/webhooks.ts';
import { users } from './auth.ts';
import { createdAt, id } from './columns.ts';

export const apiKeys = sqliteTable(
  'api_keys',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    scopes: text('scopes', { mode: 'json' }).$type<string[]>().notNull(),
    // SHA-256 of the whole key (hex); the key itself is shown once and never stored.
    hash: text('hash').notNull().unique(),
    // What the list shows: `lr_live_` and the first characters, and the last four.
    prefix: text('prefix').notNull(),
    lastFour: text('last_four').notNull(),
    createdAt: createdAt(),
    lastUsedAt: integer('last_used_at', { mode: 'timestamp_ms' }),
    revokedAt: integer('revoked_at', { mode: 'timestamp_ms' }),
    // Set when the key is rolled: it keeps working until then (the grace period chosen).
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
    rolledToId: text('rolled_to_id'),
  },
  (t) => [index('api_keys_user_id_idx').on(t.userId)],
);

export const apiIdempotency = sqliteTable(
  'api_idempotency',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    // SHA-256 of the method, path and body: the same key with another request is refused.
    requestHash: text('request_hash').notNull(),
    status: text('status', { enum: ['running', 'done'] }).notNull().default('running'),
    responseStatus: integer('response_status'),
    responseBody: text('response_body'),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('api_idempotency_user_key_idx').on(t.userId, t.key), index('api_idempotency_created_at_idx').on(t.createdAt)],
);

// Outgoing webhooks (Standard Webhooks): an account's endpoints, each event's delivery to one
// endpoint, and every attempt at it (the delivery log).
export const webhookEndpoints = sqliteTable(
  'webhook_endpoints',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    description: text('description'),
    events: text('events', { mode: 'json' }).$type<WebhookEvent[]>().notNull(),
    // `whsec_` + base64 of 24 random bytes: shared with the receiver to verify signatures.
    secret: text('secret').notNull(),
    // The secret before the last rotation: deliveries carry a signature with it too until
    // `previous_secret_until`, so a receiver can switch to the new one at its own pace.
    previousSecret: text('previous_secret'),
    previousSecretUntil: integer('previous_secret_until', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
    // Since when every delivery has failed (null after a success); disabled once that lasts the
    // whole retry window, and the owner is e-mailed.
    failingSince: integer('failing_since', { mode: 'timestamp_ms' }),
    disabledAt: integer('disabled_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('webhook_endpoints_user_id_idx').on(t.userId)],
);

export const webhookDeliveries = sqliteTable(
  'webhook_deliveries',
  {
    id: id(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    // The Standard Webhooks message id (webhook-id), the same on every attempt: receivers dedupe by it.
    messageId: text('message_id').notNull(),
    // What the event is about (e.g. report.completed:{reportId}): one delivery per endpoint and event.
    eventKey: text('event_key').notNull(),
    type: text('type').notNull(),
    // The exact JSON body that is signed and sent.
    payload: text('payload').notNull(),
    status: text('status', { enum: ['pending', 'delivered', 'failed'] }).notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: integer('next_attempt_at', { mode: 'timestamp_ms' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('webhook_deliveries_endpoint_event_idx').on(t.endpointId, t.eventKey), index('webhook_deliveries_endpoint_created_idx').on(t.endpointId, t.createdAt)],
);

export const webhookAttempts = sqliteTable(
  'webhook_attempts',
  {
    id: id(),
    deliveryId: text('delivery_id')
      .notNull()
      .references(() => webhookDeliveries.id, { onDelete: 'cascade' }),
    at: integer('at', { mode: 'timestamp_ms' }).notNull(),
    // The receiver's HTTP status, or null when no answer came (refused address, timeout…).
    responseStatus: integer('response_status'),
    // The first characters of the answer, or why there was none.
    excerpt: text('excerpt'),
    durationMs: integer('duration_ms').notNull(),
  },
  (t) => [index('webhook_attempts_delivery_id_idx').on(t.deliveryId)],
);
