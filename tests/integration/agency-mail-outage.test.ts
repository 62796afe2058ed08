// An agency's mail server that is away is waited for, as our own is (issue 36, decision 0210): a
// client report whose agency server cannot be found in DNS, refuses connections or keeps us
// waiting past the deadline goes back in line on the mail schedule without spending attempts; the
// agency is told once per outage, through our own mail server; the client page and the portfolio
// say "Waiting for your mail server since …" with what the server did; and once the agency fixes
// its settings the report goes out at once. Only a refusal in SMTP (5xx to a recipient, the login
// refused) fails the report, with the reason where the agency looks. The schedule is the
// product's, shortened by the worker's option.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker, type Worker } from '../../api/jobs/worker.ts';
import { CLIENT_REPORT } from '../../api/services/client-report-schedule.ts';
import { newReportLink } from '../../api/report/persist.ts';
import { agencyMailServers, consultants } from '../../db/schema/consultants.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { startRefusing, startRelay, startTarpit, type LoopbackServer } from '../helpers/agency-servers.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { until } from '../helpers/crash-suite.ts';
import { createUser } from '../helpers/factories.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

const UNRESOLVABLE = 'smtp.summitlocal.example';
/** Three short waits, then ten minutes: the test sees an outage last, and a fix cut it short. */
const WAITS_MS = [150, 150, 150, ...Array.from({ length: 9 }, () => 10 * 60_000)];
const NOTICE = "Your mail server is not taking your clients' reports";

let t: TestContext;
let ours: Awaited<ReturnType<typeof startSmtpServer>>;
let theirs: Awaited<ReturnType<typeof startSmtpServer>>;
let fixed: LoopbackServer;
let tarpit: LoopbackServer;
let refusing: LoopbackServer;
let strict: LoopbackServer;
/** A loopback address the context allows where nothing listens. */
const closed = '127.0.0.9';
let worker: Worker;
beforeAll(async () => {
  ours = await startSmtpServer();
  theirs = await startSmtpServer({ auth: { user: 'reports@summitlocal.example', pass: 'the-Right-password-1' } });
  [fixed, tarpit, refusing, strict] = await Promise.all([startRelay(theirs.port), startTarpit(200), startRefusing('5.1.1 No such user here'), startRelay(theirs.port)]);
  t = await createTestContext({
    SMTP_URL: ours.url,
    PUBLIC_BASE_URL: 'https://localrank.example',
    MAIL_SECRET_KEY: 'a-mail-secret-key-of-at-least-32-characters',
    AGENCY_MAIL_PRIVATE_ADDRESSES: [fixed.host, tarpit.host, refusing.host, strict.host, closed].join(','),
    AGENCY_MAIL_DEADLINE_MS: '1500',
  });
  worker = createWorker(t.ctx, { registry: testRegistry({ analyse: async () => reportDataFixture({ seed: 9 }) }), pollMs: 20, mailRetryDelaysMs: WAITS_MS, graceMs: 100 });
  worker.start();
});
afterAll(async () => {
  await worker.stop();
  await Promise.all([fixed, tarpit, refusing, strict].map((s) => s.close()));
  closeMailer(t.ctx);
  await ours.close();
  await theirs.close();
  await t.close();
});

