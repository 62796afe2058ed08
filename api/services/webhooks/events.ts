// What each webhook event carries (issue 39): one zod schema per event, the envelope
// `{ type, timestamp, data }` with that event's data. emitEvent (webhooks.ts) builds every payload
// through these schemas, so nothing leaves that they do not describe, and the API document's
// `webhooks` (routes/v1/app.ts) is generated from them: the contract and the sender are one code.
import { z } from '@hono/zod-openapi';
import { WEBHOOK_EVENT_LABELS, WEBHOOK_EVENTS, type WebhookEvent } from '../../../common/schemas/webhooks.ts';

const isoTime = (description: string) => z.string().datetime({ offset: true }).describe(`${description} (ISO 8601, UTC).`);

const reportData = (status: 'completed' | 'failed') =>
  z.object({
    reportId: z.string().describe('The id `POST /reports` answered: `GET /reports/{reportId}` reads it.'),
    businessId: z.string().describe('The business the report is about: `GET /businesses/{businessId}`.'),
    status: z.literal(status).describe(status === 'completed' ? 'Always `completed`.' : 'Always `failed`.'),
  });

const DATA = {
  'report.completed': reportData('completed').openapi('ReportCompletedData'),
  'report.failed': reportData('failed').openapi('ReportFailedData'),
  'alert.created': z
    .object({
      alertId: z.string().describe("The alert's id (as in `GET /businesses/{businessId}/alerts`)."),
      businessId: z.string().describe('The business the review is about.'),
      platform: z.enum(['google', 'yelp', 'facebook', 'other', 'google_business_profile']).describe('Where the review was posted; `google_business_profile` when read from the owner\'s connected Google Business Profile rather than the public listing.'),
      reviewRating: z.number().min(0).max(5).describe("The review's star rating (0-5)."),
      reviewAuthor: z.string().nullable().describe("The reviewer's name as the platform shows it, or null."),
      reviewText: z.string().nullable().describe("The review's text, or null when it has none."),
      reviewUrl: z.string().nullable().describe('A link to the review, or null.'),
      reviewDate: isoTime('When the review was posted').nullable().describe('When the review was posted (ISO 8601, UTC), or null when the platform does not say.'),
      threshold: z.number().min(1).max(5).describe('The alert threshold in force when the alert was recorded: reviews at or below it raise an alert.'),
    })
    .openapi('AlertCreatedData'),
  'lead.created': z
    .object({
      id: z.string().describe("The lead's id."),
      fullName: z.string().describe('The name the visitor gave.'),
      email: z.string().describe('The e-mail address the visitor gave.'),
      company: z.string().describe('The business the visitor asked a report for.'),
      sourceHostname: z.string().describe('The website the widget was on.'),
      widgetKeyId: z.string().describe('The publishable key the widget used.'),
      createdAt: isoTime('When the lead was taken'),
    })
    .openapi('LeadCreatedData'),
  'visibility.changed': z
    .object({
      businessId: z.string().describe('The business whose visibility was scanned.'),
      runId: z.string().describe('The analysis run of the new scan.'),
      localVoiceShare: z.number().min(0).max(100).describe('Share of Local Voice in the new scan, in percent.'),
      previousLocalVoiceShare: z.number().min(0).max(100).describe('Share of Local Voice in the previous scan, in percent.'),
      change: z.number().describe('`localVoiceShare - previousLocalVoiceShare`, in points, to two decimals.'),
      scannedAt: isoTime('When the new scan was made'),
      previousScannedAt: isoTime('When the previous scan was made'),
    })
    .openapi('VisibilityChangedData'),
} satisfies Record<WebhookEvent, z.ZodType>;

const NAMES: Record<WebhookEvent, string> = {
  'report.completed': 'ReportCompletedEvent',
  'report.failed': 'ReportFailedEvent',
  'alert.created': 'AlertCreatedEvent',
  'lead.created': 'LeadCreatedEvent',
  'visibility.changed': 'VisibilityChangedEvent',
};

const envelope = <E extends WebhookEvent>(type: E) =>
  z
    .object({
      type: z.literal(type).describe('The event type.'),
      timestamp: isoTime('When the event happened'),
      data: DATA[type],
    })
    .openapi(NAMES[type], { description: WEBHOOK_EVENT_LABELS[type] });

/**
 * The test event: sent to one endpoint when its owner asks (Send test on /account, or
 * `POST /webhooks/{endpointId}/test`), whatever events it receives; one attempt, not retried.
 */
