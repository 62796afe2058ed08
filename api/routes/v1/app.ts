// The public API, /api/v1 (issue 16). Every route is defined once with its zod schemas
// (@hono/zod-openapi), and the OpenAPI 3.1 document at /api/v1/openapi.json is generated from
// those definitions, so it cannot drift from the code. Each request: the key (401), the owner's
// plan (403 plan_required), the key's rate limit (429, with the IETF RateLimit headers on every
// answer), the route's scope (403), then the input (400) and the object's owner (404).
import { OpenAPIHono } from '@hono/zod-openapi';
import { OPERATOR } from '../../../common/constants.ts';
import type { AppContext } from '../../context.ts';
import { WEBHOOK_EVENTS } from '../../../common/schemas/webhooks.ts';
import { invalidInput } from '../../lib/validate.ts';
import { meterApiCall, verifyApiKey } from '../../services/api-keys.ts';
import type { WebhookFetchOptions } from '../../services/webhooks/delivery.ts';
import type { z } from '../../../common/zod.ts';
import { alertRoutes } from './alerts.ts';
import { reviewRoutes } from './reviews.ts';
import { businessRoutes } from './businesses.ts';
import { clientRoutes } from './clients.ts';
import { reportRoutes } from './reports.ts';
import { webhookRoutes } from './webhooks.ts';
import { withRefusals, type V1Env } from './common.ts';
import { webhookDefinitions } from '../../services/webhooks/events.ts';

export const OPENAPI_PATH = '/openapi.json';
export const API_VERSION = '1.0.0';

export const API_DESCRIPTION = `The LocalRank API: request reports, read your businesses, their competitors, metrics and
history, Early Warning alerts and (agencies) clients, and receive signed webhooks.

Authenticate with an API key from **Account → API keys**: \`Authorization: Bearer lr_live_…\`. A key acts as
its owner, limited to its scopes, while the owner's plan (Enterprise or Agency) includes the API.

Errors are [RFC 9457](https://www.rfc-editor.org/rfc/rfc9457) problem details (\`application/problem+json\`)
with our \`code\`. Every answer carries the IETF \`RateLimit-Policy\` and \`RateLimit\` headers; a 429 adds
\`Retry-After\`.`;

export function v1Routes(ctx: AppContext, webhookUrls?: WebhookFetchOptions) {
  const app = new OpenAPIHono<V1Env>({
    defaultHook: (result) => {
      if (!result.success) throw invalidInput(result.error as unknown as z.ZodError);
    },
  });

  app.use('*', async (c, next) => {
    if (c.req.path.endsWith(OPENAPI_PATH)) return next();
    const caller = await verifyApiKey(ctx, c.req.header('authorization'));
    const meter = await meterApiCall(ctx, caller);
    c.header('RateLimit-Policy', `"per-key";q=${meter.limit};w=${meter.windowSeconds}`);
    c.header('RateLimit', `"per-key";r=${meter.remaining};t=${meter.resetSeconds}`);
    if (meter.refusal) throw meter.refusal;
    c.set('caller', caller);
    await next();
  });

  app.openAPIRegistry.registerComponent('securitySchemes', 'apiKey', {
    type: 'http',
    scheme: 'bearer',
    description: 'An API key (`lr_live_…`) from Account → API keys.',
  });
  app.route('/', reportRoutes(ctx));
  app.route('/', businessRoutes(ctx));
  app.route('/', alertRoutes(ctx));
  app.route('/', reviewRoutes(ctx));
  app.route('/', clientRoutes(ctx));
  app.route('/', webhookRoutes(ctx, webhookUrls));
  // Every status each operation can answer, from what the operation is (common.ts), and each
  // webhook event with the schema its deliveries are built with (services/webhooks/events.ts).
  for (const definition of app.openAPIRegistry.definitions) if (definition.type === 'route') withRefusals(definition.route);
  for (const webhook of webhookDefinitions()) app.openAPIRegistry.registerWebhook(webhook);

  app.doc31(OPENAPI_PATH, {
    openapi: '3.1.0',
    info: { title: 'LocalRank API', version: API_VERSION, description: API_DESCRIPTION, contact: { name: `${OPERATOR.legalName} support`, email: OPERATOR.supportEmail } },
    // Relative to the document's own address, so it is right on every host.
    servers: [{ url: '/api/v1' }],
    security: [{ apiKey: [] }],
    tags: [
      { name: 'Reports', description: 'Request a report and read it.' },
      { name: 'Businesses', description: 'Businesses with competitors, metrics and history.' },
      { name: 'Alerts', description: 'Early Warning alerts and the threshold.' },
      { name: 'Reviews', description: 'Every review of a connected Google Business Profile, answers posted to Google, and its daily calls, clicks and directions.' },
      { name: 'Webhooks', description: `Endpoints that receive ${WEBHOOK_EVENTS.map((e) => `\`${e}\``).join(', ')}, signed per Standard Webhooks.` },
      { name: 'Clients', description: 'A consultant\'s clients (Agency, or Enterprise consultants), with the screens\' rules.' },
    ],
  });
  return app;
}
