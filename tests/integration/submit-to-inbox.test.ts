// The main job end to end in-process: the form's POST → the queued job → the worker → the e-mail
// with the PDF received by a real SMTP server → the signed link answers with the report.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { reportRequests } from '../../db/schema/businesses.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { validForm } from '../helpers/report-requests.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://localrank.example' });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
});

it('turns a submitted form into an e-mail with the PDF and a working link', async () => {
  const form = validForm({ email: 'maria@lopezplumbing.example.com', company: 'Lopez Plumbing', consent: true });
  const res = await t.app.request('/api/submit-request', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(form) });
  expect(res.status).toBe(202);
  const { requestId } = (await res.json()) as { requestId: string };

  const seen: string[] = [];
  const registry = testRegistry({ analyse: async (_ctx, input) => (seen.push(`${input.company}|${input.zip}|${input.email}`), reportDataFixture({ company: input.company })) });
  const worker = createWorker(t.ctx, { registry, pollMs: 20 });
  worker.start();
  const until = Date.now() + 15_000;
  while (smtp.received.length === 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
  await worker.stop();

  expect(seen).toEqual(['Lopez Plumbing|78704|maria@lopezplumbing.example.com']);
  expect(smtp.received).toHaveLength(1);
  const mail = smtp.received[0]!;
  expect(mail.envelope.to).toEqual(['maria@lopezplumbing.example.com']);
  expect(mail.parsed.attachments.find((a) => a.mimeType === 'application/pdf')?.filename).toBe('lopez-plumbing-localrank-report-example-figures.pdf');
  const link = mail.parsed.text!.match(/https:\/\/localrank\.example\/report\/([A-Za-z0-9_-]+)/);
  expect(link).not.toBeNull();
  const pdf = await t.app.request(`/api/reports/${link![1]}/report.pdf`);
  expect(pdf.status).toBe(200);
  expect((await t.ctx.db.select().from(reportRequests).where(eq(reportRequests.id, requestId)))[0]!.status).toBe('sent');
});
