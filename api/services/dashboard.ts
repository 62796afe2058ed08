// The dashboard read: GET /api/business/{id} and GET /api/my-business. One SQL statement checks
// the session, finds the business the viewer may see (its owner, or the consultant whose client
// it is) and builds the whole JSON answer with json_object/json_group_array, so the route hands
// SQLite's text straight to the client. Times are milliseconds since the epoch. Decision 0060.
import { DASHBOARD_COMPETITOR_LIMIT } from '../../common/constants.ts';
import type { AppContext } from '../context.ts';
import { AppError, unauthenticated } from '../errors.ts';
import { dashboardProfile } from './google-profile/dashboard-profile.ts';
import { can } from './plans/entitlements.ts';
import { sessionTokenFrom } from './session-token.ts';
import { VIEWER_CTE, type ViewerKind, viewerMaySee } from './viewer-sql.ts';

export const TREND_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

export const noBusiness = () => new AppError('not_found', 'No business found');
export const planRequired = () =>
  new AppError('plan_required', 'The business dashboard is part of the Pro, Enterprise and Agency plans. Upgrade to see your dashboard.');

const SCORES = `'reviewScore', m.review_score, 'digitalPresenceScore', m.digital_presence_score, 'engagementScore', m.engagement_score,
  'marketShareScore', m.market_share_score, 'marketSharePercent', m.market_share_percent, 'overallScore', m.overall_score`;

