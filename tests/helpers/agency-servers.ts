// Servers an agency might point its mail settings at, for the tests: each listens on port 2525 (a
// mail port the settings accept) of an address of its own in 127.0.0.0/8, which the test context
// lets through with AGENCY_MAIL_PRIVATE_ADDRESSES (decision 0204), so test files running at once
// never want the same address and port.
// - relay: a mail server, by relaying to a local SMTP server (tests/helpers/smtp.ts);
// - tarpit: greets with 220, then answers every command with `250-still thinking` lines, one
//   every `everyMs`, and never a last line (issue 36);
// - banner: another service on a mail port: an SSH banner, or an HTTP server's 400, at once;
// - refusing: a mail server that refuses every recipient (550).
import net from 'node:net';
import { SMTPServer } from 'smtp-server';

export interface LoopbackServer {
  /** The address it listens on (also what AGENCY_MAIL_PRIVATE_ADDRESSES must list). */
  host: string;
  port: number;
  /** Connections open now. */
  open: () => number;
  /** Connections made so far. */
  connections: () => number;
  close: () => Promise<void>;
}

const PORT = 2525;

async function listenOnLoopback(onConnection: (socket: net.Socket) => void): Promise<LoopbackServer> {
  const sockets = new Set<net.Socket>();
  let made = 0;
  const server = net.createServer((socket) => {
    made++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onConnection(socket);
  });
  for (let tries = 0; ; tries++) {
    const host = `127.${1 + Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 256)}.${1 + Math.floor(Math.random() * 250)}`;
    try {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(PORT, host, () => (server.off('error', reject), resolve()));
      });
      return {
        host,
        port: PORT,
        open: () => sockets.size,
        connections: () => made,
        close: () =>
          new Promise<void>((resolve) => {
            for (const socket of sockets) socket.destroy();
            server.close(() => resolve());
          }),
      };
    } catch (error) {
      if (tries > 20 || !['EADDRINUSE', 'EADDRNOTAVAIL'].includes((error as NodeJS.ErrnoException).code ?? '')) throw error;
    }
  }
}

/** A mail server on its own loopback address: every connection relayed to `port` on 127.0.0.1. */
export function startRelay(port: number) {
  return listenOnLoopback((socket) => {
    const upstream = net.connect(port, '127.0.0.1');
    upstream.on('error', () => socket.destroy());
    socket.on('close', () => upstream.destroy());
    upstream.on('close', () => socket.destroy());
    socket.pipe(upstream).pipe(socket);
  });
}

/** 220, then `250-still thinking` every `everyMs` once it is sent anything, never a last line. */
export function startTarpit(everyMs = 300) {
  return listenOnLoopback((socket) => {
    socket.write('220 mail.tarpit.example ESMTP\r\n');
    let drip: NodeJS.Timeout | undefined;
    socket.on('data', () => {
      drip ??= setInterval(() => socket.write('250-still thinking\r\n'), everyMs);
    });
    socket.on('close', () => clearInterval(drip));
  });
}

export const SSH_BANNER = 'SSH-2.0-OpenSSH_9.6p1 Ubuntu-3ubuntu13.5';
export const HTTP_STATUS = 'HTTP/1.1 400 Bad Request';

/** Another service on a mail port: an SSH server's banner, or an HTTP server's 400 (as to a probe). */
export function startBanner(kind: 'ssh' | 'http') {
  return listenOnLoopback((socket) => {
    if (kind === 'ssh') socket.write(`${SSH_BANNER}\r\n`);
    else socket.end(`${HTTP_STATUS}\r\nServer: nginx/1.24.0\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
  });
}

/** A mail server that answers every RCPT TO with `550 <text>`. */
export async function startRefusing(text = 'No such user here') {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(_address, _session, callback) {
      callback(Object.assign(new Error(text), { responseCode: 550 }));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as net.AddressInfo).port;
  const relay = await startRelay(port);
  return { ...relay, close: async () => (await relay.close(), await new Promise<void>((resolve) => server.close(() => resolve()))) };
}
