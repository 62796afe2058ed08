// A visitor's erasure: the report e-mail's "Delete my data" link (signed, works once, forged or
// expired refused), `npm run admin -- forget <email>`, and the retention purge of free reports no
// account holds. After each, nothing in any table or under DATA_DIR names what was erased, and
// other people's data is untouched.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer, outboxDir } from '../../api/email/mailer.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { reportFiles } from '../../api/report/files/store.ts';
import { forgetEmail, pseudonym, purgeExpiredFreeReports } from '../../api/services/data-rights/erasure.ts';
import { FORGET_PATH, forgetByLink, lookupForgetLink } from '../../api/services/data-rights/forget-link.ts';
import { RETENTION_PURGE, scheduleRetentionPurge } from '../../api/services/data-rights/retention-job.ts';
import { businesses, consentRecords, reportRequests } from '../../db/schema/businesses.ts';
import { contactMessages, jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { createTestContext, databaseEnv, type TestContext } from '../helpers/context.ts';
import { findMentions } from '../helpers/data-walk.ts';
import { createUser, uniqueEmail } from '../helpers/factories.ts';
import { createReportRequest } from '../helpers/report-requests.ts';
import { entry } from '../helpers/entries.ts';

let t: TestContext;
const base = 'https://reports.example.com';
let seq = 0;

beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: base });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
});

/** A free report made and e-mailed (to the outbox) by the real job, with a consent record. */
async function freeReport(options: { email?: string; userId?: string | null } = {}) {
  const company = `Zephyrine Dental ${++seq}x${Date.now().toString(36)}`;
  const req = await createReportRequest(t.ctx, { email: options.email ?? uniqueEmail('visitor'), company, userId: options.userId ?? null, enqueue: false });
  await t.ctx.db.insert(consentRecords).values({ requestId: req.request.id, email: req.request.email, textVersion: 'v1', ipAddress: '203.0.113.9', userAgent: 'Test Browser' });
  await t.ctx.db.insert(jobs).values({ type: 'report.generate', payload: { requestId: req.request.id, businessId: req.business.id }, key: `report:${req.request.id}` });
  const registry = testRegistry({ analyse: async () => reportDataFixture({ company }) });
  await createWorker(t.ctx, { registry }).runNext();
  const report = (await t.ctx.db.select().from(reports).where(eq(reports.requestId, req.request.id)))[0]!;
  expect(report.emailSent).toBe(true);
  return { ...req, company, report };
}

function mailTo(email: string): string {
  const file = readdirSync(outboxDir(t.ctx)).find((f) => readFileSync(join(outboxDir(t.ctx), f), 'latin1').includes(email));
  expect(file, `an outbox copy to ${email}`).toBeDefined();
  return readFileSync(join(outboxDir(t.ctx), file!), 'latin1');
}

/** The "Delete my data" link of the e-mail sent to the address (its text part, quoted-printable undone). */
function deleteLink(email: string): string {
  const text = mailTo(email).replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = text.match(/Delete my data: (\S+)/);
  expect(match, 'the text part names the delete link').not.toBeNull();
  return match![1]!;
}

