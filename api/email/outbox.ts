// Reading the outbox (DATA_DIR/outbox/*.eml) for the development mailbox page.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import PostalMime, { type Email } from 'postal-mime';
import type { AppContext } from '../context.ts';
import { outboxDir } from './mailer.ts';

export interface OutboxEntry {
  file: string;
  subject: string;
  from: string;
  to: string;
  date: string;
  attachments: number;
  size: number;
}

const FILE_NAME = /^[A-Za-z0-9._-]+\.eml$/;
export const MAILBOX_LIMIT = 100;

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|::ffff:127\.\d{1,3}\.\d{1,3}\.\d{1,3})$/;

/**
 * The dev mailbox shows every e-mail the product wrote, report links and tokens included, so it
 * answers only when asked for (DEV_MAILBOX=true, which `npm run dev` sets; never in production)
 * and only to a browser on this machine: a loopback peer that no proxy forwarded (behind a proxy
 * on the same machine every visitor would look local).
 */
export function mailboxEnabled(ctx: AppContext, request: { clientAddress: string | undefined; headers: Headers }): boolean {
  if (!ctx.env.DEV_MAILBOX || ctx.env.NODE_ENV === 'production') return false;
  if (request.headers.has('x-forwarded-for') || request.headers.has('forwarded') || request.headers.has('x-real-ip')) return false;
  return LOOPBACK.test(request.clientAddress ?? '');
}

const address = (a: { name?: string; address?: string } | undefined) => (a ? (a.name ? `${a.name} <${a.address}>` : (a.address ?? '')) : '');

function files(ctx: AppContext): string[] {
  try {
    return readdirSync(outboxDir(ctx)).filter((f) => FILE_NAME.test(f) && !f.startsWith('.'));
  } catch {
    return [];
  }
}

export async function readOutboxMessage(ctx: AppContext, file: string): Promise<{ email: Email; raw: Buffer } | null> {
  if (!FILE_NAME.test(file) || !files(ctx).includes(file)) return null;
  const raw = readFileSync(join(outboxDir(ctx), file));
  return { email: await PostalMime.parse(raw), raw };
}

/** Newest first. */
export async function listOutbox(ctx: AppContext): Promise<OutboxEntry[]> {
  const names = files(ctx).sort().reverse().slice(0, MAILBOX_LIMIT);
  return Promise.all(
    names.map(async (file) => {
      const raw = readFileSync(join(outboxDir(ctx), file));
      const email = await PostalMime.parse(raw);
      return {
        file,
        subject: email.subject ?? '(no subject)',
        from: address(email.from as { name?: string; address?: string } | undefined),
        to: (email.to ?? []).map((a) => address(a as { name?: string; address?: string })).join(', '),
        date: email.date ?? statSync(join(outboxDir(ctx), file)).mtime.toISOString(),
        attachments: email.attachments.length,
        size: raw.length,
      };
    }),
  );
}

/** The message's HTML with its cid: images turned into data: URLs, for showing in a sandboxed frame. */
export function htmlWithInlineImages(email: Email): string | null {
  if (!email.html) return null;
  let html = email.html;
  for (const a of email.attachments) {
    if (!a.contentId) continue;
    const cid = a.contentId.replace(/^<|>$/g, '');
    const bytes = typeof a.content === 'string' ? Buffer.from(a.content) : Buffer.from(a.content as ArrayBuffer);
    html = html.split(`cid:${cid}`).join(`data:${a.mimeType};base64,${bytes.toString('base64')}`);
  }
  return html;
}
