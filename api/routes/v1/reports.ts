// POST /api/v1/reports (the report form's fields; Idempotency-Key required) and
// GET /api/v1/reports/{reportId}. The pipeline is the form's (api/services/api-reports.ts).
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { reportRequestSchema } from '../../../common/schemas/report-request.ts';
import type { AppContext } from '../../context.ts';
import { clientIp, userAgent } from '../../lib/client-info.ts';
import { getReportViaApi, requestReportViaApi } from '../../services/api-reports.ts';
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_MESSAGES, withIdempotency } from '../../services/idempotency.ts';
import { describeFields, IDEMPOTENT_REPLAYED_HEADER, jsonContent, NO_STORE, pathId, problems, scope, unprocessable, type V1Env } from './common.ts';
import { reportAcceptedSchema, reportSchema } from './schemas.ts';

const REPORT_EXAMPLE = {
  fullName: 'Dana Whitfield',
  email: 'dana@whitfield-dental.com',
  company: 'Whitfield Dental',
  role: 'owner',
  website: 'https://whitfield-dental.com',
  address: '100 Congress Ave',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
};

// The report form's fields and, for consultants, the client the report is for. (A schema made with
// .extend is new, so it has .openapi: zod 4 gives a schema its methods when it is made, and the
// shared one may predate @hono/zod-openapi; the other routes clone theirs for the same reason.)
const apiReportRequestSchema = describeFields(reportRequestSchema, {
  fullName: 'Who the report is for (2 to 100 characters).',
  email: 'Where the report is e-mailed.',
  company: 'The business name.',
  role: "The requester's role at the business.",
  website: "The business's website address (http:// or https://).",
  address: 'Street address of the business.',
  city: 'City.',
  state: 'Two-letter US state code.',
  zip: 'ZIP code (5 digits, or ZIP+4).',
  consent: 'Whether the requester agrees to occasional marketing e-mail; the report is sent either way.',
}).extend({
  clientId: z
    .string()
    .uuid('Must be the id of one of your clients')
    .optional()
    .openapi({ description: "Consultants: one of your clients' ids (GET /clients). The report is then that client's: made for your account, in the client's branding profile (white-label on the Agency plan) and listed with the client's reports. Another account's client answers 404." }),
});

const create = createRoute({
  method: 'post',
  path: '/reports',
  operationId: 'createReport',
  tags: ['Reports'],
  summary: 'Request a report',
  description:
    'The report form\'s fields. The report is made in the background: poll GET /reports/{reportId} or receive the `report.completed` webhook. ' +
    'The same Idempotency-Key with the same body answers the first answer again (`Idempotent-Replayed: true`); with another body, 422; while the first is still being taken, 409.',
  middleware: [scope('reports:write')] as const,
  request: {
    headers: z.object({
      'idempotency-key': z
        .string({ error: IDEMPOTENCY_MESSAGES.required })
        .min(1, IDEMPOTENCY_MESSAGES.required)
        .max(IDEMPOTENCY_KEY_MAX)
        .regex(/^[\x21-\x7e]+$/, 'Visible ASCII characters only')
        .openapi({ description: 'Any unique string (a UUID), up to 255 characters.', example: '6f1c1c1e-8a55-4c32-9a1c-1f2f8d1b7e10' }),
    }),
    body: { required: true, content: { 'application/json': { schema: apiReportRequestSchema.openapi('ReportRequest', { example: REPORT_EXAMPLE }) } } },
  },
  responses: { 202: jsonContent(reportAcceptedSchema, 'Accepted: the report is being made.', IDEMPOTENT_REPLAYED_HEADER), ...problems(400, 403, 404, 409, 422) },
});

const read = createRoute({
  method: 'get',
  path: '/reports/{reportId}',
  operationId: 'getReport',
  tags: ['Reports'],
  summary: 'Get a report',
  description: 'Its status and, once completed, the scores, rank, competitors, recommendations and links to the PDF and the online report.',
  middleware: [scope('reports:read')] as const,
  request: { params: pathId('reportId', 'The id POST /reports answered.') },
  responses: { 200: jsonContent(reportSchema, 'The report.'), ...problems(404) },
});

export function reportRoutes(ctx: AppContext) {
  return new OpenAPIHono<V1Env>()
    .openapi(create, async (c) => {
      const input = c.req.valid('json');
      const userId = c.get('caller').userId;
      const answer = await withIdempotency({
        ctx,
        userId,
        key: c.req.valid('header')['idempotency-key'],
        request: ['POST /reports', input],
        run: async () => ({ status: 202, body: await unprocessable(requestReportViaApi({ ctx, userId, input, ip: clientIp(c, ctx.env.TRUST_PROXY), userAgent: userAgent(c) })) }),
      });
      if (answer.replayed) c.header('Idempotent-Replayed', 'true');
      return c.json(answer.body, 202, NO_STORE);
    })
    .openapi(read, async (c) => c.json(await getReportViaApi({ ctx, userId: c.get('caller').userId, reportId: c.req.valid('param').reportId }), 200, NO_STORE));
}