describe('the report e-mail\'s "Delete my data" link', () => {
  it('is in every free report e-mail, HTML and text, signed for its request', async () => {
    const { request } = await freeReport();
    const raw = mailTo(request.email);
    expect(raw).toContain('Delete my data</a>');
    const url = new URL(deleteLink(request.email));
    expect(`${url.origin}${url.pathname}`).toBe(`${base}${FORGET_PATH}`);
  });

  it('erases the request, the business, the reports, the files, the outbox copy and jobs once; a second use is refused', async () => {
    const other = await freeReport();
    const mine = await freeReport();
    const second = await freeReport({ email: mine.request.email });
    await t.ctx.db.insert(contactMessages).values({ name: 'Dana', email: mine.request.email.toUpperCase(), subject: 'Hi', message: 'About my report' });
    const token = new URL(deleteLink(mine.request.email)).searchParams.get('token')!;
    expect(existsSync(reportFiles(t.ctx, mine.report.id).pdf)).toBe(true);

    const confirm = await lookupForgetLink(t.ctx, token);
    expect(confirm).toEqual({ state: 'confirm', email: mine.request.email, company: mine.company });
    const done = await forgetByLink(t.ctx, token);
    expect(done.state).toBe('done');
    if (done.state !== 'done') return;
    expect(done.summary).toMatchObject({ requests: 2, businesses: 2, reports: 2, reportFiles: 2, contactMessages: 1, consentRecordsPseudonymised: 2, accountExists: false });
    expect(done.summary.outboxCopies).toBeGreaterThanOrEqual(2);

    const ids = [mine.business.id, mine.request.id, mine.report.id, second.business.id, second.request.id, second.report.id, mine.report.token!];
    expect(await findMentions(t.ctx, t.dataDir, [mine.request.email, mine.company, second.company, ...ids])).toEqual([]);
    // Kept: the consent records, without the address, the IP address or the browser.
    const kept = await t.ctx.db.select().from(consentRecords).where(eq(consentRecords.email, await pseudonym(t.ctx, mine.request.email)));
    expect(kept).toHaveLength(2);
    expect(kept.every((k) => k.ipAddress === null && k.userAgent === null && k.requestId === null)).toBe(true);

    // Works once.
    expect(await lookupForgetLink(t.ctx, token)).toEqual({ state: 'used' });
    expect((await forgetByLink(t.ctx, token)).state).toBe('used');
    // Someone else's report is untouched, files and e-mail included.
    expect(await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, other.business.id) })).toBeDefined();
    expect(await t.ctx.db.query.reports.findFirst({ where: eq(reports.id, other.report.id) })).toBeDefined();
    expect(existsSync(reportFiles(t.ctx, other.report.id).pdf)).toBe(true);
    expect(mailTo(other.request.email)).toContain(other.company);
  });

  it('refuses a forged, a re-purposed or an expired link, and changes nothing', async () => {
    const { request } = await freeReport();
    const token = new URL(deleteLink(request.email)).searchParams.get('token')!;
    const [body, signature] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString());
    const forgedBody = Buffer.from(JSON.stringify({ ...claims, s: 'another-request' })).toString('base64url');
    expect((await forgetByLink(t.ctx, `${forgedBody}.${signature}`)).state).toBe('invalid');
    expect((await forgetByLink(t.ctx, `${body}.${signature.slice(0, -2)}AA`)).state).toBe('invalid');
    expect((await forgetByLink(t.ctx, 'not-a-token')).state).toBe('invalid');
    const later = new Date(Date.now() + 13 * 31 * 24 * 60 * 60 * 1000);
    expect((await forgetByLink(t.ctx, token, later)).state).toBe('expired');
    expect(await t.ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, request.id) })).toBeDefined();
  });

  it('keeps a business an account holds, erasing only the visitor\'s request', async () => {
    const owner = await createUser(t.ctx);
    const saved = await freeReport({ userId: owner.userId });
    const summary = await forgetEmail(t.ctx, saved.request.email);
    expect(summary).toMatchObject({ requests: 1, businesses: 0, businessesKeptForAccounts: 1 });
    expect(await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, saved.business.id) })).toBeDefined();
    expect(await t.ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, saved.request.id) })).toBeUndefined();
  });
});

describe('npm run admin -- forget <email>', () => {
  it('erases and prints what it removed and what it kept', async () => {
    const { request, company, report } = await freeReport();
    const env: NodeJS.ProcessEnv = { ...process.env, ...databaseEnv(t), LOG_LEVEL: 'silent' };
    const child = spawn(process.execPath, [entry('scripts/admin.ts'), 'forget', request.email.toUpperCase()], { env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const code = await new Promise((done) => child.on('close', done));
    expect(code).toBe(0);
    expect(out).toMatch(/report requests\s+1\n/);
    expect(out).toMatch(/businesses\s+1 /);
    expect(out).toMatch(/reports\s+1\n/);
    expect(out).toMatch(/report file folders\s+1\n/);
    expect(out).toContain('Kept: 1 consent record(s), pseudonymised');
    expect(await findMentions(t.ctx, t.dataDir, [request.email, company, report.id])).toEqual([]);
  });
});

describe('retention of free reports', () => {
  it('purges free reports no account holds once their latest request is older than the setting', async () => {
    const old = await freeReport();
    const recent = await freeReport();
    const owner = await createUser(t.ctx);
    const oldSaved = await freeReport({ userId: owner.userId });
    const longAgo = new Date(Date.now() - 13 * 31 * 24 * 60 * 60 * 1000);
    for (const r of [old, oldSaved]) {
      await t.ctx.db.update(reportRequests).set({ createdAt: longAgo }).where(eq(reportRequests.id, r.request.id));
      await t.ctx.db.update(businesses).set({ createdAt: longAgo }).where(eq(businesses.id, r.business.id));
      await t.ctx.db.update(reports).set({ createdAt: longAgo }).where(eq(reports.id, r.report.id));
    }
    const result = await purgeExpiredFreeReports(t.ctx);
    expect(result).toMatchObject({ businesses: 1, reports: 1, reportFiles: 1 });
    expect(await findMentions(t.ctx, t.dataDir, [old.business.id, old.report.id, old.company])).toEqual([]);
    for (const kept of [recent, oldSaved]) {
      expect(await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, kept.business.id) })).toBeDefined();
      expect(existsSync(reportFiles(t.ctx, kept.report.id).pdf)).toBe(true);
    }
  });

  it('is queued once a day by the scheduler and run by the worker', async () => {
    const now = new Date('2027-03-04T10:00:00Z');
    expect(await scheduleRetentionPurge(t.ctx, now)).toBe(true);
    expect(await scheduleRetentionPurge(t.ctx, new Date('2027-03-04T23:00:00Z'))).toBe(false);
    const job = await t.ctx.db.query.jobs.findFirst({ where: eq(jobs.type, RETENTION_PURGE) });
    expect(job?.key).toBe(`${RETENTION_PURGE}:2027-03-04`);
    await createWorker(t.ctx, { registry: testRegistry({}) }).runNext();
    expect((await t.ctx.db.query.jobs.findFirst({ where: eq(jobs.id, job!.id) }))?.status).toBe('done');
  });
});
