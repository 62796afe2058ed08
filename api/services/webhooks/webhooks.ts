// Outgoing webhooks (issue 16), signed per the Standard Webhooks specification (the
// `standardwebhooks` package): endpoints per account, one function that emits an event
// (emitEvent), deliveries through the job queue (api/services/webhooks/delivery.ts) and the
// delivery log with resend. Every id is checked against the account: another's answers 404.
import { randomBytes, randomUUID } from 'node:crypto';
import { and, desc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { CreateWebhookInput, WebhookEvent } from '../../../common/schemas/webhooks.ts';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../../db/schema/api.ts';
import { users } from '../../../db/schema/auth.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import { lookupRefusal, urlRefusal, type SafeFetchOptions, type SafeFetchRefusal } from '../../lib/safe-fetch.ts';
import { serverLookup } from '../../lib/server-lookup.ts';
import { API_PLAN_MESSAGE } from '../api-keys.ts';
import { can } from '../plans/entitlements.ts';
import { consumeRateLimit } from '../rate-limit.ts';
import { webhookBody, webhookTestBody, WEBHOOK_TEST_EVENT, type WebhookEventData } from './events.ts';

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

export const WEBHOOK_PLAN_MESSAGE = 'Webhooks are part of API access, in the Enterprise and Agency plans. Upgrade your plan to add or test an endpoint.';
/** Test events one account may ask for in an hour. */
export const WEBHOOK_TESTS_PER_HOUR = 30;

export const webhookNotFound = () => new AppError('not_found', 'Webhook endpoint not found');
export const deliveryNotFound = () => new AppError('not_found', 'Delivery not found');

const newSecret = () => `whsec_${randomBytes(24).toString('base64')}`;
const newMessageId = () => `msg_${randomUUID().replaceAll('-', '')}`;

type EndpointRow = typeof webhookEndpoints.$inferSelect;
interface Health {
  lastSuccessAt: number | null;
  consecutiveFailures: number;
}
const NO_ATTEMPTS: Health = { lastSuccessAt: null, consecutiveFailures: 0 };
const endpointSummary = (e: EndpointRow, health: Health = NO_ATTEMPTS) => ({
  id: e.id,
  url: e.url,
  description: e.description,
  events: e.events,
  createdAt: e.createdAt.toISOString(),
  /** `disabled` (every delivery failed for the whole retry window), `failing` (the last attempt failed) or `active`. */
  state: e.disabledAt ? ('disabled' as const) : e.failingSince || health.consecutiveFailures > 0 ? ('failing' as const) : ('active' as const),
  disabledAt: e.disabledAt?.toISOString() ?? null,
  failingSince: e.failingSince?.toISOString() ?? null,
  lastSuccessAt: health.lastSuccessAt === null ? null : new Date(health.lastSuccessAt).toISOString(),
  consecutiveFailures: health.consecutiveFailures,
});

/** Per endpoint: the last attempt answered 2xx, and the failed attempts since (every delivery's). */
async function healthOf(ctx: AppContext, endpointIds: string[]): Promise<Map<string, Health>> {
  if (!endpointIds.length) return new Map();
  const rows = await ctx.db.$read(
    `SELECT d.endpoint_id AS id,
       max(CASE WHEN a.response_status BETWEEN 200 AND 299 THEN a.at END) AS last_success
     FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
     WHERE d.endpoint_id IN (SELECT value FROM json_each(?1))
     GROUP BY d.endpoint_id`,
    [JSON.stringify(endpointIds)],
  );
  const failures = await ctx.db.$read(
    `SELECT d.endpoint_id AS id, count(*) AS n
     FROM webhook_deliveries d JOIN webhook_attempts a ON a.delivery_id = d.id
     WHERE d.endpoint_id IN (SELECT value FROM json_each(?1))
       AND (a.response_status IS NULL OR a.response_status NOT BETWEEN 200 AND 299)
       AND a.at > coalesce((SELECT max(a2.at) FROM webhook_deliveries d2 JOIN webhook_attempts a2 ON a2.delivery_id = d2.id
                             WHERE d2.endpoint_id = d.endpoint_id AND a2.response_status BETWEEN 200 AND 299), 0)
     GROUP BY d.endpoint_id`,
    [JSON.stringify(endpointIds)],
  );
  const health = new Map<string, Health>();
  for (const r of rows) health.set(String(r.id), { lastSuccessAt: r.last_success === null ? null : Number(r.last_success), consecutiveFailures: 0 });
  for (const r of failures) health.set(String(r.id), { ...(health.get(String(r.id)) ?? NO_ATTEMPTS), consecutiveFailures: Number(r.n) });
  return health;
}
export type WebhookEndpointSummary = ReturnType<typeof endpointSummary>;

const URL_REFUSALS: Partial<Record<SafeFetchRefusal, (detail: string) => string>> = {
  credentials: () => 'No user name or password in the address',
  port: (detail) => `Deliveries go to ports 80 and 443 only (${detail.replace('refused ', '')})`,
  address: (detail) => `Deliveries never go to private, loopback or reserved addresses (${detail.replace(/^refused (address |host )?/, '').replace(/^\((.*)\)$/, '$1')})`,
  dns: (detail) => `Deliveries need a name that resolves (${detail})`,
  scheme: () => 'Enter an http:// or https:// address',
};

/** How an endpoint's address is reached: tests' local receivers (loopback, their ports) and the
 *  resolver. Production passes none of the first two. */
export type WebhookFetchOptions = Pick<SafeFetchOptions, 'allowLoopback' | 'extraPorts' | 'resolver'>;

/** The rules an endpoint's address is held to, when it is added and at each delivery: the tests'
 *  own, else WEBHOOK_LOOPBACK_PORTS (tests only); names resolved by DNS_SERVERS when set, else
 *  by the system's resolver. */
export function webhookUrlRules(env: Pick<AppContext['env'], 'WEBHOOK_LOOPBACK_PORTS' | 'DNS_SERVERS'>, override?: WebhookFetchOptions): WebhookFetchOptions {
  const resolver = env.DNS_SERVERS.length ? serverLookup(env.DNS_SERVERS) : undefined;
  if (override) return { resolver, ...override };
  return env.WEBHOOK_LOOPBACK_PORTS.length ? { allowLoopback: true, extraPorts: env.WEBHOOK_LOOPBACK_PORTS, resolver } : { resolver };
}

/**
 * Adds an endpoint. An address delivery would refuse (the safe fetcher's rules: scheme,
 * credentials, ports 80/443, no private, loopback or reserved IP, no localhost or `.internal`
 * name, a name that does not resolve or resolves to such an address) is refused now, with the
 * reason, by the same guard; delivery checks the answer again (a name may change).
 */
export async function createWebhookEndpoint(ctx: AppContext, { userId, input, urlRules }: { userId: string; input: CreateWebhookInput; urlRules?: WebhookFetchOptions }) {
  if (!(await planIncludesApi(ctx, userId))) throw new AppError('plan_required', WEBHOOK_PLAN_MESSAGE);
  const url = new URL(input.url);
  const rules = urlRules ?? webhookUrlRules(ctx.env);
  const refusal = urlRefusal(url, rules) ?? (await lookupRefusal(url.hostname, rules));
  if (refusal) throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { url: URL_REFUSALS[refusal.reason]?.(refusal.message) ?? refusal.message } });
  const [{ n }] = (await ctx.db.$read('SELECT count(*) AS n FROM webhook_endpoints WHERE user_id = ?1', [userId])) as [{ n: number }];
  if (Number(n) >= WEBHOOK_ENDPOINT_LIMIT) throw new AppError('conflict', `An account can have at most ${WEBHOOK_ENDPOINT_LIMIT} webhook endpoints. Delete one first.`);
  const secret = newSecret();
  const [row] = await ctx.db.insert(webhookEndpoints).values({ userId, url: input.url, description: input.description ?? null, events: input.events, secret }).returning();
  return { ...endpointSummary(row!), secret };
}

