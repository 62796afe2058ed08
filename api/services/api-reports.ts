// Reports over the public API (issue 16): requested through the report form's own pipeline
// (submitReportRequest: the same validation, de-duplication and job), read back by the request's
// id with its status, scores, rank, competitors, recommendations and links. Only the requesting
// account reads it; another account's id answers 404.
import { isMarket } from '../../common/constants.ts';
import type { ReportRequest } from '../../common/schemas/report-request.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { reportPdfUrl } from '../report/render/links.ts';
import { reportUrl } from '../report/render/links.ts';
import { marketSize, rankValue } from '../report/words/labels.ts';
import { websiteStatus } from '../report/words/website-state.ts';
import type { AnalysedPlace, ReportData } from '../report/model/types.ts';
import { and, eq } from 'drizzle-orm';
import { clients } from '../../db/schema/consultants.ts';
import { consultantAccessFor } from './plans/consultant-access.ts';
import { submitReportRequest, type AgencyRequest } from './report-requests.ts';

export const REPORT_STATUSES = ['queued', 'processing', 'completed', 'failed'] as const;
export type ReportStatus = (typeof REPORT_STATUSES)[number];

/** report_requests.status as the API names it ('sent' is the form's word for done). */
export const apiStatus = (status: string): ReportStatus => (status === 'sent' ? 'completed' : status === 'processing' || status === 'failed' ? status : 'queued');

export const reportNotFoundForApi = () => new AppError('not_found', 'Report not found');

/**
 * With `clientId` (a consultant's own client; client management's plan rule), the report is the
 * client's: made for the consultant, in the client's branding profile (white-label where the plan
 * has it), and listed among the client's reports. Another consultant's client answers 404.
 */
export async function requestReportViaApi({ ctx, userId, input, ip, userAgent }: { ctx: AppContext; userId: string; input: ReportRequest & { clientId?: string }; ip: string; userAgent: string | null }) {
  const { clientId, ...form } = input;
  let agency: AgencyRequest | undefined;
  if (clientId) {
    const { consultant } = await consultantAccessFor(ctx, userId, 'clientManagement');
    const client = await ctx.db.query.clients.findFirst({ where: and(eq(clients.id, clientId), eq(clients.consultantId, consultant.id)) });
    if (!client) throw new AppError('not_found', 'Client not found');
    agency = { consultantId: consultant.id, brandingProfileId: client.brandingProfileId, clientId: client.id };
  }
  const { requestId } = await submitReportRequest({ ctx, input: form, requester: { ip, userAgent, userId, viaApiKey: true }, agency });
  const [row] = await ctx.db.$read('SELECT status FROM report_requests WHERE id = ?1', [requestId]);
  return { id: requestId, status: apiStatus(String(row?.status ?? 'queued')) };
}

const REPORT_SQL = `
SELECT rr.id, rr.status, rr.created_at, rr.business_id, b.company, r.data, r.token, r.created_at AS completed_at
FROM report_requests rr JOIN businesses b ON b.id = rr.business_id LEFT JOIN reports r ON r.request_id = rr.id
WHERE rr.id = ?1 AND rr.user_id = ?2`;

/** How the place's website was met (decisions 0217, 0230), in the report's own words; null
 *  without a website, or on a report made before the state was kept. */
export const websiteMet = (p: AnalysedPlace, data: ReportData) =>
  p.website ? { state: p.website.state, label: websiteStatus(p, data), detail: p.website.detail, ...(p.website.via ? { forwardedTo: p.website.via.to } : {}) } : null;

const place = (p: AnalysedPlace, data: ReportData) => ({
  name: p.place.name,
  address: p.place.address,
  website: p.place.website,
  websiteMet: websiteMet(p, data),
  rating: p.place.rating,
  reviewCount: p.place.reviewCount,
  distanceMiles: p.place.distanceMiles,
  scores: p.scores,
  rank: rankValue(p, data),
  yourBrand: Boolean(p.brand),
});

export async function getReportViaApi({ ctx, userId, reportId }: { ctx: AppContext; userId: string; reportId: string }) {
  const [row] = await ctx.db.$read(REPORT_SQL, [reportId, userId]);
  if (!row) throw reportNotFoundForApi();
  const status = apiStatus(String(row.status));
  const data = typeof row.data === 'string' ? (JSON.parse(row.data) as ReportData) : null;
  const token = typeof row.token === 'string' ? row.token : null;
  return {
    id: String(row.id),
    status,
    createdAt: new Date(Number(row.created_at)).toISOString(),
    business: { id: String(row.business_id), company: String(row.company) },
    result:
      data && status === 'completed'
        ? {
            generatedAt: data.generatedAt,
            sampleData: data.sampleData,
            category: data.category,
            scores: data.business.scores,
            websiteMet: websiteMet(data.business, data),
            // No rank without a market (decision 0216).
            rank: rankValue(data.business, data),
            rankOf: isMarket(data.competitors.length) ? marketSize(data) : null,
            branches: data.branches ? { count: data.branches.count, countedInRank: data.branches.counted } : null,
            competitors: data.competitors.map((c) => place(c, data)),
            recommendations: data.recommendations.map((r) => ({ title: r.title, detail: r.detail, score: r.score, gain: r.gain })),
            notes: data.notes,
            links: { pdf: token ? reportPdfUrl(ctx, token) : null, online: token ? reportUrl(ctx, token) : null },
          }
        : null,
  };
}
