// A report's files (the PDF and the score card) under DATA_DIR/files/reports/{id}/. They are a
// cache of the analysis stored in the report row: a process that lacks them (a web server on
// another machine than the worker that rendered them, or a lost disk) renders them again from it.
// A cached copy is only ever read for a report row just loaded from the database, and only while
// that row still names the consultant and branding profile the files were rendered for (the
// folder's `brand` stamp): when an erasure deletes the row, or the brand the files show, every
// process stops serving its copy at once, and its sweep (./sweep.ts) removes it. Decision 0208.
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../../context.ts';
import type { RenderResult } from '../render/renderer.ts';

export const reportFilesRoot = (ctx: AppContext) => join(ctx.env.DATA_DIR, 'files', 'reports');

export function reportFiles(ctx: AppContext, reportId: string) {
  const dir = join(reportFilesRoot(ctx), reportId);
  return { dir, pdf: join(dir, 'report.pdf'), png: join(dir, 'score-card.png'), brand: join(dir, 'brand') };
}

export type BrandRefs = { consultantId: string | null; brandingProfileId: string | null };

/** What a report's files were rendered for: a hash of its row's consultant and branding profile
 *  (a hash, so the stamp names neither). Erasing either changes it (the schema sets them null). */
export const brandStamp = (report: BrandRefs) => createHash('sha256').update(`${report.consultantId ?? ''}|${report.brandingProfileId ?? ''}`).digest('hex').slice(0, 16);

const missing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Writes a file so that a reader never sees half of it (another process may be writing it too);
 *  the folder is made again when a sweep removed it meanwhile. */
function put(dir: string, path: string, data: Uint8Array | string) {
  for (let attempt = 0; ; attempt++) {
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    try {
      mkdirSync(dir, { recursive: true });
      writeFileSync(tmp, data);
      renameSync(tmp, path);
      return;
    } catch (error) {
      if (!missing(error) || attempt > 0) throw error;
    }
  }
}

/** Writes both files, then the stamp of the brand they show: a folder is served only once the
 *  stamp matches its report row. */
export function writeReportFiles(ctx: AppContext, report: BrandRefs & { id: string }, rendered: Pick<RenderResult, 'png' | 'pdf'>) {
  const files = reportFiles(ctx, report.id);
  put(files.dir, files.png, rendered.png);
  put(files.dir, files.pdf, rendered.pdf);
  put(files.dir, files.brand, brandStamp(report));
}

/** The report's cached file, when this process has one rendered for the brand its row names now. */
export async function readCachedReportFile(ctx: AppContext, report: BrandRefs & { id: string }, kind: 'pdf' | 'png'): Promise<Buffer | null> {
  const files = reportFiles(ctx, report.id);
  try {
    if ((await readFile(files.brand, 'utf8')) !== brandStamp(report)) return null;
    return await readFile(files[kind]);
  } catch (error) {
    if (missing(error)) return null;
    throw error;
  }
}
