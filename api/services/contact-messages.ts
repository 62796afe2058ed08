// The contact form: rate limits, then the message and its `contact.notify` job written together
// in one batch (one transaction), so a stored message always reaches the operator's inbox.
import { randomUUID } from 'node:crypto';
import type { ContactMessage } from '../../common/schemas/contact.ts';
import { contactMessages } from '../../db/schema/operations.ts';
import type { AppContext } from '../context.ts';
import type { ContactNotifyPayload } from '../email/contact-notify-job.ts';
import { enqueueStatement } from '../jobs/queue.ts';
import { consumeRateLimits } from './rate-limit.ts';

export const CONTACT_WINDOW_MS = 60 * 60 * 1000;

export async function submitContactMessage({ ctx, input, sender }: { ctx: AppContext; input: ContactMessage; sender: { ip: string } }) {
  await consumeRateLimits({
    ctx,
    input: [
      {
        key: `contact:ip:${sender.ip}`,
        limit: ctx.env.CONTACT_RATE_LIMIT_PER_IP,
        windowMs: CONTACT_WINDOW_MS,
        message: 'Too many messages from your network. Please try again in an hour.',
      },
      {
        key: `contact:email:${input.email}`,
        limit: ctx.env.CONTACT_RATE_LIMIT_PER_EMAIL,
        windowMs: CONTACT_WINDOW_MS,
        message: 'Too many messages from this email address. Please try again in an hour.',
      },
    ],
  });
  const messageId = randomUUID();
  const payload: ContactNotifyPayload = { messageId };
  await ctx.db.batch([
    ctx.db.insert(contactMessages).values({ id: messageId, ...input, ipAddress: sender.ip }),
    enqueueStatement(ctx.db, { type: 'contact.notify', payload: { ...payload }, key: `contact.notify:${messageId}` }),
  ]);
  return { messageId };
}
