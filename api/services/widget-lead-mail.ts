// The agency hears of its widget leads (issue 15): one e-mail per lead (`widget.lead-notify`) or
// a daily digest (`widget.lead-digest`), as each key chooses. A lead is marked notified when its
// e-mail is sent, so each lead is announced once. The message is built by api/email/lead-emails.ts.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { users } from '../../db/schema/auth.ts';
import { consultants } from '../../db/schema/consultants.ts';
import { widgetKeys, widgetLeads } from '../../db/schema/widget.ts';
import type { AppContext } from '../context.ts';
import { leadsEmail } from '../email/lead-emails.ts';
import { mailerFor } from '../email/mailer.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { enqueue } from '../jobs/queue.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { LEAD_DIGEST, LEAD_NOTIFY, releaseQueuedLeads } from './widget.ts';

async function agencyAccount(ctx: AppContext, consultantId: string) {
  const [row] = await ctx.db
    .select({ userId: users.id, email: users.email })
    .from(consultants)
    .innerJoin(users, eq(users.id, consultants.userId))
    .where(eq(consultants.id, consultantId));
  return row;
}

/** Claims the leads (notifiedAt), sends, and releases them if the send fails. */
async function announce(ctx: AppContext, consultantId: string, leadIds: string[], key: string) {
  const to = await agencyAccount(ctx, consultantId);
  if (!to || leadIds.length === 0) return 0;
  const now = new Date();
  const claimed = await ctx.db
    .update(widgetLeads)
    .set({ notifiedAt: now })
    .where(and(inArray(widgetLeads.id, leadIds), isNull(widgetLeads.notifiedAt)))
    .returning();
  if (claimed.length === 0) return 0;
  claimed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime());
  try {
    await mailerFor(ctx).send(leadsEmail(ctx, to, claimed, key));
  } catch (error) {
    await ctx.db.update(widgetLeads).set({ notifiedAt: null }).where(inArray(widgetLeads.id, claimed.map((l) => l.id)));
    throw error;
  }
  return claimed.length;
}

export interface LeadNotifyPayload {
  leadId: string;
}
export interface LeadDigestPayload {
  consultantId: string;
  day: string;
}

export const leadNotifyJob: JobDefinition<LeadNotifyPayload> = {
  async run(ctx, job, tools) {
    const leadId = job.payload?.leadId;
    if (typeof leadId !== 'string') throw new PermanentJobError('payload needs leadId');
    const lead = await ctx.db.query.widgetLeads.findFirst({ where: eq(widgetLeads.id, leadId) });
    if (!lead) throw new PermanentJobError(`lead ${leadId} not found`);
    const sent = await announce(ctx, lead.consultantId, [lead.id], `lead-${lead.id}`);
    await tools.saveProgress({ stage: sent ? 'sent' : 'skipped' });
  },
};

export const leadDigestJob: JobDefinition<LeadDigestPayload> = {
  async run(ctx, job, tools) {
    const { consultantId, day } = job.payload ?? ({} as LeadDigestPayload);
    if (typeof consultantId !== 'string' || typeof day !== 'string') throw new PermanentJobError('payload needs consultantId and day');
    const pending = await ctx.db
      .select({ id: widgetLeads.id })
      .from(widgetLeads)
      .innerJoin(widgetKeys, eq(widgetKeys.id, widgetLeads.widgetKeyId))
      .where(and(eq(widgetLeads.consultantId, consultantId), isNull(widgetLeads.notifiedAt), eq(widgetKeys.leadEmails, 'daily')));
    const sent = await announce(ctx, consultantId, pending.map((p) => p.id), `leads-${consultantId}-${day}`);
    await tools.saveProgress({ stage: sent ? 'sent' : 'skipped', leads: sent });
  },
};

/**
 * The scheduler's part: requests the reports of queued leads the agency may now have, and once a
 * day (keyed by the date) a digest for every agency with unannounced leads on daily keys.
 */
export async function scheduleWidgetLeads(ctx: AppContext, now: Date): Promise<{ released: number; digests: number }> {
  const released = await releaseQueuedLeads(ctx);
  const day = now.toISOString().slice(0, 10);
  const rows = await ctx.db
    .selectDistinct({ consultantId: widgetLeads.consultantId })
    .from(widgetLeads)
    .innerJoin(widgetKeys, eq(widgetKeys.id, widgetLeads.widgetKeyId))
    .where(and(isNull(widgetLeads.notifiedAt), eq(widgetKeys.leadEmails, 'daily')));
  let digests = 0;
  for (const { consultantId } of rows) {
    const payload: LeadDigestPayload = { consultantId, day };
    if (await enqueue(ctx.db, { type: LEAD_DIGEST, payload: { ...payload }, key: `${LEAD_DIGEST}:${consultantId}:${day}` })) digests++;
  }
  return { released, digests };
}

export const LEAD_JOBS = { [LEAD_NOTIFY]: leadNotifyJob, [LEAD_DIGEST]: leadDigestJob };
