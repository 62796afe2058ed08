// alerts.notify: an analysis run that records alerts queues the e-mail; the accounts that may
// monitor the business get the unsent alerts once; a plan without the monitor gets nothing.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SAMPLE_DATA_LABEL, SAMPLE_DATA_NOTE } from '../../common/constants.ts';
import { ALERTS_NOTIFY } from '../../api/services/early-warning-mail.ts';
import { alertsEmail } from '../../api/email/alerts-email.ts';
import { closeMailer } from '../../api/email/mailer.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { persistReport } from '../../api/report/persist.ts';
import type { Review } from '../../api/report/model/types.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reviewAlerts } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
});

const DAY = 24 * 60 * 60 * 1000;
const review = (rating: number, daysAgo: number, author: string): Review => ({ rating, text: `<b>${author}</b> was unhappy`, author, date: new Date(Date.now() - daysAgo * DAY).toISOString(), url: 'https://maps.example/r', ownerResponse: null });

async function analyse(businessId: string, ownReviews: Review[]) {
  const data = reportDataFixture();
  data.ownReviews = ownReviews;
  await persistReport(t.ctx, { businessId, requestId: null, reportType: 'scheduled', data });
}

async function drain() {
  const worker = createWorker(t.ctx, { registry: testRegistry({}) });
  const queued = () => t.ctx.db.select().from(jobs).where(eq(jobs.type, ALERTS_NOTIFY));
  for (let i = 0; i < 10 && (await queued()).some((j) => j.status === 'queued'); i++) await worker.runNext();
  return queued();
}

it('e-mails the owner and the consultant the new alerts once, and nothing for a plan without the monitor', async () => {
  const owner = await createUser(t.ctx, { tier: 'enterprise' });
  const consultant = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
  const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Lamar Smiles' });
  await addClient(t.ctx, consultant.viewer.consultant!.id, business.id);

  const first = [review(1, 1, 'Pat Q.'), review(2, 5, 'Lee R.'), review(5, 1, 'Happy H.')];
  await analyse(business.id, first);
  const done = await drain();
  expect(done.map((j) => j.status)).toEqual(['done']);
  expect(smtp.received.map((m) => m.envelope.to[0]).sort()).toEqual([owner.email, consultant.email].sort());
  const mail = smtp.received[0]!;
  // The fixture's run is sample data (made-up reviewers): the subject and the first line say so.
  expect(mail.parsed.subject).toBe('2 new low-rated reviews for Lamar Smiles (example figures, not your real listings)');
  expect(mail.parsed.text!.split('\n')[0]).toBe(`${SAMPLE_DATA_LABEL}. ${SAMPLE_DATA_NOTE}`);
  expect(mail.parsed.html).toContain(`<strong>${SAMPLE_DATA_LABEL}.</strong>`);
  expect(mail.parsed.messageId).toMatch(/^<alerts-[\w-]+@[^@]+>$/);
  expect(mail.parsed.text).toContain('1.0 stars on Other by Pat Q.');
  expect(mail.parsed.text).not.toContain('Happy H.');
  expect(mail.parsed.text).toContain(`/early-warning/${business.id}`);
  expect(mail.parsed.html).toContain('&lt;b&gt;Pat Q.&lt;/b&gt; was unhappy');
  expect((await t.ctx.db.select().from(reviewAlerts).where(eq(reviewAlerts.businessId, business.id))).every((a) => a.emailSent)).toBe(true);

  // The next run sees the same reviews and one new: only the new one is e-mailed.
  await analyse(business.id, [review(2.5, 0, 'New N.'), ...first]);
  await drain();
  expect(smtp.received).toHaveLength(4);
  expect(smtp.received[2]!.parsed.subject).toBe('A new low-rated review for Lamar Smiles (example figures, not your real listings)');
  expect(smtp.received[2]!.parsed.text).not.toContain('Pat Q.');

  // A pro owner: alerts are recorded, nothing is sent, they stay unsent.
  const pro = await createUser(t.ctx, { tier: 'pro' });
  const other = await seedBusiness(t.ctx, { userId: pro.userId });
  await analyse(other.business.id, [review(1, 1, 'Sam T.')]);
  await drain();
  expect(smtp.received).toHaveLength(4);
  expect((await t.ctx.db.select().from(reviewAlerts).where(eq(reviewAlerts.businessId, other.business.id))).map((a) => a.emailSent)).toEqual([false]);
});

it('says nothing of sample data for live listings', () => {
  const business = { id: 'b', company: 'Lamar Smiles', city: 'Austin', state: 'TX', placeId: 'google:abc' } as Parameters<typeof alertsEmail>[1];
  const alert = { id: 'a', platform: 'google', reviewRating: 1, reviewAuthor: 'Pat', reviewText: 'Rude', reviewUrl: null, reviewDate: new Date() } as Parameters<typeof alertsEmail>[3][number];
  const mail = alertsEmail(t.ctx, business, { userId: 'u', email: 'o@example.com' }, [alert], 'token.signature');
  expect(mail.subject).toBe('A new low-rated review for Lamar Smiles');
  expect(`${mail.text}${mail.html}`).not.toContain(SAMPLE_DATA_LABEL);
});

it('unsubscribes in one click over HTTPS (RFC 8058): the alert e-mail names an HTTPS URL, its POST opts the address out, the next alerts skip it', async () => {
  const owner = await createUser(t.ctx, { tier: 'enterprise' });
  const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Quiet Dental' });
  await analyse(business.id, [review(1, 1, 'Kim A.')]);
  await drain();
  const mail = smtp.received.find((m) => m.envelope.to.includes(owner.email))!;
  const header = (name: string) => mail.parsed.headers.find((h) => h.key === name)?.value ?? '';
  expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe=One-Click');
  const url = /<(https?:\/\/[^>]+\/api\/unsubscribe\?token=[^>]+)>/.exec(header('list-unsubscribe'))![1]!;
  expect(mail.parsed.text).toContain('Unsubscribe: ');
  expect(mail.parsed.text).not.toMatch(/to stop these e-mails/i);
  const path = url.slice(url.indexOf('/api/'));
  // A changed token is refused; the real one opts the address out, idempotently.
  expect((await t.app.request(path.replace(/token=(.)/, (_, c) => `token=${c === 'A' ? 'B' : 'A'}`), { method: 'POST', body: 'List-Unsubscribe=One-Click' })).status).toBe(404);
  for (let i = 0; i < 2; i++) expect((await t.app.request(path, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: 'List-Unsubscribe=One-Click' })).status).toBe(200);
  const before = smtp.received.length;
  await analyse(business.id, [review(1, 1, 'Kim A.'), review(2, 2, 'Jo B.')]);
  const jobs = await drain();
  expect(jobs.at(-1)!.status).toBe('done');
  expect(smtp.received.length).toBe(before);
});
