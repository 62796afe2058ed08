// A report's files (the PDF and the score card) under DATA_DIR/files/reports/{id}/. They are a
// cache of the analysis stored in the report row: a process that lacks them (a web server on
// another machine than the worker that rendered them, or a lost disk) renders them again from it.
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { AppContext } from '../context.ts';
import { reportBranding } from '../services/branding-profiles.ts';
import { METHODOLOGY_PATH } from './render/labels.ts';
import type { ReportLinks } from './render/pdf.ts';
import type { RenderResult, Renderer } from './render/renderer.ts';
import type { ReportData } from './types.ts';

export function reportFiles(ctx: AppContext, reportId: string) {
  const dir = join(ctx.env.DATA_DIR, 'files', 'reports', reportId);
  return { dir, pdf: join(dir, 'report.pdf'), png: join(dir, 'score-card.png') };
}

export const reportPdfUrl = (ctx: AppContext, token: string) => `${ctx.env.PUBLIC_BASE_URL}/api/reports/${token}/report.pdf`;

/** The addresses a rendered report links to. */
export const reportLinks = (ctx: AppContext): ReportLinks => ({ methodologyUrl: `${ctx.env.PUBLIC_BASE_URL}${METHODOLOGY_PATH}` });

type Renderable = { id: string; data: unknown; consultantId: string | null; brandingProfileId: string | null };

/** Renders a report's files from its stored analysis, in the branding its row resolves to
 *  (reportBranding): every job and the on-demand render go through here. */
export async function renderReport(ctx: AppContext, renderer: Renderer, report: Renderable & { data: NonNullable<unknown> }) {
  return renderer.render(report.data as ReportData, reportLinks(ctx), await reportBranding(ctx, report));
}

/** Writes both files so that a reader never sees half of one (another process may be writing them too). */
export function writeReportFiles(ctx: AppContext, reportId: string, rendered: Pick<RenderResult, 'png' | 'pdf'>) {
  const files = reportFiles(ctx, reportId);
  mkdirSync(files.dir, { recursive: true });
  for (const [path, data] of [[files.png, rendered.png], [files.pdf, rendered.pdf]] as const) {
    const tmp = `${path}.${randomBytes(6).toString('hex')}.tmp`;
    writeFileSync(tmp, data);
    renameSync(tmp, path);
  }
}

/**
 * One of the report's files: read from disk, else rendered from the stored analysis (and kept).
 * Null when the report has no analysis yet.
 */
export async function readOrRenderReportFile(
  ctx: AppContext,
  report: Renderable,
  kind: 'pdf' | 'png',
  renderer: () => Renderer,
): Promise<Buffer | null> {
  try {
    return await readFile(reportFiles(ctx, report.id)[kind]);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (!report.data) return null;
  const rendered = await renderReport(ctx, renderer(), { ...report, data: report.data });
  writeReportFiles(ctx, report.id, rendered);
  ctx.log.info('report files rendered on demand', { reportId: report.id });
  return rendered[kind];
}
