// The widget SDK's routes (issue 15). The agency's side (/api/widget/keys, converting a lead)
// needs a signed-in consultant on the Agency plan; its leads are its data, readable and exported
// in every plan state (decision 0171). The public side (/api/widget/v1/{key}/…) is
// called by the widget from other sites: CORS admits exactly the key's allowed hostnames, never
// with credentials (decision 0116).
import { Hono } from 'hono';
import { widgetKeySchema, widgetLeadSchema } from '../../common/schemas/widget.ts';
import { WIDGET_NOT_ENABLED, WIDGET_SANDBOXED, widgetRefusalHint } from '../../common/widget.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { clientIp, userAgent } from '../lib/client-info.ts';
import { validate } from '../lib/validate.ts';
import { requireConsultant } from '../services/plans/consultant-access.ts';
import {
  captureLead,
  convertLead,
  createKey,
  keyForOrigin,
  leadsCsv,
  leadStatus,
  listKeys,
  listLeads,
  ownedKey,
  publishedScoreCard,
  revokeKey,
  rotateKey,
  scoreCardPreview,
  updateKey,
  widgetConfig,
  type WidgetKeyRow,
} from '../services/widget.ts';

const NO_STORE = { 'Cache-Control': 'private, no-store' };
/** How long a browser may keep a preflight's answer. */
const PREFLIGHT_MAX_AGE = 600;

/** The widget's calls from other sites, authorised by their publishable key and Origin. */
export const WIDGET_PUBLIC_PREFIX = '/api/widget/v1/';

export function widgetRoutes(ctx: AppContext) {
  const access = (c: { req: { raw: Request } }) => requireConsultant(ctx, c.req.raw.headers, 'widget');
  const account = (c: { req: { raw: Request } }) => requireConsultant(ctx, c.req.raw.headers, null);
  const agency = new Hono()
    .get('/widget/keys', async (c) => c.json({ keys: await listKeys({ ctx, access: await access(c) }) }, 200, NO_STORE))
    .post('/widget/keys', async (c, next) => (await access(c), next()), validate('json', widgetKeySchema), async (c) =>
      c.json(await createKey({ ctx, access: await access(c), input: c.req.valid('json') }), 201, NO_STORE),
    )
    // The key is checked before the body: a stranger learns nothing from a 400.
    .put('/widget/keys/:keyId', async (c, next) => (await ownedKey(ctx, await access(c), c.req.param('keyId')), next()), validate('json', widgetKeySchema), async (c) =>
      c.json(await updateKey({ ctx, access: await access(c), id: c.req.param('keyId'), input: c.req.valid('json') }), 200, NO_STORE),
    )
    .post('/widget/keys/:keyId/rotate', async (c) => c.json(await rotateKey({ ctx, access: await access(c), id: c.req.param('keyId') }), 200, NO_STORE))
    // The live preview's score card: the one the key's widget publishes, read by the agency.
    .get('/widget/keys/:keyId/score-card', async (c) => c.json(await scoreCardPreview({ ctx, access: await access(c), id: c.req.param('keyId') }), 200, NO_STORE))
    .post('/widget/keys/:keyId/revoke', async (c) => c.json(await revokeKey({ ctx, access: await access(c), id: c.req.param('keyId') }), 200, NO_STORE))
    .get('/widget/leads', async (c) => c.json({ leads: await listLeads({ ctx, access: await account(c) }) }, 200, NO_STORE))
    .get('/widget/leads.csv', async (c) => {
      const csv = await leadsCsv({ ctx, access: await account(c) });
      return c.body(csv, 200, { ...NO_STORE, 'Content-Type': 'text/csv; charset=utf-8', 'Content-Disposition': 'attachment; filename="widget-leads.csv"' });
    })
    .post('/widget/leads/:leadId/convert', async (c) => c.json(await convertLead({ ctx, access: await access(c), leadId: c.req.param('leadId') }), 201, NO_STORE));

  const visitor = new Hono<{ Variables: { widgetKey: WidgetKeyRow; origin: string } }>();
  visitor.use('/widget/v1/:publishableKey/*', async (c, next) => {
    const origin = c.req.header('origin');
    let key: WidgetKeyRow;
    try {
      key = await keyForOrigin(ctx, c.req.param('publishableKey')!, origin);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      c.header('Vary', 'Origin');
      c.header('Cache-Control', 'no-store');
      // A refused preflight has no CORS headers: the browser sends nothing more. Other refusals
      // are readable by the widget, a sandboxed frame's (Origin: null) too, so it can say why to
      // the visitor and what to change to the site owner (issue 40); they carry nothing else.
      if (c.req.method !== 'OPTIONS' && origin) c.header('Access-Control-Allow-Origin', origin);
      const sandboxed = origin === 'null';
      return c.json({ code: sandboxed ? 'sandboxed' : 'forbidden', message: sandboxed ? WIDGET_SANDBOXED : WIDGET_NOT_ENABLED, hint: widgetRefusalHint(origin) }, 403);
    }
    c.header('Access-Control-Allow-Origin', origin!);
    c.header('Vary', 'Origin');
    if (c.req.method === 'OPTIONS') {
      c.header('Access-Control-Allow-Methods', 'GET, POST');
      c.header('Access-Control-Allow-Headers', 'Content-Type');
      c.header('Access-Control-Max-Age', String(PREFLIGHT_MAX_AGE));
      return c.body(null, 204);
    }
    c.set('widgetKey', key);
    c.set('origin', origin!);
    await next();
    c.header('Cache-Control', 'no-store');
  });
  visitor
    .get('/widget/v1/:publishableKey/config', async (c) => c.json(await widgetConfig(ctx, c.get('widgetKey'))))
    .post('/widget/v1/:publishableKey/leads', validate('json', widgetLeadSchema), async (c) => {
      const lead = await captureLead({
        ctx,
        key: c.get('widgetKey'),
        origin: c.get('origin'),
        input: c.req.valid('json'),
        requester: { ip: clientIp(c, ctx.env.TRUST_PROXY), userAgent: userAgent(c), userId: null },
      });
      return c.json(lead, 202);
    })
    .get('/widget/v1/:publishableKey/leads/:leadId', async (c) => c.json(await leadStatus(ctx, c.get('widgetKey'), c.req.param('leadId'))))
    .get('/widget/v1/:publishableKey/score-card', async (c) => c.json(await publishedScoreCard(ctx, c.get('widgetKey'))));

  return new Hono().route('/', agency).route('/', visitor);
}