// ?1 session token (or user id, see viewer-sql.ts), ?2 now (ms), ?3 business id (by-id variant only), ?4 start of the trend window (ms).
// Only the score columns are read: business_metrics rows also hold ~10 KB of data points, which
// would drag overflow pages into every read (the business's own row is the one exception: three
// of its points fill its row in the table).
function dashboardSql(byId: boolean, viewer: ViewerKind = 'session') {
  const which = byId
    ? `bz.id = ?3 AND ${viewerMaySee('bz')}`
    : `bz.user_id = v.user_id`;
  return `
WITH v AS (${VIEWER_CTE[viewer]}),
b AS (
  SELECT bz.id, bz.company, bz.city, bz.state, bz.website, bz.category, bz.place_id, bz.updated_at, bz.visibility_keywords, bz.rank_with_branches FROM businesses bz, v WHERE ${which}
  ORDER BY (SELECT max(m.reported_at) FROM business_metrics m WHERE m.business_id = bz.id AND m.is_main_business = 1) DESC NULLS LAST,
    bz.created_at DESC
  LIMIT 1
),
run AS (
  SELECT m.run_id, m.reported_at FROM business_metrics m
  WHERE m.business_id = (SELECT id FROM b) AND m.is_main_business = 1 ORDER BY m.reported_at DESC LIMIT 1
)
SELECT v.tier, v.status, (SELECT id FROM b) AS business_id, (
  SELECT json_object(
    'business', json_object('id', b.id, 'company', b.company, 'city', b.city, 'state', b.state, 'website', b.website,
      'category', b.category, 'updatedAt', b.updated_at, 'visibilityKeywords', json(coalesce(b.visibility_keywords, '[]')),
      'rankWithBranches', json(CASE WHEN b.rank_with_branches THEN 'true' ELSE 'false' END),
      -- The offline sample provider's place ids start with 'sample-': its data must say so.
      'sampleData', json(CASE WHEN b.place_id LIKE 'sample-%' THEN 'true' ELSE 'false' END)),
    'competitors', (
      SELECT json_group_array(json_object('id', x.id, 'name', x.name, 'address', x.address, 'phone', x.phone, 'website', x.website,
        'rating', x.rating, 'reviewCount', x.review_count, 'distanceFromBusiness', x.distance_from_business, 'yourBrand', x.brand))
      FROM (
        SELECT c.id, c.name, c.address, c.phone, c.website, c.rating, c.review_count, c.distance_from_business, c.brand
        FROM business_metrics m JOIN competitors c ON c.id = m.competitor_id
        WHERE m.run_id = (SELECT run_id FROM run)
        ORDER BY m.overall_score DESC, c.name LIMIT ${DASHBOARD_COMPETITOR_LIMIT}
      ) x
    ),
    -- The business's own listing figures and how its site was met, for its row in the
    -- competitor table: read from its latest snapshot's data points (one row, measured values only).
    'self', (
      SELECT json_object(
        'rating', json((SELECT j.value -> '$.value' FROM json_each(m.data_points) j
          WHERE json_extract(j.value, '$.key') = 'reviews.rating' AND json_extract(j.value, '$.status') = 'measured')),
        'reviewCount', json((SELECT j.value -> '$.value' FROM json_each(m.data_points) j
          WHERE json_extract(j.value, '$.key') = 'reviews.count' AND json_extract(j.value, '$.status') = 'measured')),
        'siteReachable', json((SELECT j.value -> '$.value' FROM json_each(m.data_points) j
          WHERE json_extract(j.value, '$.key') = 'site.reachable' AND json_extract(j.value, '$.status') = 'measured')),
        -- How its website was met (decision 0217), from the snapshot's small tech stack summary.
        'siteState', json_extract(m.tech_stack_data, '$.state'))
      FROM business_metrics m WHERE m.run_id = (SELECT run_id FROM run) AND m.is_main_business = 1
    ),
    -- The latest local visibility grid (VisibilitySummary), kept on the business's own row.
    'visibility', json((SELECT m.visibility FROM business_metrics m WHERE m.run_id = (SELECT run_id FROM run) AND m.is_main_business = 1)),
    'metrics', (
      SELECT json_group_array(json_object('id', m.id, 'businessId', m.business_id, 'competitorId', m.competitor_id,
        'isMainBusiness', json(CASE WHEN m.is_main_business THEN 'true' ELSE 'false' END), ${SCORES},
        -- Another location of the business's brand (decision 0235): what told it, else null.
        'yourBrand', (SELECT c.brand FROM competitors c WHERE c.id = m.competitor_id),
        'reportedAt', (SELECT reported_at FROM run)))
      FROM (
        SELECT id, business_id, competitor_id, is_main_business, review_score, digital_presence_score, engagement_score,
          market_share_score, market_share_percent, overall_score
        FROM business_metrics WHERE run_id = (SELECT run_id FROM run)
      ) m
    )
  ) FROM b
) AS body, (
  SELECT json_group_array(json_object('runId', h.run_id, 'reviewScore', h.review_score, 'digitalPresenceScore', h.digital_presence_score,
    'engagementScore', h.engagement_score, 'marketShareScore', h.market_share_score, 'marketSharePercent', h.market_share_percent,
    'overallScore', h.overall_score, 'localVoiceShare', h.local_voice_share, 'reportedAt', h.reported_at))
  FROM (
    SELECT run_id, review_score, digital_presence_score, engagement_score, market_share_score, market_share_percent, overall_score, local_voice_share, reported_at
    FROM business_metrics
    WHERE business_id = (SELECT id FROM b) AND is_main_business = 1 AND reported_at >= ?4
    ORDER BY reported_at
  ) h
) AS history
FROM v`;
}

/** Exported for the test that holds their query plans (the history from its covering index). */
export const DASHBOARD_SQL = { byId: dashboardSql(true), mine: dashboardSql(false), apiById: dashboardSql(true, 'user') };

/**
 * The dashboard JSON for the signed-in viewer, as text: `{ access, reanalysisDays, business,
 * competitors, metrics, history }`. `businessId` null means the viewer's own business. Throws 401 when signed
 * out, 403 plan_required on a plan without the dashboard, 404 'No business found' when there is no
 * such business or the viewer may not see it (the same answer either way).
 */
