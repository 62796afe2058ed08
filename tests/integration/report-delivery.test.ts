// Delivery through a real SMTP server, the signed link's expiry, saving to an account, unsubscribe.
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { createRegistry } from '../../api/jobs/registry.ts';
import { reportFiles } from '../../api/report/files/store.ts';
import { retryJob } from '../../api/jobs/admin.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { businesses, consentRecords, reportRequests } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { createReportRequest } from '../helpers/report-requests.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const base = 'https://reports.example.com';

beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_BASE_URL: base, MAIL_FROM: 'LocalRank <reports@reports.example.com>' });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
});

async function generate(options: { sampleData?: boolean } = {}) {
  const req = await createReportRequest(t.ctx);
  const registry = createRegistry({ analyse: async () => reportDataFixture({ sampleData: options.sampleData ?? true }) });
  await createWorker(t.ctx, { registry }).runNext();
  const report = (await t.ctx.db.select().from(reports).where(eq(reports.requestId, req.request.id)))[0]!;
  return { ...req, report };
}

describe('report e-mail over SMTP', () => {
  it('arrives once with HTML and text, the inline score card, the PDF, the link and one-click unsubscribe', async () => {
    const { business, report } = await generate();
    const mails = smtp.received.filter((m) => m.envelope.to.includes(business.email));
    expect(mails).toHaveLength(1);
    const mail = mails[0]!.parsed;
    expect(mail.from?.address).toBe('reports@reports.example.com');
    expect(mail.subject).toMatch(/^Your LocalRank report \(example figures, not your real listings\): Austin Family Dental ranks #\d+ of 10$/);
    expect(mail.messageId).toBe(`<report-${report.id}@reports.example.com>`);
    const header = (name: string) => mail.headers.find((h) => h.key === name.toLowerCase())?.value;
    expect(header('List-Unsubscribe')).toBe(`<${base}/api/unsubscribe?token=${report.token}>, <mailto:support@localrank.app?subject=unsubscribe>`);
    expect(header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');

    expect(mail.html).toContain(`href="${base}/report/${report.token}"`);
    expect(mail.html).toContain('src="cid:score-card@localrank"');
    expect(mail.html).toContain('600 Congress Avenue, Suite 1400, Austin, TX 78701');
    expect(mail.html).toContain('Example figures, not your real listings');
    expect(mail.text).toContain('EXAMPLE FIGURES, NOT YOUR REAL LISTINGS.');
    expect(mail.text).toContain('made up to show how LocalRank works');
    expect(mail.text).not.toContain('Some data could not be collected'); // the fixture's data is complete
    expect(mail.text).toContain(`${base}/report/${report.token}`);
    expect(mail.text).toContain('Lone Star Management Solutions LLC, 600 Congress Avenue, Suite 1400, Austin, TX 78701');
    expect(mail.text).toMatch(/Overall score: \d+\.\d{2} \/ 10/);

    const png = mail.attachments.find((a) => a.mimeType === 'image/png')!;
    expect(png.contentId).toBe('<score-card@localrank>');
    expect(png.disposition).toBe('inline');
    const pngBytes = Buffer.from(png.content as ArrayBuffer);
    expect(pngBytes.readUInt32BE(16)).toBe(1200); // IHDR width
    expect(pngBytes.readUInt32BE(20)).toBe(630); // IHDR height

    const pdf = mail.attachments.find((a) => a.mimeType === 'application/pdf')!;
    expect(pdf.filename).toBe('austin-family-dental-localrank-report-example-figures.pdf');
    expect(pdf.disposition).toBe('attachment');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.content as ArrayBuffer)), { mergePages: true });
    expect(text).toContain('Austin Family Dental');
    expect(text).toContain('How you compare');
    expect(text).toContain('Executive summary');
    expect(text).toContain('How this score is computed');
    expect(text).toContain('Example figures, not your real listings');
    expect(text).toContain('How we score, in short');
    expect(text).toMatch(/Rank #\d+ of 10/);

    expect((await t.ctx.db.select().from(reports).where(eq(reports.id, report.id)))[0]!.emailSent).toBe(true);
  });

  it('says nothing about sample data when the data is live', async () => {
    const { business } = await generate({ sampleData: false });
    const mail = smtp.received.find((m) => m.envelope.to.includes(business.email))!.parsed;
    expect(mail.subject).toMatch(/^Your LocalRank report: Austin Family Dental ranks #\d+ of 10$/);
    expect(mail.html).not.toContain('Example figures');
    expect(mail.text).not.toContain('EXAMPLE FIGURES');
    const pdf = mail.attachments.find((a) => a.mimeType === 'application/pdf')!;
    expect(pdf.filename).toBe('austin-family-dental-localrank-report.pdf');
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.content as ArrayBuffer)), { mergePages: true });
    expect(text).not.toContain('Example figures');
  });

  it('retries when the mail server is down, then sends once', async () => {
    const req = await createReportRequest(t.ctx);
    // The same database, with a mail server address where nothing listens (port 9, discard).
    const brokenCtx = { ...t.ctx, env: { ...t.ctx.env, SMTP_URL: 'smtp://127.0.0.1:9' } };
    const registry = createRegistry({ analyse: async () => reportDataFixture() });
    await createWorker(brokenCtx, { registry, backoffBaseMs: 0, mailRetryDelaysMs: [0] }).runNext();
    let report = (await t.ctx.db.select().from(reports).where(eq(reports.requestId, req.request.id)))[0]!;
    expect(report.emailSent).toBe(false);
    expect(report.emailClaimedAt).toBeNull();
    closeMailer(brokenCtx);
    await createWorker(t.ctx, { registry }).runNext();
    report = (await t.ctx.db.select().from(reports).where(eq(reports.requestId, req.request.id)))[0]!;
    expect(report.emailSent).toBe(true);
    expect(smtp.received.filter((m) => m.envelope.to.includes(req.business.email))).toHaveLength(1);
  });

  it('after a crash inside the SMTP conversation, sends the report again with the same Message-ID (a recognisable copy, never a silent loss), and no failure notice', async () => {
    const { business, report, jobId, request } = await generate();
    const first = smtp.received.filter((m) => m.envelope.to.includes(business.email));
    expect(first).toHaveLength(1);
    // The process died after claiming the e-mail, before recording a send; the claim is old.
    await t.ctx.db.update(reports).set({ emailSent: false, emailClaimedAt: new Date(Date.now() - 10 * 60_000) }).where(eq(reports.id, report.id));
    await t.ctx.db.update(jobs).set({ status: 'queued', runAt: new Date() }).where(eq(jobs.id, jobId));
    const registry = createRegistry({ analyse: async () => reportDataFixture() });
    await createWorker(t.ctx, { registry }).drain();
    const job = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
    expect(job.status).toBe('done');
    expect((await t.ctx.db.select().from(reports).where(eq(reports.id, report.id)))[0]!.emailSent).toBe(true);
    expect((await t.ctx.db.select().from(reportRequests).where(eq(reportRequests.id, request.id)))[0]!.status).toBe('sent');
    const mails = smtp.received.filter((m) => m.envelope.to.includes(business.email));
    expect(mails).toHaveLength(2);
    expect(mails[1]!.parsed.messageId).toBe(mails[0]!.parsed.messageId);
    expect(mails[1]!.parsed.subject).toBe(mails[0]!.parsed.subject);
    expect(mails.every((m) => !/could not/i.test(m.parsed.subject ?? ''))).toBe(true);
  });
});

