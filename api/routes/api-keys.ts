// The /account screen's API keys (session cookie): list, create, roll, revoke; and the webhook
// endpoints (add, send a test event, remove) with their delivery logs and resend, through the same
// service as the API's /api/v1/webhooks. The service checks
// the plan and that each key id is the signed-in user's (another user's id answers 404).
import { eq } from 'drizzle-orm';
import { Hono } from 'hono';
import { createApiKeySchema, rollApiKeySchema, scopesFor } from '../../common/schemas/api-keys.ts';
import { users } from '../../db/schema/auth.ts';
import type { AppContext } from '../context.ts';
import { unauthenticated } from '../errors.ts';
import { validate } from '../lib/validate.ts';
import { createApiKey, listApiKeys, ownedKey, revokeApiKey, rollApiKey } from '../services/api-keys.ts';
import { createWebhookSchema } from '../../common/schemas/webhooks.ts';
import type { WebhookFetchOptions } from '../services/webhooks/delivery.ts';
import { createWebhookEndpoint, deleteWebhookEndpoint, listDeliveries, listWebhookEndpoints, resendDelivery, sendTestEvent } from '../services/webhooks/webhooks.ts';

const NO_STORE = { 'Cache-Control': 'private, no-store' };

/** Deliveries per page on the account screen. */
export const SCREEN_LOG_PAGE = 10;

export function apiKeyRoutes(ctx: AppContext, webhookUrls: WebhookFetchOptions = {}) {
  const viewer = async (c: { req: { raw: Request } }) => {
    const session = await ctx.auth.api.getSession({ headers: c.req.raw.headers });
    if (!session) throw unauthenticated();
    const user = await ctx.db.query.users.findFirst({ where: eq(users.id, session.user.id) });
    if (!user) throw unauthenticated();
    return user;
  };
  return new Hono()
    .get('/api-keys', async (c) => {
      const user = await viewer(c);
      // With the scopes this account type may give a key (the form offers only those).
      return c.json({ apiKeys: await listApiKeys({ ctx, userId: user.id }), scopes: scopesFor(user.role) }, 200, NO_STORE);
    })
    .post('/api-keys', async (c, next) => (await viewer(c), next()), validate('json', createApiKeySchema), async (c) => {
      const user = await viewer(c);
      return c.json(await createApiKey({ ctx, userId: user.id, plan: user, role: user.role, input: c.req.valid('json') }), 201, NO_STORE);
    })
    .post('/api-keys/:apiKeyId/roll', async (c, next) => (await ownedKey(ctx, (await viewer(c)).id, c.req.param('apiKeyId')), next()), validate('json', rollApiKeySchema), async (c) => {
      const user = await viewer(c);
      return c.json(await rollApiKey({ ctx, userId: user.id, plan: user, keyId: c.req.param('apiKeyId'), graceHours: c.req.valid('json').graceHours }), 201, NO_STORE);
    })
    .delete('/api-keys/:apiKeyId', async (c) => c.json(await revokeApiKey({ ctx, userId: (await viewer(c)).id, keyId: c.req.param('apiKeyId') }), 200, NO_STORE))
    // The webhook endpoints' delivery logs, and resend, for the same screen.
    .get('/webhooks', async (c) => {
      const userId = (await viewer(c)).id;
      const endpoints = await listWebhookEndpoints(ctx, userId);
      const withLogs = await Promise.all(endpoints.map(async (e) => ({ ...e, ...(await listDeliveries(ctx, { userId, endpointId: e.id, limit: SCREEN_LOG_PAGE })) })));
      return c.json({ endpoints: withLogs }, 200, NO_STORE);
    })
    // Add an endpoint (the secret in this answer only), send it a test event, remove it.
    .post('/webhooks', async (c, next) => (await viewer(c), next()), validate('json', createWebhookSchema), async (c) =>
      c.json(await createWebhookEndpoint(ctx, { userId: (await viewer(c)).id, input: c.req.valid('json'), urlRules: webhookUrls }), 201, NO_STORE),
    )
    .post('/webhooks/:endpointId/test', async (c) => c.json(await sendTestEvent(ctx, { userId: (await viewer(c)).id, endpointId: c.req.param('endpointId') }), 202, NO_STORE))
    .delete('/webhooks/:endpointId', async (c) => c.json(await deleteWebhookEndpoint(ctx, (await viewer(c)).id, c.req.param('endpointId')), 200, NO_STORE))
    // Older deliveries of one endpoint, a page at a time ("Show older" on the screen).
    .get('/webhooks/:endpointId/deliveries', async (c) => {
      const cursor = c.req.query('cursor');
      return c.json(await listDeliveries(ctx, { userId: (await viewer(c)).id, endpointId: c.req.param('endpointId'), cursor, limit: SCREEN_LOG_PAGE }), 200, NO_STORE);
    })
    .post('/webhooks/:endpointId/deliveries/:deliveryId/resend', async (c) =>
      c.json(await resendDelivery(ctx, { userId: (await viewer(c)).id, endpointId: c.req.param('endpointId'), deliveryId: c.req.param('deliveryId') }), 202, NO_STORE),
    );
}
