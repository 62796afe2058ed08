// The branding a report is sent in and who stands behind it, decided from the report's row alone:
// its profile, its consultant's default, or none (LocalRank's own) when the plan has no white-label.
import { and, eq } from 'drizzle-orm';
import { users } from '../../../db/schema/auth.ts';
import { brandingProfiles, consultants } from '../../../db/schema/consultants.ts';
import type { AppContext } from '../../context.ts';
import type { Branding } from '../../report/model/branding.ts';
import type { UserRow } from '../plans/consultant-access.ts';
import { can } from '../plans/entitlements.ts';
import { logoFileOf, readLogo } from './logos.ts';
import type { ProfileRow } from './profiles.ts';

/**
 * The branding a client's report is sent in: the client's profile, else the agency's default; none
 * (LocalRank's own) when the consultant's plan has no white-label or there is no profile.
 */
export async function brandingFor(ctx: AppContext, input: { user: UserRow; consultantId: string; profileId: string | null }): Promise<Branding | null> {
  if (!can(input.user, 'whiteLabel')) return null;
  const chosen = input.profileId
    ? await ctx.db.query.brandingProfiles.findFirst({ where: and(eq(brandingProfiles.id, input.profileId), eq(brandingProfiles.consultantId, input.consultantId)) })
    : undefined;
  const row = chosen ?? (await ctx.db.query.brandingProfiles.findFirst({ where: and(eq(brandingProfiles.consultantId, input.consultantId), eq(brandingProfiles.isDefault, true)) }));
  return row ? await brandingOf(ctx, row) : null;
}

/** Who stands behind a report: the consultant whose report it is, with their plan and address. */
async function reportConsultant(ctx: AppContext, consultantId: string) {
  const [row] = await ctx.db
    .select({ companyName: consultants.companyName, email: users.email, subscriptionTier: users.subscriptionTier, subscriptionStatus: users.subscriptionStatus })
    .from(consultants)
    .innerJoin(users, eq(users.id, consultants.userId))
    .where(eq(consultants.id, consultantId));
  return row ?? null;
}

/**
 * The one place a report's look is decided, from its row alone (so any report, a client's or a
 * widget lead's, renders the same way everywhere: PDF, score card, e-mail, online page): its
 * branding profile; when that profile was deleted, its consultant's default; none (LocalRank's
 * own) without either, or when the consultant's plan has no white-label. Also who stands behind
 * it: the consultant's company name and address (a client's replies reach them).
 */
export async function reportSender(
  ctx: AppContext,
  report: { consultantId: string | null; brandingProfileId: string | null },
): Promise<{ branding: Branding | null; consultant: { id: string; companyName: string; email: string } | null }> {
  const profile = report.brandingProfileId ? await ctx.db.query.brandingProfiles.findFirst({ where: eq(brandingProfiles.id, report.brandingProfileId) }) : undefined;
  const consultantId = report.consultantId ?? profile?.consultantId;
  if (!consultantId) return { branding: null, consultant: null };
  const owner = await reportConsultant(ctx, consultantId);
  if (!owner) return { branding: null, consultant: null };
  const consultant = { id: consultantId, companyName: owner.companyName, email: owner.email };
  if (!can(owner, 'whiteLabel')) return { branding: null, consultant };
  const row =
    (profile?.consultantId === consultantId ? profile : undefined) ??
    (await ctx.db.query.brandingProfiles.findFirst({ where: and(eq(brandingProfiles.consultantId, consultantId), eq(brandingProfiles.isDefault, true)) }));
  return { branding: row ? await brandingOf(ctx, row) : null, consultant };
}

/** A report's branding (see reportSender). */
export const reportBranding = async (ctx: AppContext, report: { consultantId: string | null; brandingProfileId: string | null }) => (await reportSender(ctx, report)).branding;

/** The branding of the verified report domain a profile serves: a page there without a report of its own (a used or bad link) still speaks in the agency's name. */
export const domainBranding = async (ctx: AppContext, domain: { consultantId: string; profileId: string }) => reportBranding(ctx, { consultantId: domain.consultantId, brandingProfileId: domain.profileId });

export async function brandingOf(ctx: AppContext, row: ProfileRow): Promise<Branding> {
  const file = logoFileOf(row.logoUrl);
  return {
    id: row.id,
    companyName: row.companyName,
    logoPng: file ? await readLogo(ctx, file) : null,
    logoUrl: row.logoUrl,
    primaryColor: row.primaryColor,
    secondaryColor: row.secondaryColor,
    accentColor: row.accentColor,
    contactEmail: row.contactEmail,
    contactPhone: row.contactPhone,
    website: row.website,
    footerText: row.footerText,
    poweredBy: row.poweredBy,
    linkBase: row.customDomain && row.domainVerifiedAt ? reportOrigin(ctx, row.customDomain) : null,
  };
}

/** A report domain's origin: PUBLIC_BASE_URL's scheme and port on the agency's host. */
export function reportOrigin(ctx: AppContext, domain: string): string {
  const base = new URL(ctx.env.PUBLIC_BASE_URL);
  return `${base.protocol}//${domain}${base.port ? `:${base.port}` : ''}`;
}
