// An outbox message's raw .eml (`raw`) or one of its attachments (by index).
import type { APIRoute } from 'astro';
import { mailboxEnabled, readOutboxMessage } from '../../../../../api/email/outbox.ts';
import { clientAddress, getContext } from '../../../../lib/server-context.ts';

const notFound = () => new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain' } });

export const GET: APIRoute = async (context) => {
  const { params } = context;
  const ctx = await getContext();
  if (!mailboxEnabled(ctx, { clientAddress: clientAddress(context), headers: context.request.headers })) return notFound();
  const found = await readOutboxMessage(ctx, params.file ?? '');
  if (!found) return notFound();
  if (params.part === 'raw') {
    return new Response(new Uint8Array(found.raw), { headers: { 'Content-Type': 'message/rfc822', 'Content-Disposition': `attachment; filename="${params.file}"` } });
  }
  const attachment = /^\d+$/.test(params.part ?? '') ? found.email.attachments[Number(params.part)] : undefined;
  if (!attachment) return notFound();
  const body = typeof attachment.content === 'string' ? new TextEncoder().encode(attachment.content) : new Uint8Array(attachment.content as ArrayBuffer);
  const name = (attachment.filename ?? 'attachment').replace(/["\\\r\n]/g, '');
  return new Response(body, { headers: { 'Content-Type': attachment.mimeType, 'Content-Disposition': `inline; filename="${name}"`, 'X-Content-Type-Options': 'nosniff' } });
};
