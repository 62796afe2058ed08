// Erasure that leaves nothing: an agency closed past its 30 days, purged by `npm run admin --
// purge-expired` (the whole daily purge), is found nowhere under DATA_DIR byte for byte: not in the
// database file's free pages, not in its write-ahead log, not in a job, not in a cached report
// file of a visitor's widget lead made under its brand (those are removed and rendered again,
// unbranded, when asked for).
import { existsSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { enqueue } from '../../api/jobs/queue.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { reportFiles } from '../../api/report/files/store.ts';
import { users } from '../../db/schema/auth.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { runAdmin } from '../helpers/admin.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { findBytes } from '../helpers/data-walk.ts';
import { createUser, uniqueEmail } from '../helpers/factories.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

const DAY = 24 * 60 * 60 * 1000;
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: 'https://app.example.com' });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
});

describe('an agency purged after its grace period', () => {
  it('leaves no byte of its e-mail, name or ids in the database file, its log or DATA_DIR', async () => {
    const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Quokkabrand Agency', email: uniqueEmail('quokka') });
    const consultant = (await t.ctx.db.query.consultants.findFirst({ where: (c, { eq }) => eq(c.userId, agency.userId) }))!;
    const profile = await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Quokkabrand Studio', primaryColor: '#114477', secondaryColor: '#225588', accentColor: '#336699' }, agency.cookie);
    expect(profile.status).toBe(201);

    // Visitors' reports made through the agency's widget, in its brand: rendered, cached, e-mailed.
    const registry = testRegistry({ analyse: async () => reportDataFixture() });
    const leads = [];
    for (const n of [1, 2, 3]) {
      const lead = await createReportRequest(t.ctx, { company: `Wombat Dental ${n}`, enqueue: false });
      await enqueue(t.ctx.db, {
        type: 'report.generate',
        payload: { requestId: lead.request.id, businessId: lead.business.id, consultantId: consultant.id, brandingProfileId: profile.body.id },
        key: `report.generate:${lead.request.id}`,
      });
      expect(await createWorker(t.ctx, { registry }).runNext()).toBe(true);
      leads.push((await t.ctx.db.select().from(reports).where(eq(reports.requestId, lead.request.id)))[0]!);
    }
    for (const r of leads) expect(existsSync(reportFiles(t.ctx, r.id).pdf)).toBe(true);

    // Closed 31 days ago: past its grace period.
    await t.ctx.db.update(users).set({ closedAt: new Date(Date.now() - 31 * DAY), purgeAfter: new Date(Date.now() - DAY) }).where(eq(users.id, agency.userId));
    const needles = [agency.email, 'Quokkabrand', agency.userId, consultant.id, profile.body.id as string];
    const before = findBytes(t.dataDir, needles);
    expect(Object.keys(before).length).toBeGreaterThan(0);

    const purge = await runAdmin(t, 'purge-expired');
    expect(purge.err).toBe('');
    expect(purge.out).toContain('Closed accounts past their 30 days erased: 1.');
    expect(purge.out).toContain('Expired export archives removed: 0.');

    const after = findBytes(t.dataDir, needles);
    console.log(`bytes found before the purge: ${JSON.stringify(before)}; after: ${JSON.stringify(after)}`);
    expect(after).toEqual({});
    expect(await t.ctx.db.select().from(jobs).where(eq(jobs.key, `report.generate:${leads[0]!.requestId}`))).toEqual([]);

    // The visitors' reports stay, unbranded, their files rendered again when asked for.
    for (const r of leads) {
      const row = (await t.ctx.db.select().from(reports).where(eq(reports.id, r.id)))[0]!;
      expect([row.consultantId, row.brandingProfileId]).toEqual([null, null]);
      expect(existsSync(reportFiles(t.ctx, r.id).pdf)).toBe(false);
    }
    const pdf = await t.app.request(`/api/reports/${leads[0]!.token}/report.pdf`);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(await pdf.arrayBuffer()).subarray(0, 5).toString()).toBe('%PDF-');
  }, 120_000);
});
