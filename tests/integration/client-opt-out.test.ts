// The agency sees what its clients get (issue 37): a client report is two messages, one to the
// client and one to the agency, each with its own RFC 8058 one-click unsubscribe for its own
// address, so the agency stopping its copies never opts the client out. A client's opt-out is
// stored once per address, shown on the client page and the portfolio ("reports paused"), and a
// manual send to an opted-out client is refused with the reason instead of "queued".
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { testRegistry } from '../helpers/registry.ts';
import { scheduleTick } from '../../api/jobs/schedule.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { isUnsubscribed } from '../../api/services/reports.ts';
import { emailOptOuts } from '../../db/schema/businesses.ts';
import { clients } from '../../db/schema/consultants.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { startSmtpServer, type ReceivedMail } from '../helpers/smtp.ts';

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://reports.example.com' });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
});

const drain = async () => {
  const worker = createWorker(t.ctx, { registry: testRegistry({ analyse: async () => reportDataFixture({ seed: 9 }) }) });
  while (await worker.runNext());
};
const header = (mail: ReceivedMail, name: string) => mail.parsed.headers.find((h) => h.key === name.toLowerCase())?.value;
/** The messages that arrived since `from`, by their envelope's recipients. */
const since = (from: number) => smtp.received.slice(from);
/** The one-click unsubscribe, as a mail client does it: POST `List-Unsubscribe=One-Click` to the header's URL. */
async function oneClick(mail: ReceivedMail) {
  const url = new URL(/^<([^>]+)>/.exec(header(mail, 'List-Unsubscribe')!)![1]!);
  expect(url.protocol).toBe('https:');
  expect(header(mail, 'List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
  const res = await t.app.request(`${url.pathname}${url.search}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' });
  expect(res.status).toBe(200);
}

async function agencyWithClient(clientEmail: string) {
  const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing', footerText: 'Northstar Marketing LLC · 500 Main St, Austin, TX 78701' }, agency.cookie);
  const created = await call(t.app, 'POST', '/api/clients', { clientName: 'Dana Whitfield', clientEmail, company: 'Whitfield Dental', website: 'https://whitfield.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' }, agency.cookie);
  expect(created.status).toBe(201);
  return { agency, clientId: created.body.id as string };
}

describe("a client's report and the agency's copy", () => {
  it('are two messages, each to one address with its own one-click unsubscribe; the agency stopping its copies leaves the client subscribed', async () => {
    const { agency, clientId } = await agencyWithClient('dana@whitfield.example');
    const before = smtp.received.length;
    await drain();
    const mails = since(before);
    expect(mails.map((m) => m.envelope.to)).toEqual([['dana@whitfield.example'], [agency.email]]);
    const [toClient, copy] = mails as [ReceivedMail, ReceivedMail];
    for (const m of mails) expect(m.parsed.cc ?? []).toEqual([]);
    expect(toClient.parsed.to).toEqual([{ name: '', address: 'dana@whitfield.example' }]);
    expect(copy.parsed.to).toEqual([{ name: '', address: agency.email }]);
    expect(copy.parsed.subject).toMatch(/^Copy of the report sent to Dana Whitfield\b/);
    expect(copy.parsed.text).toMatch(/This is your copy of the report on .+ sent to Dana Whitfield \(dana@whitfield\.example\), as they received it\./);
    expect(copy.parsed.html).toContain('sent to Dana Whitfield (dana@whitfield.example), as they received it.');
    expect(copy.parsed.text).toMatch(/Unsubscribing stops the copies to your address only; Dana Whitfield keeps receiving the reports\./);
    expect(header(toClient, 'List-Unsubscribe')).not.toBe(header(copy, 'List-Unsubscribe'));
    // Each its own report row: the client page lists the client's, with the copy's status beside it.
    const rows = await t.ctx.db.select().from(reports).where(eq(reports.clientId, clientId));
    expect(rows.map((r) => [r.reportType, r.recipientEmail, r.ccEmail, r.emailSent]).sort()).toEqual([
      ['client', 'dana@whitfield.example', null, true],
      ['client-copy', agency.email, null, true],
    ]);
    const detail = await call(t.app, 'GET', `/api/clients/${clientId}`, undefined, agency.cookie);
    expect(detail.body.reports).toHaveLength(1);
    expect(detail.body.reports[0]).toMatchObject({ to: 'dana@whitfield.example', status: 'sent', copy: { to: agency.email, status: 'sent' } });

    // The agency presses Unsubscribe in its mail app on its copy: its address only.
    await oneClick(copy);
    expect(await isUnsubscribed(t.ctx, agency.email)).toBe(true);
    expect(await isUnsubscribed(t.ctx, 'dana@whitfield.example')).toBe(false);
    const client = await call(t.app, 'GET', `/api/clients/${clientId}`, undefined, agency.cookie);
    expect(client.body.client).toMatchObject({ unsubscribedAt: null, nextReport: expect.any(String) });

    // The next report reaches the client, and no copy goes to the agency.
    const next = smtp.received.length;
    expect((await call(t.app, 'POST', `/api/clients/${clientId}/send`, { to: 'client' }, agency.cookie)).body).toMatchObject({ queued: true });
    await drain();
    expect(since(next).map((m) => m.envelope.to)).toEqual([['dana@whitfield.example']]);
    // A test the agency asks for is still sent to it.
    const test = smtp.received.length;
    expect((await call(t.app, 'POST', `/api/clients/${clientId}/send`, { to: 'me' }, agency.cookie)).status).toBe(202);
    await drain();
    expect(since(test).map((m) => m.envelope.to)).toEqual([[agency.email]]);
  });

  it("a client's opt-out is stored once, shown on the client page and the portfolio, pauses the reports and refuses a send with the reason", async () => {
    const { agency, clientId } = await agencyWithClient('pat@optout.example');
    const before = smtp.received.length;
    await drain();
    const toClient = since(before).find((m) => m.envelope.to.includes('pat@optout.example'))!;
    // Mail clients retry one-click: three POSTs, one opt-out.
    await oneClick(toClient);
    await oneClick(toClient);
    await oneClick(toClient);
    const stored = await t.ctx.db.select().from(emailOptOuts).where(eq(emailOptOuts.email, 'pat@optout.example'));
    expect(stored).toHaveLength(1);
    expect(await isUnsubscribed(t.ctx, agency.email)).toBe(false);

    const page = await call(t.app, 'GET', `/api/clients/${clientId}`, undefined, agency.cookie);
    expect(page.body.client).toMatchObject({ unsubscribedAt: stored[0]!.createdAt.toISOString(), nextReport: null });
    const portfolio = await call(t.app, 'GET', '/api/portfolio', undefined, agency.cookie);
    expect(portfolio.body.rows.find((r: { client: { id: string } | null }) => r.client?.id === clientId)).toMatchObject({ unsubscribedAt: stored[0]!.createdAt.toISOString(), nextReport: null });

    // "Send report now": refused with the reason, nothing queued.
    const queuedBefore = (await t.ctx.db.select().from(jobs).where(eq(jobs.type, 'client.report'))).length;
    const send = await call(t.app, 'POST', `/api/clients/${clientId}/send`, { to: 'client' }, agency.cookie);
    expect(send.status).toBe(409);
    expect(send.body.message).toMatch(/^Dana Whitfield unsubscribed from these reports on .+, so reports to pat@optout\.example are paused\. Nothing was sent\.$/);
    expect((await t.ctx.db.select().from(jobs).where(eq(jobs.type, 'client.report'))).length).toBe(queuedBefore);

    // The scheduled report of the month skips it; the agency is told why on the page, not by silence.
    await t.ctx.db.update(clients).set({ reportFrequency: 'monthly' }).where(eq(clients.id, clientId));
    const sent = smtp.received.length;
    await scheduleTick(t.ctx, new Date(Date.UTC(new Date().getUTCFullYear() + 1, 0, 1, 6)));
    await drain();
    expect(since(sent).filter((m) => m.envelope.to.includes('pat@optout.example'))).toEqual([]);
  });

  it('a new opt-out after a later consent is stored in the same row, with the new date', async () => {
    const { agency } = await agencyWithClient('sam@again.example');
    await drain();
    const first = smtp.received.find((m) => m.envelope.to.includes('sam@again.example'))!;
    await oneClick(first);
    const [row] = await t.ctx.db.select().from(emailOptOuts).where(eq(emailOptOuts.email, 'sam@again.example'));
    // Sam asks for a report with the consent box ticked: subscribed again.
    const form = { fullName: 'Sam Again', email: 'sam@again.example', company: 'Again Dental', role: 'owner', website: 'https://again.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', consent: true };
    expect((await call(t.app, 'POST', '/api/submit-request', form)).status).toBe(202);
    expect(await isUnsubscribed(t.ctx, 'sam@again.example')).toBe(false);
    await new Promise((r) => setTimeout(r, 5));
    await oneClick(first);
    const rows = await t.ctx.db.select().from(emailOptOuts).where(eq(emailOptOuts.email, 'sam@again.example'));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.createdAt.getTime()).toBeGreaterThan(row!.createdAt.getTime());
    expect(await isUnsubscribed(t.ctx, 'sam@again.example')).toBe(true);
    void agency;
  });
});