export async function listWebhookEndpoints(ctx: AppContext, userId: string) {
  const rows = await ctx.db.select().from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId)).orderBy(desc(webhookEndpoints.createdAt));
  const health = await healthOf(ctx, rows.map((r) => r.id));
  return rows.map((r) => endpointSummary(r, health.get(r.id)));
}

export async function ownedEndpoint(ctx: AppContext, userId: string, endpointId: string): Promise<EndpointRow> {
  const row = await ctx.db.query.webhookEndpoints.findFirst({ where: and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.userId, userId)) });
  if (!row) throw webhookNotFound();
  return row;
}

export async function deleteWebhookEndpoint(ctx: AppContext, userId: string, endpointId: string): Promise<{ deleted: true }> {
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
export async function rotateWebhookSecret(ctx: AppContext, { userId, endpointId, now = new Date() }: { userId: string; endpointId: string; now?: Date }) {
  const endpoint = await ownedEndpoint(ctx, userId, endpointId);
  const secret = newSecret();
  const previousSecretUntil = new Date(now.getTime() + WEBHOOK_SECRET_OVERLAP_HOURS * 3_600_000);
  const [row] = await ctx.db
    .update(webhookEndpoints)
    .set({ secret, previousSecret: endpoint.secret, previousSecretUntil, disabledAt: null, failingSince: null })
    .where(eq(webhookEndpoints.id, endpoint.id))
    .returning();
  return { ...endpointSummary(row!, (await healthOf(ctx, [row!.id])).get(row!.id)), secret, previousSecretValidUntil: previousSecretUntil.toISOString() };
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
export async function emitEvent<E extends WebhookEvent>(ctx: AppContext, input: { userId: string; type: E; eventKey: string; data: WebhookEventData<E>; now?: Date }): Promise<number> {
  const now = input.now ?? new Date();
  if (!(await planIncludesApi(ctx, input.userId))) return 0;
  const endpoints = await ctx.db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.userId, input.userId), isNull(webhookEndpoints.disabledAt), sql`EXISTS (SELECT 1 FROM json_each(${webhookEndpoints.events}) WHERE value = ${input.type})`));
  let queued = 0;
  // Built through the event's schema (events.ts), the one the API document describes.
  const payload = webhookBody(input.type, input.data, now);
  for (const endpoint of endpoints) {
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

/** A page of the delivery log starts after the delivery its cursor names: `<createdAt ms>_<id>`. */
const deliveryCursor = (d: { createdAt: Date; id: string }) => `${d.createdAt.getTime()}_${d.id}`;
export const DELIVERY_CURSOR_PATTERN = '^[0-9]{1,15}_[A-Za-z0-9-]{1,64}$';

/** The delivery log, newest first, `limit` (at most DELIVERY_LOG_LIMIT) a page; `nextCursor` pages on. */
export async function listDeliveries(ctx: AppContext, { userId, endpointId, cursor, limit = DELIVERY_LOG_LIMIT }: { userId: string; endpointId: string; cursor?: string; limit?: number }) {
  const endpoint = await ownedEndpoint(ctx, userId, endpointId);
  let after = undefined;
  if (cursor) {
    const match = new RegExp(DELIVERY_CURSOR_PATTERN).exec(cursor) ? /^(\d+)_(.+)$/.exec(cursor) : null;
    if (!match) throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { cursor: 'Not a cursor this API gave out' } });
    const at = new Date(Number(match[1]));
    after = or(lt(webhookDeliveries.createdAt, at), and(eq(webhookDeliveries.createdAt, at), lt(webhookDeliveries.id, match[2]!)));
  }
  const page = await ctx.db
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.endpointId, endpoint.id), after))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(Math.min(limit, DELIVERY_LOG_LIMIT) + 1);
  const deliveries = page.slice(0, Math.min(limit, DELIVERY_LOG_LIMIT));
  const nextCursor = page.length > deliveries.length ? deliveryCursor(deliveries.at(-1)!) : null;
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
    nextCursor,
  };
}

