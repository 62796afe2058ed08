// Outgoing webhooks (issue 16), signed per the Standard Webhooks specification (the
// `standardwebhooks` package): endpoints per account, one function that emits an event
// (emitEvent), deliveries through the job queue (api/services/webhook-delivery.ts) and the
// delivery log with resend. Every id is checked against the account: another's answers 404.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { CreateWebhookInput, WebhookEvent } from '../../common/schemas/webhooks.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../db/schema/api.ts';
import { users } from '../../db/schema/auth.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { enqueue } from '../jobs/queue.ts';
import { API_PLAN_MESSAGE } from './api-keys.ts';
import { can } from './entitlements.ts';

export const WEBHOOK_DELIVER = 'webhook.deliver';
export const WEBHOOK_ENDPOINT_LIMIT = 10;
export const DELIVERY_LOG_LIMIT = 50;

export interface WebhookDeliverPayload {
  deliveryId: string;
  /** 1 for the first try; a resend is a single extra attempt with no schedule after it. */
  attempt: number;
  resend?: boolean;
}

async function planIncludesApi(ctx: AppContext, userId: string): Promise<boolean> {
  const owner = await ctx.db.query.users.findFirst({ where: eq(users.id, userId), columns: { subscriptionTier: true, subscriptionStatus: true } });
  return owner !== undefined && can(owner, 'api');
}

export const webhookNotFound = () => new AppError('not_found', 'Webhook endpoint not found');
export const deliveryNotFound = () => new AppError('not_found', 'Delivery not found');

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

type EndpointRow = typeof webhookEndpoints.$inferSelect;
const endpointSummary = (e: EndpointRow) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.events,
  createdAt: e.createdAt.toISOString(),
  disabledAt: e.disabledAt?.toISOString() ?? null,
  failingSince: e.failingSince?.toISOString() ?? null,
});
export type WebhookEndpointSummary = ReturnType<typeof endpointSummary>;

export async function createWebhookEndpoint({ ctx, userId, input }: { ctx: AppContext; userId: string; input: CreateWebhookInput }) {
  const [{ n }] = (await ctx.db.$read('SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = ?1', [userId])) as [{ n: number }];
  if (Number(n) >= WEBHOOK_ENDPOINT_LIMIT) throw new AppError('conflict', `An account can have at most ${WEBHOOK_ENDPOINT_LIMIT} webhook endpoints. Delete one first.`);
  const secret = newSecret();
  const [row] = await ctx.db.insert(webhookEndpoints).values({ userId, url: input.url, description: input.description ?? null, events: input.events, secret }).returning();
  return { ...endpointSummary(row!), secret };
}

export async function listWebhookEndpoints({ ctx, userId }: { ctx: AppContext; userId: string }) {
  const rows = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(desc(webhookEndpoints.createdAt));
  return rows.map(endpointSummary);
}

export async function ownedEndpoint(ctx: AppContext, userId: string, endpointId: string): Promise<EndpointRow> {
  const row = await ctx.db.query.webhookEndpoints.findFirst({ where: and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, userId)) });
  if (!row) throw webhookNotFound();
  return row;
}

export async function deleteWebhookEndpoint({ ctx, userId, endpointId }: { ctx: AppContext; userId: string; endpointId: string }): Promise<{ deleted: true }> {
  const endpoint = await ownedEndpoint(ctx, userId, endpointId);
  await ctx.db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
  return { deleted: true as const };
}

/** How long deliveries stay signed with the old secret as well after a rotation. */
export const WEBHOOK_SECRET_OVERLAP_HOURS = 24;

/**
 * A new secret, and a disabled endpoint enabled again. For WEBHOOK_SECRET_OVERLAP_HOURS every
 * delivery carries two signatures, one per secret (Standard Webhooks allows several), so the
 * receiver verifies with either while it switches; a second rotation in that window drops the
 * oldest.
 */
export async function rotateWebhookSecret({ ctx, userId, endpointId, now = new Date() }: { ctx: AppContext; userId: string; endpointId: string; now?: Date }) {
  const endpoint = await ownedEndpoint(ctx, userId, endpointId);
  const secret = newSecret();
  const previousSecretUntil = new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000);
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set({ secret, previousSecret: endpoint.secret, previousSecretUntil, disabledAt: null, failingSince: null })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  return { ...endpointSummary(row!), secret, previousSecretValidUntil: previousSecretUntil.toISOString() };
}

