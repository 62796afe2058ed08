// The signed report link's API: its files, saving it to an account, one-click unsubscribe.
import { Hono } from 'hono';
import type { AppContext } from '../context.ts';
import { pdfFileName } from '../email/report-email.ts';
import { notFound, unauthenticated } from '../errors.ts';
import { readOrRenderReportFile } from '../report/files/render.ts';
import { renderLane } from '../report/render/render-lane.ts';
import type { ReportData } from '../report/model/types.ts';
import { getViewer } from '../services/accounts.ts';
import { reportBranding } from '../services/branding/sender.ts';
import { requireValidReport, type ReportRow, saveReportToAccount, unsubscribeByReportToken } from '../services/reports.ts';

export function reportRoutes(ctx: AppContext) {
  // A file this process lacks is rendered again from the stored analysis in the process's render
  // lane (the worker's threads, else one of its own), so the event loop keeps serving and no
  // further thread holds its own copy of the modules and fonts.
  const file = async (report: ReportRow, kind: 'pdf' | 'png') => {
    const found = await readOrRenderReportFile(ctx, report, kind, renderLane);
    if (!found) throw notFound('The report file is not ready yet.');
    return found;
  };
  return new Hono()
    .get('/reports/:token/report.pdf', async (c) => {
      const { report, business } = await requireValidReport(ctx, c.req.param('token'));
      const pdf = await file(report, 'pdf');
      const whiteLabel = (await reportBranding(ctx, report)) !== null;
      return c.body(new Uint8Array(pdf), 200, {
        'Content-Type': 'application/pdf',
        'Content-Disposition': `inline; filename="${pdfFileName(business.company, Boolean((report.data as ReportData | null)?.sampleData), whiteLabel)}"`,
        'Cache-Control': 'private, no-store',
        'X-Robots-Tag': 'noindex',
      });
    })
    .get('/reports/:token/score-card.png', async (c) => {
      const { report } = await requireValidReport(ctx, c.req.param('token'));
      const png = await file(report, 'png');
      return c.body(new Uint8Array(png), 200, { 'Content-Type': 'image/png', 'Cache-Control': 'private, max-age=3600', 'X-Robots-Tag': 'noindex' });
    })
    .post('/reports/:token/save', async (c) => {
      const viewer = await getViewer({ ctx, headers: c.req.raw.headers });
      if (!viewer) throw unauthenticated('Sign in to save this report to your account.');
      const result = await saveReportToAccount({ ctx, token: c.req.param('token'), userId: viewer.user.id });
      return c.json(result);
    })
    // RFC 8058 one-click: mail clients POST `List-Unsubscribe=One-Click` to the header's URL.
    .post('/unsubscribe', async (c) => {
      const token = c.req.query('token') ?? '';
      await unsubscribeByReportToken({ ctx, token });
      return c.json({ ok: true });
    });
}
