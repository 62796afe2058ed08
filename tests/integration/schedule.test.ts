// Scheduled work: the tick enqueues re-analyses and monthly reports once per period, for paid
// plans only; the jobs add a snapshot to the dashboard's history and send the month's report once.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRegistry } from '../helpers/registry.ts';
import { monthlyPeriod, reanalysisPeriod, scheduleTick, startScheduler } from '../../api/jobs/schedule.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { isUnsubscribed } from '../../api/services/reports.ts';
import { users } from '../../db/schema/auth.ts';
import { businessMetrics } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: 'https://reports.example.com' });
});
afterAll(async () => t.close());

const HOUR = 60 * 60 * 1000;
const outbox = () => (existsSync(join(t.dataDir, 'outbox')) ? readdirSync(join(t.dataDir, 'outbox')).filter((f) => f.endsWith('.eml')) : []);
const jobsOf = async (type: string) => t.ctx.db.select().from(jobs).where(eq(jobs.type, type));
const drain = async () => {
  const worker = createWorker(t.ctx, { registry: testRegistry({ analyse: async () => reportDataFixture({ seed: 7 }) }) });
  let ran = 0;
  while (await worker.runNext()) ran++;
  return ran;
};

describe('periods', () => {
  it('cuts re-analysis periods of the configured length and opens the monthly one on the first', () => {
    const a = reanalysisPeriod(new Date('2026-11-22T10:00:00Z'), 7);
    const b = reanalysisPeriod(new Date('2026-11-25T23:59:00Z'), 7);
    expect(a).toEqual(b);
    expect(a.period).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(reanalysisPeriod(new Date(a.start + 7 * 24 * HOUR), 7).start).toBe(a.start + 7 * 24 * HOUR);
    expect(reanalysisPeriod(new Date('2026-11-22T10:00:00Z'), 1).period).toBe('2026-11-22');
    expect(monthlyPeriod(new Date('2026-12-01T00:05:00Z'))).toBe('2026-12');
    expect(monthlyPeriod(new Date('2026-12-03T23:00:00Z'))).toBe('2026-12');
    expect(monthlyPeriod(new Date('2026-12-04T00:00:00Z'))).toBeNull();
  });
});