export const WEBHOOK_TEST_EVENT = 'webhook.test' as const;
export const WEBHOOK_TEST_LABEL = 'A test you asked for (Send test): sent to that endpoint only, whatever its events';
export const WEBHOOK_TEST_SCHEMA = z
  .object({
    type: z.literal(WEBHOOK_TEST_EVENT).describe('The event type.'),
    timestamp: isoTime('When the test was asked for'),
    data: z
      .object({
        endpointId: z.string().describe('The endpoint the test was sent to.'),
        message: z.string().describe('A sentence saying this is a test; nothing happened in LocalRank.'),
      })
      .openapi('WebhookTestData'),
  })
  .openapi('WebhookTestEvent', { description: WEBHOOK_TEST_LABEL });

/** The body of each event's delivery. */
export const WEBHOOK_EVENT_SCHEMAS = {
  'report.completed': envelope('report.completed'),
  'report.failed': envelope('report.failed'),
  'alert.created': envelope('alert.created'),
  'lead.created': envelope('lead.created'),
  'visibility.changed': envelope('visibility.changed'),
} satisfies { [E in WebhookEvent]: z.ZodType };

export type WebhookEventData<E extends WebhookEvent> = z.input<(typeof DATA)[E]>;
export type WebhookEventBody<E extends WebhookEvent> = z.output<(typeof WEBHOOK_EVENT_SCHEMAS)[E]>;

/** A delivery's body for an event: the data checked against (and cut to) the event's schema. */
export function webhookBody<E extends WebhookEvent>(type: E, data: WebhookEventData<E>, now: Date): string {
  const schema = WEBHOOK_EVENT_SCHEMAS[type] as z.ZodType;
  return JSON.stringify(schema.parse({ type, timestamp: now.toISOString(), data }));
}

/** The test event's body (WEBHOOK_TEST_SCHEMA), for the one endpoint it is sent to. */
export function webhookTestBody(endpointId: string, now: Date): string {
  return JSON.stringify(WEBHOOK_TEST_SCHEMA.parse({ type: WEBHOOK_TEST_EVENT, timestamp: now.toISOString(), data: { endpointId, message: 'A test event from LocalRank: nothing happened. Answer with any 2xx to show your endpoint works.' } }));
}

/** Each event as OpenAPI 3.1's `webhooks` has it: what is POSTed to a receiver, and what it answers. */
export const webhookDefinitions = () =>
  [...WEBHOOK_EVENTS, WEBHOOK_TEST_EVENT].map((type: WebhookEvent | typeof WEBHOOK_TEST_EVENT) => ({
    method: 'post' as const,
    path: type,
    operationId: `${type.replace(/\.(\w)/, (_, c: string) => c.toUpperCase())}Webhook`,
    tags: ['Webhooks'],
    summary: type === WEBHOOK_TEST_EVENT ? WEBHOOK_TEST_LABEL : WEBHOOK_EVENT_LABELS[type],
    description:
      type === WEBHOOK_TEST_EVENT
        ? 'POSTed to one endpoint when you ask for a test (Send test on your account page, or `POST /webhooks/{endpointId}/test`), whatever events it receives, signed per Standard Webhooks. One attempt, not retried.'
        : `POSTed to each of your endpoints subscribed to \`${type}\`, signed per Standard Webhooks. The same \`webhook-id\` on every attempt of one delivery.`,
    security: [],
    request: {
      headers: z.object({
        'webhook-id': z.string().openapi({ description: "The delivery's id, the same on every attempt: ignore one seen before.", example: 'msg_2hYl0aVQvV1lQ5rj3yXcJmB0Ruv' }),
        'webhook-timestamp': z.string().regex(/^[0-9]+$/).openapi({ description: 'When this attempt was signed, in seconds since 1970 (UTC).', example: '1767225600' }),
        'webhook-signature': z.string().openapi({ description: 'One or two (during a secret rotation) signatures, `v1,<base64>`, space-separated.', example: 'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=' }),
      }),
      body: { required: true, content: { 'application/json': { schema: type === WEBHOOK_TEST_EVENT ? WEBHOOK_TEST_SCHEMA : WEBHOOK_EVENT_SCHEMAS[type] } } },
    },
    responses: {
      200: { description: type === WEBHOOK_TEST_EVENT ? 'Any 2xx within 10 seconds: delivered. Any other answer, or none, is shown as failed (a test is not retried).' : 'Any 2xx within 10 seconds: delivered. Any other answer, or none, is retried.' },
    },
  }));
