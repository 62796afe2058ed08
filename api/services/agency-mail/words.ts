// What an agency is told about its mail server, in our words (decision 0210): how far we got
// (connected, TLS, logged in) and what went wrong, with the server's reply only when it was an
// SMTP reply (api/lib/smtp-session.ts), and the password cut out should a server echo it.
import type { SmtpReply, SmtpSessionError, SmtpSteps } from '../../lib/smtp-session.ts';
import { MailHostNotFound, MailHostRefused } from './address.ts';

interface Where {
  host: string;
  port: number;
  deadlineMs: number;
  /** Cut out of anything shown. */
  secret: string | null;
}

const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`.replace('.0 s', ' s');

function replyOf(reply: SmtpReply | null, secret: string | null): string {
  if (!reply) return '';
  const text = secret ? reply.text.split(secret).join('•••') : reply.text;
  return `${reply.code}${text ? ` ${text}` : ''}`;
}

/** "We connected to host:port over TLS, logged in": how far the exchange got. */
function reached(where: Where, steps: SmtpSteps): string {
  return `We connected to ${where.host}:${where.port}${steps.tls ? ' over TLS' : ''}${steps.auth === 'accepted' ? ' and logged in' : ''}`;
}

/** A successful test or send, said plainly. */
export function sentWords(where: Where, steps: SmtpSteps, reply: SmtpReply | null): string {
  const said = replyOf(reply, where.secret);
  return `${reached(where, steps)}${steps.tls ? '' : ' without TLS'}, and the server accepted the message${said ? ` (${said})` : ''}.`;
}

/** Why an exchange with the agency's mail server failed. `error` is what smtpSend or the address check threw. */
export function failureWords(where: Where, error: unknown): string {
  if (error instanceof MailHostNotFound) return `We could not find ${where.host} in DNS.`;
  if (error instanceof MailHostRefused) return `The server's address is refused: ${error.message}`;
  const e = error as SmtpSessionError;
  if (e?.name !== 'SmtpSessionError') return `We could not send through ${where.host}:${where.port}.`;
  const said = replyOf(e.reply, where.secret);
  const answer = said ? `: ${said}` : '';
  const so = reached(where, e.steps);
  switch (e.failure) {
    case 'unreachable':
      return `We could not connect to ${where.host}:${where.port}: ${e.detail ?? 'the connection failed'}.`;
    case 'not_smtp':
      return `We connected to ${where.host}:${where.port}, but what answered there is not a mail server.`;
    case 'tls':
      return `We connected to ${where.host}:${where.port}, but could not set up TLS: ${e.detail ?? 'the handshake failed'}.`;
    case 'auth':
      return `${so}, but the server refused the user name or password${answer}.`;
    case 'sender':
      return `${so}, but the server refused the sender address${answer}.`;
    case 'recipient':
      return `${so}, but the server refused the recipient${answer}.`;
    case 'message':
      return `${so}, but the server refused the message${answer}.`;
    case 'refused':
      return `${so}, but the server refused to take mail${answer}.`;
    case 'closed':
      return `${so}, but the server closed the connection.`;
    case 'deadline':
      if (!e.steps.connected) return `${where.host}:${where.port} did not answer within ${seconds(where.deadlineMs)}.`;
      if (!e.steps.greeted) return `We connected to ${where.host}:${where.port}, but no mail server greeted us within ${seconds(where.deadlineMs)}.`;
      return `${so} and the server greeted us, then kept us waiting: it did not finish within ${seconds(where.deadlineMs)}.`;
  }
}