describe('scheduleTick', () => {
  it('enqueues once per period, for paid plans with an analysed business, owners and consultants alike', async () => {
    const now = new Date('2026-12-01T06:00:00Z');
    const at = now.getTime();
    const pro = await createUser(t.ctx, { tier: 'pro' });
    const { business: proBiz } = await seedBusiness(t.ctx, { userId: pro.userId, snapshots: [{ daysAgo: 10 }], now: at });
    const fresh = await createUser(t.ctx, { tier: 'enterprise' });
    const { business: freshBiz } = await seedBusiness(t.ctx, { userId: fresh.userId, snapshots: [{ daysAgo: 0 }], now: at });
    const free = await createUser(t.ctx, { tier: 'free' });
    const { business: clientBiz } = await seedBusiness(t.ctx, { userId: free.userId, snapshots: [{ daysAgo: 10 }], now: at });
    const consultant = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
    const client = await addClient(t.ctx, consultant.viewer.consultant!.id, clientBiz.id);
    const lapsed = await createUser(t.ctx, { tier: 'pro', status: 'canceled' });
    await seedBusiness(t.ctx, { userId: lapsed.userId, snapshots: [{ daysAgo: 10 }], now: at });
    const pending = await createUser(t.ctx, { tier: 'pro' });
    await seedBusiness(t.ctx, { userId: pending.userId, now: at });

    // Review checks (hourly): the Enterprise owner's business and the Agency consultant's client.
    expect(await scheduleTick(t.ctx, now)).toEqual({ reanalyse: 2, monthly: 2, clientReports: 1, reviewChecks: 2 });
    const { period } = reanalysisPeriod(now, 7);
    expect((await jobsOf('business.reanalyse')).map((j) => j.key).sort()).toEqual([`reanalyse:${period}:business-${proBiz.id}`, `reanalyse:${period}:business-${clientBiz.id}`].sort());
    // The free owner of the consultant's client and the lapsed plan get nothing; the consultant's
    // client gets its client report (and the consultant a copy) instead of a monthly report.
    expect((await jobsOf('report.monthly')).map((j) => j.key).sort()).toEqual(
      [`monthly:2026-12:business-${proBiz.id}:user-${pro.userId}`, `monthly:2026-12:business-${freshBiz.id}:user-${fresh.userId}`].sort(),
    );
    expect((await jobsOf('client.report')).map((j) => j.payload)).toEqual([{ clientId: client.id, kind: 'scheduled', period: '2026-12' }]);
    expect((await jobsOf('report.monthly')).find((j) => j.key!.includes(pro.userId))!.payload).toEqual({ businessId: proBiz.id, period: '2026-12', userId: pro.userId });

    // Again in the same hour, later that day, or from a second process: nothing more.
    expect(await scheduleTick(t.ctx, now)).toEqual({ reanalyse: 0, monthly: 0, clientReports: 0, reviewChecks: 0 });
    expect(await scheduleTick(t.ctx, new Date(at + 5 * HOUR))).toEqual({ reanalyse: 0, monthly: 0, clientReports: 0, reviewChecks: 2 });
    const [x, y] = await Promise.all([scheduleTick(t.ctx, new Date(at + HOUR)), scheduleTick(t.ctx, new Date(at + HOUR))]);
    expect(x.reanalyse + y.reanalyse + x.monthly + y.monthly + x.clientReports + y.clientReports).toBe(0);
    expect(x.reviewChecks + y.reviewChecks).toBe(2);
    // The next period (two days on, still within the month's catch-up days) re-analyses the two
    // whose snapshot is 10 days old, not the one analysed two days before; no second monthly report.
    const next = reanalysisPeriod(now, 7).start + 7 * 24 * HOUR + HOUR;
    expect(monthlyPeriod(new Date(next))).toBe('2026-12');
    expect(await scheduleTick(t.ctx, new Date(next))).toEqual({ reanalyse: 2, monthly: 0, clientReports: 0, reviewChecks: 2 });
    // A week after its analysis, that one is due too.
    expect(await scheduleTick(t.ctx, new Date(at + 7 * 24 * HOUR))).toEqual({ reanalyse: 1, monthly: 0, clientReports: 0, reviewChecks: 2 });
    expect((await jobsOf('business.reanalyse')).filter((j) => (j.payload as { businessId: string }).businessId === freshBiz.id)).toHaveLength(1);
    await t.ctx.db.delete(jobs).where(like(jobs.type, '%.%'));
  });

  it('re-analyses a whole interval after the latest snapshot, not at the next period boundary', async () => {
    const boundary = reanalysisPeriod(new Date('2027-01-10T00:00:00Z'), 7).start;
    const analysedAt = boundary - 20 * HOUR;
    const pro = await createUser(t.ctx, { tier: 'pro' });
    const { business } = await seedBusiness(t.ctx, { userId: pro.userId, snapshots: [{ daysAgo: 0 }], now: analysedAt });
    const queued = async () => (await jobsOf('business.reanalyse')).filter((j) => (j.payload as { businessId: string }).businessId === business.id);
    // A new period begins 20 hours after the first analysis: not due yet, nor 5 days later.
    await scheduleTick(t.ctx, new Date(boundary + HOUR));
    await scheduleTick(t.ctx, new Date(boundary + 5 * 24 * HOUR));
    expect(await queued()).toHaveLength(0);
    // A week after the analysis (a tick may come a little early): due, once.
    await scheduleTick(t.ctx, new Date(analysedAt + 7 * 24 * HOUR - 30 * 60 * 1000));
    await scheduleTick(t.ctx, new Date(analysedAt + 7 * 24 * HOUR + HOUR));
    const [job] = await queued();
    expect(await queued()).toHaveLength(1);
    expect(job!.payload).toEqual({ businessId: business.id, period: reanalysisPeriod(new Date(analysedAt + 7 * 24 * HOUR), 7).period });
    await t.ctx.db.delete(jobs).where(like(jobs.type, '%.%'));
  });

  it('startScheduler ticks at once and stops', async () => {
    const pro = await createUser(t.ctx, { tier: 'pro' });
    const { business } = await seedBusiness(t.ctx, { userId: pro.userId, snapshots: [{ daysAgo: 30 }] });
    const stop = startScheduler(t.ctx, { everyMs: 60_000 });
    await stop();
    expect((await jobsOf('business.reanalyse')).some((j) => (j.payload as { businessId: string }).businessId === business.id)).toBe(true);
    await t.ctx.db.delete(jobs).where(like(jobs.type, '%.%'));
  });
});

