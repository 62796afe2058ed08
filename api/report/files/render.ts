// A report's files rendered from its stored analysis, in the branding its row resolves to now; the
// files themselves are kept by ./store.ts (decision 0208).
import type { AppContext } from '../../context.ts';
import { reportBranding } from '../../services/branding/sender.ts';
import { aiAnswersForReport } from '../../services/ai-visibility/for-report.ts';
import { readCachedReportFile, writeReportFiles, type BrandRefs } from './store.ts';
import type { ReportData } from '../model/types.ts';
import { reportLinks } from '../render/links.ts';
import type { Renderer } from '../render/renderer.ts';

type Renderable = BrandRefs & { id: string; data: unknown };

/** Renders a report's files from its stored analysis, in the branding its row resolves to
 *  (reportBranding): every job and the on-demand render go through here. */
export async function renderReport(ctx: AppContext, renderer: Renderer, report: Renderable & { data: NonNullable<unknown> }) {
  // AI answers are scanned after the analysis: the latest scans go in whenever the report is drawn.
  const [row] = await ctx.db.$read('SELECT business_id FROM reports WHERE id = ?1', [report.id]);
  const aiAnswers = row ? await aiAnswersForReport(ctx, String(row.business_id)) : null;
  return renderer.render({ ...(report.data as ReportData), aiAnswers }, reportLinks(ctx), await reportBranding(ctx, report));
}

/**
 * One of the report's files: the cached one (readCachedReportFile), else rendered from the stored
 * analysis (and kept). Null when the report has no analysis yet. `report` is a row the caller has
 * just read from the database.
 */
export async function readOrRenderReportFile(
  ctx: AppContext,
  report: Renderable,
  kind: 'pdf' | 'png',
  renderer: () => Renderer,
): Promise<Buffer | null> {
  const cached = await readCachedReportFile(ctx, report, kind);
  if (cached) return cached;
  if (!report.data) return null;
  const rendered = await renderReport(ctx, renderer(), { ...report, data: report.data });
  writeReportFiles(ctx, report, rendered);
  ctx.log.info('report files rendered on demand', { reportId: report.id });
  return rendered[kind];
}