let seq = 0;
/** An agency with a branding profile, its mail server, and one client (whose first report is queued). */
async function agencyWithClient(server: Record<string, unknown>) {
  const n = ++seq;
  const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: `Summit Local ${n}` });
  expect((await call(t.app, 'PUT', '/api/branding/mail-server', { port: 2525, security: 'none', fromAddress: 'reports@summitlocal.example', ...server }, agency.cookie)).status).toBe(200);
  await call(t.app, 'POST', '/api/branding-profiles', { companyName: `Summit Local ${n}` }, agency.cookie);
  const clientEmail = `dana-${n}@client.example`;
  const client = await call(t.app, 'POST', '/api/clients', { clientName: `Dana Whitfield ${n}`, clientEmail, company: `Whitfield Dental ${n}`, website: 'https://whitfield.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' }, agency.cookie);
  expect(client.status).toBe(201);
  const consultant = (await t.ctx.db.query.consultants.findFirst({ where: eq(consultants.userId, agency.userId) }))!;
  const clientId = String(client.body.client?.id ?? client.body.id);
  const job = async () => (await t.ctx.db.select().from(jobs).where(eq(jobs.type, CLIENT_REPORT))).find((j) => (j.payload as { clientId: string }).clientId === clientId)!;
  const report = async () => (await t.ctx.db.select().from(reports).where(eq(reports.clientId, clientId)))[0];
  const detail = async () => (await call(t.app, 'GET', `/api/clients/${clientId}`, undefined, agency.cookie)).body.reports[0];
  const portfolioRow = async () => (await call(t.app, 'GET', '/api/portfolio', undefined, agency.cookie)).body.rows.find((r: { client: { id: string } | null }) => r.client?.id === clientId);
  return { agency, consultant, clientId, clientEmail, job, report, detail, portfolioRow };
}

/** Our e-mails to an agency about its mail server (the sign-up's confirmation is another). */
const noticesTo = (email: string) => ours.received.filter((m) => m.envelope.to.includes(email) && m.parsed.subject === NOTICE);