describe('the scheduled jobs', () => {
  it('business.reanalyse adds one snapshot per period, which the dashboard history shows', async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, snapshots: [{ daysAgo: 20, scores: { overall: 5.5 } }, { daysAgo: 12, scores: { overall: 6 } }] });
    const before = await call(t.app, 'GET', `/api/business/${business.id}`, undefined, owner.cookie);
    expect(before.body.history).toHaveLength(2);

    await t.ctx.db.delete(jobs).where(like(jobs.type, '%.%'));
    await scheduleTick(t.ctx);
    expect((await jobsOf('business.reanalyse')).filter((j) => (j.payload as { businessId: string }).businessId === business.id)).toHaveLength(1);
    await drain();
    const after = await call(t.app, 'GET', `/api/business/${business.id}`, undefined, owner.cookie);
    expect(after.body.history).toHaveLength(3);
    expect(after.body.history[2].overallScore).toBe(reportDataFixture({ seed: 7 }).business.scores.overall);
    expect(after.body.metrics).toHaveLength(10);

    // The same job again (a retry after it persisted, or a duplicate): no second snapshot.
    const { period } = reanalysisPeriod(new Date(), t.ctx.env.REANALYSIS_INTERVAL_DAYS);
    await t.ctx.db.insert(jobs).values({ type: 'business.reanalyse', payload: { businessId: business.id, period } });
    await drain();
    expect(await t.ctx.db.select().from(businessMetrics).where(eq(businessMetrics.businessId, business.id))).toHaveLength(30);
    // And the tick does not queue this period's run again.
    await scheduleTick(t.ctx);
    expect((await jobsOf('business.reanalyse')).filter((j) => j.key && (j.payload as { businessId: string }).businessId === business.id)).toHaveLength(1);
    await t.ctx.db.delete(jobs).where(like(jobs.type, '%.%'));
  });

  it('business.reanalyse checks the plan again when it runs: a lapsed plan gets no snapshot', async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, snapshots: [{ daysAgo: 12 }] });
    await t.ctx.db.delete(jobs).where(like(jobs.type, '%.%'));
    await scheduleTick(t.ctx);
    const [job] = (await jobsOf('business.reanalyse')).filter((j) => (j.payload as { businessId: string }).businessId === business.id);
    expect(job).toBeDefined();

    await t.ctx.db.update(users).set({ subscriptionStatus: 'canceled' }).where(eq(users.id, owner.userId));
    await drain();
    expect(await t.ctx.db.select().from(businessMetrics).where(eq(businessMetrics.businessId, business.id))).toHaveLength(10);
    expect((await t.ctx.db.select().from(jobs).where(eq(jobs.id, job!.id)))[0]).toMatchObject({ status: 'done', progress: { stage: 'skipped' } });
    await t.ctx.db.delete(jobs).where(like(jobs.type, '%.%'));
  });

  it('report.monthly e-mails the latest report with its PDF to the account, once; not after the plan lapses', async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Monthly Dental', snapshots: [{ daysAgo: 3 }] });
    const before = outbox().length;
    expect((await scheduleTick(t.ctx, new Date('2026-12-01T00:30:00Z'))).monthly).toBeGreaterThanOrEqual(1);
    await t.ctx.db.delete(jobs).where(eq(jobs.type, 'business.reanalyse'));
    await drain();
    const sent = outbox().slice(before);
    // Quoted-printable soft line breaks joined, so phrases can be searched.
    const mine = sent.map((f) => readFileSync(join(t.dataDir, 'outbox', f), 'utf8').replace(/=\r?\n/g, '')).filter((m) => m.includes(owner.email));
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatch(/Subject: Your LocalRank monthly report/);
    expect(mine[0]).toContain('application/pdf');
    expect(mine[0]).toContain('plan includes monthly reports');
    const monthly = await t.ctx.db.select().from(reports).where(eq(reports.reportType, 'monthly'));
    const row = monthly.find((r) => r.businessId === business.id)!;
    expect(row.emailSent).toBe(true);
    expect(row.pdfUrl).toBe(`https://reports.example.com/api/reports/${row.token}/report.pdf`);

    // Run it again (a duplicate): the e-mail does not go twice.
    const job = (await jobsOf('report.monthly')).find((j) => (j.payload as { userId: string }).userId === owner.userId)!;
    await t.ctx.db.update(jobs).set({ status: 'queued', runAt: new Date(0) }).where(eq(jobs.id, job.id));
    await drain();
    expect(outbox().slice(before).filter((f) => readFileSync(join(t.dataDir, 'outbox', f), 'utf8').includes(owner.email))).toHaveLength(1);

    // Plan lapsed between the tick and the run: nothing goes out.
    await t.ctx.db.update(users).set({ subscriptionStatus: 'canceled' }).where(eq(users.id, owner.userId));
    await t.ctx.db.update(jobs).set({ status: 'queued', runAt: new Date(0), progress: {} }).where(eq(jobs.id, job.id));
    const count = outbox().length;
    await drain();
    expect(outbox().length).toBe(count);
    expect((await t.ctx.db.select().from(jobs).where(eq(jobs.id, job.id)))[0]!.progress).toMatchObject({ stage: 'skipped' });
  });
  it("report.monthly to a consultant: greeted without the client's name; its unsubscribe link stops the consultant's next one, not the client's mail", async () => {
    const consultant = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
    const { business } = await seedBusiness(t.ctx, { company: 'Client Dental', snapshots: [{ daysAgo: 2 }] });
    await addClient(t.ctx, consultant.viewer.consultant!.id, business.id);
    const payload = { businessId: business.id, period: '2026-12', userId: consultant.userId };
    const [job] = await t.ctx.db.insert(jobs).values({ type: 'report.monthly', payload, runAt: new Date(0) }).returning();
    const before = outbox().length;
    await drain();
    const mail = outbox().slice(before).map((f) => readFileSync(join(t.dataDir, 'outbox', f), 'utf8').replace(/=\r?\n/g, ''));
    expect(mail).toHaveLength(1);
    expect(mail[0]).toContain(`To: ${consultant.email}`);
    expect(mail[0]).toContain('Hi there,');
    expect(mail[0]).not.toContain(`Hi ${business.fullName.split(' ')[0]},`);

    const row = (await t.ctx.db.select().from(reports).where(eq(reports.reportType, 'monthly'))).find((r) => r.businessId === business.id)!;
    expect(row.recipientEmail).toBe(consultant.email);
    const res = await t.app.request(`/api/unsubscribe?token=${row.token}`, { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await isUnsubscribed(t.ctx, consultant.email)).toBe(true);
    expect(await isUnsubscribed(t.ctx, business.email)).toBe(false);

    await t.ctx.db.update(jobs).set({ status: 'queued', runAt: new Date(0), progress: {} }).where(eq(jobs.id, job!.id));
    const count = outbox().length;
    await drain();
    expect(outbox().length).toBe(count);
    expect((await t.ctx.db.select().from(jobs).where(eq(jobs.id, job!.id)))[0]!.progress).toMatchObject({ stage: 'skipped', reason: 'recipient unsubscribed' });
  });
});
