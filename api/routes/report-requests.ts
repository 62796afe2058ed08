import { Hono } from 'hono';
import { reportRequestSchema } from '../../common/schemas/report-request.ts';
import { z } from '../../common/zod.ts';
import type { AppContext } from '../context.ts';
import { clientIp, userAgent } from '../lib/client-info.ts';
import { validate } from '../lib/validate.ts';
import { countFreeReport, powReason, powRefusal, spendSolution } from '../services/proof-of-work.ts';
import { submitReportRequest } from '../services/report-requests.ts';
import { freeReportWaitsUntil } from '../report/budget.ts';

/** The form's request: the report request, and the solved challenge when one was asked for (decision 0350). */
const formSchema = reportRequestSchema.extend({ altcha: z.string().max(10_000).optional() });

export function reportRequestRoutes(ctx: AppContext) {
  return new Hono().post('/submit-request', validate('json', formSchema), async (c) => {
    const headers = c.req.raw.headers;
    c.header('Cache-Control', 'no-store');
    const { altcha, ...input } = c.req.valid('json');
    const sender = { ip: clientIp(c, ctx.env.TRUST_PROXY), email: input.email };
    // Past the free thresholds (or near the day's budget) the form pays with a proof of work.
    if (await powReason(ctx, sender)) {
      const refused = await spendSolution(ctx, altcha);
      if (refused) return c.json(await powRefusal(ctx, refused), 400);
    }
    // Only a request carrying a cookie can be signed in; skip the session lookup otherwise.
    const session = headers.get('cookie') ? await ctx.auth.api.getSession({ headers }) : null;
    const result = await submitReportRequest({
      ctx,
      input,
      requester: { ip: sender.ip, userAgent: userAgent(c), userId: session?.user.id ?? null },
    });
    if (!result.duplicate) await countFreeReport(ctx, sender);
    // Past the day's provider budget the report is kept and made the next day: the visitor is told
    // when, on the thank-you screen (decision 0271).
    const waitsUntil = await freeReportWaitsUntil(ctx);
    return c.json({ requestId: result.requestId, status: 'queued', ...(waitsUntil ? { waitsUntil: waitsUntil.toISOString() } : {}) }, 202);
  });
}
