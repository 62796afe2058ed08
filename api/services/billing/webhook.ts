// POST /api/stripe/webhook: the signature is checked on the raw body, each event id is recorded
// once (a replay does nothing), and the subscription it concerns is read again from Stripe and
// applied by `syncSubscription`. Types we do not act on are acknowledged (2xx) and ignored.
// An event in another API version than the pinned one, or too large to keep in memory, is read
// by id: its object is fetched again in the pinned version, so its payload's shape never matters.
// An event that Stripe says does not exist when read by id (404 resource_missing: deleted, older
// than Stripe keeps, or from another account or mode signed with the same secret) can never be
// read: it is acknowledged with a log line, not refused, or Stripe would send it for days. Any
// other failure of that read (Stripe down, 5xx, a timeout) stays a 5xx, so Stripe sends it again.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type Stripe from 'stripe';
import { stripeEvents } from '../../../db/schema/billing.ts';
import type { AppContext } from '../../context.ts';
import { AppError } from '../../errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import { isMissing, STRIPE_API_VERSION, stripeFor } from './stripe.ts';
import { PAYMENT_FAILED_JOB, syncSubscription } from './subscriptions.ts';

/** Events up to this size are kept and parsed; a larger one is verified as it streams and read by id. */
export const STRIPE_EVENT_READ_BYTES = 1024 * 1024;
/** Nothing larger is read at all (413). */
export const STRIPE_WEBHOOK_MAX_BYTES = 16 * 1024 * 1024;
/** Stripe's default tolerance for an old signature, and ours for one from the future (a fast clock). */
const PAST_TOLERANCE_S = 300;
const FUTURE_TOLERANCE_S = 300;

type Meta = { ip: string };

/** `t=…,v1=…,v1=…` of a Stripe-Signature header. */
function signatureParts(header: string) {
  const parts = header.split(',').map((p) => p.split('=') as [string, string?]);
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  return { t: Number.isInteger(t) ? t : null, v1: parts.filter(([k, v]) => k === 'v1' && v).map(([, v]) => v!) };
}

function secretOf(ctx: AppContext, meta: Meta): string {
  const secret = ctx.env.STRIPE_WEBHOOK_SECRET;
  stripeFor(ctx);
  if (!secret) {
    ctx.log.error('stripe webhook refused: STRIPE_WEBHOOK_SECRET is not set', meta);
    throw new AppError('not_configured', 'The webhook signing secret is not configured.');
  }
  return secret;
}

function badSignature(ctx: AppContext, meta: Meta, reason: string): never {
  ctx.log.warn('stripe webhook refused: bad signature', { ...meta, reason });
  throw new AppError('invalid_input', 'Invalid webhook signature.');
}

/**
 * Reads the body as it streams, checking its signature (HMAC-SHA256 of `t.body`, any v1 of the
 * header, as Stripe's libraries do) on the way: up to STRIPE_EVENT_READ_BYTES the event itself,
 * beyond it only the event's id (read from Stripe next). Over STRIPE_WEBHOOK_MAX_BYTES: 413.
 */
