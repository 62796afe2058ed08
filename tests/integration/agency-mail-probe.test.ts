// An agency's mail server settings cannot be used to probe (issue 36, decision 0210): only mail
// ports are accepted; "Send a test" says in our words how far it got and never shows what a
// service that is not a mail server answered; it ends by its deadline against a server that never
// finishes answering; and each agency may test a limited number of times an hour, counted in the
// database. The servers listen on loopback addresses the context allows
// (AGENCY_MAIL_PRIVATE_ADDRESSES, decision 0204).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAIL_PORT_MESSAGE, MAIL_SERVER_TESTS_PER_HOUR } from '../../common/schemas/branding.ts';
import { HTTP_STATUS, SSH_BANNER, startBanner, startRelay, startTarpit, type LoopbackServer } from '../helpers/agency-servers.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { until } from '../helpers/crash-suite.ts';
import { createUser } from '../helpers/factories.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

const TEST_DEADLINE_MS = 2000;
let t: TestContext;
let ssh: LoopbackServer;
let http: LoopbackServer;
let tarpit: LoopbackServer;
let sink: Awaited<ReturnType<typeof startSmtpServer>>;
let mail: LoopbackServer;
/** A loopback address the context allows where nothing listens. */
const closed = '127.0.0.9';
beforeAll(async () => {
  [ssh, http, tarpit] = await Promise.all([startBanner('ssh'), startBanner('http'), startTarpit(200)]);
  sink = await startSmtpServer();
  mail = await startRelay(sink.port);
  t = await createTestContext({
    MAIL_SECRET_KEY: 'a-mail-secret-key-of-at-least-32-characters',
    AGENCY_MAIL_PRIVATE_ADDRESSES: [ssh.host, http.host, tarpit.host, mail.host, closed].join(','),
    AGENCY_MAIL_TEST_DEADLINE_MS: String(TEST_DEADLINE_MS),
  });
});
afterAll(async () => {
  await Promise.all([ssh, http, tarpit, mail].map((s) => s.close()));
  await sink.close();
  await t.close();
});

const server = (host: string) => ({ host, port: 2525, security: 'none', fromAddress: 'reports@summitlocal.example' });

async function agencyWith(host: string) {
  const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Summit Local' });
  const saved = await call(t.app, 'PUT', '/api/branding/mail-server', server(host), agency.cookie);
  expect(saved.status).toBe(200);
  return agency;
}

describe('the mail server settings', () => {
  it('accept the mail ports only, with one message for any other', async () => {
    const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
    for (const port of [22, 80, 6379, 3306, 8025, 1, 65535, 0, 'smtp', '']) {
      const res = await call(t.app, 'PUT', '/api/branding/mail-server', { ...server('smtp.summitlocal.example'), port }, agency.cookie);
      expect(res.status, String(port)).toBe(400);
      expect(res.body.fields, String(port)).toEqual({ port: MAIL_PORT_MESSAGE });
    }
    for (const port of [25, 465, 587, 2525, '587']) {
      const res = await call(t.app, 'PUT', '/api/branding/mail-server', { ...server('smtp.summitlocal.example'), port }, agency.cookie);
      expect(res.status, String(port)).toBe(200);
      expect(res.body.server.port).toBe(Number(port));
    }
  });
});

describe('"Send a test"', () => {
  it('says what it reached in its own words and never shows what another kind of service answered', async () => {
    for (const [service, foreign] of [[ssh, [SSH_BANNER, 'SSH-2.0', 'OpenSSH']], [http, [HTTP_STATUS, 'HTTP/1.1', 'nginx', '400']]] as const) {
      const agency = await agencyWith(service.host);
      const res = await call(t.app, 'POST', '/api/branding/mail-server/test', undefined, agency.cookie);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        sent: false,
        error: `We connected to ${service.host}:2525, but what answered there is not a mail server.`,
        steps: { connected: true, tls: false, auth: null },
      });
      const shown = JSON.stringify([res.body, (await call(t.app, 'GET', '/api/branding/mail-server', undefined, agency.cookie)).body]);
      for (const text of foreign) expect(shown).not.toContain(text);
    }

    const nobody = await agencyWith(closed);
    const refused = await call(t.app, 'POST', '/api/branding/mail-server/test', undefined, nobody.cookie);
    expect(refused.body).toMatchObject({ sent: false, error: `We could not connect to ${closed}:2525: the connection was refused.`, steps: { connected: false, tls: false, auth: null } });

    // A mail server's own reply is SMTP, and is shown.
    const agency = await agencyWith(mail.host);
    const ok = await call(t.app, 'POST', '/api/branding/mail-server/test', undefined, agency.cookie);
    expect(ok.body).toMatchObject({ sent: true, error: null, steps: { connected: true, tls: false, auth: null } });
    expect(ok.body.said).toMatch(new RegExp(`^We connected to ${mail.host.replace(/\./g, '\\.')}:2525 without TLS, and the server accepted the message \\(250 .+\\)\\.$`));
    expect(sink.received.at(-1)!.envelope.to).toEqual([agency.email]);
  });

  it('ends by its deadline with a clear message when the server never finishes answering', async () => {
    const agency = await agencyWith(tarpit.host);
    const started = Date.now();
    const res = await call(t.app, 'POST', '/api/branding/mail-server/test', undefined, agency.cookie);
    const tookMs = Date.now() - started;
    expect(res.body).toMatchObject({
      sent: false,
      error: `We connected to ${tarpit.host}:2525 and the server greeted us, then kept us waiting: it did not finish within 2 s.`,
      steps: { connected: true, tls: false, auth: null },
    });
    expect(tookMs).toBeGreaterThanOrEqual(TEST_DEADLINE_MS - 50);
    // Not held past its deadline (with room for a busy machine), and the connection is closed.
    expect(tookMs).toBeLessThan(TEST_DEADLINE_MS + 30_000);
    await until('the tarpit connection closed', () => tarpit.open() === 0, 30_000);
    console.info(`agency-mail-probe: "Send a test" against the tarpit answered in ${tookMs} ms (deadline ${TEST_DEADLINE_MS} ms)`);
  }, 60_000);

  it(`is limited to ${MAIL_SERVER_TESTS_PER_HOUR} an hour per agency, counted in the database`, async () => {
    const agency = await agencyWith(closed);
    const other = await agencyWith(closed);
    for (let i = 0; i < MAIL_SERVER_TESTS_PER_HOUR; i++) expect((await call(t.app, 'POST', '/api/branding/mail-server/test', undefined, agency.cookie)).status).toBe(200);
    const limited = await call(t.app, 'POST', '/api/branding/mail-server/test', undefined, agency.cookie);
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another agency is not held by it.
    expect((await call(t.app, 'POST', '/api/branding/mail-server/test', undefined, other.cookie)).status).toBe(200);
    const counted = async (userId: string) =>
      (await t.ctx.db.all<{ count: number }>(sql`SELECT r.count FROM rate_limits r JOIN consultants c ON r.key = 'mail-test:' || c.id WHERE c.user_id = ${userId}`)).map((r) => Number(r.count));
    expect(await counted(agency.userId)).toEqual([MAIL_SERVER_TESTS_PER_HOUR]);
    expect(await counted(other.userId)).toEqual([1]);
  });
});
