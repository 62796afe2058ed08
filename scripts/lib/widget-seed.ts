// An agency on the Agency plan with a branding profile and a widget key for a host page's
// origin, written straight to a server's database (the widget benchmark and browser tests).
import { eq } from 'drizzle-orm';
import type { AppContext } from '../../api/context.ts';
import { signup } from '../../api/services/accounts.ts';
import { createKey } from '../../api/services/widget.ts';
import { users } from '../../db/schema/auth.ts';
import { brandingProfiles, consultants } from '../../db/schema/consultants.ts';
import type { WidgetKeyInput } from '../../common/schemas/widget.ts';

export async function seedWidgetAgency(ctx: AppContext, { email, password, hostnames, key = {} }: { email: string; password: string; hostnames: string[]; key?: Partial<WidgetKeyInput> }) {
  await signup({ ctx, input: { email, password, role: 'consultant', companyName: 'Northstar Marketing' }, headers: new Headers() });
  const user = (await ctx.db.query.users.findFirst({ where: eq(users.email, email) }))!;
  const plan = { subscriptionTier: 'agency', subscriptionStatus: 'active' };
  await ctx.db.update(users).set({ ...plan, emailVerified: true }).where(eq(users.id, user.id));
  await ctx.db.update(consultants).set(plan).where(eq(consultants.userId, user.id));
  const consultant = (await ctx.db.query.consultants.findFirst({ where: eq(consultants.userId, user.id) }))!;
  const [profile] = await ctx.db
    .insert(brandingProfiles)
    .values({ consultantId: consultant.id, companyName: 'Northstar Marketing', primaryColor: '#7C3AED', secondaryColor: '#1E1B4B', accentColor: '#D97706', website: 'https://northstar.example', contactEmail: 'hello@northstar.example', isDefault: true })
    .returning();
  const access = { user: { ...user, ...plan }, consultant: { ...consultant, ...plan } };
  const widgetKey = await createKey({
    ctx,
    access,
    input: { name: 'Main site', allowedHostnames: hostnames, brandingProfileId: profile!.id, components: ['report-form', 'score-card'], scoreCardClientId: null, leadEmails: 'each', ...key },
  });
  return { access, profile: profile!, key: widgetKey };
}
