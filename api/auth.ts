// better-auth, configured for e-mail and password over our own tables. The product's routes call
// its server API (auth.api.*) rather than exposing better-auth's endpoints directly, so the
// spec's calls (/api/auth/login, /signup, /logout, /me) are the only surface.
import { betterAuth } from 'better-auth';
import { drizzleAdapter } from 'better-auth/adapters/drizzle';
import { MIN_PASSWORD_LENGTH, PRODUCT_NAME } from '../common/constants.ts';
import type { Db } from '../db/client.ts';
import { accounts, sessions, users, verifications } from '../db/schema/auth.ts';
import type { Env } from './env.ts';
import { hashPassword, verifyPassword } from './lib/password-hash.ts';
import type { Logger } from './log.ts';

export const SESSION_COOKIE_PREFIX = 'localrank';
/** The session cookie's names: plain, and with the prefix `useSecureCookies` gives it in production. */
export const SESSION_COOKIE_NAMES = [`${SESSION_COOKIE_PREFIX}.session_token`, `__Secure-${SESSION_COOKIE_PREFIX}.session_token`];

/** How long the links stay valid (seconds); better-auth enforces them, the e-mails say them. */
export const RESET_PASSWORD_LINK_SECONDS = 60 * 60;
export const VERIFY_EMAIL_LINK_SECONDS = 24 * 60 * 60;

/** An e-mail better-auth asks us to send; the composition root (api/create-context.ts) passes the
 *  sender, so this module needs nothing from api/email/. */
export interface AuthEmail {
  kind: 'reset-password' | 'verify-email' | 'change-email';
  to: string;
  url: string;
}

/** An error's first line (and its cause's): a failed query's message goes on with the row's values. */
function errorSummary(args: unknown[]): string | undefined {
  const error = args.find((arg): arg is Error => arg instanceof Error);
  if (!error) return undefined;
  const firstLine = (e: unknown) => String(e instanceof Error ? e.message : e).split('\n')[0];
  return error.cause ? `${firstLine(error)} (${firstLine(error.cause)})` : firstLine(error);
}

/** A better-auth e-mail token (a JWT) that changes an address carries `updateTo`. */
function changesEmail(token: string): boolean {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { updateTo?: unknown };
    return typeof payload.updateTo === 'string';
  } catch {
    return false;
  }
}

export function createAuth({ db, env, secret, log, sendEmail }: { db: Db; env: Env; secret: string; log: Logger; sendEmail: (email: AuthEmail) => Promise<void> }) {
  return betterAuth({
    appName: PRODUCT_NAME,
    baseURL: env.PUBLIC_BASE_URL,
    // Its handler is not mounted (below): its endpoints are reached only through our routes, under
    // the one origin rule (api/lib/same-origin.ts). Were it mounted, it would trust no other origin.
    trustedOrigins: [new URL(env.PUBLIC_BASE_URL).origin],
    basePath: '/api/auth',
    secret,
    database: drizzleAdapter(db, { provider: 'sqlite', schema: { users, sessions, accounts, verifications } }),
    user: {
      modelName: 'users',
      // A new address is confirmed by a link sent to it; the old one stays until then.
      changeEmail: { enabled: true },
      additionalFields: {
        role: { type: 'string', required: true, input: true },
        stripeCustomerId: { type: 'string', required: false, input: false },
        stripeSubscriptionId: { type: 'string', required: false, input: false },
        subscriptionTier: { type: 'string', required: false, defaultValue: 'free', input: false },
        subscriptionStatus: { type: 'string', required: false, defaultValue: 'active', input: false },
      },
    },
    // freshAge 0: listing one's sessions works on a session of any age (the Security section);
    // what changes the account asks for the current password or a link sent by e-mail instead.
    session: { modelName: 'sessions', expiresIn: 60 * 60 * 24 * 30, updateAge: 60 * 60 * 24, freshAge: 0 },
    account: { modelName: 'accounts' },
    verification: { modelName: 'verifications' },
    // Links in e-mails lead to our own pages (/reset-password, /verify-email), which call our
    // routes; better-auth's HTTP handler stays unmounted (decision 0004, 0100).
    emailAndPassword: {
      enabled: true,
      minPasswordLength: MIN_PASSWORD_LENGTH,
      maxPasswordLength: 128,
      autoSignIn: true,
      // Its scrypt in node:crypto's thread pool, bounded (api/lib/password-hash.ts).
      password: { hash: (password) => hashPassword(password, env.SCRYPT_COST), verify: (data) => verifyPassword(data, env.SCRYPT_COST) },
      resetPasswordTokenExpiresIn: RESET_PASSWORD_LINK_SECONDS,
      revokeSessionsOnPasswordReset: true,
      sendResetPassword: async ({ user, token }) =>
        sendEmail({ kind: 'reset-password', to: user.email, url: `${env.PUBLIC_BASE_URL}/reset-password?token=${encodeURIComponent(token)}` }),
    },
    // The account works before its address is confirmed; e-mails the product sends on its own
    // (monthly reports, Early Warning alerts) wait for it.
    emailVerification: {
      sendOnSignUp: true,
      expiresIn: VERIFY_EMAIL_LINK_SECONDS,
      sendVerificationEmail: async ({ user, token }) =>
        sendEmail({ kind: changesEmail(token) ? 'change-email' : 'verify-email', to: user.email, url: `${env.PUBLIC_BASE_URL}/verify-email?token=${encodeURIComponent(token)}` }),
    },
    // Login attempts are limited by our own database-backed limiter (api/services/accounts.ts).
    rateLimit: { enabled: false },
    telemetry: { enabled: false },
    // Its messages as our one-line JSON, without the values its errors carry (e-mail addresses,
    // password hashes).
    logger: { level: 'error', log: (level, message, ...args) => log[level](`auth: ${message}`, { error: errorSummary(args) }) },
    advanced: {
      cookiePrefix: SESSION_COOKIE_PREFIX,
      useSecureCookies: env.NODE_ENV === 'production',
      defaultCookieAttributes: { httpOnly: true, sameSite: 'lax', path: '/' },
      database: { generateId: 'uuid' },
    },
  });
}

export type Auth = ReturnType<typeof createAuth>;

const secrets = new WeakMap<object, Promise<string>>();

/** The auth secret (better-auth's, from AUTH_SECRET or DATA_DIR/auth-secret): signs sessions and signed links. */
export async function secretOf(ctx: { auth: Auth }): Promise<string> {
  let secret = secrets.get(ctx.auth);
  if (!secret) {
    secret = ctx.auth.$context.then((c) => c.secret);
    secrets.set(ctx.auth, secret);
  }
  return secret;
}
