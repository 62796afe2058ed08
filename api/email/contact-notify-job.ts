// The `contact.notify` job: e-mails the operator a message stored by the contact form, once
// (`notified_at` is claimed atomically before sending and released if the send fails).
import { and, eq, isNull } from 'drizzle-orm';
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import { CONTACT_SUBJECTS } from '../../common/schemas/contact-rules.ts';
import { contactMessages } from '../../db/schema/operations.ts';
import type { AppContext } from '../context.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { PermanentJobError } from '../jobs/errors.ts';
import { mailerFor, messageIdFor, type MailMessage } from './mailer.ts';
import { escapeHtml } from '../../common/html.ts';

export interface ContactNotifyPayload {
  messageId: string;
}

type ContactMessage = typeof contactMessages.$inferSelect;

export function contactNotifyEmail(ctx: AppContext, m: ContactMessage): MailMessage {
  // The subject as the sender picked it in the form ('Billing Question'), not its stored value.
  const topic = CONTACT_SUBJECTS.find((s) => s.value === m.subject)?.label ?? m.subject;
  const subject = `[${PRODUCT_NAME} contact] ${topic}: ${m.name}`;
  const received = m.createdAt.toISOString();
  // The visitor's message, set out as mail clients forward one (spam filters read a Reply-To at a
  // free-mail address on a forwarded message as what it is).
  const text = ['---------- Original message ----------', `From: ${m.name} <${m.email}>`, `Subject: ${topic}`, `Received: ${received}`, '', m.message, '', '-- ', `Reply to this e-mail to answer ${m.name}.`, `${OPERATOR.legalName}, ${OPERATOR.postalAddress}`].join('\n');
  const html = `<!doctype html><html lang="en"><body style="font-family:Inter,Segoe UI,Helvetica,Arial,sans-serif;color:#0f172a">
<h1 style="font-size:18px">New contact message</h1>
<p style="color:#64748b;font-size:13px">---------- Original message ----------</p>
<table cellpadding="4" style="font-size:14px"><tr><td><strong>From</strong></td><td>${escapeHtml(m.name)} &lt;${escapeHtml(m.email)}&gt;</td></tr>
<tr><td><strong>Subject</strong></td><td>${escapeHtml(topic)}</td></tr><tr><td><strong>Received</strong></td><td>${escapeHtml(received)}</td></tr></table>
<p style="white-space:pre-wrap;font-size:15px;border-left:3px solid #3B82F6;padding-left:12px">${escapeHtml(m.message)}</p>
<p style="color:#64748b;font-size:12px">Reply to this e-mail to answer ${escapeHtml(m.name)}.<br>${escapeHtml(`${OPERATOR.legalName}, ${OPERATOR.postalAddress}`)}</p></body></html>`;
  return { messageId: messageIdFor(ctx, `contact-${m.id}`), from: ctx.env.MAIL_FROM, to: ctx.env.OPERATOR_EMAIL, replyTo: { name: m.name, address: m.email }, subject, text, html };
}

export const contactNotifyJob: JobDefinition<ContactNotifyPayload> = {
  async run(ctx, job) {
    const id = job.payload?.messageId;
    if (typeof id !== 'string') throw new PermanentJobError('payload needs messageId');
    const claimed = await ctx.db
      .update(contactMessages)
      .set({ notifiedAt: new Date() })
      .where(and(eq(contactMessages.id, id), isNull(contactMessages.notifiedAt)))
      .returning();
    const message = claimed[0];
    if (!message) {
      const exists = await ctx.db.query.contactMessages.findFirst({ where: eq(contactMessages.id, id) });
      if (!exists) throw new PermanentJobError(`contact message ${id} not found`);
      return; // already notified
    }
    try {
      await mailerFor(ctx).send(contactNotifyEmail(ctx, message));
    } catch (error) {
      await ctx.db.update(contactMessages).set({ notifiedAt: null }).where(eq(contactMessages.id, id));
      throw error;
    }
  },
};
