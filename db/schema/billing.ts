// The ledger of Stripe webhook events: an event id is recorded once, so a replay does nothing.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';

export const stripeEvents = sqliteTable(
  'stripe_events',
  {
    id: text('id').primaryKey(),
    type: text('type').notNull(),
    receivedAt: integer('received_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date()),
    processedAt: integer('processed_at', { mode: 'timestamp_ms' }),
  },
  (t) => [index('stripe_events_received_at_idx').on(t.receivedAt)],
);
