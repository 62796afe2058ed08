// The agency hears of its widget leads (issue 15): one e-mail per lead (`widget.lead-notify`) or
// a daily digest (`widget.lead-digest`), as each key chooses. Leads that wait (the plan has lapsed,
// a limit was reached) say so and why: nothing is lost, and the agency knows what is queued. A
// lead is marked notified when its e-mail is sent, so each lead is announced once.
import { and, eq, inArray, isNull } from 'drizzle-orm';
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import { users } from '../../db/schema/auth.ts';
import { consultants } from '../../db/schema/consultants.ts';
import { widgetKeys, widgetLeads } from '../../db/schema/widget.ts';
import type { AppContext } from '../context.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { enqueue } from '../jobs/queue.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { LEAD_DIGEST, LEAD_NOTIFY, releaseQueuedLeads, type WidgetLeadRow } from '../services/widget.ts';
import { mailerFor, messageIdFor, type MailMessage } from './mailer.ts';
import { escapeHtml } from '../../common/html.ts';

const WAITING: Record<string, string> = {
  plan: 'Its report is waiting: your plan does not include the widget right now. It goes out as soon as the Agency plan is active again.',
  limit: "Its report is waiting: your widget reached its hourly limit. It goes out within the hour.",
  address: 'Its report is waiting: the address could not be located. Check it and add the business as a client.',
};

const line = (lead: WidgetLeadRow) => `${lead.fullName}, ${lead.company} <${lead.email}>, from ${lead.sourceHostname}`;

export function leadsEmail(ctx: AppContext, to: { userId: string; email: string }, leads: WidgetLeadRow[], key: string): MailMessage {
  const page = `${ctx.env.PUBLIC_BASE_URL}/widget`;
  const subject = leads.length === 1 ? `New lead from your widget: ${leads[0]!.company}` : `${leads.length} new leads from your widget`;
  const waiting = leads.filter((l) => l.status === 'queued');
  const text = [
    leads.length === 1 ? 'A visitor asked for a report through your website widget:' : 'Visitors asked for reports through your website widget:',
    '',
    ...leads.map((l) => `- ${line(l)}${l.status === 'queued' ? `\n  ${WAITING[l.queuedReason ?? ''] ?? 'Its report is waiting.'}` : ''}`),
    '',
    waiting.length ? `${waiting.length} of them ${waiting.length === 1 ? 'is' : 'are'} queued; nothing is lost.` : 'Each gets the full report in your branding by e-mail.',
    `See your leads: ${page}`,
    '',
    '-- ',
    `${PRODUCT_NAME}. You get these e-mails because your widget key sends lead e-mails; choose a daily digest on ${page}.`,
    `${OPERATOR.legalName}, ${OPERATOR.postalAddress}`,
  ].join('\n');
  const items = leads
    .map((l) => `<li style="margin:0 0 10px"><strong>${escapeHtml(l.fullName)}</strong>, ${escapeHtml(l.company)} &lt;${escapeHtml(l.email)}&gt;<br><span style="color:#64748b">from ${escapeHtml(l.sourceHostname)}</span>${l.status === 'queued' ? `<br><span style="color:#b45309">${escapeHtml(WAITING[l.queuedReason ?? ''] ?? 'Its report is waiting.')}</span>` : ''}</li>`)
    .join('');
  const html = `<!doctype html><html lang="en"><body style="font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
<h1 style="font-size:18px">${escapeHtml(subject)}</h1>
<ul style="padding-left:18px;font-size:15px">${items}</ul>
<p style="font-size:15px">${waiting.length ? `${waiting.length} of them ${waiting.length === 1 ? 'is' : 'are'} queued; nothing is lost.` : 'Each gets the full report in your branding by e-mail.'}</p>
<p><a href="${escapeHtml(page)}" style="background:#2563eb;color:#fff;padding:10px 16px;border-radius:8px;text-decoration:none;font-weight:600">See your leads</a></p>
<p style="color:#64748b;font-size:12px">${escapeHtml(PRODUCT_NAME)}. You get these e-mails because your widget key sends lead e-mails; choose a daily digest on your widget page.<br>${escapeHtml(`${OPERATOR.legalName}, ${OPERATOR.postalAddress}`)}</p></body></html>`;
  return { messageId: messageIdFor(ctx, `${key}-${to.userId}`), from: ctx.env.MAIL_FROM, to: to.email, subject, text, html };
}

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
