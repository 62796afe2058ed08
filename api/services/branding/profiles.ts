// An agency's branding profiles: several per agency, one the default, one chosen per client. Their
// logos are in logos.ts, and the branding a report is sent in, decided from its row, in sender.ts.
import { and, asc, eq, ne } from 'drizzle-orm';
import type { BrandingProfileInput } from '../../../common/schemas/branding.ts';
import { brandingProfiles, clients } from '../../../db/schema/consultants.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { type DomainSetup, domainSetup } from '../report-domains/records.ts';
import type { ConsultantAccess } from '../plans/consultant-access.ts';

export type ProfileRow = typeof brandingProfiles.$inferSelect;
export type BrandingProfile = Omit<ProfileRow, 'createdAt' | 'updatedAt' | 'domainClaimedAt' | 'domainVerifiedAt'> & { createdAt: string; updatedAt: string; clients: number; domain: DomainSetup | null };

export const profileNotFound = () => new AppError('not_found', 'Branding profile not found');

function shape(ctx: AppContext, row: ProfileRow, clientCount: number): BrandingProfile {
  const { domainClaimedAt: _claimedAt, domainVerifiedAt: _verifiedAt, ...rest } = row;
  return { ...rest, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(), clients: clientCount, domain: domainSetup(ctx, row) };
}

export async function listProfiles(ctx: AppContext, access: ConsultantAccess): Promise<BrandingProfile[]> {
  const rows = await ctx.db.query.brandingProfiles.findMany({ where: eq(brandingProfiles.consultantId, access.consultant.id), orderBy: [asc(brandingProfiles.createdAt)] });
  const counts = await ctx.db.select({ id: clients.brandingProfileId }).from(clients).where(eq(clients.consultantId, access.consultant.id));
  // A client with no profile of its own takes the default one: it counts there.
  return rows.map((r) => shape(ctx, r, counts.filter((c) => c.id === r.id || (c.id === null && r.isDefault)).length));
}

export async function ownedProfile(ctx: AppContext, access: ConsultantAccess, id: string): Promise<ProfileRow> {
  const row = await ctx.db.query.brandingProfiles.findFirst({ where: and(eq(brandingProfiles.id, id), eq(brandingProfiles.consultantId, access.consultant.id)) });
  if (!row) throw profileNotFound();
  return row;
}

export async function getProfile(ctx: AppContext, access: ConsultantAccess, id: string) {
  const row = await ownedProfile(ctx, access, id);
  return (await listProfiles(ctx, access)).find((p) => p.id === row.id)!;
}

/** The first profile is the default; marking another default unmarks the old one. */
export async function createProfile(ctx: AppContext, access: ConsultantAccess, input: BrandingProfileInput) {
  const existing = await ctx.db.query.brandingProfiles.findFirst({ where: eq(brandingProfiles.consultantId, access.consultant.id) });
  const isDefault = !existing || input.isDefault === true;
  const [row] = await ctx.db
    .insert(brandingProfiles)
    .values({ ...input, consultantId: access.consultant.id, isDefault, poweredBy: input.poweredBy ?? false })
    .returning();
  if (isDefault) await unmarkOthers(ctx, access, row!.id);
  return getProfile(ctx, access, row!.id);
}

export async function updateProfile(ctx: AppContext, { access, id, input }: { access: ConsultantAccess; id: string; input: BrandingProfileInput }) {
  const row = await ownedProfile(ctx, access, id);
  // The default stays the default until another is marked: an agency always has one.
  const isDefault = row.isDefault || input.isDefault === true;
  await ctx.db.update(brandingProfiles).set({ ...input, isDefault, poweredBy: input.poweredBy ?? row.poweredBy, updatedAt: new Date() }).where(eq(brandingProfiles.id, id));
  if (isDefault && !row.isDefault) await unmarkOthers(ctx, access, id);
  return getProfile(ctx, access, id);
}

async function unmarkOthers(ctx: AppContext, access: ConsultantAccess, keep: string) {
  await ctx.db
    .update(brandingProfiles)
    .set({ isDefault: false })
    .where(and(eq(brandingProfiles.consultantId, access.consultant.id), ne(brandingProfiles.id, keep)));
}

/** Its clients fall back to the default profile (the schema sets their reference to null, and
 *  deletes its logo); a deleted default hands the role to the oldest remaining profile. */
export async function deleteProfile(ctx: AppContext, access: ConsultantAccess, id: string) {
  const row = await ownedProfile(ctx, access, id);
  await ctx.db.delete(brandingProfiles).where(eq(brandingProfiles.id, id));
  if (row.isDefault) {
    const next = await ctx.db.query.brandingProfiles.findFirst({ where: eq(brandingProfiles.consultantId, access.consultant.id), orderBy: [asc(brandingProfiles.createdAt)] });
    if (next) await ctx.db.update(brandingProfiles).set({ isDefault: true }).where(eq(brandingProfiles.id, next.id));
  }
  return { deleted: true };
}
