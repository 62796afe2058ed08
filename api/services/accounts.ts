// Accounts: sign-up, login, logout and the session check, over better-auth.
import { createHash } from 'node:crypto';
import { APIError } from 'better-auth';
import { eq } from 'drizzle-orm';
import { POLICY } from '../../common/constants.ts';
import type { LoginInput, SignupInput } from '../../common/schemas/auth.ts';
import { sessions, users } from '../../db/schema/auth.ts';
import { consultants } from '../../db/schema/consultants.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { busyError, hashingSaturated } from '../lib/password-hash.ts';
import { checkLink, signLink } from '../lib/signed-link.ts';
import { consumeRateLimit, consumeRateLimits, resetRateLimit } from './rate-limit.ts';

export type UserRow = typeof users.$inferSelect;
export type ConsultantRow = typeof consultants.$inferSelect;

export interface PublicUser {
  id: string;
  email: string;
  /** Confirmed by the link e-mailed at sign-up (or at an address change). */
  emailVerified: boolean;
  role: string;
  subscriptionTier: string;
  subscriptionStatus: string;
  stripeCustomerId: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface Viewer {
  user: PublicUser;
  consultant?: ConsultantRow;
}

type AuthUser = { id: string; email: string; createdAt: Date; updatedAt: Date } & Record<string, unknown>;

export function publicUser(user: AuthUser | UserRow): PublicUser {
  return {
    id: user.id,
    email: user.email,
    emailVerified: Boolean(user.emailVerified),
    role: String(user.role ?? ''),
    subscriptionTier: String(user.subscriptionTier ?? 'free'),
    subscriptionStatus: String(user.subscriptionStatus ?? 'active'),
    stripeCustomerId: (user.stripeCustomerId as string | null | undefined) ?? null,
    createdAt: new Date(user.createdAt).toISOString(),
    updatedAt: new Date(user.updatedAt).toISOString(),
  };
}

async function consultantOf(ctx: AppContext, userId: string): Promise<ConsultantRow | undefined> {
  return ctx.db.query.consultants.findFirst({ where: eq(consultants.userId, userId) });
}

export async function viewerOf(ctx: AppContext, userId: string): Promise<Viewer> {
  const user = await ctx.db.query.users.findFirst({ where: eq(users.id, userId) });
  if (!user) throw new AppError('unauthenticated', 'Not authenticated');
  const consultant = await consultantOf(ctx, userId);
  return consultant ? { user: publicUser(user), consultant } : { user: publicUser(user) };
}

/** The signed-in user and their consultant profile, or null (a closed account is signed in nowhere). */
export async function getViewer({ ctx, headers }: { ctx: AppContext; headers: Headers }): Promise<Viewer | null> {
  const session = await ctx.auth.api.getSession({ headers });
  if (!session) return null;
  if (await isClosed(ctx, session.user.id)) return null;
  return viewerOf(ctx, session.user.id);
}

export const CLOSED_ACCOUNT_MESSAGE = `This account is closed. To reopen it, use the link in the e-mail we sent when you closed it (it works for ${POLICY.dataExportDaysAfterTermination} days).`;

/** A deleted account in its grace period (decision 0132): sign-in and session checks refuse it. */
export async function isClosed(ctx: AppContext, userId: string): Promise<boolean> {
  const row = await ctx.db.query.users.findFirst({ where: eq(users.id, userId), columns: { closedAt: true } });
  return Boolean(row?.closedAt);
}

const SIGNUP_WINDOW_MS = 60 * 60 * 1000;
const SIGNUP_LIMIT_MESSAGE = 'Too many accounts were created from this network. Please try again in an hour.';

/** Counts a sign-up attempt from an address (taken e-mails included: it also bounds probing for them); 429 beyond the limit. */
export async function countSignupAttempt({ ctx, ip }: { ctx: AppContext; ip: string }) {
  if (hashingSaturated()) throw busyError();
  await consumeRateLimit({ ctx, input: { key: `signup:ip:${ip}`, limit: ctx.env.SIGNUP_RATE_LIMIT_PER_IP, windowMs: SIGNUP_WINDOW_MS, message: SIGNUP_LIMIT_MESSAGE } });
}

export async function signup({ ctx, input, headers }: { ctx: AppContext; input: SignupInput & { companyName?: string }; headers: Headers }) {
  const emailTaken = async () => Boolean(await ctx.db.query.users.findFirst({ where: eq(users.email, input.email), columns: { id: true } }));
  const emailConflict = () =>
    new AppError('conflict', 'An account with this email already exists. Please sign in instead.', {
      fields: { email: 'An account with this email already exists' },
    });
  if (await emailTaken()) throw emailConflict();
  let result;
  try {
    result = await ctx.auth.api.signUpEmail({
      body: { email: input.email, password: input.password, name: input.companyName ?? '', role: input.role },
      headers,
      returnHeaders: true,
    });
  } catch (error) {
    // Two sign-ups with one e-mail at once: both pass the check above, the unique index stops one.
    if (await emailTaken()) throw emailConflict();
    throw fromAuthError(error, 'Signup failed. Please try again.');
  }
  const userId = result.response.user.id;
  if (input.role === 'consultant') {
    try {
      await ctx.db.insert(consultants).values({ userId, companyName: input.companyName! });
    } catch (error) {
      // Keep sign-up all-or-nothing: a consultant account without its profile is not an account.
      await ctx.db.delete(users).where(eq(users.id, userId));
      throw error;
    }
  }
  return { viewer: await viewerOf(ctx, userId), headers: result.headers };
}

const LOGIN_WINDOW_MS = 15 * 60 * 1000;
export const LOGIN_LIMIT_PER_IP = 50;
export const LOGIN_LIMIT_PER_EMAIL_AND_IP = 10;
/** Attempts on one account from browsers that have not signed in to it before, from all addresses. */
export const LOGIN_LIMIT_PER_ACCOUNT_NEW_BROWSERS = 50;
const LOGIN_LIMIT_MESSAGE = 'Too many login attempts. Please wait 15 minutes and try again.';
const ACCOUNT_LIMIT_MESSAGE =
  'Too many login attempts for this account from browsers it has not been used on. Please sign in from a browser you have used before, or wait 15 minutes and try again.';

/** The cookie that marks a browser the account has signed in on; sent to the login route only. */
export const KNOWN_BROWSER_COOKIE = 'lr_known_browser';
const KNOWN_BROWSER_DAYS = 180;

/** The cookie names the account by a digest of its e-mail, not the address itself. */
const browserSubject = (email: string) => createHash('sha256').update(`known-browser:${email}`).digest('base64url').slice(0, 22);

async function knownBrowserCookie(ctx: AppContext, email: string): Promise<string> {
  const value = await signLink(ctx, 'known-browser', browserSubject(email), new Date(Date.now() + KNOWN_BROWSER_DAYS * 86_400_000));
  const secure = ctx.env.NODE_ENV === 'production' ? '; Secure' : '';
  return `${KNOWN_BROWSER_COOKIE}=${value}; Max-Age=${KNOWN_BROWSER_DAYS * 86_400}; Path=/api/auth/login; HttpOnly; SameSite=Strict${secure}`;
}

/**
 * Wrong passwords are limited per address (50 in 15 minutes, whatever the e-mail) and per e-mail
 * and address pair (10), not per e-mail alone: a stranger elsewhere cannot lock the owner out
 * (decision 0092). A guesser spread over many addresses meets a third limit, per account, that
 * counts only browsers the account has not signed in on (decision 0134): the owner's own browser
 * carries a signed cookie and passes. All limits, and the refusal when hashing is saturated, come
 * before the password is hashed.
 */
export async function login({ ctx, input, headers, ip, knownBrowser }: { ctx: AppContext; input: LoginInput; headers: Headers; ip: string; knownBrowser?: string }) {
  if (hashingSaturated()) throw busyError();
  const pairKey = `login:email-ip:${input.email}|${ip}`;
  const browser = knownBrowser === undefined ? undefined : await checkLink(ctx, 'known-browser', knownBrowser);
  const known = browser?.state === 'valid' && browser.subject === browserSubject(input.email);
  await consumeRateLimits({
    ctx,
    input: [
      { key: `login:ip:${ip}`, limit: LOGIN_LIMIT_PER_IP, windowMs: LOGIN_WINDOW_MS, message: LOGIN_LIMIT_MESSAGE },
      { key: pairKey, limit: LOGIN_LIMIT_PER_EMAIL_AND_IP, windowMs: LOGIN_WINDOW_MS, message: LOGIN_LIMIT_MESSAGE },
      ...(known ? [] : [{ key: `login:new-browser:${input.email}`, limit: LOGIN_LIMIT_PER_ACCOUNT_NEW_BROWSERS, windowMs: LOGIN_WINDOW_MS, message: ACCOUNT_LIMIT_MESSAGE }]),
    ],
  });
  let result;
  try {
    result = await ctx.auth.api.signInEmail({ body: { email: input.email, password: input.password }, headers, returnHeaders: true });
  } catch (error) {
    throw fromAuthError(error, 'Login failed. Please check your credentials.');
  }
  await resetRateLimit({ ctx, input: { key: pairKey } });
  // The right password of a closed account: the session just made ends, and the answer says how to reopen it.
  if (await isClosed(ctx, result.response.user.id)) {
    await ctx.db.delete(sessions).where(eq(sessions.userId, result.response.user.id));
    throw new AppError('forbidden', CLOSED_ACCOUNT_MESSAGE);
  }
  result.headers.append('Set-Cookie', await knownBrowserCookie(ctx, input.email));
  return { viewer: await viewerOf(ctx, result.response.user.id), headers: result.headers };
}

export async function logout({ ctx, headers }: { ctx: AppContext; headers: Headers }) {
  try {
    const result = await ctx.auth.api.signOut({ headers, returnHeaders: true });
    return { headers: result.headers };
  } catch (error) {
    // Signing out without a session is not an error worth showing: the user is signed out.
    if (error instanceof APIError) return { headers: new Headers() };
    throw error;
  }
}

export function fromAuthError(error: unknown, fallback: string): Error {
  if (!(error instanceof APIError)) return error as Error;
  const status = Number(error.statusCode);
  if (status === 401) return new AppError('unauthenticated', 'Invalid email or password');
  if (status === 422 || status === 400) return new AppError('invalid_input', error.body?.message ?? fallback);
  return new AppError('internal', fallback);
}
