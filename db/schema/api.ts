// The public API's tables (issue 16): keys, stored only as a hash, and the answers kept for
// Idempotency-Key replays. Rows belong to a user and go with them (ON DELETE CASCADE).
import { index, integer, sqliteTable, text, uniqueIndex } from 'drizzle-orm/sqlite-core';
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