export async function readStripeEvent(ctx: AppContext, body: ReadableStream<Uint8Array> | null, header: string | undefined, meta: Meta & { declaredBytes?: number }): Promise<{ event: Stripe.Event } | { eventId: string }> {
  const tooLarge = () => new AppError('payload_too_large', `The event is larger than ${STRIPE_WEBHOOK_MAX_BYTES / 1024 / 1024} MB.`);
  if ((meta.declaredBytes ?? 0) > STRIPE_WEBHOOK_MAX_BYTES) throw tooLarge();
  const secret = secretOf(ctx, { ip: meta.ip });
  const { t, v1 } = signatureParts(header ?? '');
  const hmac = createHmac('sha256', secret).update(`${t}.`);
  const kept: Uint8Array[] = [];
  let keptBytes = 0;
  let size = 0;
  for await (const chunk of body ?? []) {
    size += chunk.byteLength;
    if (size > STRIPE_WEBHOOK_MAX_BYTES) throw tooLarge();
    hmac.update(chunk);
    if (keptBytes < STRIPE_EVENT_READ_BYTES) {
      const part = chunk.subarray(0, STRIPE_EVENT_READ_BYTES - keptBytes);
      kept.push(part);
      keptBytes += part.byteLength;
    }
  }
  if (!header) {
    ctx.log.warn('stripe webhook refused: no Stripe-Signature header', { ip: meta.ip });
    throw new AppError('invalid_input', 'Missing Stripe-Signature header.');
  }
  // Stripe's libraries only bound a signature's age; one from more than 5 minutes ahead is refused too.
  if (t !== null && t - Date.now() / 1000 > FUTURE_TOLERANCE_S) {
    ctx.log.warn('stripe webhook refused: signature timestamp in the future', { ip: meta.ip, timestamp: t });
    throw new AppError('invalid_input', 'Invalid webhook signature.');
  }
  const expected = hmac.digest();
  const matches = v1.some((sig) => {
    const given = Buffer.from(sig, 'hex');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
  if (t === null || !matches) badSignature(ctx, { ip: meta.ip }, 'No signatures found matching the expected signature for payload');
  if (Date.now() / 1000 - t > PAST_TOLERANCE_S) badSignature(ctx, { ip: meta.ip }, 'Timestamp outside the tolerance zone');
  const text = Buffer.concat(kept).toString('utf8');
  if (size <= STRIPE_EVENT_READ_BYTES) {
    try {
      return { event: JSON.parse(text) as Stripe.Event };
    } catch {
      ctx.log.warn('stripe webhook refused: a signed body that is not JSON', meta);
      throw new AppError('invalid_input', 'The event is not JSON.');
    }
  }
  // Stripe's event JSON opens with its id.
  const eventId = /"id"\s*:\s*"(evt_\w+)"/.exec(text)?.[1];
  if (!eventId) {
    ctx.log.warn('stripe webhook refused: an oversized event without an id in its first megabyte', { ...meta, bytes: size });
    throw new AppError('invalid_input', 'The event has no id.');
  }
  ctx.log.info('stripe event over the size read in memory: reading it by id', { eventId, bytes: size });
  return { eventId };
}

const KINDS: Record<string, 'subscription' | 'invoice'> = {
  'customer.subscription.created': 'subscription',
  'customer.subscription.updated': 'subscription',
  'customer.subscription.deleted': 'subscription',
  'customer.subscription.paused': 'subscription',
  'customer.subscription.resumed': 'subscription',
  'invoice.paid': 'invoice',
  'invoice.payment_failed': 'invoice',
};

/**
 * Refuses (400, and a log line saying why) an event this code cannot read in any version: not a
 * snapshot event (a thin `v2.core.event`), or one whose object is not what its type says.
 */
function refuseUnreadable(ctx: AppContext, event: Stripe.Event, meta: Meta) {
  const object = (event as { data?: { object?: { id?: unknown; object?: unknown } } }).data?.object;
  const kind = KINDS[event.type];
  const why =
    (event as { object?: string }).object !== 'event'
      ? `a ${String((event as { object?: string }).object)}, not a snapshot event`
      : kind && (typeof object?.id !== 'string' || object.object !== kind)
        ? `its data.object is not a ${kind}`
        : null;
  if (!why) return;
  ctx.log.error(`stripe event refused: API version ${String(event.api_version)} cannot be read by this server (it reads ${STRIPE_API_VERSION} and re-reads others by id): ${why}`, {
    ...meta,
    eventId: event.id,
    type: event.type,
    apiVersion: event.api_version,
  });
  throw new AppError('invalid_input', `Event ${String(event.id)} (API version ${String(event.api_version)}) cannot be read: ${why}.`);
}

/** The subscription an event concerns (and its invoice for invoice events), or null for events we do not act on. */
async function subjectOf(ctx: AppContext, event: Stripe.Event, current: boolean): Promise<{ subscriptionId: string | null; invoice?: Stripe.Invoice }> {
  const kind = KINDS[event.type];
  const object = event.data.object as { id: string };
  if (kind === 'subscription') return { subscriptionId: object.id };
  if (kind !== 'invoice') return { subscriptionId: null };
  // Another API version's invoice (before basil: `subscription`, no `parent`): read it in ours.
  let invoice = object as Stripe.Invoice;
  if (!current) {
    try {
      invoice = await stripeFor(ctx).invoices.retrieve(object.id);
    } catch (error) {
      if (!isMissing(error)) throw error;
      return { subscriptionId: null };
    }
  }
  const subscription = invoice.parent?.subscription_details?.subscription;
  return { subscriptionId: subscription ? (typeof subscription === 'string' ? subscription : subscription.id) : null, invoice };
}

/** An event read by id; null when Stripe says there is no such event (logged: it is acknowledged unread). */
async function retrieveEvent(ctx: AppContext, eventId: string, meta: Meta): Promise<Stripe.Event | null> {
  try {
    return await stripeFor(ctx).events.retrieve(eventId);
  } catch (error) {
    if (!isMissing(error)) throw error;
    ctx.log.error('stripe event acknowledged unread: Stripe says it does not exist, so it can never be read by id (no plan was changed; POST /api/billing/sync or the next event brings the account up to date)', {
      ...meta,
      eventId,
      stripeStatus: (error as { statusCode?: number }).statusCode,
      stripeCode: (error as { code?: string }).code,
    });
    return null;
  }
}

export async function handleStripeWebhook({ ctx, body, declaredBytes, signature, ip }: { ctx: AppContext; body: ReadableStream<Uint8Array> | null; declaredBytes?: number; signature: string | undefined; ip: string }) {
  const meta = { ip };
  const read = await readStripeEvent(ctx, body, signature, { ip, declaredBytes });
  const event = 'event' in read ? read.event : await retrieveEvent(ctx, read.eventId, meta);
  if (!event) return { received: true, ignored: 'event not found at Stripe' };
  refuseUnreadable(ctx, event, meta);
  const recorded = await ctx.db.insert(stripeEvents).values({ id: event.id, type: event.type }).onConflictDoNothing().returning({ id: stripeEvents.id });
  if (!recorded.length) return { received: true, duplicate: true };
  const processed = () => ctx.db.update(stripeEvents).set({ processedAt: new Date() }).where(eq(stripeEvents.id, event.id));
  try {
    const current = 'event' in read && event.api_version === STRIPE_API_VERSION;
    if (!current && KINDS[event.type]) ctx.log.info('stripe event read by id', { eventId: event.id, type: event.type, apiVersion: event.api_version, oversized: !('event' in read) });
    const { subscriptionId, invoice } = await subjectOf(ctx, event, current);
    if (!subscriptionId) {
      await processed();
      return { received: true, ignored: event.type };
    }
    const result = await syncSubscription({ ctx, subscriptionId });
    if (!result.applied && result.reason === 'unknown subscription') {
      // Stripe's retries would not change that: acknowledged (logged by syncSubscription).
      await processed();
      return { received: true, ignored: 'unknown subscription' };
    }
    // A renewal that failed (not a first payment refused on the payment page, which says so there).
    if (event.type === 'invoice.payment_failed' && result.userId && invoice && invoice.billing_reason !== 'subscription_create') {
      // One e-mail per failed attempt of an invoice, whatever the number of deliveries.
      const attempt = (event.data.object as Partial<Stripe.Invoice>).attempt_count ?? invoice.attempt_count;
      await enqueue(ctx.db, { type: PAYMENT_FAILED_JOB, payload: { userId: result.userId, invoiceId: invoice.id }, key: `${PAYMENT_FAILED_JOB}:${invoice.id}:${attempt}` });
    }
    await processed();
    return { received: true };
  } catch (error) {
    // Not processed: forget the id so Stripe's retry of this event is handled.
    await ctx.db.delete(stripeEvents).where(eq(stripeEvents.id, event.id));
    throw error;
  }
}
