// Test data with unique values and overrides.
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../api/context.ts';
import { signup } from '../../api/services/accounts.ts';
import { users } from '../../db/schema/auth.ts';
import { consultants } from '../../db/schema/consultants.ts';

let seq = 0;
export const uniqueEmail = (prefix = 'user') => `${prefix}-${Date.now().toString(36)}-${++seq}@example.com`;

export interface CreateUserOptions {
  email?: string;
  password?: string;
  role?: 'consultant' | 'client';
  companyName?: string;
  tier?: 'free' | 'pro' | 'enterprise' | 'agency';
  status?: string;
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
  if (options.tier || options.status) {
    const plan = { subscriptionTier: options.tier ?? 'free', subscriptionStatus: options.status ?? 'active' };
    await ctx.db.update(users).set(plan).where(eq(users.id, userId));
    await ctx.db.update(consultants).set(plan).where(eq(consultants.userId, userId));
  }
  return { userId, email, password, cookie, viewer: result.viewer };
}
