// One SMTP exchange with a server a customer chose (an agency's mail server), made so that no such
// server can hold us and nothing it says is shown back unless it is SMTP (decision 0210):
// - one deadline for the whole exchange (connecting, TLS, the greeting, logging in, sending); at
//   it the socket is destroyed, whatever the server is doing (a tarpit that sends `250-` lines
//   forever never trips an idle timeout);
// - the steps told apart (connected, greeted, TLS, login accepted or refused), so what the agency
//   reads is said in our words; the server's reply is kept only when it is an SMTP reply (three
//   digits, then its text), so a service that is not a mail server never has its banner shown;
// - each failure classed: `transient` (the server away, silent, slow or saying "try later": wait
//   for it) or permanent (a 5xx refusal, the login refused, not a mail server: say so, do not retry).
// The address connected to is given already checked (api/services/agency-mail/address.ts).
import net from 'node:net';
import MailComposer from 'nodemailer/lib/mail-composer';
import SMTPConnection from 'nodemailer/lib/smtp-connection';
import type Mail from 'nodemailer/lib/mailer';

export interface SmtpTarget {
  /** The checked address connected to. */
  address: string;
  /** The host as the customer typed it: named in what we say, and the TLS certificate's name. */
  host: string;
  port: number;
  security: 'tls' | 'starttls' | 'none';
  auth: { user: string; pass: string } | null;
}

export interface SmtpSteps {
  connected: boolean;
  greeted: boolean;
  tls: boolean;
  auth: 'accepted' | 'refused' | null;
}

/** A reply the server gave in SMTP: its code and its text (one line, cleaned, at most 200 characters). */
export interface SmtpReply {
  code: number;
  text: string;
}

export type SmtpFailure = 'unreachable' | 'not_smtp' | 'tls' | 'auth' | 'sender' | 'recipient' | 'message' | 'refused' | 'closed' | 'deadline';

export class SmtpSessionError extends Error {
  readonly failure: SmtpFailure;
  readonly steps: SmtpSteps;
  readonly reply: SmtpReply | null;
  /** Worth waiting for: the server is away, silent, slow or said "try later" (4xx). */
  readonly transient: boolean;
  /** What we can say about an unreachable server or a failed TLS set-up, in our words. */
  readonly detail: string | null;
  constructor(failure: SmtpFailure, init: { steps: SmtpSteps; reply?: SmtpReply | null; transient: boolean; detail?: string | null }) {
    super(`SMTP ${failure}${init.reply ? ` (${init.reply.code})` : ''}`);
    this.name = 'SmtpSessionError';
    this.failure = failure;
    this.steps = init.steps;
    this.reply = init.reply ?? null;
    this.transient = init.transient;
    this.detail = init.detail ?? null;
  }
}

export interface SmtpSent {
  steps: SmtpSteps;
  accepted: string[];
  rejected: string[];
  /** The server's answer to the message. */
  reply: SmtpReply | null;
}

/** The reply when `response` is an SMTP reply (a code of three digits, then text), else null. */
export function smtpReply(response: unknown): SmtpReply | null {
  if (typeof response !== 'string') return null;
  const match = /^([2-5]\d\d)(?:[ -]|$)([\s\S]*)$/.exec(response.trim());
  if (!match) return null;
  // Multi-line replies repeat the code on each line; control characters never reach a screen.
  const text = match[2]!
    .replace(/\r?\n[2-5]\d\d[ -]?/g, ' ')
    .replace(/[\p{Cc}\p{Cf}]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return { code: Number(match[1]), text: text.length > 200 ? `${text.slice(0, 199)}…` : text };
}

const UNREACHABLE: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ETIMEDOUT: 'no answer to the connection',
  EPIPE: 'the connection was closed',
};

/** A TLS failure in our words (Node's own error, never the server's). */
function tlsDetail(message: string): string {
  if (/self[- ]signed/i.test(message)) return 'its certificate is self-signed';
  if (/expired/i.test(message)) return 'its certificate has expired';
  if (/altnames|does not match/i.test(message)) return 'its certificate is for another name';
  if (/unable to (verify|get)|issuer/i.test(message)) return 'its certificate is not from a trusted authority';
  if (/STARTTLS/i.test(message)) return 'it does not offer STARTTLS';
  if (/wrong version|packet length|unknown protocol|EPROTO/i.test(message)) return 'it does not speak TLS on this port';
  return 'the TLS handshake failed';
}

type SmtpError = Error & { code?: string; originalCode?: string; response?: string; responseCode?: number; command?: string };

