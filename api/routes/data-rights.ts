// Your data: the account's export (request, state, the e-mailed download link) and deleting the
// account. Thin: the services are in api/services/data-rights/.
import { Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import { deleteAccountSchema } from '../../common/schemas/data-rights.ts';
import type { AppContext } from '../context.ts';
import { unauthenticated } from '../errors.ts';
import { clearSessionHint } from '../lib/session-hint.ts';
import { validate } from '../lib/validate.ts';
import { getViewer } from '../services/accounts.ts';
import { ACCOUNT_GRACE_DAYS, closeAccount } from '../services/data-rights/account-closure.ts';
import { EXPORT_LINK_DAYS, latestExport, readExport, requestExport } from '../services/data-rights/export.ts';

export function dataRightsRoutes(ctx: AppContext) {
  // Signed-out callers get 401 before their body is looked at.
  const signedIn = createMiddleware<{ Variables: { userId: string } }>(async (c, next) => {
    const viewer = await getViewer({ ctx, headers: c.req.raw.headers });
    if (!viewer) throw unauthenticated();
    c.set('userId', viewer.user.id);
    await next();
  });
  return new Hono()
    .get('/account/data', signedIn, async (c) => {
      c.header('Cache-Control', 'no-store');
      const latest = await latestExport(ctx, c.get('userId'));
      const exportAllowed = !latest || new Date(latest.nextAllowedAt).getTime() <= Date.now();
      return c.json({ latestExport: latest, exportAllowed, exportLinkDays: EXPORT_LINK_DAYS, graceDays: ACCOUNT_GRACE_DAYS });
    })
    .post('/account/data/export', signedIn, async (c) => {
      await requestExport(ctx, c.get('userId'));
      return c.json({ ok: true, message: `We are preparing your export. We will e-mail you a download link (valid ${EXPORT_LINK_DAYS} days) when it is ready.` }, 202);
    })
    .post('/account/delete', signedIn, validate('json', deleteAccountSchema), async (c) => {
      const { purgeAfter } = await closeAccount({ ctx, userId: c.get('userId'), input: c.req.valid('json') });
      c.header('Set-Cookie', clearSessionHint(ctx.env));
      return c.json({ ok: true, purgeAfter: purgeAfter.toISOString() });
    })
    .get('/data-exports/download', async (c) => {
      const { body, bytes, fileName } = await readExport(ctx, c.req.query('token') ?? '');
      return c.body(body, 200, {
        'Content-Type': 'application/zip',
        'Content-Length': String(bytes),
        'Content-Disposition': `attachment; filename="${fileName}"`,
        'Cache-Control': 'private, no-store',
        'X-Robots-Tag': 'noindex',
      });
    });
}