it('an operator retry of a job that failed with its e-mail claim left by a crash delivers the report', async () => {
  const { business, report, jobId } = await generate();
  const before = smtp.received.filter((m) => m.envelope.to.includes(business.email)).length;
  await t.ctx.db.update(reports).set({ emailSent: false, emailClaimedAt: new Date(Date.now() - 10 * 60_000) }).where(eq(reports.id, report.id));
  await t.ctx.db.update(jobs).set({ status: 'failed', lastError: 'the worker stopped during the last attempt' }).where(eq(jobs.id, jobId));
  await retryJob({ ctx: t.ctx, id: jobId });
  await createWorker(t.ctx, { registry: createRegistry({ analyse: async () => reportDataFixture() }) }).drain();
  expect((await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!.status).toBe('done');
  expect((await t.ctx.db.select().from(reports).where(eq(reports.id, report.id)))[0]!.emailSent).toBe(true);
  expect(smtp.received.filter((m) => m.envelope.to.includes(business.email))).toHaveLength(before + 1);
});

describe('the signed link', () => {
  it('serves the PDF and the score card while valid, 410 once expired, 404 when unknown', async () => {
    const { report } = await generate();
    let res = await t.app.request(`/api/reports/${report.token}/report.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await res.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
    res = await t.app.request(`/api/reports/${report.token}/score-card.png`);
    expect(res.status).toBe(200);
    await t.ctx.db.update(reports).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(reports.id, report.id));
    const expired = await call(t.app, 'GET', `/api/reports/${report.token}/report.pdf`);
    expect(expired.status).toBe(410);
    expect(expired.body.code).toBe('gone');
    const unknown = await call(t.app, 'GET', `/api/reports/${'x'.repeat(32)}/report.pdf`);
    expect(unknown.status).toBe(404);
  });

  it('renders the files again from the stored analysis when this process has not got them (another machine, a lost disk)', async () => {
    const { report, business } = await generate();
    const files = reportFiles(t.ctx, report.id);
    const original = readFileSync(files.pdf);
    rmSync(files.dir, { recursive: true });
    const pdf = await t.app.request(`/api/reports/${report.token}/report.pdf`);
    expect(pdf.status).toBe(200);
    const body = Buffer.from(await pdf.arrayBuffer());
    const text = (await extractText(await getDocumentProxy(new Uint8Array(body)), { mergePages: true })).text;
    expect(text).toContain(business.company);
    expect(body.length).toBeGreaterThan(original.length / 2);
    expect(existsSync(files.pdf) && existsSync(files.png)).toBe(true);
    // The two files and the stamp of the brand they show (decision 0208), no temporary file left.
    expect(readdirSync(files.dir).sort()).toEqual(['brand', 'report.pdf', 'score-card.png']);
    const png = await t.app.request(`/api/reports/${report.token}/score-card.png`);
    expect(Buffer.from(await png.arrayBuffer()).equals(readFileSync(files.png))).toBe(true);

  });

  it('saves the business to the signed-in user, once, and never takes it from another', async () => {
    const { report, business } = await generate();
    const anonymous = await call(t.app, 'POST', `/api/reports/${report.token}/save`);
    expect(anonymous.status).toBe(401);
    const owner = await createUser(t.ctx);
    const saved = await call(t.app, 'POST', `/api/reports/${report.token}/save`, undefined, owner.cookie);
    expect(saved.status).toBe(200);
    expect(saved.body).toEqual({ businessId: business.id, alreadySaved: false });
    expect((await t.ctx.db.select().from(businesses).where(eq(businesses.id, business.id)))[0]!.userId).toBe(owner.userId);
    const twice = await call(t.app, 'POST', `/api/reports/${report.token}/save`, undefined, owner.cookie);
    expect(twice.body.alreadySaved).toBe(true);
    const other = await createUser(t.ctx);
    const stolen = await call(t.app, 'POST', `/api/reports/${report.token}/save`, undefined, other.cookie);
    expect(stolen.status).toBe(409);
    expect((await t.ctx.db.select().from(businesses).where(eq(businesses.id, business.id)))[0]!.userId).toBe(owner.userId);
  });

  it('will not save from an expired link', async () => {
    const { report } = await generate();
    await t.ctx.db.update(reports).set({ expiresAt: new Date(Date.now() - 1) }).where(eq(reports.id, report.id));
    const user = await createUser(t.ctx);
    const res = await call(t.app, 'POST', `/api/reports/${report.token}/save`, undefined, user.cookie);
    expect(res.status).toBe(410);
  });
});

describe('one-click unsubscribe', () => {
  it('withdraws consent for the address on the RFC 8058 POST, idempotently', async () => {
    const { report, request, business } = await generate();
    await t.ctx.db.insert(consentRecords).values({ requestId: request.id, email: business.email, textVersion: '2026-11' });
    const res = await t.app.request(`/api/unsubscribe?token=${report.token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(res.status).toBe(200);
    const consent = (await t.ctx.db.select().from(consentRecords).where(eq(consentRecords.email, business.email)))[0]!;
    expect(consent.withdrawnAt).toBeInstanceOf(Date);
    expect((await t.app.request(`/api/unsubscribe?token=${report.token}`, { method: 'POST' })).status).toBe(200);
    expect((await t.app.request(`/api/unsubscribe?token=nope`, { method: 'POST' })).status).toBe(404);
  });
});
