// The `provider.budget-alert` job: the operator's e-mail when the day's provider spend passes 80%
// of PROVIDER_DAILY_BUDGET_USD, and when reports start waiting for the budget or a provider's cap
// (decision 0271). Each is enqueued with a key per kind and UTC day, so every process together
// sends it once a day.
import { PRODUCT_NAME } from '../../common/constants.ts';
import type { AppContext } from '../context.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { pricesFor } from '../lib/provider-prices.ts';
import { daySpend, dollars } from '../lib/provider-spend.ts';
import { mailerFor, messageIdFor, type MailMessage } from './mailer.ts';
import { senderFor } from './report-email.ts';

export interface BudgetAlertPayload {
  kind: 'spent80' | 'waiting';
  day: string;
  /** For `waiting`: why the first report waited. */
  reason?: string;
}

export const budgetAlertKey = (kind: BudgetAlertPayload['kind'], day: string) => `provider.budget-alert:${kind}:${day}`;

export function budgetAlertEmail(ctx: AppContext, payload: BudgetAlertPayload, spend: { usd: number; calls: number }): MailMessage {
  const budget = dollars(ctx.env.PROVIDER_DAILY_BUDGET_USD);
  const subject = payload.kind === 'spent80' ? `${PRODUCT_NAME}: 80% of today's provider budget spent (${dollars(spend.usd)} of ${budget})` : `${PRODUCT_NAME}: reports are waiting for the provider budget`;
  const lines = [
    payload.kind === 'spent80'
      ? `Provider calls have cost ${dollars(spend.usd)} today (${payload.day}, UTC), ${spend.calls} calls: 80% or more of PROVIDER_DAILY_BUDGET_USD (${budget}).`
      : `Reports started waiting today (${payload.day}, UTC): ${payload.reason ?? 'the provider budget is spent'}. Today's provider spend: ${dollars(spend.usd)}, ${spend.calls} calls, of ${budget}.`,
    'Past the budget, reports are kept and made from the next UTC day (paid plans first); visitors are told theirs is coming.',
    'To make them now: raise PROVIDER_DAILY_BUDGET_USD and restart the worker. `npm run admin -- spend` shows the day per provider and SKU; `npm run admin -- jobs queued` the waiting reports.',
  ];
  return { messageId: messageIdFor(ctx, `budget-${payload.kind}-${payload.day}`), from: senderFor(ctx, null, null), to: ctx.env.OPERATOR_EMAIL, subject, text: lines.join('\n\n') };
}

export const budgetAlertJob: JobDefinition<BudgetAlertPayload> = {
  async run(ctx, job) {
    const { kind, day } = job.payload ?? {};
    if ((kind !== 'spent80' && kind !== 'waiting') || typeof day !== 'string') throw new PermanentJobError('payload needs kind and day');
    const spend = await daySpend(ctx.db, pricesFor(ctx.env), day);
    await mailerFor(ctx).send(budgetAlertEmail(ctx, job.payload, spend));
  },
};
