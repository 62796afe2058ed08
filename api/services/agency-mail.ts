// An agency's own SMTP server for its white-label mail (issue 25, decision 0170): stored with the
// password encrypted (AES-256-GCM, key from MAIL_SECRET_KEY), tested with "Send a test", and used
// by every white-label e-mail of that agency. The password never leaves the server again: not in
// an answer, an export, a log line or an error message.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { eq } from 'drizzle-orm';
import nodemailer, { type Transporter } from 'nodemailer';
import type { MailServerInput } from '../../common/schemas/branding.ts';
import { agencyMailServers } from '../../db/schema/consultants.ts';
import type { AppContext } from '../context.ts';
import { AppError } from '../errors.ts';
import type { Mailer, MailMessage } from '../email/mailer.ts';
import { addressRefusal } from '../lib/safe-fetch.ts';
import type { ConsultantAccess } from './consultant-access.ts';

type ServerRow = typeof agencyMailServers.$inferSelect;

export interface MailServerView {
  host: string;
  port: number;
  security: ServerRow['security'];
  username: string | null;
  hasPassword: boolean;
  fromAddress: string;
  testedAt: string | null;
  lastError: string | null;
}

/** How long a connection or an answer of the agency's server may take. */
const SMTP_TIMEOUT_MS = 15_000;

const keyOf = (ctx: AppContext) => {
  if (!ctx.env.MAIL_SECRET_KEY) return null;
  return createHash('sha256').update(`agency-mail:${ctx.env.MAIL_SECRET_KEY}`).digest();
};

/** `v1.{iv}.{tag}.{ciphertext}`, base64url. */
export function encryptSecret(ctx: AppContext, plain: string): string {
  const key = keyOf(ctx);
  if (!key) throw new Error('MAIL_SECRET_KEY is not set');
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), body].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

/** The plain secret, or null when it cannot be read (no key, another key, a damaged value). */
export function decryptSecret(ctx: AppContext, stored: string): string | null {
  const key = keyOf(ctx);
  const [version, iv, tag, body] = stored.split('.');
  if (!key || version !== 'v1' || !iv || !tag || body === undefined) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

const view = (row: ServerRow): MailServerView => ({
  host: row.host,
  port: row.port,
  security: row.security,
  username: row.username,
  hasPassword: row.passwordEncrypted !== null,
  fromAddress: row.fromAddress,
  testedAt: row.testedAt?.toISOString() ?? null,
  lastError: row.lastError,
});

const rowOf = (ctx: AppContext, consultantId: string) => ctx.db.query.agencyMailServers.findFirst({ where: eq(agencyMailServers.consultantId, consultantId) });

export async function getMailServer(ctx: AppContext, access: ConsultantAccess) {
  const row = await rowOf(ctx, access.consultant.id);
  return { server: row ? view(row) : null, canStorePassword: keyOf(ctx) !== null, fallbackFrom: whiteLabelAddress(ctx) };
}

/** Why an address may not be an agency's mail server's (private, loopback, link-local…), or null. */
const privateRefusal = (ctx: AppContext, address: string) => (ctx.env.AGENCY_MAIL_PRIVATE_ADDRESSES.includes(address) ? null : addressRefusal(address));

/** What refuses a mail server's address: said as it is to the agency (nothing secret in it). */
class MailHostRefused extends Error {}

/**
 * The address an agency's mail server is connected at: its host's, when every address the host
 * has is public (the website fetcher's rules, decision 0204), else MailHostRefused. The connection
 * is made to this address, so the name cannot be pointed elsewhere between the check and it.
 */
async function checkedAddress(ctx: AppContext, host: string): Promise<string> {
  const addresses = isIP(host) ? [host] : (await lookup(host, { all: true })).map((a) => a.address);
  for (const address of addresses) {
    const refusal = privateRefusal(ctx, address);
    if (refusal) throw new MailHostRefused(`${host} is not a mail server on the internet (${refusal}); private networks are not reached`);
  }
  return addresses[0]!;
}

export async function saveMailServer(ctx: AppContext, access: ConsultantAccess, input: MailServerInput) {
  // An address or a name that is private whatever the DNS says is refused at once; other names
  // are checked at each connection (checkedAddress).
  const host = input.host.toLowerCase();
  const literal = isIP(host) ? host : host === 'localhost' || host.endsWith('.localhost') ? '127.0.0.1' : null;
  if (literal && privateRefusal(ctx, literal)) {
    throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { host: 'This is a private address. Enter your mail server\'s name or public address.' } });
  }
  const existing = await rowOf(ctx, access.consultant.id);
  let passwordEncrypted = existing?.passwordEncrypted ?? null;
  if (input.password !== undefined) {
    if (input.password !== '' && !keyOf(ctx)) {
      throw new AppError('invalid_input', 'Please check the highlighted fields.', { fields: { password: 'This server cannot store passwords: the operator has not set MAIL_SECRET_KEY.' } });
    }
    passwordEncrypted = input.password === '' ? null : encryptSecret(ctx, input.password);
  }
  const values = { host, port: input.port, security: input.security, username: input.username, passwordEncrypted, fromAddress: input.fromAddress, testedAt: null, lastError: null, updatedAt: new Date() };
  await ctx.db
    .insert(agencyMailServers)
    .values({ consultantId: access.consultant.id, ...values })
    .onConflictDoUpdate({ target: agencyMailServers.consultantId, set: values });
  return getMailServer(ctx, access);
}

