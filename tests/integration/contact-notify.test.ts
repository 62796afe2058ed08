// contact.notify: the operator gets the stored contact message once, with Reply-To the sender.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { enqueue } from '../../api/jobs/queue.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { contactMessages, jobs } from '../../db/schema/operations.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url, OPERATOR_EMAIL: 'ops@example.com' });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
});

it('e-mails the operator once, with the message and a Reply-To of the sender', async () => {
  const [m] = await t.ctx.db
    .insert(contactMessages)
    .values({ name: 'Rosa <Diaz>', email: 'rosa@example.com', subject: 'billing', message: 'Can I pay yearly?\nThanks & regards' })
    .returning();
  const jobId = (await enqueue(t.ctx.db, { type: 'contact.notify', payload: { messageId: m!.id } }))!;
  const worker = createWorker(t.ctx, { registry: testRegistry({}) });
  await worker.runNext();
  expect((await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!.status).toBe('done');
  expect((await t.ctx.db.select().from(contactMessages).where(eq(contactMessages.id, m!.id)))[0]!.notifiedAt).toBeInstanceOf(Date);
  expect(smtp.received).toHaveLength(1);
  const mail = smtp.received[0]!;
  expect(mail.envelope.to).toEqual(['ops@example.com']);
  expect(mail.parsed.subject).toBe('[LocalRank contact] Billing Question: Rosa <Diaz>');
  expect(mail.parsed.text).toContain('Subject: Billing Question\n');
  expect(mail.parsed.replyTo?.[0]?.address).toBe('rosa@example.com');
  expect(mail.parsed.text).toContain('Can I pay yearly?\nThanks & regards');
  expect(mail.parsed.html).toContain('Rosa &lt;Diaz&gt;');
  expect(mail.parsed.html).not.toContain('<Diaz>');

  // The same message queued again (a duplicate enqueue) does not notify twice.
  await enqueue(t.ctx.db, { type: 'contact.notify', payload: { messageId: m!.id } });
  await worker.runNext();
  expect(smtp.received).toHaveLength(1);
});

it('fails for good when the message does not exist', async () => {
  const jobId = (await enqueue(t.ctx.db, { type: 'contact.notify', payload: { messageId: 'missing' } }))!;
  await createWorker(t.ctx, { registry: testRegistry({}) }).runNext();
  const row = (await t.ctx.db.select().from(jobs).where(eq(jobs.id, jobId)))[0]!;
  expect(row.status).toBe('failed');
  expect(row.lastError).toBe('contact message missing not found');
});

/** Sends a message through POST /api/contact, runs its job, and returns the mail it sent. */
async function sendContact(message: Record<string, string>) {
  const before = smtp.received.length;
  const res = await t.app.request('/api/contact', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(message) });
  expect(res.status).toBe(201);
  await createWorker(t.ctx, { registry: testRegistry({}) }).drain();
  return smtp.received.slice(before);
}

it('notifies the operator of a message sent through POST /api/contact', async () => {
  const mail = await sendContact({ name: 'Sam Ortiz', email: 'sam@example.com', subject: 'sales', message: 'Do you offer agency pricing for 40 clients?' });
  expect(mail).toHaveLength(1);
  expect(mail[0]!.parsed.subject).toBe('[LocalRank contact] Sales & Pricing: Sam Ortiz');
  expect(mail[0]!.parsed.text).toContain('Do you offer agency pricing for 40 clients?');
});

it('refuses line breaks in a sender\'s name (no injected Bcc), and mails nothing', async () => {
  const before = smtp.received.length;
  const res = await t.app.request('/api/contact', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Eve\r\nBcc: victim@example.com', email: 'eve@example.com', subject: 'general', message: 'Hello there, operator.' }),
  });
  expect(res.status).toBe(400);
  expect(((await res.json()) as { fields: Record<string, string> }).fields.name).toBeTruthy();
  await createWorker(t.ctx, { registry: testRegistry({}) }).drain();
  expect(smtp.received.length).toBe(before);
});
