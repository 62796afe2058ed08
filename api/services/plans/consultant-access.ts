// Who may manage clients and branding: the signed-in consultant, on a plan that includes the
// feature (api/services/plans/entitlements.ts decides which). Every client, branding-profile and report
// route starts here, then checks each object against `consultant.id`: another consultant's id
// answers exactly as an unknown one (404), and nothing in a query string grants anything.
import { eq } from 'drizzle-orm';
import { users } from '../../../db/schema/auth.ts';
import { consultants } from '../../../db/schema/consultants.ts';
import type { AppContext } from '../../context.ts';
import { AppError, unauthenticated } from '../../errors.ts';
import { NOT_CONSULTANT_MESSAGES, PLAN_MESSAGES } from '../../../common/plan-messages.ts';
import { can, type Feature } from './entitlements.ts';

export type ConsultantRow = typeof consultants.$inferSelect;
export type UserRow = typeof users.$inferSelect;

export interface ConsultantAccess {
  user: UserRow;
  consultant: ConsultantRow;
}

// The wording is shared with the screens that show it before asking (common/plan-messages.ts).
export { PLAN_MESSAGES };
const NOT_CONSULTANT = NOT_CONSULTANT_MESSAGES;

export async function requireConsultant(ctx: AppContext, headers: Headers, feature: keyof typeof PLAN_MESSAGES | null): Promise<ConsultantAccess> {
  const session = await ctx.auth.api.getSession({ headers });
  if (!session) throw unauthenticated();
  return consultantAccessFor(ctx, session.user.id, feature);
}

/** The same check for a user already known (an API key's owner). `null`: any plan (what the
 *  agency owns in every plan state, such as its widget leads). */
export async function consultantAccessFor(ctx: AppContext, userId: string, feature: keyof typeof PLAN_MESSAGES | null): Promise<ConsultantAccess> {
  const user = await ctx.db.query.users.findFirst({ where: eq(users.id, userId) });
  if (!user) throw unauthenticated();
  const consultant = user.role === 'consultant' ? await ctx.db.query.consultants.findFirst({ where: eq(consultants.userId, user.id) }) : undefined;
  if (!consultant) throw new AppError('forbidden', NOT_CONSULTANT[feature ?? 'none']);
  if (feature && !can(user, feature satisfies Feature)) throw new AppError('plan_required', PLAN_MESSAGES[feature]);
  return { user, consultant };
}