/** Sends a delivery again now, once (the same message id and body, a fresh signature); the plan must include the API. */
export async function resendDelivery(ctx: AppContext, { userId, endpointId, deliveryId, now = new Date() }: { userId: string; endpointId: string; deliveryId: string; now?: Date }) {
  const endpoint = await ownedEndpoint(ctx, userId, endpointId);
  if (!(await planIncludesApi(ctx, userId))) throw new AppError('plan_required', API_PLAN_MESSAGE);
  const delivery = await ctx.db.query.webhookDeliveries.findFirst({ where: and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)) });
  if (!delivery) throw deliveryNotFound();
  await ctx.db.update(webhookDeliveries).set({ status: 'pending', nextAttemptAt: now }).where(eq(webhookDeliveries.id, delivery.id));
  const job: WebhookDeliverPayload = { deliveryId: delivery.id, attempt: delivery.attempts + 1, resend: true };
  await enqueue(ctx.db, { type: WEBHOOK_DELIVER, payload: { ...job }, key: `${WEBHOOK_DELIVER}:${delivery.id}:resend:${now.getTime()}`, maxAttempts: 3 });
  return { id: delivery.id, status: 'pending' as const };
}

/**
 * Sends the test event (`webhook.test`, events.ts) to one endpoint now, whatever events it
 * receives and even when disabled: one attempt, not retried, logged like any delivery (its answer
 * counts for the endpoint's health). The plan must include the API; WEBHOOK_TESTS_PER_HOUR each.
 */
export async function sendTestEvent(ctx: AppContext, { userId, endpointId, now = new Date() }: { userId: string; endpointId: string; now?: Date }) {
  const endpoint = await ownedEndpoint(ctx, userId, endpointId);
  if (!(await planIncludesApi(ctx, userId))) throw new AppError('plan_required', WEBHOOK_PLAN_MESSAGE);
  await consumeRateLimit({ ctx, input: { key: `webhook-test:user:${userId}`, limit: WEBHOOK_TESTS_PER_HOUR, windowMs: 3_600_000, message: `At most ${WEBHOOK_TESTS_PER_HOUR} test events an hour. Please try again later.` } });
  const [delivery] = await ctx.db
    .insert(webhookDeliveries)
    .values({ endpointId: endpoint.id, messageId: newMessageId(), eventKey: `${WEBHOOK_TEST_EVENT}:${randomUUID()}`, type: WEBHOOK_TEST_EVENT, payload: webhookTestBody(endpoint.id, now), nextAttemptAt: now, createdAt: now })
    .returning({ id: webhookDeliveries.id });
  // A single attempt, as a resend is: no retry schedule after it.
  const job: WebhookDeliverPayload = { deliveryId: delivery!.id, attempt: 1, resend: true };
  await enqueue(ctx.db, { type: WEBHOOK_DELIVER, payload: { ...job }, key: `${WEBHOOK_DELIVER}:${delivery!.id}:1`, maxAttempts: 3 });
  return { id: delivery!.id, type: WEBHOOK_TEST_EVENT, status: 'pending' as const };
}
