import { index, integer, sqliteTable, text } from 'drizzle-orm/sqlite-core';
import type { AiCompetitor, AiEngineResult } from '../../common/ai-visibility.ts';
import { businesses } from './businesses.ts';
import { id } from './columns.ts';

// One keyword's AI-answers scan of a business (issue 50): what each engine answered, counted; the
// answers themselves are not kept, only whom they named and the domains they cited.
export const aiVisibilityScans = sqliteTable(
  'ai_visibility_scans',
  {
    id: id(),
    businessId: text('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    keyword: text('keyword').notNull(),
    location: text('location').notNull(),
    question: text('question').notNull(),
    scannedAt: integer('scanned_at', { mode: 'timestamp_ms' }).notNull(),
    /** Sample answers of the offline sample provider (labelled wherever shown). */
    sample: integer('sample', { mode: 'boolean' }).notNull().default(false),
    engines: text('engines', { mode: 'json' }).notNull().$type<AiEngineResult[]>(),
    competitors: text('competitors', { mode: 'json' }).notNull().$type<AiCompetitor[]>(),
    calls: integer('calls').notNull().default(0),
    inputTokens: integer('input_tokens').notNull().default(0),
    outputTokens: integer('output_tokens').notNull().default(0),
    usdMicros: integer('usd_micros').notNull().default(0),
  },
  (t) => [index('ai_visibility_scans_business_idx').on(t.businessId, t.scannedAt)],
);
