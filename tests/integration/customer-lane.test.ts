// One agency's slow mail server cannot stop everyone's reports (issue 36, decision 0210). The
// agency's server is a tarpit: it greets with 220, then answers with `250-still thinking` lines
// and never a last one, so no idle timeout ever trips. The web process's own worker (the inline
// one, as `npm start` runs it) holds the client report there, and a visitor's free report
// submitted meanwhile still reaches the operator's mail server.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { runWorker } from '../../api/jobs/run-worker.ts';
import { CLIENT_REPORT } from '../../api/services/client-report-schedule.ts';
import { jobs } from '../../db/schema/operations.ts';
import { startTarpit, type LoopbackServer } from '../helpers/agency-servers.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { until } from '../helpers/crash-suite.ts';
import { createUser } from '../helpers/factories.ts';
import { validForm } from '../helpers/report-requests.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let tarpit: LoopbackServer;
let stopWorker: (() => Promise<void>) | undefined;
beforeAll(async () => {
  smtp = await startSmtpServer();
  tarpit = await startTarpit(300);
  t = await createTestContext({
    SMTP_URL: smtp.url,
    PUBLIC_BASE_URL: 'https://localrank.example',
    MAIL_SECRET_KEY: 'a-mail-secret-key-of-at-least-32-characters',
    AGENCY_MAIL_PRIVATE_ADDRESSES: tarpit.host,
    // Long enough that the tarpit holds the client report for the whole test.
    AGENCY_MAIL_DEADLINE_MS: '600000',
    WORKER_GRACE_MS: '200',
  });
});
afterAll(async () => {
  // The tarpit first: the client report's conversation ends with it, and the worker stops at once.
  await tarpit.close();
  await stopWorker?.();
  closeMailer(t.ctx);
  await smtp.close();
  await t.close();
});

describe("an agency's mail server that never finishes answering", () => {
  it("holds only its agency's client report: a visitor's free report is delivered meanwhile", async () => {
    const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Summit Local' });
    const saved = await call(t.app, 'PUT', '/api/branding/mail-server', { host: tarpit.host, port: tarpit.port, security: 'none', fromAddress: 'reports@summitlocal.example' }, agency.cookie);
    expect(saved.status).toBe(200);
    await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Summit Local' }, agency.cookie);
    const client = await call(t.app, 'POST', '/api/clients', { clientName: 'Dana Whitfield', clientEmail: 'dana@client.example', company: 'Whitfield Dental', website: 'https://whitfield.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' }, agency.cookie);
    expect(client.status).toBe(201);

    // The web process's worker, as `npm start` runs it (WORKER=inline).
    stopWorker = runWorker(t.ctx, { inline: true });
    await until('the client report held by the tarpit', () => tarpit.open() > 0, 120_000);

    const submitted = Date.now();
    const form = validForm({ email: 'maria@lopezplumbing.example.com', company: 'Lopez Plumbing', consent: true });
    const res = await t.app.request('/api/submit-request', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(form) });
    expect(res.status).toBe(202);
    await until("the visitor's report delivered", () => smtp.received.some((m) => m.envelope.to.includes('maria@lopezplumbing.example.com')), 120_000);
    const deliveredMs = Date.now() - submitted;

    // Delivered while the tarpit still holds the client report.
    expect(tarpit.open()).toBeGreaterThan(0);
    const [held] = await t.ctx.db.select().from(jobs).where(eq(jobs.type, CLIENT_REPORT));
    expect(held!.status).toBe('running');
    expect(smtp.received.some((m) => m.envelope.to.includes('dana@client.example'))).toBe(false);
    console.info(`customer-lane: the visitor's report was delivered ${deliveredMs} ms after its submit while the tarpit held the client report`);
  }, 300_000);
});