/** The secrets a delivery is signed with at `now`: the current one, and the previous one during its overlap. */
export function signingSecrets(endpoint: Pick<EndpointRow, 'secret' | 'previousSecret' | 'previousSecretUntil'>, now: Date): string[] {
  const previous = endpoint.previousSecret && endpoint.previousSecretUntil && endpoint.previousSecretUntil > now ? [endpoint.previousSecret] : [];
  return [endpoint.secret, ...previous];
}

/**
 * The one way an event leaves the product: a delivery to each of the account's enabled endpoints
 * that subscribed to the type, each sent by a job. `eventKey` names what happened (e.g.
 * `report.completed:{id}`): emitting it twice (a retried job) delivers once per endpoint. Nothing
 * leaves for an account whose plan no longer includes the API (its endpoints wait, unchanged, for
 * a renewal), like its keys answer plan_required.
 */
export async function emitEvent(ctx: AppContext, input: { userId: string; type: WebhookEvent; eventKey: string; data: Record<string, unknown>; now?: Date }): Promise<number> {
  const now = input.now ?? new Date();
  if (!(await planIncludesApi(ctx, input.userId))) return 0;
  const endpoints = await ctx.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, input.userId), isNull(webhookEndpoints.disabledAt), sql`EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.events}) WHERE value = ${input.type})`));
  let queued = 0;
  for (const endpoint of endpoints) {
    const payload = JSON.stringify({ type: input.type, timestamp: now.toISOString(), data: input.data });
    const [delivery] = await ctx.db
      .insert(webhookDeliveries)
      .values({ endpointId: endpoint.id, messageId: newMessageId(), eventKey: input.eventKey, type: input.type, payload, nextAttemptAt: now, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: webhookDeliveries.id });
    if (!delivery) continue;
    const job: WebhookDeliverPayload = { deliveryId: delivery.id, attempt: 1 };
    await enqueue(ctx.db, { type: WEBHOOK_DELIVER, payload: { ...job }, key: `${WEBHOOK_DELIVER}:${delivery.id}:1`, maxAttempts: 3 });
    queued++;
  }
  return queued;
}

export async function listDeliveries({ ctx, userId, endpointId }: { ctx: AppContext; userId: string; endpointId: string }) {
  const endpoint = await ownedEndpoint(ctx, userId, endpointId);
  const deliveries = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.endpointId, endpoint.id))
    .orderBy(desc(webhookDeliveries.createdAt))
    .limit(DELIVERY_LOG_LIMIT);
  const attempts = deliveries.length
    ? await ctx.db.select().from(webhookAttempts).where(inArray(webhookAttempts.deliveryId, deliveries.map((d) => d.id))).orderBy(webhookAttempts.at)
    : [];
  return {
    deliveries: deliveries.map((d) => ({
      id: d.id,
      messageId: d.messageId,
      type: d.type,
      status: d.status,
      createdAt: d.createdAt.toISOString(),
      nextAttemptAt: d.status === 'pending' ? (d.nextAttemptAt?.toISOString() ?? null) : null,
      attempts: attempts
        .filter((a) => a.deliveryId === d.id)
        .map((a) => ({ at: a.at.toISOString(), responseStatus: a.responseStatus, excerpt: a.excerpt, durationMs: a.durationMs })),
    })),
  };
}

/** Sends a delivery again now, once (the same message id and body, a fresh signature); the plan must include the API. */
export async function resendDelivery({ ctx, userId, endpointId, deliveryId, now = new Date() }: { ctx: AppContext; userId: string; endpointId: string; deliveryId: string; now?: Date }) {
  const endpoint = await ownedEndpoint(ctx, userId, endpointId);
  if (!(await planIncludesApi(ctx, userId))) throw new AppError('plan_required', API_PLAN_MESSAGE);
  const delivery = await ctx.db.query.webhookDeliveries.findFirst({ where: and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)) });
  if (!delivery) throw deliveryNotFound();
  await ctx.db.update(webhookDeliveries).set({ status: 'pending', nextAttemptAt: now }).where(eq(webhookDeliveries.id, delivery.id));
  const job: WebhookDeliverPayload = { deliveryId: delivery.id, attempt: delivery.attempts + 1, resend: true };
  await enqueue(ctx.db, { type: WEBHOOK_DELIVER, payload: { ...job }, key: `${WEBHOOK_DELIVER}:${delivery.id}:resend:${now.getTime()}`, maxAttempts: 3 });
  return { id: delivery.id, status: 'pending' as const };
}