export async function getDashboardJson({ ctx, cookie, businessId, now = Date.now() }: { ctx: AppContext; cookie: string | null | undefined; businessId: string | null; now?: number }): Promise<string> {
  const token = await sessionTokenFrom(ctx, cookie);
  if (!token) throw unauthenticated();
  const since = now - TREND_DAYS * DAY_MS;
  const [row] = await ctx.db.$read(businessId === null ? DASHBOARD_SQL.mine : DASHBOARD_SQL.byId, [token, now, businessId, since]);
  if (!row) throw unauthenticated();
  const plan = { subscriptionTier: String(row.tier), subscriptionStatus: String(row.status) };
  if (!can(plan, 'dashboard')) throw planRequired();
  if (typeof row.body !== 'string') throw noBusiness();
  const access = { trends: can(plan, 'trends'), earlyWarning: can(plan, 'earlyWarning') };
  const history = access.trends && typeof row.history === 'string' ? row.history : '[]';
  // The Google Business Profile (an Early Warning feature) comes with the page: its card is drawn
  // with the rest, and its review figures replace the listing's while it is connected (decision 0322).
  const profile = access.earlyWarning ? await dashboardProfile(ctx, String(row.business_id), now) : null;
  // SQLite's JSON text is spliced, not parsed and serialised again: the read stays one query.
  // reanalysisDays: how often the scheduled re-analysis adds a snapshot (the screen says so).
  return `{"access":${JSON.stringify(access)},"reanalysisDays":${ctx.env.REANALYSIS_INTERVAL_DAYS},${row.body.slice(1, -1)},"history":${history},"googleProfile":${JSON.stringify(profile)}}`;
}

export interface DashboardBusiness {
  id: string;
  company: string;
  city: string;
  state: string;
  /** The client's name when the business is one of the consultant's clients; null for the viewer's own. */
  clientName: string | null;
}

const BUSINESSES_SQL = `
WITH v AS (${VIEWER_CTE.session})
SELECT v.tier, v.status, x.id, x.company, x.city, x.state, x.client_name FROM v LEFT JOIN (
  SELECT b.id, b.company, b.city, b.state, NULL AS client_name, 0 AS kind FROM businesses b, v WHERE b.user_id = v.user_id
  UNION
  SELECT b.id, b.company, b.city, b.state, cl.client_name, 1 AS kind FROM clients cl JOIN businesses b ON b.id = cl.business_id, v
  WHERE cl.consultant_id = v.consultant_id AND cl.archived_at IS NULL
) x ON 1
ORDER BY x.kind, lower(coalesce(x.client_name, x.company)), x.id`;

/** The businesses the business switcher offers: the viewer's own, then (for a consultant) their
 *  active clients', with the clients' names. A subset of what `viewerMaySee` allows (archived
 *  clients stay readable from the Clients page); the same session and plan rules as the dashboard read. */
export async function listDashboardBusinesses({ ctx, cookie, now = Date.now() }: { ctx: AppContext; cookie: string | null | undefined; now?: number }): Promise<DashboardBusiness[]> {
  const token = await sessionTokenFrom(ctx, cookie);
  if (!token) throw unauthenticated();
  const rows = await ctx.db.$read(BUSINESSES_SQL, [token, now]);
  if (rows.length === 0) throw unauthenticated();
  if (!can({ subscriptionTier: String(rows[0]!.tier), subscriptionStatus: String(rows[0]!.status) }, 'dashboard')) throw planRequired();
  const byId = new Map<string, DashboardBusiness>();
  for (const r of rows) {
    // A business that is both the viewer's own and a client's is listed once, as their own.
    if (r.id === null || byId.has(String(r.id))) continue;
    byId.set(String(r.id), { id: String(r.id), company: String(r.company), city: String(r.city), state: String(r.state), clientName: r.client_name === null ? null : String(r.client_name) });
  }
  return [...byId.values()];
}

/**
 * The same read for the public API (the caller's key already verified, so its owner's id stands in
 * for the session): `{ business, competitors, metrics }` and the 90-day history, each as JSON text.
 * 404 'Business not found' for an unknown id or one the owner may not see.
 */
export async function businessJsonForUser({ ctx, userId, businessId, now = Date.now() }: { ctx: AppContext; userId: string; businessId: string; now?: number }): Promise<{ body: string; history: string }> {
  const [row] = await ctx.db.$read(DASHBOARD_SQL.apiById, [userId, now, businessId, now - TREND_DAYS * DAY_MS]);
  if (typeof row?.body !== 'string') throw new AppError('not_found', 'Business not found');
  return { body: row.body, history: typeof row.history === 'string' ? row.history : '[]' };
}
