// Webhook payloads are in the contract (issue 39): every event is in the document's `webhooks`
// (OpenAPI 3.1) with its body's schema, and what the product sends is built through that schema:
// deliveries made by the real producers validate against the document, and data the schema does
// not describe never leaves (emitEvent refuses it).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushNewAlerts } from '../../api/services/alert-push.ts';
import { emitVisibilityChange } from '../../api/services/visibility-history.ts';
import { emitEvent, sendTestEvent } from '../../api/services/webhooks/webhooks.ts';
import { WEBHOOK_EVENTS, type WebhookEvent } from '../../common/schemas/webhooks.ts';
import { webhookDeliveries, webhookEndpoints } from '../../db/schema/api.ts';
import { businessMetrics } from '../../db/schema/businesses.ts';
import { reviewAlerts } from '../../db/schema/reports.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';
import { matchesSchema, type OpenApiDocument } from '../helpers/openapi.ts';

type WebhookDoc = { post: { requestBody: { content: Record<string, { schema: unknown }> }; parameters: { name: string; in: string }[]; responses: Record<string, unknown> } };
let t: TestContext;
let doc: OpenApiDocument & { webhooks: Record<string, WebhookDoc> };
let owner: Awaited<ReturnType<typeof createUser>>;
let businessId: string;

beforeAll(async () => {
  t = await createTestContext();
  doc = (await call(t.app, 'GET', '/api/v1/openapi.json')).body;
  owner = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
  const { key } = (await call(t.app, 'POST', '/api/api-keys', { name: 'Hooks', scopes: ['webhooks:write'] }, owner.cookie)).body as { key: string };
  const created = await t.app.request('/api/v1/webhooks', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://hooks.example-agency.com/in', events: [...WEBHOOK_EVENTS] }) });
  expect(created.status).toBe(201);
  const { business, runs } = await seedBusiness(t.ctx, { userId: owner.userId, snapshots: [{ daysAgo: 8 }, { daysAgo: 1 }] });
  businessId = business.id;
  // Two scans with different Shares of Local Voice.
  await t.ctx.db.update(businessMetrics).set({ localVoiceShare: 31.5 }).where(eq(businessMetrics.runId, runs[0]!));
  await t.ctx.db.update(businessMetrics).set({ localVoiceShare: 24.25 }).where(eq(businessMetrics.runId, runs[1]!));
  await t.ctx.db.insert(reviewAlerts).values({ businessId, platform: 'yelp', reviewRating: 2, reviewAuthor: 'B', reviewText: 'Slow', reviewDate: new Date(), createdAt: new Date(), alertTriggered: true });
  expect(await pushNewAlerts(t.ctx, businessId)).toBeGreaterThan(0);
  expect(await emitVisibilityChange(t.ctx, businessId, runs[1]!)).toBe(1);
  await emitEvent(t.ctx, { userId: owner.userId, type: 'report.completed', eventKey: 'report.completed:r1', data: { reportId: 'r1', businessId, status: 'completed' } });
  await emitEvent(t.ctx, { userId: owner.userId, type: 'report.failed', eventKey: 'report.failed:r2', data: { reportId: 'r2', businessId, status: 'failed' } });
  const [endpoint] = await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, owner.userId));
  await sendTestEvent(t.ctx, { userId: owner.userId, endpointId: endpoint!.id });
  await emitEvent(t.ctx, { userId: owner.userId, type: 'lead.created', eventKey: 'lead.created:l1', data: { id: 'l1', fullName: 'Dana Whitfield', email: 'dana@whitfield.example', company: 'Whitfield Dental', sourceHostname: 'www.example-agency.com', widgetKeyId: 'k1', createdAt: new Date().toISOString() } });
});
afterAll(() => t.close());

describe('the document', () => {
  it('has every event under webhooks, with its body schema and the signature headers', () => {
    // The events an endpoint subscribes to, and the test event (Send test).
    expect(Object.keys(doc.webhooks ?? {}).sort()).toEqual([...WEBHOOK_EVENTS, 'webhook.test'].sort());
    for (const event of [...WEBHOOK_EVENTS, 'webhook.test']) {
      const op = doc.webhooks[event]!.post;
      expect(op.requestBody.content['application/json']?.schema, event).toBeDefined();
      expect(op.parameters.filter((p) => p.in === 'header').map((p) => p.name).sort()).toEqual(['webhook-id', 'webhook-signature', 'webhook-timestamp']);
      expect(Object.keys(op.responses)).toEqual(['200']);
    }
  });

  it('refuses an event body that is not the event (wrong type, no data)', () => {
    const schema = doc.webhooks['report.completed']!.post.requestBody.content['application/json']!.schema;
    expect(matchesSchema(doc, schema, { type: 'report.failed', timestamp: new Date().toISOString(), data: { reportId: 'r', businessId: 'b', status: 'failed' } }).success).toBe(false);
    expect(matchesSchema(doc, schema, { type: 'report.completed', timestamp: new Date().toISOString() }).success).toBe(false);
  });
});

describe('what is sent', () => {
  it('each delivery, made by the producers, is its event as the document describes it', async () => {
    const [endpoint] = await t.ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, owner.userId));
    const rows = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpoint!.id));
    expect(new Set(rows.map((r) => r.type))).toEqual(new Set([...WEBHOOK_EVENTS, 'webhook.test']));
    for (const row of rows) {
      const body = JSON.parse(row.payload) as { type: WebhookEvent; data: Record<string, unknown> };
      const schema = doc.webhooks[row.type]!.post.requestBody.content['application/json']!.schema;
      const result = matchesSchema(doc, schema, body);
      expect(result.success, `${row.type}: ${result.message}`).toBe(true);
      expect(body.type).toBe(row.type);
    }
    const visibility = JSON.parse(rows.find((r) => r.type === 'visibility.changed')!.payload) as { data: Record<string, unknown> };
    expect(visibility.data).toMatchObject({ businessId, localVoiceShare: 24.25, previousLocalVoiceShare: 31.5, change: -7.25 });
  });

  it('data the event does not describe never leaves: emitEvent refuses it', async () => {
    const bad = { reportId: 'r3', status: 'completed' } as unknown as { reportId: string; businessId: string; status: 'completed' };
    await expect(emitEvent(t.ctx, { userId: owner.userId, type: 'report.completed', eventKey: 'report.completed:r3', data: bad })).rejects.toThrow();
    const extra = { reportId: 'r4', businessId, status: 'completed', secret: 'internal' } as unknown as { reportId: string; businessId: string; status: 'completed' };
    await emitEvent(t.ctx, { userId: owner.userId, type: 'report.completed', eventKey: 'report.completed:r4', data: extra });
    const [row] = await t.ctx.db.select().from(webhookDeliveries).where(eq(webhookDeliveries.eventKey, 'report.completed:r4'));
    expect(JSON.parse(row!.payload).data).toEqual({ reportId: 'r4', businessId, status: 'completed' });
  });
});
