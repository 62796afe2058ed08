import { Hono } from 'hono';
import { contactMessageSchema } from '../../common/schemas/contact.ts';
import { escapeHtml } from '../../common/html.ts';
import { fieldErrors } from '../../common/zod.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import { clientIp } from '../lib/client-info.ts';
import { validate } from '../lib/validate.ts';
import { submitContactMessage } from '../services/contact-messages.ts';

/** Where a form posted without JavaScript lands once the message is stored (a pre-rendered page). */
export const CONTACT_SENT_PAGE = '/contact/sent';

const LABELS: Record<string, string> = { name: 'Name', email: 'Email', subject: 'Subject', message: 'Message' };

/** The answer to a form posted without JavaScript that was refused: the reasons, and the way back
 *  (the browser's Back keeps what was typed). */
function refusedPage(message: string, fields: Record<string, string> = {}) {
  const items = Object.entries(fields).map(([name, text]) => `<li>${escapeHtml(LABELS[name] ?? name)}: ${escapeHtml(text)}</li>`).join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="robots" content="noindex"><title>Message not sent · LocalRank</title></head>
<body><main><h1>Your message was not sent</h1><p>${escapeHtml(message)}</p>${items ? `<ul>${items}</ul>` : ''}<p><a href="/contact">Back to the contact form</a></p></main></body></html>`;
}

export function contactRoutes(ctx: AppContext) {
  return new Hono().post(
    '/contact',
    // The contact page's form before its script has loaded (it hydrates on interaction): a plain
    // form post, checked by the same schema, answered with a page instead of JSON.
    async (c, next) => {
      if ((c.req.header('content-type') ?? '').split(';')[0]!.trim().toLowerCase() !== 'application/x-www-form-urlencoded') return next();
      c.header('Cache-Control', 'no-store');
      // A plain form post needs no preflight, so another site could make its visitors send one:
      // only our own page's is taken (browsers send Sec-Fetch-Site and Origin with every post).
      const site = c.req.header('sec-fetch-site');
      const origin = c.req.header('origin');
      if ((site && site !== 'same-origin') || (origin && origin !== new URL(ctx.env.PUBLIC_BASE_URL).origin)) {
        return c.html(refusedPage('This form can only be sent from our contact page.'), 403);
      }
      const form = await c.req.parseBody();
      const fields = Object.fromEntries(['name', 'email', 'subject', 'message'].map((name) => [name, typeof form[name] === 'string' ? form[name] : '']));
      const parsed = contactMessageSchema.safeParse(fields);
      if (!parsed.success) return c.html(refusedPage('Please check these fields.', fieldErrors(parsed.error)), 400);
      try {
        await submitContactMessage({ ctx, input: parsed.data, sender: { ip: clientIp(c, ctx.env.TRUST_PROXY) } });
      } catch (error) {
        if (!(error instanceof AppError) || error.status >= 500) throw error;
        if (error.retryAfterSeconds) c.header('Retry-After', String(error.retryAfterSeconds));
        return c.html(refusedPage(error.message, error.fields), error.status as 400);
      }
      return c.redirect(CONTACT_SENT_PAGE, 303);
    },
    validate('json', contactMessageSchema),
    async (c) => {
      const result = await submitContactMessage({ ctx, input: c.req.valid('json'), sender: { ip: clientIp(c, ctx.env.TRUST_PROXY) } });
      c.header('Cache-Control', 'no-store');
      return c.json({ id: result.messageId, status: 'received' }, 201);
    },
  );
}
