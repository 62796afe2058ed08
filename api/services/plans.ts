// Operator actions on plans: list users, set a user's tier and status (and their consultant
// profile's). Used by the admin command now and by billing later.
import { eq } from 'drizzle-orm';
import { SUBSCRIPTION_STATUSES, TIERS, type SubscriptionStatus, type Tier } from '../../common/constants.ts';
import { users } from '../../db/schema/auth.ts';
import { consultants } from '../../db/schema/consultants.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';

export async function listUsers({ ctx }: { ctx: Pick<AppContext, 'db'> }) {
  return ctx.db
    .select({
      email: users.email,
      role: users.role,
      tier: users.subscriptionTier,
      status: users.subscriptionStatus,
      company: consultants.companyName,
      createdAt: users.createdAt,
    })
    .from(users)
    .leftJoin(consultants, eq(consultants.userId, users.id))
    .orderBy(users.createdAt);
}

export async function setPlan({ ctx, input }: { ctx: Pick<AppContext, 'db'>; input: { email: string; tier: string; status?: string } }) {
  if (!TIERS.includes(input.tier as Tier)) {
    throw new AppError('invalid_input', `Unknown tier '${input.tier}'. Tiers: ${TIERS.join(', ')}.`);
  }
  const status = input.status ?? 'active';
  if (!SUBSCRIPTION_STATUSES.includes(status as SubscriptionStatus)) {
    throw new AppError('invalid_input', `Unknown status '${status}'. Statuses: ${SUBSCRIPTION_STATUSES.join(', ')}.`);
  }
  const email = input.email.trim().toLowerCase();
  const user = await ctx.db.query.users.findFirst({ where: eq(users.email, email), columns: { id: true } });
  if (!user) throw new AppError('not_found', `No user with the e-mail '${email}'.`);
  const plan = { subscriptionTier: input.tier, subscriptionStatus: status };
  await ctx.db.update(users).set(plan).where(eq(users.id, user.id));
  const updated = await ctx.db.update(consultants).set(plan).where(eq(consultants.userId, user.id)).returning({ id: consultants.id });
  return { email, tier: input.tier, status, consultantUpdated: updated.length > 0 };
}
