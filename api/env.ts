// Every setting the product reads, validated once at start. A bad value stops start-up with a
// message that names the variable. Defaults make a fresh clone run with no configuration.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { FREE_REPORT_RETENTION_DEFAULT_MONTHS, OPERATOR } from '../common/constants.ts';
import { z } from '../common/zod.ts';
import { DEFAULT_GRID_PLANS, parseGridPlans } from '../common/visibility-bands.ts';

const optional = z
  .string()
  .trim()
  .transform((v) => v || undefined)
  .optional();

// A whole-number setting. Blank (`PORT=`, as env files and compose leave them) counts as unset, as
// for every other setting, rather than as 0.
const whole = (error: string, min: number, max: number, fallback: number) =>
  z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.coerce.number({ error }).int().min(min).max(max).default(fallback));

/** PROVIDER_PRICES read, or null when it is not such JSON. */
type PriceOverride = { usdPer1000?: number; freePerMonth?: number; usdPerMillionInput?: number; usdPerMillionOutput?: number };
const PRICE_FIELDS = new Set(['usdPer1000', 'freePerMonth', 'usdPerMillionInput', 'usdPerMillionOutput']);
export function priceOverrides(v: string): Record<string, PriceOverride> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    return null;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  const ok = Object.values(parsed).every((o) => o && typeof o === 'object' && Object.entries(o).every(([k, n]) => PRICE_FIELDS.has(k) && typeof n === 'number' && n >= 0));
  return ok ? (parsed as Record<string, PriceOverride>) : null;
}

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: whole('must be a port number (0-65535)', 0, 65535, 4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('data'),
  // A URL the libSQL client opens: a file, or a libSQL server (libsql:, wss:, ws:, https:, http:).
  DATABASE_URL: optional.refine((v) => v === undefined || /^(file|libsql|wss?|https?):/i.test(v), {
    error: 'must be a libSQL URL: file:…, libsql://…, wss://…, ws://…, https://… or http://…',
  }),
  DATABASE_AUTH_TOKEN: optional,
  // A libSQL server's call that has not answered by then asks whether the server still answers: if
  // so it waits on (up to 60 s), else it is given up (503 to a request, a pause to the worker); a
  // busy server is waited out for up to 5 s.
  DATABASE_TIMEOUT_MS: whole('must be a number of milliseconds from 1000 to 120000', 1_000, 120_000, 10_000),
  // The libSQL server's --max-log-duration (docs/operations.md): after an erasure on a server, small
  // writes this far apart (plus 2 s) make it compact and merge its log past the erased rows (decision 0209).
  DATABASE_LOG_DURATION_S: whole('must be a whole number of seconds from 1 to 3600', 1, 3_600, 60),
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
  WORKER: z.enum(['inline', 'off']).default('inline'),
  // The development mailbox (/dev/mailbox): off unless asked for; loopback only; never in production.
  DEV_MAILBOX: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  // Free-report requests accepted per hour from one IP address and for one e-mail address.
  INTAKE_RATE_LIMIT_PER_IP: whole('must be a whole number of requests per hour', 1, Number.MAX_SAFE_INTEGER, 20),
  INTAKE_RATE_LIMIT_PER_EMAIL: whole('must be a whole number of requests per hour', 1, Number.MAX_SAFE_INTEGER, 5),
  // Two visitors' free reports of one place this many minutes apart share one analysis (decision 0351); 0: never.
  SHARED_ANALYSIS_MINUTES: whole('must be a whole number of minutes from 0 to 1440', 0, 1_440, 15),
  // Proof of work on the free-report form (decision 0350): free reports a day from one /24 (IPv4)
  // or /48 (IPv6) network, and from one e-mail domain (a free-mail domain: from one address),
  // before the form asks for one; and the share of PROVIDER_DAILY_BUDGET_USD spent from which it
  // asks every visitor. ALTCHA_HMAC_KEY signs the challenges (generated into DATA_DIR when unset);
  // POW_COST and POW_MAX_COUNTER size the work (PBKDF2 iterations per try, most tries).
  POW_AFTER_PER_NETWORK: whole('must be a whole number of reports per day', 0, Number.MAX_SAFE_INTEGER, 10),
  POW_AFTER_PER_DOMAIN: whole('must be a whole number of reports per day', 0, Number.MAX_SAFE_INTEGER, 5),
  POW_BUDGET_SHARE: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.coerce.number({ error: 'must be a share of the budget from 0 to 1' }).min(0).max(1).default(0.8)),
  ALTCHA_HMAC_KEY: z.string().min(32, 'ALTCHA_HMAC_KEY must be at least 32 characters').optional(),
  POW_COST: whole('must be a whole number of PBKDF2 iterations from 1 to 1000000', 1, 1_000_000, 1_000),
  POW_MAX_COUNTER: whole('must be a whole number of tries from 2 to 10000000', 2, 10_000_000, 1_000),
  // Widget leads (issue 15): accepted per hour from one IP address (429 beyond), and reports
  // requested per hour per widget key (leads beyond it are kept, queued, and requested later).
  WIDGET_RATE_LIMIT_PER_IP: whole('must be a whole number of requests per hour', 1, Number.MAX_SAFE_INTEGER, 10),
  WIDGET_RATE_LIMIT_PER_KEY: whole('must be a whole number of reports per hour', 1, Number.MAX_SAFE_INTEGER, 100),
  // Contact-form messages accepted per hour from one IP address and from one e-mail address.
  CONTACT_RATE_LIMIT_PER_IP: whole('must be a whole number of messages per hour', 1, Number.MAX_SAFE_INTEGER, 10),
  CONTACT_RATE_LIMIT_PER_EMAIL: whole('must be a whole number of messages per hour', 1, Number.MAX_SAFE_INTEGER, 5),
  // Passwords are hashed with scrypt at N = 2^SCRYPT_COST (api/lib/password-hash.ts). The stored
  // hash does not record it: every process on one database must use the same. Below 14 is for
  // tests only (a test creates hundreds of accounts; 10 costs a sixteenth of 14).
  SCRYPT_COST: whole('must be a whole number from 10 to 20 (scrypt N = 2^cost)', 10, 20, 14),
  // Accounts created per hour from one IP address.
  SIGNUP_RATE_LIMIT_PER_IP: whole('must be a whole number of sign-ups per hour', 1, Number.MAX_SAFE_INTEGER, 10),
  // Paid plans: days between scheduled re-analyses (each adds a snapshot to the 90-day trends).
  REANALYSIS_INTERVAL_DAYS: whole('must be a whole number of days from 1 to 90', 1, 90, 7),
  // Free reports no account holds are erased this many months after their latest request.
  FREE_REPORT_RETENTION_MONTHS: whole('must be a whole number of months from 1 to 120', 1, 120, FREE_REPORT_RETENTION_DEFAULT_MONTHS),
  WORKER_CONCURRENCY: whole('must be a whole number from 1 to 32', 1, 32, 2),
  WORKER_GRACE_MS: whole('must be a number of milliseconds', 0, 600_000, 10_000),
  // Slots, besides WORKER_CONCURRENCY's, for jobs that talk to servers customers choose (an
  // agency's mail server, webhook endpoints), so none of those can hold ours (decision 0210). The
  // web process's inline worker takes at most one such job at a time.
  WORKER_CUSTOMER_CONCURRENCY: whole('must be a whole number from 1 to 32', 1, 32, 2),
  SMTP_URL: z
    .string()
    .trim()
    .transform((v) => v || undefined)
    .pipe(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional())
    .optional(),
  // How long our own mail server has in all for one message; past it the message waits for the
  // server like one that does not answer (decision 0210).
  SMTP_DEADLINE_MS: whole('must be a number of milliseconds from 1000 to 600000', 1_000, 600_000, 120_000),
  // A sender's display name of two words reads as a person's or a team's to spam filters (one word
  // and an HTML mail with an image scores TO_NO_BRKTS_HTML_IMG on SpamAssassin).
  MAIL_FROM: z.string().trim().min(3).default('LocalRank Reports <reports@localrank.app>'),
  OPERATOR_EMAIL: z.email({ error: 'must be an e-mail address' }).default(OPERATOR.supportEmail),
  // White-label mail (an agency's reports to its clients and widget visitors) leaves from this
  // address, under the agency's name, when the agency has no SMTP server of its own: a neutral
  // domain of the operator's that names neither the product nor the operator. Unset: MAIL_FROM's address.
  WHITE_LABEL_MAIL_FROM: z
    .string()
    .trim()
    .transform((v) => v || undefined)
    .pipe(z.email({ error: 'must be an e-mail address (no display name: the agency\'s name is used)' }).optional())
    .optional(),
  // The DNS servers a report domain's TXT record and a webhook's name are looked up with
  // (comma-separated, host or host:port). Unset: the system's resolvers.
  DNS_SERVERS: z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || v.split(',').every((s) => /^(\[[0-9a-f:]+\]|[0-9.]+|[0-9a-f:]+)(:\d{1,5})?$/i.test(s.trim())), 'must be a comma-separated list of IP addresses, each with an optional :port')
    .transform((v) => (v === '' ? [] : v.split(',').map((s) => s.trim()))),
  // Addresses an agency's mail server may have although private or loopback (a relay on the
  // operator's own network; tests: 127.0.0.1). Every other private address is refused (decision 0204).
  AGENCY_MAIL_PRIVATE_ADDRESSES: z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || v.split(',').every((s) => isIP(s.trim()) !== 0), 'must be a comma-separated list of IP addresses')
    .transform((v) => (v === '' ? [] : v.split(',').map((s) => s.trim()))),
  // An agency's mail server has this long in all for one e-mail (looking it up, connecting, TLS,
  // logging in, sending), and "Send a test" this long; past it the connection is closed.
  AGENCY_MAIL_DEADLINE_MS: whole('must be a number of milliseconds from 1000 to 600000', 1_000, 600_000, 60_000),
  AGENCY_MAIL_TEST_DEADLINE_MS: whole('must be a number of milliseconds from 1000 to 120000', 1_000, 120_000, 20_000),
  // The key an agency's SMTP password is encrypted with (at least 32 characters; keep it out of
  // the database's backups). Unset: agencies cannot store an SMTP server.
  MAIL_SECRET_KEY: z.string().min(32, 'MAIL_SECRET_KEY must be at least 32 characters').optional(),
  // Analysis: where places, reviews and locations come from, and how websites are fetched.
  PLACES_PROVIDER: z.enum(['sample', 'google', 'yelp']).default('sample'),
  // In production, sample data (example figures, not real listings) only when asked for by name.
  ALLOW_SAMPLE_DATA: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  GOOGLE_PLACES_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://places.googleapis.com'),
  GOOGLE_PLACES_KEY: optional,
  YELP_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.yelp.com'),
  YELP_API_KEY: optional,
  GEOCODER_URL: z.url({ protocol: /^https?$/ }).default('https://maps.googleapis.com/maps/api/geocode/json'),
  GEOCODER_KEY: optional,
  PROVIDER_TIMEOUT_MS: whole('must be a number of milliseconds', 100, 120_000, 10_000),
  // What provider calls cost (decision 0270): list prices in api/lib/provider-prices.ts unless the
  // account has others, as JSON {"google.place_details.atmosphere":{"usdPer1000":20,"freePerMonth":1000}}.
  PROVIDER_PRICES: optional.refine((v) => v === undefined || priceOverrides(v) !== null, 'must be JSON: {"sku": {"usdPer1000": 25, "freePerMonth": 1000}, …} with numbers from 0 up'),
  // Dollars of provider calls a UTC day may spend; a report that would pass it waits for the next day.
  PROVIDER_DAILY_BUDGET_USD: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.coerce.number({ error: 'must be a number of US dollars from 0 up' }).min(0).default(25)),
  // AI answers (issue 50, decision 0300): each engine is asked only when its key is set; the
  // questions per keyword and engine; one call's time limit; the dollars a calendar month (UTC) of
  // scans may spend, on top of the daily budget.
  OPENAI_API_KEY: optional,
  OPENAI_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.openai.com'),
  OPENAI_MODEL: z.string().trim().min(1).default('gpt-4.1-mini'),
  PERPLEXITY_API_KEY: optional,
  PERPLEXITY_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.perplexity.ai'),
  GEMINI_API_KEY: optional,
  GEMINI_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://generativelanguage.googleapis.com'),
  GEMINI_MODEL: z.string().trim().regex(/^[\w.-]+$/, 'must be a model name such as gemini-2.5-flash').default('gemini-2.5-flash'),
  AI_VISIBILITY_SAMPLES: whole('must be a whole number of answers from 1 to 20', 1, 20, 5),
  AI_VISIBILITY_TIMEOUT_MS: whole('must be a number of milliseconds from 1000 to 300000', 1_000, 300_000, 60_000),
  AI_VISIBILITY_MONTHLY_BUDGET_USD: z.preprocess((v) => (typeof v === 'string' && v.trim() === '' ? undefined : v), z.coerce.number({ error: 'must be a number of US dollars from 0 up' }).min(0).default(50)),
  // Local visibility grid (decision 0160): per plan, grid size × keywords; searches one report may
  // make; searches a provider may get a UTC day; searches under way at once for one report.
  VISIBILITY_GRID: z.string().trim().default(DEFAULT_GRID_PLANS).refine((v) => parseGridPlans(v) !== null, 'must name every plan as plan:SIZExKEYWORDS, e.g. free:3x1,pro:5x3,enterprise:7x5,agency:7x5 (size odd, 3-9; keywords 1-5)'),
  VISIBILITY_CALL_BUDGET: whole('must be a whole number of searches from 1 to 1000', 1, 1000, 250),
  VISIBILITY_DAILY_CAP: whole('must be a whole number of searches a day', 1, Number.MAX_SAFE_INTEGER, 10_000),
  VISIBILITY_CONCURRENCY: whole('must be a whole number from 1 to 32', 1, 32, 8),
  // Early Warning (Enterprise, Agency): e-mail when Share of Local Voice falls by at least this many
  // points from the scan a week or more before.
  VISIBILITY_ALERT_DROP: whole('must be a whole number of points from 1 to 100', 1, 100, 10),
  SITE_FETCH_TIMEOUT_MS: whole('must be a number of milliseconds', 100, 120_000, 8000),
  SITE_FETCH_MAX_BYTES: whole('must be a number of bytes', 1024, 50_000_000, 2_000_000),
  SITE_FETCH_CONCURRENCY: whole('must be a whole number from 1 to 16', 1, 16, 4),
  SITE_FETCH_PORTS: z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || v.split(',').every((p) => /^\d{1,5}$/.test(p.trim()) && Number(p) > 0 && Number(p) < 65536), 'must be a comma-separated list of port numbers')
    .transform((v) => (v === '' ? [] : v.split(',').map((p) => Number(p.trim())))),
  // Tests only (the browser tests' webhook receiver): loopback ports webhook endpoints may point
  // at, comma-separated. Refused with NODE_ENV=production; unset, endpoints must be public.
  WEBHOOK_LOOPBACK_PORTS: z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || v.split(',').every((p) => /^\d{1,5}$/.test(p.trim()) && Number(p) > 0 && Number(p) < 65536), 'must be a comma-separated list of port numbers')
    .transform((v) => (v === '' ? [] : v.split(',').map((p) => Number(p.trim())))),
  // Billing (Stripe). Without the keys billing says it is not configured and plans are set by
  // `npm run admin -- set-plan` (decision 0012).
  STRIPE_SECRET_KEY: optional.refine((v) => v === undefined || /^(sk|rk)_(test|live)_\w+$/.test(v), 'must be a Stripe secret key (sk_test_…, sk_live_… or a restricted rk_… key)'),
  STRIPE_PUBLISHABLE_KEY: optional.refine((v) => v === undefined || /^pk_(test|live)_\w+$/.test(v), 'must be a Stripe publishable key (pk_test_… or pk_live_…)'),
  STRIPE_WEBHOOK_SECRET: optional.refine((v) => v === undefined || /^whsec_\w+$/.test(v), 'must be a webhook signing secret (whsec_…)'),
  // Where the Stripe SDK sends its calls: Stripe itself, or a local double of its API in tests.
  STRIPE_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.stripe.com'),
  // A failed renewal keeps paid features this many days, then they are suspended until paid.
  BILLING_GRACE_DAYS: whole('must be a whole number of days from 0 to 60', 0, 60, 7),
  // Subscriptions started (create-subscription calls) per hour by one user.
  SUBSCRIBE_RATE_LIMIT_PER_USER: whole('must be a whole number of attempts per hour', 1, Number.MAX_SAFE_INTEGER, 20),
  // Enterprise and Agency: minutes between the real-time review checks of a monitored business
  // (at least the scheduler's 15-minute tick).
  REVIEW_CHECK_INTERVAL_MINUTES: whole('must be a whole number of minutes from 15 to 1440', 15, 1440, 60),
  // Google Business Profile connected by OAuth (issue 48): every review newest first, answers,
  // calls/clicks/directions. Without the client id and secret and TOKEN_SECRET_KEY, "Connect" is
  // not offered (with the sample provider it shows a labelled sample profile instead).
  GOOGLE_OAUTH_CLIENT_ID: optional,
  GOOGLE_OAUTH_CLIENT_SECRET: optional,
  GOOGLE_OAUTH_AUTHORIZE_URL: z.url({ protocol: /^https?$/ }).default('https://accounts.google.com/o/oauth2/v2/auth'),
  GOOGLE_OAUTH_TOKEN_URL: z.url({ protocol: /^https?$/ }).default('https://oauth2.googleapis.com/token'),
  GOOGLE_OAUTH_REVOKE_URL: z.url({ protocol: /^https?$/ }).default('https://oauth2.googleapis.com/revoke'),
  GBP_ACCOUNTS_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://mybusinessaccountmanagement.googleapis.com'),
  GBP_INFO_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://mybusinessbusinessinformation.googleapis.com'),
  GBP_REVIEWS_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://mybusiness.googleapis.com'),
  GBP_PERFORMANCE_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://businessprofileperformance.googleapis.com'),
  // Seconds between two reads of a connected profile's reviews.
  GBP_POLL_SECONDS: whole('must be a whole number of seconds from 30 to 86400', 30, 86_400, 600),
  // The key connected profiles' Google tokens are encrypted with (at least 32 characters; keep it
  // out of the database's backups).
  TOKEN_SECRET_KEY: z.string().min(32, 'TOKEN_SECRET_KEY must be at least 32 characters').optional(),
  // Public API (/api/v1): requests per minute per key, by the owner's plan.
  API_RATE_LIMIT_ENTERPRISE: whole('must be a whole number of requests per minute', 1, Number.MAX_SAFE_INTEGER, 600),
  API_RATE_LIMIT_AGENCY: whole('must be a whole number of requests per minute', 1, Number.MAX_SAFE_INTEGER, 1200),
}).superRefine((env, issues) => {
  if (!env.STRIPE_SECRET_KEY !== !env.STRIPE_PUBLISHABLE_KEY) {
    const missing = env.STRIPE_SECRET_KEY ? 'STRIPE_PUBLISHABLE_KEY' : 'STRIPE_SECRET_KEY';
    issues.addIssue({ code: 'custom', path: [missing], message: 'is required with the other Stripe key (set both or neither)' });
  }
  if (env.STRIPE_SECRET_KEY && env.STRIPE_PUBLISHABLE_KEY && env.STRIPE_SECRET_KEY.includes('_live_') !== env.STRIPE_PUBLISHABLE_KEY.includes('_live_')) {
    issues.addIssue({ code: 'custom', path: ['STRIPE_PUBLISHABLE_KEY'], message: 'must be of the same mode (test or live) as STRIPE_SECRET_KEY' });
  }
  if (env.NODE_ENV === 'production' && env.SCRYPT_COST < 14) issues.addIssue({ code: 'custom', path: ['SCRYPT_COST'], message: 'is for tests only below 14: with NODE_ENV=production passwords are hashed at N = 16384 or more' });
  if (env.NODE_ENV === 'production' && env.WEBHOOK_LOOPBACK_PORTS.length) issues.addIssue({ code: 'custom', path: ['WEBHOOK_LOOPBACK_PORTS'], message: 'is for tests only: with NODE_ENV=production webhooks never go to this machine' });
  if (env.PLACES_PROVIDER === 'google' && !env.GOOGLE_PLACES_KEY) issues.addIssue({ code: 'custom', path: ['GOOGLE_PLACES_KEY'], message: 'is required when PLACES_PROVIDER=google' });
  if (!env.GOOGLE_OAUTH_CLIENT_ID !== !env.GOOGLE_OAUTH_CLIENT_SECRET) {
    const missing = env.GOOGLE_OAUTH_CLIENT_ID ? 'GOOGLE_OAUTH_CLIENT_SECRET' : 'GOOGLE_OAUTH_CLIENT_ID';
    issues.addIssue({ code: 'custom', path: [missing], message: 'is required with the other Google OAuth setting (set both or neither)' });
  }
  if (env.PLACES_PROVIDER === 'yelp' && !env.YELP_API_KEY) issues.addIssue({ code: 'custom', path: ['YELP_API_KEY'], message: 'is required when PLACES_PROVIDER=yelp' });
});

