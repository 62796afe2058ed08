// The businesses an API caller may read (issue 16): their own and, for a consultant, their
// clients' (the dashboard's rule), newest first, a page at a time with an opaque cursor.
import type { BusinessContact } from '../../common/schemas/report-request.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { VIEWER_CTE, viewerMaySee } from './viewer-sql.ts';

export const BUSINESS_PAGE = { default: 20, max: 100 } as const;

export interface BusinessSummary extends Pick<BusinessContact, 'company' | 'address' | 'city' | 'state' | 'zip' | 'website'> {
  id: string;
  category: string | null;
  createdAt: string;
  sampleData: boolean;
  latest: { overallScore: number; reportedAt: string } | null;
}

// ?1 user id, ?2 now, ?3 cursor's created_at (ms) or null, ?4 cursor's id, ?5 page size + 1.
const LIST_SQL = `
WITH v AS (${VIEWER_CTE.user})
SELECT b.id, b.company, b.address, b.city, b.state, b.zip, b.website, b.category, b.created_at, b.place_id,
  m.overall_score, m.reported_at
FROM v JOIN businesses b ON ${viewerMaySee('b')}
LEFT JOIN business_metrics m ON m.id = (
  SELECT x.id FROM business_metrics x WHERE x.business_id = b.id AND x.is_main_business = 1 ORDER BY x.reported_at DESC LIMIT 1)
WHERE ?3 IS NULL OR (b.created_at, b.id) < (?3, ?4)
ORDER BY b.created_at DESC, b.id DESC LIMIT ?5`;

const encodeCursor = (createdAt: number, id: string) => Buffer.from(JSON.stringify([createdAt, id])).toString('base64url');

function decodeCursor(cursor: string): [number, string] {
  try {
    const value = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as unknown;
    if (Array.isArray(value) && Number.isInteger(value[0]) && typeof value[1] === 'string') return [value[0], value[1]];
  } catch {
    // Falls through to the 400 below.
  }
  throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { cursor: 'Not a cursor this API gave out' } });
}

export async function listBusinesses({ ctx, userId, cursor, limit, now = Date.now() }: { ctx: AppContext; userId: string; cursor?: string; limit: number; now?: number }) {
  const [afterAt, afterId] = cursor ? decodeCursor(cursor) : [null, null];
  const rows = await ctx.db.$read(LIST_SQL, [userId, now, afterAt, afterId, limit + 1]);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    businesses: page.map(
      (r): BusinessSummary => ({
        id: String(r.id),
        company: String(r.company),
        address: String(r.address),
        city: String(r.city),
        state: String(r.state),
        zip: String(r.zip),
        website: String(r.website),
        category: r.category === null ? null : String(r.category),
        createdAt: new Date(Number(r.created_at)).toISOString(),
        sampleData: typeof r.place_id === 'string' && r.place_id.startsWith('sample-'),
        latest: r.overall_score === null ? null : { overallScore: Number(r.overall_score), reportedAt: new Date(Number(r.reported_at)).toISOString() },
      }),
    ),
    nextCursor: rows.length > limit && last ? encodeCursor(Number(last.created_at), String(last.id)) : null,
  };
}