/** The library's error, classed: the step it failed at, whether waiting may help, the SMTP reply if any. */
function classify(error: SmtpError, steps: SmtpSteps, security: SmtpTarget['security']): SmtpSessionError {
  const reply = smtpReply(error.response);
  const transient = reply ? reply.code < 500 : true;
  const command = error.command ?? '';
  const code = error.code ?? '';
  if (code === 'EAUTH') {
    steps.auth = 'refused';
    return new SmtpSessionError('auth', { steps, reply, transient: reply ? reply.code < 500 : false });
  }
  if (code === 'ETLS' || (code === 'ESOCKET' && security !== 'none' && !steps.greeted && steps.connected && /TLS|SSL|certificate|EPROTO/i.test(error.message))) {
    return new SmtpSessionError('tls', { steps, reply, transient: reply ? reply.code < 500 : true, detail: tlsDetail(error.message) });
  }
  if (command === 'MAIL FROM') return new SmtpSessionError('sender', { steps, reply, transient: reply ? transient : false });
  if (command === 'RCPT TO') return new SmtpSessionError('recipient', { steps, reply, transient: reply ? transient : false });
  if (command === 'DATA' || code === 'EMESSAGE') return new SmtpSessionError('message', { steps, reply, transient: reply ? transient : false });
  if (code === 'EPROTOCOL' && !steps.greeted) {
    // Something answered, but not with an SMTP greeting: a refusal in SMTP is still a reply.
    return reply ? new SmtpSessionError('refused', { steps, reply, transient }) : new SmtpSessionError('not_smtp', { steps, transient: false });
  }
  if (reply) return new SmtpSessionError('refused', { steps, reply, transient });
  if (!steps.connected) {
    const why = UNREACHABLE[error.originalCode ?? ''] ?? UNREACHABLE[code] ?? 'the connection failed';
    return new SmtpSessionError('unreachable', { steps, transient: true, detail: why });
  }
  return new SmtpSessionError('closed', { steps, transient: true });
}

/**
 * Sends one message through the target, within `deadlineMs` in all (and before `signal` aborts).
 * Resolves with what the server accepted; rejects with an SmtpSessionError, never the library's.
 */
export async function smtpSend(target: SmtpTarget, message: Mail.Options, options: { deadlineMs: number; clientName: string; signal?: AbortSignal }): Promise<SmtpSent> {
  const steps: SmtpSteps = { connected: false, greeted: false, tls: false, auth: null };
  const socket = new net.Socket();
  socket.once('connect', () => (steps.connected = true));
  const connection = new SMTPConnection({
    socket,
    host: target.address,
    port: target.port,
    secure: target.security === 'tls',
    requireTLS: target.security === 'starttls',
    ignoreTLS: target.security === 'none',
    ...(net.isIP(target.host) ? {} : { servername: target.host }),
    name: options.clientName,
    // The deadline below is what ends a session; these only must not end it sooner for less.
    connectionTimeout: options.deadlineMs,
    greetingTimeout: options.deadlineMs,
    socketTimeout: options.deadlineMs,
    socketCloseTimeout: 0,
    logger: false,
  });
  let stop: (error: Error) => void = () => {};
  const stopped = new Promise<never>((_, reject) => (stop = reject));
  stopped.catch(() => {});
  const overdue = new SmtpSessionError('deadline', { steps, transient: true });
  const timer = setTimeout(() => stop(overdue), options.deadlineMs);
  const onAbort = () => stop(overdue);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  connection.on('error', (error: Error) => stop(error));
  const step = <T>(call: (done: (error: Error | null, value?: T) => void) => void) =>
    Promise.race([new Promise<T>((resolve, reject) => call((error, value) => (error ? reject(error) : resolve(value as T)))), stopped]);
  let finished = false;
  try {
    if (options.signal?.aborted) throw overdue;
    await step<void>((done) => connection.connect((error?: Error | null) => done(error ?? null)));
    steps.greeted = true;
    steps.tls = connection.secure;
    if (target.auth) {
      await step<void>((done) => connection.login(target.auth!, (error) => done(error ?? null)));
      steps.auth = 'accepted';
    }
    const node = new MailComposer(message).compile();
    const raw = await node.build();
    const envelope = node.getEnvelope();
    const info = await step<{ accepted: string[]; rejected: string[]; response?: string }>((done) =>
      connection.send({ from: envelope.from || undefined, to: envelope.to }, raw, (error, sent) => done(error ?? null, sent as never)),
    );
    finished = true;
    connection.quit();
    return { steps, accepted: info.accepted, rejected: info.rejected, reply: smtpReply(info.response) };
  } catch (error) {
    // Until greeted, the server's last complete line tells whether an SMTP server spoke at all.
    if (!steps.greeted && typeof connection.lastServerResponse === 'string' && /^220[ -]/.test(connection.lastServerResponse)) steps.greeted = true;
    if (!steps.tls && steps.greeted) steps.tls = target.security !== 'none' && connection.secure;
    if (error instanceof SmtpSessionError) throw error;
    throw classify(error as SmtpError, steps, target.security);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
    // After QUIT the server closes; a server that does not is closed for it a moment later.
    if (finished) setTimeout(() => connection.close(), 1000).unref();
    else {
      connection.close();
      socket.destroy();
    }
  }
}
