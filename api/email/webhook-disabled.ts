// `webhook.disabled`: tells an endpoint's owner that it was disabled after failing for the whole
// retry window, and how to turn it back on (rotate its secret, or create it again).
import { eq } from 'drizzle-orm';
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import { webhookEndpoints } from '../../db/schema/api.ts';
import { users } from '../../db/schema/auth.ts';
import type { AppContext } from '../context.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { mailerFor, messageIdFor, type MailMessage } from './mailer.ts';
import { escapeHtml } from '../../common/html.ts';

export const WEBHOOK_DISABLED = 'webhook.disabled';
export interface WebhookDisabledPayload {
  endpointId: string;
}

/** The e-mail itself (also built by `npm run spam-scores`). */
export function webhookDisabledEmail(ctx: AppContext, p: { endpointId: string; url: string; disabledAt: Date; to: string }): MailMessage {
  const page = `${ctx.env.PUBLIC_BASE_URL}/account#api-keys`;
  const subject = `Your ${PRODUCT_NAME} webhook endpoint was disabled`;
  const lines = [
    `We could not deliver events to your webhook endpoint ${p.url} for three days, so we have stopped sending to it.`,
    'Events that happened meanwhile are in its delivery log, where you can send each one again.',
    'To turn the endpoint back on, fix the receiver and rotate the endpoint\'s secret through the API (POST /api/v1/webhooks/{id}/rotate-secret).',
  ];
  const footer = `${OPERATOR.legalName}, ${OPERATOR.postalAddress}`;
  return {
    messageId: messageIdFor(ctx, `webhook-disabled-${p.endpointId}-${p.disabledAt.getTime()}`),
    from: ctx.env.MAIL_FROM,
    to: p.to,
    subject,
    text: [...lines.flatMap((l) => [l, '']), `Delivery log: ${page}`, '', '-- ', footer].join('\n'),
    html: `<!doctype html><html lang="en"><body style="font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
<h1 style="font-size:20px">Webhook endpoint disabled</h1>
${lines.map((l) => `<p style="font-size:15px;color:#334155">${escapeHtml(l)}</p>`).join('\n')}
<p><a href="${escapeHtml(page)}">Open the delivery log</a></p>
<p style="font-size:12px;color:#64748b">${escapeHtml(footer)}</p>
</body></html>`,
  };
}

export const webhookDisabledJob: JobDefinition<WebhookDisabledPayload> = {
  async run(ctx, job) {
    const endpoint = await ctx.db.query.webhookEndpoints.findFirst({ where: eq(webhookEndpoints.id, job.payload.endpointId) });
    if (!endpoint?.disabledAt) return;
    const owner = await ctx.db.query.users.findFirst({ where: eq(users.id, endpoint.userId) });
    if (!owner) throw new PermanentJobError('owner not found');
    await mailerFor(ctx).send(webhookDisabledEmail(ctx, { endpointId: endpoint.id, url: endpoint.url, disabledAt: endpoint.disabledAt, to: owner.email }));
  },
};
