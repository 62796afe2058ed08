// What happens to every table and every kind of file when someone asks for their data or for its
// erasure: one entry per table of db/schema, read by the erasure and retention services, by
// docs/privacy-data.md (which a test keeps in step) and by a test that walks the migrated schema
// and fails on a table without an entry. A new table gets its entry here, nowhere else. Decision 0130.

export type Holder =
  /** rows that belong to an account (the user, their businesses, their consultant profile) */
  | 'account'
  /** rows that belong to a free-report request made without an account (or to its business) */
  | 'visitor'
  /** rows the product runs on; they may carry an address for a short time */
  | 'operations';

/**
 * How an account's export reads a table: the rows the SQL selects (named parameters :userId,
 * :email), written as {file}.json and, with csv, {file}.csv. Secrets are never selected.
 */
export interface ExportQuery {
  file: string;
  csv?: boolean;
  sql: string;
}

// The businesses an account holds: its own, and for a consultant its clients'.
export const ACCOUNT_BUSINESSES = `SELECT id FROM businesses WHERE user_id = :userId
  UNION SELECT cl.business_id FROM clients cl JOIN consultants c ON c.id = cl.consultant_id WHERE c.user_id = :userId AND cl.business_id IS NOT NULL`;
const CONSULTANT = `SELECT id FROM consultants WHERE user_id = :userId`;

export interface TableRule {
  holder: Holder;
  /** The account export's reading of the table; absent when the table is not exported (see `exported`). */
  exportRows?: ExportQuery;
  /**
   * Run when the account is closed (deleted, in its grace period), with :userId and :now: what must
   * stop at once (sessions end; keys are revoked; deliveries stop). Absent when nothing must.
   */
  onClose?: string;
  /** Run when a closed account is restored, with :userId and :closedAt: undoes what `onClose` did
   *  at that moment (keys revoked by the closing, not before). Absent when nothing can come back. */
  onRestore?: string;
  /** What the rows hold, in plain words. */
  holds: string;
  /** How the rows reach a person asking for their data. */
  exported: string;
  /** How the rows are erased (a person's request, the retention purge). */
  erased: string;
  /** What is kept after erasure, and why; null when nothing is. */
  kept: string | null;
}

