// Account security over better-auth's own features: password reset by e-mail, changing the
// password and the e-mail address, confirming an address, and the account's sessions.
import { APIError } from 'better-auth';
import { eq } from 'drizzle-orm';
import type { ChangeEmailInput, ChangePasswordInput, ForgotPasswordInput, ResetPasswordInput } from '../../common/schemas/auth.ts';
import { users } from '../../db/schema/auth.ts';
import type { AppContext } from '../context.ts';
import { AppError, unauthenticated } from '../errors.ts';
import { fromAuthError, viewerOf } from './accounts.ts';
import { consumeRateLimit } from './rate-limit.ts';

const HOUR_MS = 60 * 60 * 1000;
export const FORGOT_PASSWORD_MESSAGE = 'If an account uses this e-mail address, we have sent it a link to set a new password. The link works once, for 1 hour.';
export const RESET_LINK_INVALID = 'This link has expired or was already used. Ask for a new one.';

/**
 * Sends a reset link when the address has an account. The answer is the same either way, and so
 * is its time (the e-mail goes out from a job). An address asked for too often gets no further
 * e-mails this hour, with the same answer; a network asking too often gets 429.
 */
export async function requestPasswordReset({ ctx, input, ip }: { ctx: AppContext; input: ForgotPasswordInput; ip: string }): Promise<{ message: string }> {
  await consumeRateLimit({ ctx, input: { key: `reset:ip:${ip}`, limit: 20, windowMs: HOUR_MS, message: 'Too many password reset requests from this network. Please try again in an hour.' } });
  try {
    await consumeRateLimit({ ctx, input: { key: `reset:email:${input.email}`, limit: 3, windowMs: HOUR_MS, message: '' } });
  } catch (error) {
    if (error instanceof AppError && error.code === 'rate_limited') return { message: FORGOT_PASSWORD_MESSAGE };
    throw error;
  }
  await ctx.auth.api.requestPasswordReset({ body: { email: input.email } });
  return { message: FORGOT_PASSWORD_MESSAGE };
}

/** Sets the new password; the link's token is spent and every session of the account ends. */
export async function resetPassword({ ctx, input }: { ctx: AppContext; input: ResetPasswordInput }): Promise<void> {
  try {
    await ctx.auth.api.resetPassword({ body: { token: input.token, newPassword: input.newPassword } });
  } catch (error) {
    if (error instanceof APIError && Number(error.statusCode) === 400 && /token|user/i.test(String(error.body?.code ?? error.body?.message))) {
      throw new AppError('invalid_input', RESET_LINK_INVALID, { fields: { token: RESET_LINK_INVALID } });
    }
    throw fromAuthError(error, 'The password could not be changed. Please try again.');
  }
}

/** Changes the password (the current one required) and ends the account's other sessions. */
export async function changePassword({ ctx, input, headers }: { ctx: AppContext; input: ChangePasswordInput; headers: Headers }) {
  try {
    const result = await ctx.auth.api.changePassword({ body: { ...input, revokeOtherSessions: true }, headers, returnHeaders: true });
    return { headers: result.headers };
  } catch (error) {
    if (error instanceof APIError && /invalid password/i.test(String(error.body?.message))) {
      throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { currentPassword: 'The current password is not correct' } });
    }
    throw fromAuthError(error, 'The password could not be changed. Please try again.');
  }
}

export const CHANGE_EMAIL_MESSAGE = 'We have sent a link to the new address. Your e-mail address changes when you open it (within 24 hours).';

/** E-mails a confirmation link to the new address (the same answer when another account has it). */
export async function requestEmailChange({ ctx, input, headers }: { ctx: AppContext; input: ChangeEmailInput; headers: Headers }): Promise<{ message: string }> {
  try {
    await ctx.auth.api.changeEmail({ body: { newEmail: input.newEmail }, headers });
  } catch (error) {
    if (error instanceof APIError && /same/i.test(String(error.body?.message))) {
      throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { newEmail: 'This is already your e-mail address' } });
    }
    throw fromAuthError(error, 'The e-mail address could not be changed. Please try again.');
  }
  return { message: CHANGE_EMAIL_MESSAGE };
}

/** Sends the sign-up confirmation link again to the signed-in user's address. */
export async function resendVerification({ ctx, userId, headers }: { ctx: AppContext; userId: string; headers: Headers }): Promise<void> {
  await consumeRateLimit({ ctx, input: { key: `verify:user:${userId}`, limit: 5, windowMs: HOUR_MS, message: 'We have sent several links this hour. Please check your inbox and spam folder, or try again later.' } });
  const viewer = await viewerOf(ctx, userId);
  if (viewer.user.emailVerified) return;
  await ctx.auth.api.sendVerificationEmail({ body: { email: viewer.user.email }, headers });
}

export type VerifyEmailResult = { status: 'verified'; email: string } | { status: 'invalid' };

/** The address a confirmation token confirms: the new one of a change, else the one signed up with. */
function confirmedAddress(token: string): string | undefined {
  try {
    const payload = JSON.parse(Buffer.from(token.split('.')[1] ?? '', 'base64url').toString('utf8')) as { email?: unknown; updateTo?: unknown };
    const email = typeof payload.updateTo === 'string' ? payload.updateTo : payload.email;
    return typeof email === 'string' ? email.toLowerCase() : undefined;
  } catch {
    return undefined;
  }
}

/** Opens an e-mailed confirmation link: confirms the address, or moves the account to the new one. */
export async function verifyEmail({ ctx, token, headers }: { ctx: AppContext; token: string; headers: Headers }): Promise<VerifyEmailResult> {
  try {
    // better-auth checks the token's signature, expiry and owner, and applies it.
    await ctx.auth.api.verifyEmail({ query: { token }, headers });
  } catch (error) {
    if (error instanceof APIError) return { status: 'invalid' };
    throw error;
  }
  const email = confirmedAddress(token);
  if (!email) return { status: 'invalid' };
  // A new address confirmed by its own link is a confirmed address (better-auth keeps the old flag).
  const [row] = await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.email, email)).returning({ email: users.email });
  return row ? { status: 'verified', email: row.email } : { status: 'invalid' };
}

export interface SessionSummary {
  id: string;
  current: boolean;
  createdAt: string;
  lastActiveAt: string;
  expiresAt: string;
  userAgent: string | null;
  ipAddress: string | null;
}

/** The account's active sessions, the current one first; tokens never leave the server. */
export async function listSessions({ ctx, headers }: { ctx: AppContext; headers: Headers }): Promise<SessionSummary[]> {
  const current = await ctx.auth.api.getSession({ headers });
  if (!current) throw unauthenticated();
  const sessions = await ctx.auth.api.listSessions({ headers });
  return sessions
    .map((s) => ({
      id: s.id,
      current: s.id === current.session.id,
      createdAt: new Date(s.createdAt).toISOString(),
      lastActiveAt: new Date(s.updatedAt).toISOString(),
      expiresAt: new Date(s.expiresAt).toISOString(),
      userAgent: s.userAgent ?? null,
      ipAddress: s.ipAddress ?? null,
    }))
    .sort((a, b) => Number(b.current) - Number(a.current) || b.lastActiveAt.localeCompare(a.lastActiveAt));
}

/** Ends every session of the account but this one. */
export async function revokeOtherSessions({ ctx, headers }: { ctx: AppContext; headers: Headers }): Promise<void> {
  try {
    await ctx.auth.api.revokeOtherSessions({ headers });
  } catch (error) {
    throw fromAuthError(error, 'The other sessions could not be ended. Please try again.');
  }
}