const waits = (lastError: string | null) => Number(/^waiting for the customer's server \((\d+)\/12\)/.exec(lastError ?? '')?.[1] ?? 0);

describe("an agency's mail server that cannot be found in DNS", () => {
  it('keeps the report waiting, tells the agency once, shows why where the agency looks, and sends it at once when fixed', async () => {
    const a = await agencyWithClient({ host: UNRESOLVABLE, port: 587, security: 'starttls' });
    await until('the report waited four times', async () => waits((await a.job()).lastError) >= 4, 60_000);

    const job = await a.job();
    expect(job.status).toBe('queued');
    expect(job.attempts).toBe(0);
    expect(job.lastError).toBe(`waiting for the customer's server (4/12): the agency's mail server: We could not find ${UNRESOLVABLE} in DNS.`);
    const report = (await a.report())!;
    expect(report.failedAt).toBeNull();
    expect(report.mailWaitingSince).toBeInstanceOf(Date);
    expect(report.mailProblem).toBe(`We could not find ${UNRESOLVABLE} in DNS.`);

    // Where the agency looks: the client page and the portfolio.
    expect(await a.detail()).toMatchObject({ status: 'waiting', waitingSince: report.mailWaitingSince!.toISOString(), problem: `We could not find ${UNRESOLVABLE} in DNS.` });
    expect((await a.portfolioRow()).reportProblem).toEqual({ status: 'waiting', since: report.mailWaitingSince!.toISOString(), problem: `We could not find ${UNRESOLVABLE} in DNS.` });
    // The agency's own copy of a report, sent after this one began to wait, is not the client's
    // report: it does not hide the wait (decision 0215).
    await t.ctx.db.insert(reports).values({ businessId: report.businessId, consultantId: report.consultantId, clientId: a.clientId, reportType: 'client-copy', recipientEmail: a.agency.email, emailSent: true, emailSentAt: new Date(), ...newReportLink(t.ctx) });
    expect((await a.portfolioRow()).reportProblem).toMatchObject({ status: 'waiting', problem: `We could not find ${UNRESOLVABLE} in DNS.` });
    const server = (await call(t.app, 'GET', '/api/branding/mail-server', undefined, a.agency.cookie)).body.server;
    expect(server.unavailableSince).not.toBeNull();

    // Told once, through our own server, for an outage of four failed sends.
    await until('the agency told', () => noticesTo(a.agency.email).length > 0, 30_000);
    const notices = noticesTo(a.agency.email);
    expect(notices).toHaveLength(1);
    expect(notices[0]!.parsed.text).toContain(`through your mail server ${UNRESOLVABLE}:587. We could not find ${UNRESOLVABLE} in DNS.`);
    expect(notices[0]!.parsed.text).toContain('Send a test');
    // Not our backlog: the health check does not count it as our mail waiting.
    const health = (await (await t.app.request('/api/health')).json()) as { problems: string[] };
    expect(health.problems).not.toContain('mail_backlog');

    // Fixed: the agency saves its server's right settings, and the report goes out at once (its
    // next try was ten minutes away).
    const saved = await call(t.app, 'PUT', '/api/branding/mail-server', { host: fixed.host, port: 2525, security: 'none', username: 'reports@summitlocal.example', password: 'the-Right-password-1', fromAddress: 'reports@summitlocal.example' }, a.agency.cookie);
    expect(saved.body.server.unavailableSince).toBeNull();
    await until('the report delivered through the fixed server', () => theirs.received.some((m) => m.envelope.to.includes(a.clientEmail)), 60_000);
    await until('the job done', async () => (await a.job()).status === 'done', 30_000);
    expect((await a.job()).attempts).toBe(1);
    expect(await a.detail()).toMatchObject({ status: 'sent', problem: null });
    const row = await a.portfolioRow();
    expect(row.reportProblem).toBeNull();
    expect(row.lastReport).not.toBeNull();
    expect(ours.received.filter((m) => m.envelope.to.includes(a.clientEmail))).toHaveLength(0);
    expect(noticesTo(a.agency.email)).toHaveLength(1);
  }, 120_000);
});

describe("an agency's mail server that refuses connections or keeps us waiting", () => {
  it('waits for it too, saying what it did', async () => {
    const refused = await agencyWithClient({ host: closed });
    const slow = await agencyWithClient({ host: tarpit.host });
    // Past the three short waits: the jobs now wait ten minutes, so what they show holds still.
    await until('both waiting', async () => waits((await refused.job()).lastError) >= 4 && waits((await slow.job()).lastError) >= 4, 60_000);
    expect((await refused.detail()).problem).toBe(`We could not connect to ${closed}:2525: the connection was refused.`);
    expect((await slow.detail()).problem).toBe(`We connected to ${tarpit.host}:2525 and the server greeted us, then kept us waiting: it did not finish within 1.5 s.`);
    for (const a of [refused, slow]) {
      expect(await a.detail()).toMatchObject({ status: 'waiting' });
      expect((await a.job()).attempts).toBe(0);
      expect((await a.job()).status).not.toBe('failed');
    }
  }, 90_000);
});

describe('a refusal in SMTP', () => {
  it('fails the report at once, with the reason on the client page and the portfolio, and tells nobody it is an outage', async () => {
    const recipient = await agencyWithClient({ host: refusing.host });
    const login = await agencyWithClient({ host: strict.host, username: 'reports@summitlocal.example', password: 'not-the-password-9' });
    await until('both failed', async () => (await recipient.job()).status === 'failed' && (await login.job()).status === 'failed', 60_000);

    const refusedRecipient = `We connected to ${refusing.host}:2525, but the server refused the recipient: 550 5.1.1 No such user here.`;
    expect((await recipient.job()).attempts).toBe(1);
    expect(await recipient.detail()).toMatchObject({ status: 'failed', problem: refusedRecipient });
    expect((await recipient.portfolioRow()).reportProblem).toEqual({ status: 'failed', since: null, problem: refusedRecipient });

    const loginProblem = (await login.detail()).problem as string;
    expect(loginProblem).toMatch(new RegExp(`^We connected to ${strict.host.replace(/\./g, '\\.')}:2525, but the server refused the user name or password: 535 `));
    expect(loginProblem).not.toContain('not-the-password-9');
    expect((await login.job()).attempts).toBe(1);

    for (const a of [recipient, login]) {
      expect(noticesTo(a.agency.email)).toEqual([]);
      const row = await t.ctx.db.query.agencyMailServers.findFirst({ where: eq(agencyMailServers.consultantId, a.consultant.id) });
      expect(row!.unavailableSince).toBeNull();
    }
  }, 90_000);
});
