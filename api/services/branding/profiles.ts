// An agency's branding profiles: several per agency, one the default, one chosen per client. A
// logo upload (PNG, JPEG or WebP, at most LOGO_MAX_BYTES) is decoded and re-encoded on the server
// as a PNG of at most LOGO_MAX_PX a side, so nothing the agency uploaded is ever served as such
// (no SVG, no metadata, no polyglot file). Logos are public by their unguessable file name: they
// appear in e-mails and on the online report. They live in the database (branding_logos, decision
// 0208): every process serves and renders them, and they go with their profile.
import { createHash } from 'node:crypto';
import { and, asc, eq, ne } from 'drizzle-orm';
import sharp from 'sharp';
import { LOGO_MAX_BYTES, LOGO_TYPES, type BrandingProfileInput } from '../../../common/schemas/branding.ts';
import { users } from '../../../db/schema/auth.ts';
import { brandingProfiles, clients, consultants } from '../../../db/schema/consultants.ts';
import { brandingLogos } from '../../../db/schema/files.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { Branding } from '../../report/branding.ts';
import { type DomainSetup, domainSetup } from '../report-domains/records.ts';
import type { ConsultantAccess, UserRow } from '../plans/consultant-access.ts';
import { can } from '../plans/entitlements.ts';

export const LOGO_MAX_PX = 600;
export const LOGO_PATH = '/api/branding/logos/';
export const LOGO_FILE = /^[0-9a-f-]{36}-[0-9a-f]{16}\.png$/;

type ProfileRow = typeof brandingProfiles.$inferSelect;
export type BrandingProfile = Omit<ProfileRow, 'createdAt' | 'updatedAt' | 'domainClaimedAt' | 'domainVerifiedAt'> & { createdAt: string; updatedAt: string; clients: number; domain: DomainSetup | null };

export const profileNotFound = () => new AppError('not_found', 'Branding profile not found');
export const logoFileOf = (url: string | null) => (url ? url.slice(url.lastIndexOf('/') + 1) : null);

function shape(ctx: AppContext, row: ProfileRow, clientCount: number): BrandingProfile {
  const { domainClaimedAt: _claimedAt, domainVerifiedAt: _verifiedAt, ...rest } = row;
  return { ...rest, createdAt: row.createdAt.toISOString(), updatedAt: row.updatedAt.toISOString(), clients: clientCount, domain: domainSetup(ctx, row) };
}

