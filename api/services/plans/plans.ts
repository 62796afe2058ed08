// Plans: list users, set a user's tier and status (and their consultant profile's). `applyPlan`
// is the one writer of a plan: the admin command's set-plan and billing (api/services/billing/)
// both go through it, so the user's and the consultant's tier never disagree.
import { and, eq, isNull, lt, or, sql } from 'drizzle-orm';
import { SUBSCRIPTION_STATUSES, TIERS, type SubscriptionStatus, type Tier } from '../../../common/constants.ts';
import { users } from '../../../db/schema/auth.ts';
import { consultants } from '../../../db/schema/consultants.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';

export async function listUsers(ctx: Pick<AppContext, 'db'>) {
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

export async function setPlan(ctx: Pick<AppContext, 'db'>, input: { email: string; tier: string; status?: string }) {
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
  const { consultantUpdated } = await applyPlan(ctx, { userId: user.id, plan: { subscriptionTier: input.tier, subscriptionStatus: status } });
  return { email, tier: input.tier, status, consultantUpdated };
}

export interface PlanState {
  subscriptionTier: Tier;
  subscriptionStatus: SubscriptionStatus;
}
/** The billing details kept beside the plan (absent for plans set by hand). */
export type BillingState = Partial<Pick<typeof users.$inferInsert, 'stripeSubscriptionId' | 'billingInterval' | 'currentPeriodEnd' | 'cancelAtPeriodEnd' | 'billingGraceUntil'>>;

/**
 * Writes a plan to the user and their consultant profile, in one transaction. With `readAt` (when
 * the Stripe read behind the plan started) nothing is written if a read that started later was
 * applied already: of two deliveries at once, the slower stale read cannot land last.
 */
export async function applyPlan(ctx: Pick<AppContext, 'db'>, { userId, plan, billing = {}, readAt }: { userId: string; plan: { subscriptionTier: string; subscriptionStatus: string }; billing?: BillingState; readAt?: Date }) {
  const fresher = readAt ? or(isNull(users.billingReadAt), lt(users.billingReadAt, readAt)) : undefined;
  const [user, consultant] = await ctx.db.batch([
    ctx.db
      .update(users)
      .set({ ...plan, ...billing, ...(readAt ? { billingReadAt: readAt } : {}) })
      .where(and(eq(users.id, userId), fresher))
      .returning({ id: users.id }),
    ctx.db
      .update(consultants)
      .set(plan)
      .where(and(eq(consultants.userId, userId), readAt ? sql`exists (select 1 from ${users} where ${users.id} = ${userId} and ${users.billingReadAt} = ${readAt.getTime()})` : undefined))
      .returning({ id: consultants.id }),
  ]);
  return { applied: user.length > 0, consultantUpdated: consultant.length > 0 };
}