/** Every setting's name, in the order of the schema (README's settings table lists each). */
export const SETTING_NAMES = Object.keys(schema.shape);

export type Env = z.infer<typeof schema> & { DATABASE_URL: string; PUBLIC_BASE_URL: string };

export class EnvError extends Error {}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Invalid settings:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  // A production server left on the default would e-mail owners made-up figures as their report.
  if (env.NODE_ENV === 'production' && !source.PLACES_PROVIDER?.trim() && !env.ALLOW_SAMPLE_DATA) {
    throw new EnvError(
      'Invalid settings:\n  PLACES_PROVIDER: is not set, so with NODE_ENV=production every report would be made from sample data (example figures, not real listings). ' +
        'Set PLACES_PROVIDER=google or PLACES_PROVIDER=yelp with its key, or set ALLOW_SAMPLE_DATA=true to serve sample data on purpose (a demo).',
    );
  }
  return {
    ...env,
    DATABASE_URL: env.DATABASE_URL ?? `file:${env.DATA_DIR}/app.db`,
    PUBLIC_BASE_URL: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
  };
}

/** DATA_DIR must be a folder this process can create and write in (the database, report files,
 *  logos and the generated auth secret live there): else the settings error names it. */
export function checkDataDir(env: Env): void {
  const probe = join(env.DATA_DIR, `.write-check-${process.pid}`);
  try {
    mkdirSync(env.DATA_DIR, { recursive: true });
    writeFileSync(probe, '');
    rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const why = code === 'EEXIST' || code === 'ENOTDIR' ? 'is a file or lies under one' : code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? 'cannot be written by this process' : `cannot be used (${code ?? String(error)})`;
    throw new EnvError(`Invalid settings:\n  DATA_DIR: "${env.DATA_DIR}" ${why}; set it to a folder this process can write in.`);
  }
}

/** Settings for a command (start, worker, report): a bad one prints what is wrong and exits 1. */
export function loadEnvOrExit(): Env {
  try {
    const env = loadEnv();
    checkDataDir(env);
    return env;
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
