// Sending mail. With SMTP_URL set, nodemailer's SMTP transport; without it, every message is
// written to DATA_DIR/outbox/ as an .eml file (what the dev mailbox page lists).
import { existsSync, mkdirSync, readdirSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type Mail from 'nodemailer/lib/mailer';
import type { AppContext } from '../context.ts';
import { MailUnavailableError, mailServerUnavailable } from '../jobs/faults.ts';

export type MailMessage = Mail.Options & { messageId: string };

export interface Mailer {
  kind: 'smtp' | 'outbox';
  send: (message: MailMessage) => Promise<{ messageId: string; file?: string }>;
  /** true/false when the transport can tell whether a message went out; null when it cannot (SMTP). */
  wasDelivered: (messageId: string) => boolean | null;
  close: () => void;
}

export const outboxDir = (ctx: AppContext) => join(ctx.env.DATA_DIR, 'outbox');

/** A file-name-safe form of a Message-ID, the outbox file's suffix. */
export const messageFileKey = (messageId: string) => messageId.replace(/^<|>$/g, '').replace(/[^A-Za-z0-9._-]+/g, '_');

function outboxMailer(ctx: AppContext): Mailer {
  const dir = outboxDir(ctx);
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  const find = (messageId: string) => {
    if (!existsSync(dir)) return undefined;
    const suffix = `-${messageFileKey(messageId)}.eml`;
    return readdirSync(dir).find((f) => f.endsWith(suffix));
  };
  return {
    kind: 'outbox',
    async send(message) {
      const info = await transport.sendMail(message);
      mkdirSync(dir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${messageFileKey(message.messageId)}.eml`;
      const tmp = join(dir, `.${name}.tmp`);
      writeFileSync(tmp, info.message as Buffer);
      renameSync(tmp, join(dir, name)); // whole file or none: the mailbox never lists half a message
      return { messageId: message.messageId, file: join(dir, name) };
    },
    wasDelivered: (messageId) => find(messageId) !== undefined,
    close: () => transport.close(),
  };
}

function smtpMailer(url: string, deadlineMs: number): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(message) {
      // One deadline for the whole conversation (decision 0210): a server that keeps answering a
      // line at a time would otherwise hold the job for as long as it likes.
      const signal = AbortSignal.timeout(deadlineMs);
      const info = await transport.sendMail({ ...message, signal }).catch((error: unknown) => {
        if (signal.aborted) throw new MailUnavailableError(`the mail server is unavailable: it did not finish within ${deadlineMs / 1000} s`, { cause: error });
        // Refused, timed out, "try again later" (4xx): the job waits for the server (api/jobs/faults.ts).
        if (mailServerUnavailable(error)) throw new MailUnavailableError(`the mail server is unavailable: ${(error as Error).message}`, { cause: error });
        throw error;
      });
      if (info.rejected.length > 0) throw new Error(`the mail server rejected ${info.rejected.join(', ')}`);
      return { messageId: message.messageId };
    },
    wasDelivered: () => null,
    close: () => transport.close(),
  };
}

const mailers = new WeakMap<AppContext, Mailer>();

/** The process's mailer for this context (one SMTP connection pool, or the outbox). */
export function mailerFor(ctx: AppContext): Mailer {
  let mailer = mailers.get(ctx);
  if (!mailer) {
    mailer = ctx.env.SMTP_URL ? smtpMailer(ctx.env.SMTP_URL, ctx.env.SMTP_DEADLINE_MS) : outboxMailer(ctx);
    mailers.set(ctx, mailer);
  }
  return mailer;
}

export function closeMailer(ctx: AppContext): void {
  mailers.get(ctx)?.close();
  mailers.delete(ctx);
}

/** A Message-ID of our own, stable for a given key so a retried send can be recognised. Its
 *  domain is our host, or the sender's (white-label mail names nothing of ours). */
export function messageIdFor(ctx: AppContext, key: string, domain = new URL(ctx.env.PUBLIC_BASE_URL).hostname): string {
  return `<${key}@${domain}>`;
}

/** The domain of an e-mail address. */
export const domainOf = (address: string) => address.slice(address.lastIndexOf('@') + 1).toLowerCase();
