// Files that live in the database, so that every process on every machine reads the same ones and
// an erasure removes them everywhere at once (decision 0208): the agencies' logos and the accounts'
// export archives. Both go with the row they belong to (the schema cascades).
import { blob, index, integer, primaryKey, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import { createdAt } from './columns.ts';
import { brandingProfiles } from './consultants.ts';
import { dataExports } from './data-rights.ts';

/** A branding profile's logo, re-encoded as a PNG (at most a few hundred KB), by its public file
 *  name `{profileId}-{first 16 hex of its SHA-256}.png`: one per profile, a new logo a new name. */
export const brandingLogos = sqliteTable(
  'branding_logos',
  {
    file: text('file').primaryKey(),
    profileId: text('profile_id')
      .notNull()
      .references(() => brandingProfiles.id, { onDelete: 'cascade' }),
    png: blob('png', { mode: 'buffer' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('branding_logos_profile_id_idx').on(t.profileId)],
);

/**
 * An export's ZIP in pieces of EXPORT_CHUNK_BYTES (a libSQL server refuses a value of a few MB,
 * and answers of more than 10 MB), written by one attempt of the export job: the export row names
 * the attempt whose pieces are complete (`data_exports.archive`).
 */
export const dataExportChunks = sqliteTable(
  'data_export_chunks',
  {
    exportId: text('export_id')
      .notNull()
      .references(() => dataExports.id, { onDelete: 'cascade' }),
    attempt: text('attempt').notNull(),
    seq: integer('seq').notNull(),
    bytes: blob('bytes', { mode: 'buffer' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.exportId, t.attempt, t.seq] })],
);
