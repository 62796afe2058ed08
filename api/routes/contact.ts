import { Hono } from 'hono';
import { contactMessageSchema } from '../../common/schemas/contact.ts';
import type { AppContext } from '../context.ts';
import { clientIp } from '../lib/client-info.ts';
import { validate } from '../lib/validate.ts';
import { submitContactMessage } from '../services/contact-messages.ts';

export function contactRoutes(ctx: AppContext) {
  return new Hono().post('/contact', validate('json', contactMessageSchema), async (c) => {
    const result = await submitContactMessage({ ctx, input: c.req.valid('json'), sender: { ip: clientIp(c, ctx.env.TRUST_PROXY) } });
    c.header('Cache-Control', 'no-store');
    return c.json({ id: result.messageId, status: 'received' }, 201);
  });
}
