import { Hono } from 'hono';
import { reportRequestSchema } from '../../common/schemas/report-request.ts';
import type { AppContext } from '../context.ts';
import { clientIp, userAgent } from '../lib/client-info.ts';
import { validate } from '../lib/validate.ts';
import { submitReportRequest } from '../services/report-requests.ts';
import { freeReportWaitsUntil } from '../report/budget.ts';

export function reportRequestRoutes(ctx: AppContext) {
  return new Hono().post('/submit-request', validate('json', reportRequestSchema), async (c) => {
    const headers = c.req.raw.headers;
    // Only a request carrying a cookie can be signed in; skip the session lookup otherwise.
    const session = headers.get('cookie') ? await ctx.auth.api.getSession({ headers }) : null;
    const result = await submitReportRequest({
      ctx,
      input: c.req.valid('json'),
      requester: { ip: clientIp(c, ctx.env.TRUST_PROXY), userAgent: userAgent(c), userId: session?.user.id ?? null },
    });
    c.header('Cache-Control', 'no-store');
    // Past the day's provider budget the report is kept and made the next day: the visitor is told
    // when, on the thank-you screen (decision 0271).
    const waitsUntil = await freeReportWaitsUntil(ctx);
    return c.json({ requestId: result.requestId, status: 'queued', ...(waitsUntil ? { waitsUntil: waitsUntil.toISOString() } : {}) }, 202);
  });
}
