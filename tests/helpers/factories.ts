// Test data with unique values and overrides.
import { and, eq, sql } from 'drizzle-orm';
import { ACCOUNT_EMAIL } from '../../api/email/account-email.ts';
import type { AppContext } from '../../api/context.ts';
import { signup } from '../../api/services/accounts.ts';
import { users } from '../../db/schema/auth.ts';
import { consultants } from '../../db/schema/consultants.ts';
import { jobs } from '../../db/schema/operations.ts';

let seq = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${++seq}@example.com`;

export interface CreateUserOptions {
  email?: string;
  password?: string;
  role?: 'consultant' | 'client';
  companyName?: string;
  tier?: 'free' | 'pro' | 'enterprise' | 'agency';
  status?: string;
  /** Whether the sign-up address is confirmed (default true: most tests are about other things). */
  emailVerified?: boolean;
}

/** Creates a user through the real sign-up service; returns the viewer and a session cookie. */
export async function createUser(ctx: AppContext, options: CreateUserOptions = {}) {
  const role = options.role ?? 'client';
  const email = options.email ?? uniqueEmail(role);
  const password = options.password ?? 'correct-horse-battery';
  const result = await signup({
    ctx,
    input: { email, password, role, companyName: role === 'consultant' ? (options.companyName ?? 'Acme Consulting') : undefined },
    headers: new Headers(),
  });
  const cookie = result.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const userId = result.viewer.user.id;
  if (options.emailVerified !== false) {
    // Confirmed long ago: the address is verified and the sign-up's confirmation e-mail is gone.
    await ctx.db.update(users).set({ emailVerified: true }).where(eq(users.id, userId));
    await ctx.db.delete(jobs).where(and(eq(jobs.type, ACCOUNT_EMAIL), sql`json_extract(${jobs.payload}, '$.to') = ${email.toLowerCase()}`));
  }
  if (options.tier || options.status) {
    const plan = { subscriptionTier: options.tier ?? 'free', subscriptionStatus: options.status ?? 'active' };
    await ctx.db.update(users).set(plan).where(eq(users.id, userId));
    await ctx.db.update(consultants).set(plan).where(eq(consultants.userId, userId));
  }
  return { userId, email, password, cookie, viewer: result.viewer };
}
