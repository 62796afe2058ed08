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

export interface TableRule {
  holder: Holder;
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
    holds: 'the account: e-mail, name, role, plan and billing status, Stripe customer id',
    exported: 'on request to the privacy address, from the admin tools',
    erased: 'deleted with the account; sessions, credentials and the consultant profile cascade from it',
    kept: null,
  },
  sessions: {
    holder: 'account',
    holds: 'signed-in sessions with IP address and browser',
    exported: 'listed under Security on /account',
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
    erased: 'rows naming the address are deleted; others expire within hours',
    kept: null,
  },
  businesses: {
    holder: 'visitor',
    holds: "the requester's name, e-mail, company, role, website and address, and the place found for it",
    exported: 'on request to the privacy address',
    erased:
      'deleted (competitors, metrics, requests, reports and review alerts cascade from it) unless an account or a client record holds it; the retention purge removes those no account holds',
    kept: null,
  },
  competitors: {
    holder: 'visitor',
    holds: "public listings of a business's competitors",
    exported: 'inside each report (PDF and online report)',
    erased: 'cascade from businesses',
    kept: null,
  },
  business_metrics: {
    holder: 'visitor',
    holds: 'scores and data points of each analysis run',
    exported: 'inside each report; the dashboard shows the 90-day trends',
    erased: 'cascade from businesses',
    kept: null,
  },
  report_requests: {
    holder: 'visitor',
    holds: 'the free-report form as sent, with IP address and browser',
    exported: 'on request to the privacy address',
    erased: 'deleted with the address (the delete link, `admin forget`) or the business; cascade from businesses',
    kept: null,
  },
  consent_records: {
    holder: 'visitor',
    holds: 'marketing consent: address, text version, IP address, browser, when given and withdrawn',
    exported: 'on request to the privacy address',
    erased: 'the address is replaced by a keyed hash, IP address and browser are cleared, the link to the request is cut',
    kept: 'the pseudonymised record (text version, when given and withdrawn): proof of consent the law asks us to be able to show',
  },
  email_opt_outs: {
    holder: 'visitor',
    holds: 'addresses that used an unsubscribe link',
    exported: 'on request to the privacy address',
    erased: 'deleted with the address',
    kept: null,
  },
  consultants: {
    holder: 'account',
    holds: "a consultant's company name and plan",
    exported: 'on request to the privacy address',
    erased: 'cascade from users',
    kept: null,
  },
  branding_profiles: {
    holder: 'account',
    holds: "an agency's branding: company name, colours, contact details, logo",
    exported: 'shown on /branding',
    erased: 'cascade from consultants; the logo files with them',
    kept: null,
  },
  clients: {
    holder: 'account',
    holds: "a consultant's clients: name, e-mail, notes",
    exported: 'shown on /clients',
    erased: 'cascade from consultants',
    kept: null,
  },
  reports: {
    holder: 'visitor',
    holds: 'each report: the analysis snapshot, link token, where the e-mail went',
    exported: 'the e-mail with its PDF, the online report and its PDF download',
    erased: 'cascade from businesses; deleted with the request it answered; its files are removed with it',
    kept: null,
  },
  review_alerts: {
    holder: 'visitor',
    holds: 'public reviews at or below the alert threshold',
    exported: 'shown on the Early Warning Monitor',
    erased: 'cascade from businesses',
    kept: null,
  },
  jobs: {
    holder: 'operations',
    holds: 'queued work; a payload may name a request, a business or an address',
    exported: 'never (internal)',
    erased: 'jobs whose payload names an erased row or address are deleted',
    kept: null,
  },
  rate_limits: {
    holder: 'operations',
    holds: 'counters keyed by IP address or e-mail, each for at most an hour',
    exported: 'never (internal)',
    erased: 'counters keyed by the address are deleted; the rest expire within the hour',
    kept: null,
  },
  contact_messages: {
    holder: 'visitor',
    holds: 'contact-form messages: name, e-mail, subject, message, IP address',
    exported: 'on request to the privacy address',
    erased: 'deleted with the address',
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

/** Files under DATA_DIR, by kind. The erasure test walks the folder for anything that names a person. */
export const FILE_KINDS: Record<string, TableRule & { path: string }> = {
  'report files': {
    path: 'files/reports/{reportId}/report.pdf, score-card.png',
    holder: 'visitor',
    holds: "a report's PDF and score card",
    exported: 'attached to the report e-mail; downloadable from the online report',
    erased: 'the folder is removed with its report (delete link, `admin forget`, retention purge)',
    kept: null,
  },
  'branding logos': {
    path: 'files/branding/…',
    holder: 'account',
    holds: "an agency's uploaded logos",
    exported: 'shown on /branding',
    erased: 'removed with the branding profile',
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
