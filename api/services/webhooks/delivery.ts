// The `webhook.deliver` job: one attempt at one delivery, signed per Standard Webhooks
// (webhook-id, webhook-timestamp, webhook-signature) and sent through the safe fetcher (public
// addresses only; no redirects). Every attempt is logged. A failure schedules the next attempt
// (WEBHOOK_RETRY_DELAYS_MS, about three days in all, like the specification's reference
// schedule); an endpoint whose deliveries have all failed for the whole window is disabled and
// its owner e-mailed. Decision 0121.
import { and, eq, isNull } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { webhookAttempts, webhookDeliveries, webhookEndpoints } from '../../../db/schema/api.ts';
import type { AppContext } from '../../context.ts';
import { WEBHOOK_DISABLED, type WebhookDisabledPayload } from '../../email/webhook-disabled.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { JobDefinition } from '../../jobs/types.ts';
import { PermanentJobError } from '../../jobs/errors.ts';
import { safeFetch } from '../../lib/safe-fetch.ts';
import { signingSecrets, WEBHOOK_DELIVER, webhookUrlRules, type WebhookDeliverPayload, type WebhookFetchOptions } from './webhooks.ts';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
/** The wait before each retry: 9 retries over 71.6 hours, about three days. */
export const WEBHOOK_RETRY_DELAYS_MS = [5 * SECOND, 5 * MINUTE, 30 * MINUTE, 2 * HOUR, 5 * HOUR, 10 * HOUR, 10 * HOUR, 14 * HOUR, 30 * HOUR] as const;
export const WEBHOOK_FAILURE_WINDOW_MS = WEBHOOK_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
export const WEBHOOK_TIMEOUT_MS = 10_000;
const EXCERPT_CHARS = 500;

export { webhookUrlRules, type WebhookFetchOptions } from './webhooks.ts';

export function webhookDeliverJob(testFetchOptions?: WebhookFetchOptions): JobDefinition<WebhookDeliverPayload> {
  return {
    async run(ctx, job) {
      const fetchOptions = webhookUrlRules(ctx.env, testFetchOptions);
      const { deliveryId, attempt, resend } = job.payload;
      if (typeof deliveryId !== 'string' || !Number.isInteger(attempt)) throw new PermanentJobError('payload needs deliveryId and attempt');
      const delivery = await ctx.db.query.webhookDeliveries.findFirst({ where: eq(webhookDeliveries.id, deliveryId) });
      if (!delivery || (delivery.status === 'delivered' && !resend)) return;
      const endpoint = await ctx.db.query.webhookEndpoints.findFirst({ where: eq(webhookEndpoints.id, delivery.endpointId) });
      if (!endpoint) return;
      if (endpoint.disabledAt && !resend) {
        await ctx.db.update(webhookDeliveries).set({ status: 'failed', nextAttemptAt: null }).where(eq(webhookDeliveries.id, delivery.id));
        return;
      }

      const now = new Date();
      const started = performance.now();
      let status: number | null = null;
      let excerpt: string;
      try {
        const res = await safeFetch(endpoint.url, {
          ...fetchOptions,
          method: 'POST',
          body: delivery.payload,
          maxRedirects: 0,
          timeoutMs: WEBHOOK_TIMEOUT_MS,
          maxBytes: 64 * 1024,
          headers: {
            'content-type': 'application/json',
            accept: '*/*',
            'webhook-id': delivery.messageId,
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            // One signature per valid secret, space-separated (two during a rotation's overlap).
            'webhook-signature': signingSecrets(endpoint, now)
              .map((secret) => new Webhook(secret).sign(delivery.messageId, now, delivery.payload))
              .join(' '),
          },
        });
        status = res.status;
        excerpt = res.text().slice(0, EXCERPT_CHARS);
      } catch (error) {
        excerpt = `No answer: ${error instanceof Error ? error.message : String(error)}`.slice(0, EXCERPT_CHARS);
      }
      const durationMs = Math.round(performance.now() - started);
      const ok = status !== null && status >= 200 && status < 300;
      await ctx.db.insert(webhookAttempts).values({ deliveryId: delivery.id, at: now, responseStatus: status, excerpt, durationMs });

      if (ok) {
        await ctx.db.batch([
          ctx.db.update(webhookDeliveries).set({ status: 'delivered', attempts: attempt, nextAttemptAt: null }).where(eq(webhookDeliveries.id, delivery.id)),
          ctx.db.update(webhookEndpoints).set({ failingSince: null }).where(eq(webhookEndpoints.id, endpoint.id)),
        ]);
        return;
      }
      await ctx.db.update(webhookEndpoints).set({ failingSince: now }).where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.failingSince)));
      const delay = resend ? undefined : WEBHOOK_RETRY_DELAYS_MS[attempt - 1];
      if (delay !== undefined) {
        const runAt = new Date(now.getTime() + delay);
        await ctx.db.update(webhookDeliveries).set({ attempts: attempt, nextAttemptAt: runAt }).where(eq(webhookDeliveries.id, delivery.id));
        const next: WebhookDeliverPayload = { deliveryId: delivery.id, attempt: attempt + 1 };
        await enqueue(ctx.db, { type: WEBHOOK_DELIVER, payload: { ...next }, key: `${WEBHOOK_DELIVER}:${delivery.id}:${attempt + 1}`, runAt, maxAttempts: 3 });
        return;
      }
      await ctx.db.update(webhookDeliveries).set({ status: 'failed', attempts: attempt, nextAttemptAt: null }).where(eq(webhookDeliveries.id, delivery.id));
      await disableIfFailingTooLong(ctx, endpoint.id, now);
    },
  };
}

/** Disables the endpoint (and e-mails its owner once) when it has failed for the whole window. */
async function disableIfFailingTooLong(ctx: AppContext, endpointId: string, now: Date) {
  const endpoint = await ctx.db.query.webhookEndpoints.findFirst({ where: eq(webhookEndpoints.id, endpointId) });
  if (!endpoint?.failingSince || endpoint.disabledAt) return;
  if (now.getTime() - endpoint.failingSince.getTime() < WEBHOOK_FAILURE_WINDOW_MS) return;
  const [disabled] = await ctx.db
    .update(webhookEndpoints)
    .set({ disabledAt: now })
    .where(and(eq(webhookEndpoints.id, endpoint.id), isNull(webhookEndpoints.disabledAt)))
    .returning({ id: webhookEndpoints.id });
  if (!disabled) return;
  const payload: WebhookDisabledPayload = { endpointId: endpoint.id };
  await enqueue(ctx.db, { type: WEBHOOK_DISABLED, payload: { ...payload }, key: `${WEBHOOK_DISABLED}:${endpoint.id}:${now.getTime()}` });
}
