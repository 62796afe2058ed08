// Webhook endpoints over the API (api/services/webhooks/webhooks.ts): create (the secret shown once), list,
// delete, rotate the secret, send a test event, the delivery log and resending one delivery.
import { createRoute, OpenAPIHono, z } from '@hono/zod-openapi';
import { createWebhookSchema } from '../../../common/schemas/webhooks.ts';
import type { AppContext } from '../../context.ts';
import {
  createWebhookEndpoint,
  DELIVERY_CURSOR_PATTERN,
  DELIVERY_LOG_LIMIT,
  deleteWebhookEndpoint,
  listDeliveries,
  listWebhookEndpoints,
  resendDelivery,
  rotateWebhookSecret,
  sendTestEvent,
  WEBHOOK_SECRET_OVERLAP_HOURS,
  WEBHOOK_TESTS_PER_HOUR,
} from '../../services/webhooks/webhooks.ts';
import type { WebhookFetchOptions } from '../../services/webhooks/delivery.ts';
import { describeFields, jsonContent, NO_STORE, pathId, problems, scope, type V1Env } from './common.ts';
import { webhookDeliveriesSchema, webhookEndpointRotatedSchema, webhookEndpointSchema, webhookEndpointWithSecretSchema } from './schemas.ts';

const endpointId = pathId('endpointId', 'A webhook endpoint id.');
const tags = ['Webhooks'];

const create = createRoute({
  method: 'post',
  path: '/webhooks',
  operationId: 'createWebhookEndpoint',
  tags,
  summary: 'Add a webhook endpoint',
  description: 'Events are POSTed to the URL as JSON, signed per Standard Webhooks with the secret in this answer.',
  middleware: [scope('webhooks:write')] as const,
  request: { body: { required: true, content: { 'application/json': { schema: describeFields(createWebhookSchema, { url: 'Where events are POSTed: a public http:// or https:// address on port 80 or 443, without a user name or password.', events: 'The event types to send to it (at least one).', description: 'Your label for the endpoint (up to 200 characters).' }).openapi('WebhookEndpointCreate', { example: { url: 'https://hooks.your-agency.com/localrank', events: ['report.completed', 'alert.created'], description: 'Production' } }) } } } },
  responses: { 201: jsonContent(webhookEndpointWithSecretSchema, 'The endpoint and its secret.'), ...problems(400, 409) },
});
const list = createRoute({
  method: 'get',
  path: '/webhooks',
  operationId: 'listWebhookEndpoints',
  tags,
  summary: 'List webhook endpoints',
  description: 'Your endpoints, newest first, with their events and health (failing since, disabled at).',
  middleware: [scope('webhooks:write')] as const,
  responses: { 200: jsonContent(z.object({ endpoints: z.array(webhookEndpointSchema).describe('Your endpoints, without their secrets.') }).openapi('WebhookEndpointList'), 'The endpoints.') , ...problems() },
});
const remove = createRoute({
  method: 'delete',
  path: '/webhooks/{endpointId}',
  operationId: 'deleteWebhookEndpoint',
  tags,
  summary: 'Delete a webhook endpoint',
  description: 'No more events are sent to it; its delivery log is deleted with it.',
  middleware: [scope('webhooks:write')] as const,
  request: { params: endpointId },
  responses: { 200: jsonContent(z.object({ deleted: z.literal(true).describe('Always true.') }), 'Deleted, with its delivery log.'), ...problems(404) },
});
const rotate = createRoute({
  method: 'post',
  path: '/webhooks/{endpointId}/rotate-secret',
  operationId: 'rotateWebhookSecret',
  tags,
  summary: 'Rotate the secret',
  description: `A new secret, and a disabled endpoint enabled again. For ${WEBHOOK_SECRET_OVERLAP_HOURS} hours every delivery is signed with both the new and the previous secret (two signatures in \`webhook-signature\`), so your receiver can switch without missing an event.`,
  middleware: [scope('webhooks:write')] as const,
  request: { params: endpointId },
  responses: { 200: jsonContent(webhookEndpointRotatedSchema, 'The endpoint, its new secret and when the previous one stops signing.'), ...problems(404) },
});
const deliveries = createRoute({
  method: 'get',
  path: '/webhooks/{endpointId}/deliveries',
  operationId: 'listWebhookDeliveries',
  tags,
  summary: 'Delivery log',
  description: 'Deliveries, newest first, 50 a page (`limit` for fewer), each with every attempt (status, time, the start of the answer); `nextCursor` pages on.',
  middleware: [scope('webhooks:write')] as const,
  request: {
    params: endpointId,
    query: z.object({
      cursor: z.string().regex(new RegExp(DELIVERY_CURSOR_PATTERN), 'Not a cursor this API gave out').optional().openapi({ description: 'The `nextCursor` of the previous page.' }),
      limit: z.coerce.number().int().min(1).max(DELIVERY_LOG_LIMIT).default(DELIVERY_LOG_LIMIT).openapi({ description: `Page size (1-${DELIVERY_LOG_LIMIT}).` }),
    }),
  },
  responses: { 200: jsonContent(webhookDeliveriesSchema, 'The deliveries.'), ...problems(404) },
});
const resend = createRoute({
  method: 'post',
  path: '/webhooks/{endpointId}/deliveries/{deliveryId}/resend',
  operationId: 'resendWebhookDelivery',
  tags,
  summary: 'Resend a delivery',
  description: 'Sends it again now, once, with the same webhook-id and body.',
  middleware: [scope('webhooks:write')] as const,
  request: { params: endpointId.extend(pathId('deliveryId', 'A delivery id from the log.').shape) },
  responses: { 202: jsonContent(z.object({ id: z.string().describe("The delivery's id."), status: z.literal('pending').describe('Queued to be sent now.') }), 'Queued.'), ...problems(404) },
});

