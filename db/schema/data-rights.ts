// Account exports (issue 17): one row per request; the job stores the ZIP in the database
// (data_export_chunks, decision 0208) and e-mails a signed link valid for EXPORT_LINK_DAYS.
import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { users } from './auth.ts';
import { createdAt, id } from './columns.ts';

export const dataExports = sqliteTable(
  'data_exports',
  {
    id: id(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['queued', 'ready', 'failed'] }).notNull().default('queued'),
    bytes: integer('bytes'),
    readyAt: integer('ready_at', { mode: 'timestamp_ms' }),
    expiresAt: integer('expires_at', { mode: 'timestamp_ms' }),
    // The job attempt whose pieces in data_export_chunks are the ZIP, once it is ready.
    archive: text('archive'),
    createdAt: createdAt(),
  },
  (t) => [index('data_exports_user_created_idx').on(t.userId, t.createdAt)],
);