export async function listProfiles({ ctx, access }: { ctx: AppContext; access: ConsultantAccess }): Promise<BrandingProfile[]> {
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

export async function getProfile({ ctx, access, id }: { ctx: AppContext; access: ConsultantAccess; id: string }) {
  const row = await ownedProfile(ctx, access, id);
  return (await listProfiles({ ctx, access })).find((p) => p.id === row.id)!;
}

/** The first profile is the default; marking another default unmarks the old one. */
export async function createProfile({ ctx, access, input }: { ctx: AppContext; access: ConsultantAccess; input: BrandingProfileInput }) {
  const existing = await ctx.db.query.brandingProfiles.findFirst({ where: eq(brandingProfiles.consultantId, access.consultant.id) });
  const isDefault = !existing || input.isDefault === true;
  const [row] = await ctx.db
    .insert(brandingProfiles)
    .values({ ...input, consultantId: access.consultant.id, isDefault, poweredBy: input.poweredBy ?? false })
    .returning();
  if (isDefault) await unmarkOthers(ctx, access, row!.id);
  return getProfile({ ctx, access, id: row!.id });
}

export async function updateProfile({ ctx, access, id, input }: { ctx: AppContext; access: ConsultantAccess; id: string; input: BrandingProfileInput }) {
  const row = await ownedProfile(ctx, access, id);
  // The default stays the default until another is marked: an agency always has one.
  const isDefault = row.isDefault || input.isDefault === true;
  await ctx.db.update(brandingProfiles).set({ ...input, isDefault, poweredBy: input.poweredBy ?? row.poweredBy, updatedAt: new Date() }).where(eq(brandingProfiles.id, id));
  if (isDefault && !row.isDefault) await unmarkOthers(ctx, access, id);
  return getProfile({ ctx, access, id });
}

async function unmarkOthers(ctx: AppContext, access: ConsultantAccess, keep: string) {
  await ctx.db
    .update(brandingProfiles)
    .set({ isDefault: false })
    .where(and(eq(brandingProfiles.consultantId, access.consultant.id), ne(brandingProfiles.id, keep)));
}

/** Its clients fall back to the default profile (the schema sets their reference to null, and
 *  deletes its logo); a deleted default hands the role to the oldest remaining profile. */
export async function deleteProfile({ ctx, access, id }: { ctx: AppContext; access: ConsultantAccess; id: string }) {
  const row = await ownedProfile(ctx, access, id);
  await ctx.db.delete(brandingProfiles).where(eq(brandingProfiles.id, id));
  if (row.isDefault) {
    const next = await ctx.db.query.brandingProfiles.findFirst({ where: eq(brandingProfiles.consultantId, access.consultant.id), orderBy: [asc(brandingProfiles.createdAt)] });
    if (next) await ctx.db.update(brandingProfiles).set({ isDefault: true }).where(eq(brandingProfiles.id, next.id));
  }
  return { deleted: true };
}

const logoError = (message: string) => new AppError('invalid_input', message, { fields: { logo: message } });

/** An uploaded logo decoded and re-encoded as a PNG of at most LOGO_MAX_PX a side, or a 400 that
 *  says why not (stored by setLogo, drawn unsaved by the branding preview). */
export async function reencodeLogo(contentType: string, body: Buffer): Promise<Buffer> {
  if (!(LOGO_TYPES as readonly string[]).includes(contentType)) throw logoError('The logo must be a PNG, JPEG or WebP image.');
  if (body.length === 0) throw logoError('The logo file is empty.');
  if (body.length > LOGO_MAX_BYTES) throw logoError(`The logo must be at most ${LOGO_MAX_BYTES / 1024 / 1024} MB.`);
  try {
    const image = sharp(body, { limitInputPixels: 40_000_000, failOn: 'error' });
    const { format } = await image.metadata();
    if (!format || !['png', 'jpeg', 'webp'].includes(format)) throw new Error(`unexpected format ${format}`);
    return await image.rotate().resize(LOGO_MAX_PX, LOGO_MAX_PX, { fit: 'inside', withoutEnlargement: true }).png({ compressionLevel: 9 }).toBuffer();
  } catch {
    throw logoError('This file could not be read as a PNG, JPEG or WebP image.');
  }
}

/** A logo's public file name: the profile's id and its content's hash (a new logo, a new name). */
export const logoFileName = (profileId: string, png: Buffer) => `${profileId}-${createHash('sha256').update(png).digest('hex').slice(0, 16)}.png`;

/** Decodes the upload and stores it re-encoded; replaces the previous logo (in one batch). */
export async function setLogo({ ctx, access, id, contentType, body }: { ctx: AppContext; access: ConsultantAccess; id: string; contentType: string; body: Buffer }) {
  const row = await ownedProfile(ctx, access, id);
  const png = await reencodeLogo(contentType, body);
  const file = logoFileName(row.id, png);
  await ctx.db.batch([
    ctx.db.insert(brandingLogos).values({ file, profileId: row.id, png }).onConflictDoNothing(),
    ctx.db.delete(brandingLogos).where(and(eq(brandingLogos.profileId, row.id), ne(brandingLogos.file, file))),
    ctx.db.update(brandingProfiles).set({ logoUrl: `${ctx.env.PUBLIC_BASE_URL}${LOGO_PATH}${file}`, updatedAt: new Date() }).where(eq(brandingProfiles.id, id)),
  ]);
  return getProfile({ ctx, access, id });
}

export async function removeLogo({ ctx, access, id }: { ctx: AppContext; access: ConsultantAccess; id: string }) {
  const row = await ownedProfile(ctx, access, id);
  await ctx.db.batch([
    ctx.db.update(brandingProfiles).set({ logoUrl: null, updatedAt: new Date() }).where(eq(brandingProfiles.id, id)),
    ctx.db.delete(brandingLogos).where(eq(brandingLogos.profileId, row.id)),
  ]);
  return getProfile({ ctx, access, id });
}

/** A stored logo by its public file name, or null. */
export async function readLogo(ctx: AppContext, file: string): Promise<Buffer | null> {
  if (!LOGO_FILE.test(file)) return null;
  const [row] = await ctx.db.select({ png: brandingLogos.png }).from(brandingLogos).where(eq(brandingLogos.file, file));
  return row ? Buffer.from(row.png) : null;
}

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
