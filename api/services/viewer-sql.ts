// Who is reading, as the first CTE of the hot read queries (dashboard, Early Warning): the
// session behind a signed cookie (?1 token, ?2 now in ms), or the owner of an API key that was
// already verified (?1 user id; ?2 unused but bound, so both variants take the same arguments).
// Either way one row: user_id, tier, status, consultant_id.
export type ViewerKind = 'session' | 'user';

export const VIEWER_CTE: Record<ViewerKind, string> = {
  session: `SELECT u.id AS user_id, u.subscription_tier AS tier, u.subscription_status AS status, c.id AS consultant_id
  FROM sessions s JOIN users u ON u.id = s.user_id LEFT JOIN consultants c ON c.user_id = u.id
  WHERE s.token = ?1 AND s.expires_at > ?2`,
  user: `SELECT u.id AS user_id, u.subscription_tier AS tier, u.subscription_status AS status, c.id AS consultant_id
  FROM users u LEFT JOIN consultants c ON c.user_id = u.id
  WHERE u.id = ?1 AND ?2 IS NOT NULL`,
};

/**
 * The one access rule of a business (alias `b`) for the viewer `v`: its owner, or the consultant
 * who has it as a client (archived or not: an archived client's history stays readable).
 */
export const viewerMaySee = (b: string) => `(${b}.user_id = v.user_id OR EXISTS (
  SELECT 1 FROM clients cl WHERE cl.business_id = ${b}.id AND cl.consultant_id = v.consultant_id))`;
