import { Hono } from 'hono';
import { reportRequestSchema } from '../../common/schemas/report-request.ts';
import type { AppContext } from '../context.ts';
import { clientIp, userAgent } from '../lib/client-info.ts';
import { validate } from '../lib/validate.ts';
import { submitReportRequest } from '../services/report-requests.ts';

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
    return c.json({ requestId: result.requestId, status: 'queued' }, 202);
  });
}
