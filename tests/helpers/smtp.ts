// A real SMTP server on a loopback port that keeps what it receives, parsed. `hold` makes it stop
// answering a message (for the crash tests): 'before-keeping' never keeps it (the sender dies
// before the server accepted it), 'after-keeping' keeps it but never says so (the server has it,
// the sender dies before hearing back). `onMessageData` is called when a message's data starts;
// `beforeAccept` is awaited once a message is kept, before the server says so; `auth` makes it
// require a user and password.
import PostalMime, { type Email } from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  raw: string;
  parsed: Email;
  envelope: { from: string; to: string[] };
}

export interface SmtpOptions {
  hold?: 'before-keeping' | 'after-keeping';
  /** A server that requires this user and password (plain AUTH, without TLS: loopback only). */
  auth?: { user: string; pass: string };
  onMessageData?: () => void;
  /** Awaited after a message is kept and before the server accepts it (its 250). */
  beforeAccept?: () => Promise<void>;
  /** A port of its own (a server started again where a stopped one listened); any free one by default. */
  port?: number;
}

export async function startSmtpServer(options: SmtpOptions = {}) {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: !options.auth,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    onAuth(auth, _session, callback) {
      if (options.auth && auth.username === options.auth.user && auth.password === options.auth.pass) return callback(null, { user: auth.username });
      callback(new Error('Invalid username or password'));
    },
    logger: false,
    onData(stream, session, callback) {
      options.onMessageData?.();
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', async () => {
        if (options.hold === 'before-keeping') return;
        const raw = Buffer.concat(chunks).toString('utf8');
        const envelope = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
        };
        received.push({ raw, parsed: await PostalMime.parse(raw), envelope });
        if (options.hold === 'after-keeping') return;
        await options.beforeAccept?.();
        callback();
      });
    },
  });
  // A sender killed mid-conversation (the crash tests) resets its connection: expected, not a failure.
  server.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET') throw error;
  });
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        // A held conversation would keep close() waiting for its client.
        for (const connection of (server as unknown as { connections: Set<{ close: () => void }> }).connections ?? []) connection.close();
        server.close(() => resolve());
      }),
  };
}
