// What the crash tests share: a test context with a real SMTP server, worker processes
// (tests/helpers/crash-worker.ts) started against it and killed at will, SMTP servers that hold a
// message mid-conversation, and a poll. The file's hooks close everything.
import { spawn, type ChildProcess } from 'node:child_process';
import { afterAll, beforeAll } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { createTestContext, databaseEnv, type TestContext } from './context.ts';
import { startSmtpServer, type SmtpOptions } from './smtp.ts';
import { entry } from './entries.ts';

type SmtpServer = Awaited<ReturnType<typeof startSmtpServer>>;

export function crashSuite() {
  const children: ChildProcess[] = [];
  const servers: SmtpServer[] = [];
  const suite = {
    t: undefined as unknown as TestContext,
    smtp: undefined as unknown as SmtpServer,
    /** Another SMTP server (one that holds the message, say), closed with the file. */
    async extraSmtp(options: SmtpOptions) {
      const server = await startSmtpServer(options);
      servers.push(server);
      return server;
    },
    /** A worker process on the test's database and mail server; `lines` collects its stdout. */
    startWorker(env: Record<string, string>) {
      const child = spawn(process.execPath, [entry('tests/helpers/crash-worker.ts')], {
        env: { ...process.env, ...databaseEnv(suite.t), SMTP_URL: suite.smtp.url, LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env },
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      children.push(child);
      const lines: string[] = [];
      child.stdout!.on('data', (d: Buffer) => lines.push(...d.toString().split('\n').filter(Boolean)));
      return { child, lines };
    },
  };
  beforeAll(async () => {
    suite.smtp = await startSmtpServer();
    suite.t = await createTestContext({ SMTP_URL: suite.smtp.url });
  });
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    closeMailer(suite.t.ctx);
    await suite.t.close();
    await Promise.all([suite.smtp, ...servers].map((s) => s.close()));
  });
  return suite;
}

export async function until(what: string, check: () => boolean | Promise<boolean>, ms = 45_000) {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
