// A branding profile's logo. An upload (PNG, JPEG or WebP, at most LOGO_MAX_BYTES) is decoded and
// re-encoded on the server as a PNG of at most LOGO_MAX_PX a side, so nothing the agency uploaded is
// ever served as such (no SVG, no metadata, no polyglot file). Logos are public by their unguessable
// file name: they appear in e-mails and on the online report. They live in the database
// (branding_logos, decision 0208): every process serves and renders them, and they go with their
// profile.
import { createHash } from 'node:crypto';
import { and, eq, ne } from 'drizzle-orm';
import sharp from 'sharp';
import { LOGO_MAX_BYTES, LOGO_TYPES } from '../../../common/schemas/branding.ts';
import { brandingProfiles } from '../../../db/schema/consultants.ts';
import { brandingLogos } from '../../../db/schema/files.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import type { ConsultantAccess } from '../plans/consultant-access.ts';
import { getProfile, ownedProfile } from './profiles.ts';

export const LOGO_MAX_PX = 600;
export const LOGO_PATH = '/api/branding/logos/';
export const LOGO_FILE = /^[0-9a-f-]{36}-[0-9a-f]{16}\.png$/;

export const logoFileOf = (url: string | null) => (url ? url.slice(url.lastIndexOf('/') + 1) : null);

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
export async function setLogo(ctx: AppContext, { access, id, contentType, body }: { access: ConsultantAccess; id: string; contentType: string; body: Buffer }) {
  const row = await ownedProfile(ctx, access, id);
  const png = await reencodeLogo(contentType, body);
  const file = logoFileName(row.id, png);
  await ctx.db.batch([
    ctx.db.insert(brandingLogos).values({ file, profileId: row.id, png }).onConflictDoNothing(),
    ctx.db.delete(brandingLogos).where(and(eq(brandingLogos.profileId, row.id), ne(brandingLogos.file, file))),
    ctx.db.update(brandingProfiles).set({ logoUrl: `${ctx.env.PUBLIC_BASE_URL}${LOGO_PATH}${file}`, updatedAt: new Date() }).where(eq(brandingProfiles.id, id)),
  ]);
  return getProfile(ctx, access, id);
}

export async function removeLogo(ctx: AppContext, access: ConsultantAccess, id: string) {
  const row = await ownedProfile(ctx, access, id);
  await ctx.db.batch([
    ctx.db.update(brandingProfiles).set({ logoUrl: null, updatedAt: new Date() }).where(eq(brandingProfiles.id, id)),
    ctx.db.delete(brandingLogos).where(eq(brandingLogos.profileId, row.id)),
  ]);
  return getProfile(ctx, access, id);
}

/** A stored logo by its public file name, or null. */
export async function readLogo(ctx: AppContext, file: string): Promise<Buffer | null> {
  if (!LOGO_FILE.test(file)) return null;
  const [row] = await ctx.db.select({ png: brandingLogos.png }).from(brandingLogos).where(eq(brandingLogos.file, file));
  return row ? Buffer.from(row.png) : null;
}
