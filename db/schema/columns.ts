import { integer, text } from 'drizzle-orm/sqlite-core';

// SQLite has no DECIMAL: numbers are stored as REAL and rounded to the spec's precision where
// they enter the database (see common/constants.ts `PRECISION` and docs/decisions/0002).
export const id = () => text('id').primaryKey().$defaultFn(() => crypto.randomUUID());
export const createdAt = () => integer('created_at', { mode: 'timestamp_ms' }).notNull().$defaultFn(() => new Date());
export const updatedAt = () =>
  integer('updated_at', { mode: 'timestamp_ms' })
    .notNull()
    .$defaultFn(() => new Date())
    .$onUpdateFn(() => new Date());