const test = createRoute({
  method: 'post',
  path: '/webhooks/{endpointId}/test',
  operationId: 'sendWebhookTest',
  tags,
  summary: 'Send a test event',
  description: `Sends \`webhook.test\` to this endpoint now, whatever events it receives (a disabled one too): one attempt, not retried, in the delivery log with its answer. At most ${WEBHOOK_TESTS_PER_HOUR} an hour.`,
  middleware: [scope('webhooks:write')] as const,
  request: { params: endpointId },
  responses: { 202: jsonContent(z.object({ id: z.string().describe("The test delivery's id, in the delivery log."), type: z.literal('webhook.test').describe('Always `webhook.test`.'), status: z.literal('pending').describe('Queued to be sent now.') }), 'Queued.'), ...problems(404) },
});

export function webhookRoutes(ctx: AppContext, urlRules?: WebhookFetchOptions) {
  const userId = (c: { get: (k: 'caller') => { userId: string } }) => c.get('caller').userId;
  return new OpenAPIHono<V1Env>()
    .openapi(create, async (c) => c.json(await createWebhookEndpoint(ctx, { userId: userId(c), input: c.req.valid('json'), urlRules }), 201, NO_STORE))
    .openapi(list, async (c) => c.json({ endpoints: await listWebhookEndpoints(ctx, userId(c)) }, 200, NO_STORE))
    .openapi(remove, async (c) => c.json(await deleteWebhookEndpoint(ctx, userId(c), c.req.valid('param').endpointId), 200, NO_STORE))
    .openapi(rotate, async (c) => c.json(await rotateWebhookSecret(ctx, { userId: userId(c), endpointId: c.req.valid('param').endpointId }), 200, NO_STORE))
    .openapi(deliveries, async (c) => c.json(await listDeliveries(ctx, { userId: userId(c), endpointId: c.req.valid('param').endpointId, ...c.req.valid('query') }), 200, NO_STORE))
    .openapi(test, async (c) => c.json(await sendTestEvent(ctx, { userId: userId(c), endpointId: c.req.valid('param').endpointId }), 202, NO_STORE))
    .openapi(resend, async (c) => {
      const { endpointId: id, deliveryId } = c.req.valid('param');
      return c.json(await resendDelivery(ctx, { userId: userId(c), endpointId: id, deliveryId }), 202, NO_STORE);
    });
}
