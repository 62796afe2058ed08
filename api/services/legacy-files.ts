// Before decision 0208 logos and export archives were files under DATA_DIR/files/branding and
// DATA_DIR/files/exports. A migration cannot read files, so each process that migrates the
// database (every start) moves what its own DATA_DIR still holds into the database, then removes
// the file: an upgraded install loses no logo, and on several machines each one brings its own.
// - A logo is moved when a branding profile's logo_url names it. Any other file is left where it
//   is, and said so: it is the only copy of what an agency uploaded, and a process pointed at the
//   wrong database must not delete it.
// - An export is moved when it is ready and its link still valid; any other is removed (it is a
//   copy of data in the database, and its link no longer works).
// Nothing to do (one existsSync per folder) once the folders are gone.
import { existsSync, readdirSync, readFileSync, rmdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, gt, isNull } from 'drizzle-orm';
import { brandingProfiles } from '../../db/schema/consultants.ts';
import { dataExports } from '../../db/schema/data-rights.ts';
import { brandingLogos } from '../../db/schema/files.ts';
import type { AppContext } from '../context.ts';
import { LOGO_FILE, LOGO_PATH } from './branding/logos.ts';
import { storeArchive } from './data-rights/export-archive.ts';

export const legacyLogoDir = (ctx: AppContext) => join(ctx.env.DATA_DIR, 'files', 'branding');
export const legacyExportDir = (ctx: AppContext) => join(ctx.env.DATA_DIR, 'files', 'exports');

function removeIfEmpty(dir: string) {
  try {
    rmdirSync(dir);
  } catch {
    // not empty: what is left is said in the log
  }
}

async function moveLogos(ctx: AppContext): Promise<{ logos: number; left: string[] }> {
  const dir = legacyLogoDir(ctx);
  let logos = 0;
  const left: string[] = [];
  for (const file of readdirSync(dir)) {
    const profileId = file.slice(0, 36);
    const profile = LOGO_FILE.test(file)
      ? await ctx.db.query.brandingProfiles.findFirst({ where: eq(brandingProfiles.id, profileId), columns: { id: true, logoUrl: true } })
      : undefined;
    if (!profile?.logoUrl?.endsWith(`${LOGO_PATH}${file}`)) {
      left.push(file);
      continue;
    }
    await ctx.db.insert(brandingLogos).values({ file, profileId, png: readFileSync(join(dir, file)) }).onConflictDoNothing();
    rmSync(join(dir, file), { force: true });
    logos++;
  }
  removeIfEmpty(dir);
  return { logos, left };
}

async function moveExports(ctx: AppContext, now: Date): Promise<{ exports: number; removed: number }> {
  const dir = legacyExportDir(ctx);
  let exports = 0;
  let removed = 0;
  for (const file of readdirSync(dir)) {
    const id = file.endsWith('.zip') ? file.slice(0, -'.zip'.length) : null;
    const row = id
      ? await ctx.db.query.dataExports.findFirst({ where: and(eq(dataExports.id, id), eq(dataExports.status, 'ready'), isNull(dataExports.archive), gt(dataExports.expiresAt, now)) })
      : undefined;
    if (row?.readyAt && row.expiresAt) {
      await storeArchive(ctx, row.id, readFileSync(join(dir, file)), { readyAt: row.readyAt, expiresAt: row.expiresAt });
      exports++;
    } else {
      removed++;
    }
    rmSync(join(dir, file), { force: true });
  }
  removeIfEmpty(dir);
  return { exports, removed };
}

/** Moves this DATA_DIR's logo and export files into the database (see above). */
export async function moveLegacyFiles(ctx: AppContext, now = new Date()) {
  const logos = existsSync(legacyLogoDir(ctx)) ? await moveLogos(ctx) : { logos: 0, left: [] };
  const exports = existsSync(legacyExportDir(ctx)) ? await moveExports(ctx, now) : { exports: 0, removed: 0 };
  if (logos.logos || exports.exports || exports.removed) ctx.log.info('logo and export files moved into the database', { logos: logos.logos, exports: exports.exports, expiredExportsRemoved: exports.removed });
  if (logos.left.length) {
    ctx.log.warn('files under files/branding that no branding profile uses were left in place: logos of deleted profiles, unless this is the wrong database', { dir: legacyLogoDir(ctx), files: logos.left.length });
  }
  return { logos: logos.logos, logosLeft: logos.left.length, exports: exports.exports, exportsRemoved: exports.removed };
}