export const TABLES: Record<string, TableRule> = {
  users: {
    holder: 'account',
    exportRows: { file: 'profile', sql: 'SELECT id, email, name, role, subscription_tier, subscription_status, billing_interval, current_period_end, cancel_at_period_end, email_verified, created_at FROM users WHERE id = :userId' },
    holds: 'the account: e-mail, name, role, plan and billing status, Stripe customer id',
    exported: 'profile.json (plan and billing status; invoices from Stripe in invoices.json, never card data)',
    erased: 'deleted with the account; sessions, credentials and the consultant profile cascade from it',
    kept: null,
  },
  sessions: {
    holder: 'account',
    onClose: 'DELETE FROM sessions WHERE user_id = :userId',
    exportRows: { file: 'sessions', csv: true, sql: 'SELECT id, created_at, updated_at, expires_at, ip_address, user_agent FROM sessions WHERE user_id = :userId' },
    holds: 'signed-in sessions with IP address and browser',
    exported: 'sessions.json/.csv (never the session token)',
    erased: 'cascade from users',
    kept: null,
  },
  accounts: {
    holder: 'account',
    holds: 'the password hash (better-auth credential row)',
    exported: 'never (a password hash is a secret)',
    erased: 'cascade from users',
    kept: null,
  },
  verifications: {
    holder: 'operations',
    holds: 'one-time tokens of e-mail verification and password reset, keyed by address',
    exported: 'never (one-time secrets)',
    erased: 'rows naming the address or the account are deleted; others expire within hours',
    kept: null,
  },
  businesses: {
    holder: 'visitor',
    exportRows: { file: 'businesses', csv: true, sql: `SELECT * FROM businesses WHERE id IN (${ACCOUNT_BUSINESSES})` },
    holds: "the requester's name, e-mail, company, role, website and address, and the place found for it",
    exported: 'businesses.json/.csv, with alert thresholds; a visitor asks the privacy address',
    erased:
      'deleted (competitors, metrics, requests, reports and review alerts cascade from it) unless an account or a client record holds it; the retention purge removes those no account holds',
    kept: null,
  },
  competitors: {
    holder: 'visitor',
    exportRows: { file: 'competitors', csv: true, sql: `SELECT * FROM competitors WHERE business_id IN (${ACCOUNT_BUSINESSES})` },
    holds: "public listings of a business's competitors",
    exported: 'competitors.json/.csv; inside each report',
    erased: 'cascade from businesses',
    kept: null,
  },
  business_metrics: {
    holder: 'visitor',
    exportRows: { file: 'metrics', csv: true, sql: `SELECT * FROM business_metrics WHERE business_id IN (${ACCOUNT_BUSINESSES}) ORDER BY business_id, reported_at` },
    holds: 'scores and data points of each analysis run, each place\'s Share of Local Voice and the business\'s local visibility grid (its rank at each grid point per keyword)',
    exported: 'metrics.json/.csv: every snapshot',
    erased: 'cascade from businesses',
    kept: null,
  },
  ai_visibility_scans: {
    holder: 'visitor',
    exportRows: { file: 'ai-visibility', csv: true, sql: `SELECT business_id, keyword, location, question, scanned_at, sample, engines, competitors, calls, input_tokens, output_tokens FROM ai_visibility_scans WHERE business_id IN (${ACCOUNT_BUSINESSES}) ORDER BY business_id, scanned_at` },
    holds: 'each AI-answers scan of a business: the question asked, per engine how many answers named the business and its competitors, their places, the domains cited, the calls and tokens; not the answers\' text, nothing of anyone',
    exported: 'ai-visibility.json/.csv: every scan',
    erased: 'cascade from businesses',
    kept: null,
  },
  report_requests: {
    holder: 'visitor',
    exportRows: { file: 'report-requests', csv: true, sql: `SELECT id, business_id, email, payload, marketing_consent, ip_address, user_agent, status, created_at FROM report_requests WHERE user_id = :userId OR business_id IN (${ACCOUNT_BUSINESSES})` },
    holds: 'the free-report form as sent, with IP address and browser',
    exported: 'report-requests.json/.csv',
    erased: 'deleted with the address (the delete link, `admin forget`) or the business; cascade from businesses',
    kept: null,
  },
  consent_records: {
    holder: 'visitor',
    exportRows: { file: 'consent-records', csv: true, sql: 'SELECT id, email, text_version, ip_address, user_agent, consented_at, withdrawn_at FROM consent_records WHERE lower(email) = :email' },
    holds: 'marketing consent: address, text version, IP address, browser, when given and withdrawn',
    exported: 'consent-records.json/.csv (the account address)',
    erased: 'the address is replaced by a keyed hash, IP address and browser are cleared, the link to the request is cut',
    kept: 'the pseudonymised record (text version, when given and withdrawn): proof of consent the law asks us to be able to show',
  },
  email_opt_outs: {
    holder: 'visitor',
    exportRows: { file: 'unsubscribes', csv: true, sql: 'SELECT id, email, created_at FROM email_opt_outs WHERE lower(email) = :email' },
    holds: 'addresses that used an unsubscribe link',
    exported: 'unsubscribes.json/.csv (the account address)',
    erased: 'deleted with the address',
    kept: null,
  },
  consultants: {
    holder: 'account',
    exportRows: { file: 'consultant-profile', sql: 'SELECT id, company_name, subscription_tier, subscription_status, created_at FROM consultants WHERE user_id = :userId' },
    holds: "a consultant's company name and plan",
    exported: 'consultant-profile.json',
    erased: 'cascade from users',
    kept: null,
  },
  branding_profiles: {
    holder: 'account',
    exportRows: { file: 'branding-profiles', sql: `SELECT * FROM branding_profiles WHERE consultant_id IN (${CONSULTANT})` },
    holds: "an agency's branding: company name, colours, contact details, logo address",
    exported: 'branding-profiles.json, logos/ (from branding_logos)',
    erased: 'cascade from consultants; their logos (branding_logos) with them',
    kept: null,
  },
  branding_logos: {
    holder: 'account',
    holds: "an agency's logos, re-encoded as PNG; public by an unguessable name, for its reports and e-mails",
    exported: 'logos/{branding profile id}.png in the export',
    erased: 'deleted when the agency replaces or removes the logo; cascade from branding_profiles',
    kept: null,
  },
  agency_mail_servers: {
    holder: 'account',
    exportRows: { file: 'mail-server', sql: `SELECT host, port, security, username, from_address, tested_at, last_error, created_at FROM agency_mail_servers WHERE consultant_id IN (${CONSULTANT})` },
    holds: "an agency's own SMTP server for its white-label mail: host, port, user, sender address, the password encrypted",
    exported: 'mail-server.json (without the password)',
    erased: 'cascade from consultants',
    kept: null,
  },
  widget_keys: {
    holder: 'account',
    exportRows: { file: 'widget-keys', csv: true, sql: `SELECT id, name, publishable_key, allowed_hostnames, branding_profile_id, components, score_card_client_id, lead_emails, revoked_at, created_at FROM widget_keys WHERE consultant_id IN (${CONSULTANT})` },
    onClose: `UPDATE widget_keys SET revoked_at = :now WHERE revoked_at IS NULL AND consultant_id IN (${CONSULTANT})`,
    onRestore: `UPDATE widget_keys SET revoked_at = NULL WHERE revoked_at = :closedAt AND consultant_id IN (${CONSULTANT})`,
    holds: "an agency's website widget keys: publishable key (public by design), allowed hostnames, components",
    exported: 'widget-keys.json/.csv',
    erased: 'revoked when the account is closed (back on restore); cascade from consultants',
    kept: null,
  },
  widget_leads: {
    holder: 'account',
    exportRows: { file: 'widget-leads', csv: true, sql: `SELECT id, widget_key_id, full_name, email, company, payload, source_hostname, status, queued_reason, request_id, client_id, created_at FROM widget_leads WHERE consultant_id IN (${CONSULTANT})` },
    holds: "the leads an agency's widget took: the visitor's name, e-mail, company, the form, the site it came from",
    exported: "widget-leads.json/.csv (the agency's export)",
    erased: "cascade from consultants; a visitor's Delete my data removes the leads with their address",
    kept: null,
  },
  api_keys: {
    holder: 'account',
    exportRows: { file: 'api-keys', csv: true, sql: 'SELECT id, name, scopes, prefix, last_four, created_at, last_used_at, revoked_at, expires_at, rolled_to_id FROM api_keys WHERE user_id = :userId' },
    onClose: 'UPDATE api_keys SET revoked_at = :now WHERE user_id = :userId AND revoked_at IS NULL',
    onRestore: 'UPDATE api_keys SET revoked_at = NULL WHERE user_id = :userId AND revoked_at = :closedAt',
    holds: 'public API keys: name, scopes, visible prefix and last four, a hash of the key, when used',
    exported: 'api-keys.json/.csv (never the key or its hash)',
    erased: 'revoked when the account is closed (back on restore); cascade from users',
    kept: null,
  },
  api_idempotency: {
    holder: 'account',
    holds: 'the first answer to each Idempotency-Key of the public API, for replays',
    exported: 'not exported: copies of answers the caller already has, kept 24 hours',
    erased: 'deleted after 24 hours; cascade from users',
    kept: null,
  },
  webhook_endpoints: {
    holder: 'account',
    exportRows: { file: 'webhook-endpoints', csv: true, sql: 'SELECT id, url, description, events, created_at, failing_since, disabled_at FROM webhook_endpoints WHERE user_id = :userId' },
    onClose: 'UPDATE webhook_endpoints SET disabled_at = :now WHERE user_id = :userId AND disabled_at IS NULL',
    onRestore: 'UPDATE webhook_endpoints SET disabled_at = NULL WHERE user_id = :userId AND disabled_at = :closedAt',
    holds: "an account's webhook endpoints: URL, description, events, signing secret (and the previous one for a day after a rotation)",
    exported: 'webhook-endpoints.json/.csv (never a signing secret)',
    erased: 'disabled when the account is closed (back on restore); cascade from users',
    kept: null,
  },
  webhook_deliveries: {
    holder: 'account',
    exportRows: { file: 'webhook-deliveries', csv: true, sql: 'SELECT d.id, d.endpoint_id, d.message_id, d.type, d.event_key, d.status, d.attempts, d.created_at, d.payload FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.user_id = :userId' },
    holds: 'each event sent to an endpoint: its signed body (report, alert or lead data) and status',
    exported: 'webhook-deliveries.json/.csv',
    erased: 'cascade from webhook_endpoints',
    kept: null,
  },
  webhook_attempts: {
    holder: 'account',
    exportRows: { file: 'webhook-attempts', csv: true, sql: 'SELECT a.id, a.delivery_id, a.at, a.response_status, a.excerpt, a.duration_ms FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id JOIN webhook_endpoints e ON e.id = d.endpoint_id WHERE e.user_id = :userId' },
    holds: "each attempt at a delivery: when, the receiver's status, the start of its answer",
    exported: 'webhook-attempts.json/.csv',
    erased: 'cascade from webhook_deliveries',
    kept: null,
  },
  clients: {
    holder: 'account',
    exportRows: { file: 'clients', csv: true, sql: `SELECT * FROM clients WHERE consultant_id IN (${CONSULTANT})` },
    holds: "a consultant's clients: name, e-mail, notes",
    exported: 'clients.json/.csv',
    erased: 'cascade from consultants',
    kept: null,
  },
  reports: {
    holder: 'visitor',
    exportRows: { file: 'reports', sql: `SELECT id, business_id, consultant_id, client_id, branding_profile_id, report_type, recipient_email, cc_email, email_sent_at, opened_at, created_at, expires_at, data FROM reports WHERE business_id IN (${ACCOUNT_BUSINESSES}) OR consultant_id IN (${CONSULTANT})` },
    holds: 'each report: the analysis snapshot, link token, where the e-mail went',
    exported: 'reports.json (the analysis of each), reports/{id}.pdf; never the link token',
    erased: 'cascade from businesses; deleted with the request it answered; its files are removed with it',
    kept: null,
  },
  review_alerts: {
    holder: 'visitor',
    exportRows: { file: 'review-alerts', csv: true, sql: `SELECT * FROM review_alerts WHERE business_id IN (${ACCOUNT_BUSINESSES})` },
    holds: 'public reviews at or below the alert threshold',
    exported: 'review-alerts.json/.csv',
    erased: 'cascade from businesses',
    kept: null,
  },
  google_connections: {
    holder: 'account',
    // That a profile was connected, and which; never a token.
    exportRows: { file: 'google-business-profile', sql: `SELECT business_id, status, location_title, place_id, created_at, last_polled_at, disconnected_at FROM google_connections WHERE business_id IN (${ACCOUNT_BUSINESSES})` },
    holds: 'a connected Google Business Profile: which location, its status, and the Google grant (refresh and access tokens, AES-256-GCM with TOKEN_SECRET_KEY)',
    exported: 'google-business-profile.json: that a profile was connected, which location, when; never the tokens',
    erased: 'the grant is revoked at Google and the row deleted (disconnect, account closure, erasure); cascade from businesses',
    kept: null,
  },
  google_connect_states: {
    holder: 'operations',
    holds: 'a connection under way for ten minutes: a hash of the session, the PKCE verifier, the client page of an agency it started from, and while a location is picked the sealed grant',
    exported: 'never (internal, minutes long)',
    erased: 'deleted when used, after ten minutes, and with the user (cascade)',
    kept: null,
  },
  profile_reviews: {
    holder: 'account',
    exportRows: { file: 'google-profile-reviews', csv: true, sql: `SELECT business_id, review_id, author, rating, text, created_at, updated_at, reply_text, reply_updated_at, removed_at FROM profile_reviews WHERE business_id IN (${ACCOUNT_BUSINESSES})` },
    holds: 'the reviews of a connected Google Business Profile (reviewer name, rating, text, dates) and their answers',
    exported: 'google-profile-reviews.json/.csv',
    erased: 'cascade from businesses; deleted with the connection',
    kept: null,
  },
  profile_metrics: {
    holder: 'account',
    exportRows: { file: 'google-profile-metrics', csv: true, sql: `SELECT business_id, day, calls, website_clicks, direction_requests, impressions FROM profile_metrics WHERE business_id IN (${ACCOUNT_BUSINESSES})` },
    holds: 'a connected profile\'s calls, website clicks, direction requests and impressions per day (90 days); counts, nothing of anyone',
    exported: 'google-profile-metrics.json/.csv',
    erased: 'cascade from businesses; deleted with the connection',
    kept: null,
  },
  jobs: {
    holder: 'operations',
    holds: 'queued work; a payload may name a request, a business or an address',
    exported: 'never (internal)',
    erased: 'jobs whose key, payload, progress or last error names an erased row (of an account too: its consultant profile, clients, keys, leads, webhook deliveries) or address are deleted',
    kept: null,
  },
  rate_limits: {
    holder: 'operations',
    holds: 'counters keyed by IP address, network, e-mail or e-mail domain, each for at most a day; the signatures of used proof-of-work challenges until they expire',
    exported: 'never (internal)',
    erased: 'counters keyed by the address are deleted; the rest expire within the day',
    kept: null,
  },
  leases: {
    holder: 'operations',
    holds: 'who holds a named lease (e.g. one subscription start per user, named by the user id) until when, for at most a minute',
    exported: 'never (internal)',
    erased: 'leases named by the account are deleted; the rest lapse within a minute',
    kept: null,
  },
  signals: {
    holder: 'operations',
    holds: 'named counters every process polls (report-files: how many erasures so far, decision 0242); a name and a number, nothing of anyone',
    exported: 'never (internal)',
    erased: 'nothing to erase: no row names a person',
    kept: null,
  },
  provider_calls: {
    holder: 'operations',
    holds: 'one row per paid provider call (provider, SKU, day, HTTP status, tokens of an AI engine\'s call) and the id of the report request, business or job that made it, decision 0270; nothing of anyone',
    exported: 'never (internal)',
    erased: 'nothing to erase: the id it names leads nowhere once its request or business is erased',
    kept: null,
  },
  contact_messages: {
    holder: 'visitor',
    exportRows: { file: 'contact-messages', csv: true, sql: 'SELECT id, name, email, subject, message, ip_address, created_at FROM contact_messages WHERE lower(email) = :email' },
    holds: 'contact-form messages: name, e-mail, subject, message, IP address',
    exported: 'contact-messages.json/.csv (the account address)',
    erased: 'deleted with the address',
    kept: null,
  },
  data_exports: {
    holder: 'account',
    exportRows: { file: 'exports', csv: true, sql: 'SELECT id, status, bytes, created_at, ready_at, expires_at FROM data_exports WHERE user_id = :userId' },
    holds: 'export requests: when, status, size',
    exported: 'exports.json/.csv',
    erased: 'cascade from users; their archives (data_export_chunks) with them',
    kept: null,
  },
  data_export_chunks: {
    holder: 'account',
    holds: "an account's export ZIP, in pieces of 1 MB (at most 256 MB)",
    exported: 'the export itself, behind a signed link valid 7 days (never inside a later export)',
    erased: 'deleted by the daily purge once its link has expired, or its export failed; cascade from data_exports',
    kept: null,
  },
  stripe_events: {
    holder: 'operations',
    holds: 'ids and types of Stripe webhook events (no personal data)',
    exported: 'never (internal)',
    erased: 'nothing to erase: the rows name no person',
    kept: 'event ids and types, so a replayed event is not applied twice',
  },
};

/**
 * Files under DATA_DIR, by kind: caches and development copies only. What a request on another
 * machine must read (logos, exports) lives in the database (decision 0208). The erasure test walks
 * the folder for anything that names a person.
 */
export const FILE_KINDS: Record<string, TableRule & { path: string }> = {
  'report files': {
    path: 'files/reports/{reportId}/report.pdf, score-card.png, brand',
    holder: 'visitor',
    holds: "a report's PDF and score card: a cache of its row, kept by each process that made or served them",
    exported: 'reports/{id}.pdf in the export; attached to the report e-mail',
    erased:
      "the process that erases (delete link, `admin forget`, retention purge, an agency's erasure for the visitors' reports in its brand, which stay and are rendered again unbranded) removes its copy; every other process stops serving its copy at once (a copy is served only while its report row exists and names the brand it shows) and removes it within 10 minutes",
    kept: null,
  },
  'outbox copies': {
    path: 'outbox/*.eml',
    holder: 'visitor',
    holds: 'copies of sent e-mail when no SMTP server is set (development)',
    exported: 'never (a copy of mail already sent to the person)',
    erased: 'copies addressed to the address are deleted with it',
    kept: null,
  },
};
