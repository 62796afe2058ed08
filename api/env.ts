// Every setting the product reads, validated once at start. A bad value stops start-up with a
// message that names the variable. Defaults make a fresh clone run with no configuration.
import { OPERATOR } from '../common/constants.ts';
import { z } from '../common/zod.ts';

const optional = z
  .string()
  .trim()
  .transform((v) => v || undefined)
  .optional();

const schema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number({ error: 'must be a port number (0-65535)' }).int().min(0).max(65535).default(4321),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATA_DIR: z.string().min(1).default('data'),
  // A URL the libSQL client opens: a file, or a libSQL server (libsql:, wss:, ws:, https:, http:).
  DATABASE_URL: optional.refine((v) => v === undefined || /^(file|libsql|wss?|https?):/i.test(v), {
    error: 'must be a libSQL URL: file:…, libsql://…, wss://…, ws://…, https://… or http://…',
  }),
  DATABASE_AUTH_TOKEN: optional,
  PUBLIC_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
  WORKER: z.enum(['inline', 'off']).default('inline'),
  LOG_LEVEL: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  TRUST_PROXY: z.enum(['true', 'false']).default('false').transform((v) => v === 'true'),
  // Free-report requests accepted per hour from one IP address and for one e-mail address.
  INTAKE_RATE_LIMIT_PER_IP: z.coerce.number({ error: 'must be a whole number of requests per hour' }).int().min(1).default(20),
  INTAKE_RATE_LIMIT_PER_EMAIL: z.coerce.number({ error: 'must be a whole number of requests per hour' }).int().min(1).default(5),
  // Contact-form messages accepted per hour from one IP address and from one e-mail address.
  CONTACT_RATE_LIMIT_PER_IP: z.coerce.number({ error: 'must be a whole number of messages per hour' }).int().min(1).default(10),
  CONTACT_RATE_LIMIT_PER_EMAIL: z.coerce.number({ error: 'must be a whole number of messages per hour' }).int().min(1).default(5),
  // Accounts created per hour from one IP address.
  SIGNUP_RATE_LIMIT_PER_IP: z.coerce.number({ error: 'must be a whole number of sign-ups per hour' }).int().min(1).default(10),
  // Paid plans: days between scheduled re-analyses (each adds a snapshot to the 90-day trends).
  REANALYSIS_INTERVAL_DAYS: z.coerce.number({ error: 'must be a whole number of days from 1 to 90' }).int().min(1).max(90).default(7),
  WORKER_CONCURRENCY: z.coerce.number({ error: 'must be a whole number from 1 to 32' }).int().min(1).max(32).default(2),
  WORKER_GRACE_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(0).max(600_000).default(10_000),
  SMTP_URL: z
    .string()
    .trim()
    .transform((v) => v || undefined)
    .pipe(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional())
    .optional(),
  MAIL_FROM: z.string().trim().min(3).default('LocalRank <reports@localrank.app>'),
  OPERATOR_EMAIL: z.email({ error: 'must be an e-mail address' }).default(OPERATOR.supportEmail),
  // Analysis: where places, reviews and locations come from, and how websites are fetched.
  PLACES_PROVIDER: z.enum(['sample', 'google', 'yelp']).default('sample'),
  GOOGLE_PLACES_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://places.googleapis.com'),
  GOOGLE_PLACES_KEY: optional,
  YELP_BASE_URL: z.url({ protocol: /^https?$/ }).default('https://api.yelp.com'),
  YELP_API_KEY: optional,
  GEOCODER_URL: z.url({ protocol: /^https?$/ }).default('https://maps.googleapis.com/maps/api/geocode/json'),
  GEOCODER_KEY: optional,
  PROVIDER_TIMEOUT_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(100).max(120_000).default(10_000),
  SITE_FETCH_TIMEOUT_MS: z.coerce.number({ error: 'must be a number of milliseconds' }).int().min(100).max(120_000).default(8000),
  SITE_FETCH_MAX_BYTES: z.coerce.number({ error: 'must be a number of bytes' }).int().min(1024).max(50_000_000).default(2_000_000),
  SITE_FETCH_CONCURRENCY: z.coerce.number({ error: 'must be a whole number from 1 to 16' }).int().min(1).max(16).default(4),
  SITE_FETCH_PORTS: z
    .string()
    .trim()
    .default('')
    .refine((v) => v === '' || v.split(',').every((p) => /^\d{1,5}$/.test(p.trim()) && Number(p) > 0 && Number(p) < 65536), 'must be a comma-separated list of port numbers')
    .transform((v) => (v === '' ? [] : v.split(',').map((p) => Number(p.trim())))),
}).superRefine((env, issues) => {
  if (env.PLACES_PROVIDER === 'google' && !env.GOOGLE_PLACES_KEY) issues.addIssue({ code: 'custom', path: ['GOOGLE_PLACES_KEY'], message: 'is required when PLACES_PROVIDER=google' });
  if (env.PLACES_PROVIDER === 'yelp' && !env.YELP_API_KEY) issues.addIssue({ code: 'custom', path: ['YELP_API_KEY'], message: 'is required when PLACES_PROVIDER=yelp' });
});

export type Env = z.infer<typeof schema> & { DATABASE_URL: string; PUBLIC_BASE_URL: string };

export class EnvError extends Error {}

export function loadEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = schema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new EnvError(`Invalid settings:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  return {
    ...env,
    DATABASE_URL: env.DATABASE_URL ?? `file:${env.DATA_DIR}/app.db`,
    PUBLIC_BASE_URL: (env.PUBLIC_BASE_URL ?? `http://localhost:${env.PORT}`).replace(/\/$/, ''),
  };
}

/** Settings for a command (start, worker, report): a bad one prints what is wrong and exits 1. */
export function loadEnvOrExit(): Env {
  try {
    return loadEnv();
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    console.error(error.message);
    process.exit(1);
  }
}