export async function deleteMailServer(ctx: AppContext, access: ConsultantAccess) {
  await ctx.db.delete(agencyMailServers).where(eq(agencyMailServers.consultantId, access.consultant.id));
  return getMailServer(ctx, access);
}

/** What a server's refusal says, without anything secret in it: the password, if the server or the
 *  library ever echoed it, is cut out. */
function describeError(error: unknown, password: string | null): string {
  if (error instanceof MailHostRefused) return `The server's address is refused: ${error.message}`.slice(0, 500);
  const e = error as { code?: string; responseCode?: number; response?: string; message?: string };
  let text = e.response ? `${e.responseCode ?? ''} ${e.response}`.trim() : (e.message ?? String(error));
  if (password) text = text.split(password).join('•••');
  const hint = e.code === 'EAUTH' ? 'The server refused the user name or password' : e.code === 'ECONNECTION' || e.code === 'ETIMEDOUT' || e.code === 'ESOCKET' || e.code === 'EDNS' || e.code === 'ENOTFOUND' || e.code === 'EAI_AGAIN' ? 'The server could not be reached' : 'The server refused the message';
  return `${hint}: ${text}`.slice(0, 500);
}

/** A transport to the server's checked address (the TLS certificate still checked against its name). */
async function transportOf(ctx: AppContext, row: ServerRow) {
  const address = await checkedAddress(ctx, row.host);
  const password = row.passwordEncrypted ? decryptSecret(ctx, row.passwordEncrypted) : null;
  const transport = nodemailer.createTransport({
    host: address,
    ...(isIP(row.host) ? {} : { servername: row.host }),
    port: row.port,
    secure: row.security === 'tls',
    requireTLS: row.security === 'starttls',
    ignoreTLS: row.security === 'none',
    ...(row.username ? { auth: { user: row.username, pass: password ?? '' } } : {}),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
    logger: false,
  });
  return { transport, password };
}

/** A Mailer over the agency's server, for one send (closed by the caller), or null without one. */
export async function agencyMailer(ctx: AppContext, consultantId: string): Promise<{ mailer: Mailer; fromAddress: string } | null> {
  const row = await rowOf(ctx, consultantId);
  if (!row) return null;
  let opened: Transporter | null = null;
  return {
    fromAddress: row.fromAddress,
    mailer: {
      kind: 'smtp',
      async send(message: MailMessage) {
        // The library's error is not passed on (not even as a cause): only its description,
        // with the password cut out, reaches the job's log and the row.
        let password: string | null = null;
        let reason: string | null;
        try {
          const made = await transportOf(ctx, row);
          ({ transport: opened, password } = made);
          const info = await made.transport.sendMail(message);
          reason = info.rejected.length > 0 ? `The server refused ${info.rejected.join(', ')}` : null;
        } catch (error) {
          reason = describeError(error, password);
        }
        if (reason === null) return { messageId: message.messageId };
        await ctx.db.update(agencyMailServers).set({ lastError: reason }).where(eq(agencyMailServers.consultantId, consultantId));
        throw new Error(`the agency's mail server: ${reason}`);
      },
      wasDelivered: () => null,
      close: () => opened?.close(),
    },
  };
}

/**
 * "Send a test": a short message through the stored server to the agency's own address. Answers
 * whether it went out and, when not, what the server said (the password cut out); the outcome is
 * kept on the row so /branding shows it.
 */
export async function testMailServer(ctx: AppContext, access: ConsultantAccess) {
  const row = await rowOf(ctx, access.consultant.id);
  if (!row) throw new AppError('not_found', 'Save the mail server first.');
  const domain = row.fromAddress.split('@')[1]!;
  let lastError: string | null = null;
  let password: string | null = null;
  let transport: Transporter | null = null;
  try {
    ({ transport, password } = await transportOf(ctx, row));
    await transport.sendMail({
      messageId: `<test-${randomBytes(8).toString('hex')}@${domain}>`,
      from: row.fromAddress,
      to: access.user.email,
      subject: 'Test message from your report mail server',
      text: `This test went out through ${row.host}:${row.port}. Your clients' reports will be sent from ${row.fromAddress} this way.`,
    });
  } catch (error) {
    lastError = describeError(error, password);
    ctx.log.warn('agency mail server test failed', { consultantId: access.consultant.id, host: row.host, code: (error as { code?: string }).code ?? null });
  } finally {
    transport?.close();
  }
  await ctx.db.update(agencyMailServers).set({ testedAt: new Date(), lastError }).where(eq(agencyMailServers.consultantId, access.consultant.id));
  return { sent: lastError === null, to: access.user.email, error: lastError };
}

/** The address white-label mail leaves from without an agency server: WHITE_LABEL_MAIL_FROM, else MAIL_FROM's. */
export function whiteLabelAddress(ctx: AppContext): string {
  return ctx.env.WHITE_LABEL_MAIL_FROM ?? /<([^>]+)>/.exec(ctx.env.MAIL_FROM)?.[1] ?? ctx.env.MAIL_FROM.trim();
}

/** The address an agency's white-label mail leaves from: its own server's, else the operator's. */
export async function whiteLabelFromFor(ctx: AppContext, consultantId: string): Promise<string> {
  return (await rowOf(ctx, consultantId))?.fromAddress ?? whiteLabelAddress(ctx);
}
