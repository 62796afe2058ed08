// Entitlements follow whoever pays (issue 37): a business gets the plan of its owner, else of the
// consultant whose client it is, in every feature: the visibility grid's size and keywords, the
// scheduled re-analysis, the monthly report (a client's own report for a client), the Early
// Warning review checks. One table, every plan, an owner's business and a client's alike.
import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Tier } from '../../common/constants.ts';
import { reanalysisPeriod, scheduleTick } from '../../api/jobs/schedule.ts';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { SearchLedger } from '../../api/report/analysis/visibility.ts';
import { reportInput } from '../../api/report/model/types.ts';
import { businessCan, payerOf } from '../../api/services/plans/payers.ts';
import { setVisibilityKeywords } from '../../api/services/visibility-history.ts';
import { jobs } from '../../db/schema/operations.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: 'https://reports.example.com' });
});
afterAll(async () => t.close());

// The first of a month: monthly reports are due, and a snapshot 10 days old is due a re-analysis.
const NOW = new Date('2026-12-01T06:00:00Z');
const KEYWORDS = ['emergency dentist', 'teeth whitening', 'dental implants', 'invisalign', 'pediatric dentist'];

interface Row {
  plan: Tier;
  via: 'own' | 'client';
  status?: string;
  /** The grid: its size and how many of the saved keywords it searches (VISIBILITY_GRID's defaults). */
  size: number;
  keywords: number;
  trends: boolean;
  monthly: boolean;
  earlyWarning: boolean;
}

const TABLE: Row[] = [
  { plan: 'free', via: 'own', size: 3, keywords: 1, trends: false, monthly: false, earlyWarning: false },
  { plan: 'free', via: 'client', size: 3, keywords: 1, trends: false, monthly: false, earlyWarning: false },
  { plan: 'pro', via: 'own', size: 5, keywords: 3, trends: true, monthly: true, earlyWarning: false },
  { plan: 'pro', via: 'client', size: 5, keywords: 3, trends: true, monthly: true, earlyWarning: false },
  { plan: 'enterprise', via: 'own', size: 7, keywords: 5, trends: true, monthly: true, earlyWarning: true },
  { plan: 'enterprise', via: 'client', size: 7, keywords: 5, trends: true, monthly: true, earlyWarning: true },
  { plan: 'agency', via: 'own', size: 7, keywords: 5, trends: true, monthly: true, earlyWarning: true },
  { plan: 'agency', via: 'client', size: 7, keywords: 5, trends: true, monthly: true, earlyWarning: true },
  // A plan not in good standing is the free plan, for an owner and a consultant alike.
  { plan: 'agency', via: 'client', status: 'suspended', size: 3, keywords: 1, trends: false, monthly: false, earlyWarning: false },
  { plan: 'pro', via: 'own', status: 'canceled', size: 3, keywords: 1, trends: false, monthly: false, earlyWarning: false },
];

/** The account and its business: the owner's own, or a client of the consultant (no owner). */
async function setUp(row: Row, company: string) {
  const plan = { tier: row.plan, status: row.status ?? 'active' };
  if (row.via === 'own') {
    const owner = await createUser(t.ctx, plan);
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company, snapshots: [{ daysAgo: 10 }], now: NOW.getTime() });
    return { payerId: owner.userId, business, clientId: null };
  }
  const consultant = await createUser(t.ctx, { ...plan, role: 'consultant', companyName: 'Northstar Marketing' });
  const { business } = await seedBusiness(t.ctx, { userId: null, company, snapshots: [{ daysAgo: 10 }], now: NOW.getTime() });
  const client = await addClient(t.ctx, consultant.viewer.consultant!.id, business.id);
  return { payerId: consultant.userId, business, clientId: client.id };
}

describe('a business gets the plan of whoever pays for it', () => {
  const set: Array<{ row: Row; payerId: string; businessId: string; clientId: string | null }> = [];
  beforeAll(async () => {
    for (const [i, row] of TABLE.entries()) {
      const { payerId, business, clientId } = await setUp(row, `Payer Test Dental ${i}`);
      // Five keywords saved (on the dashboard or the client page): the plan's grid takes the first ones.
      await setVisibilityKeywords(t.ctx, business.id, KEYWORDS);
      set.push({ row, payerId, businessId: business.id, clientId });
    }
    await t.ctx.db.delete(jobs).where(like(jobs.type, '%.%'));
    await scheduleTick(t.ctx, NOW);
  });

  const name = (r: Row) => `${r.plan}${r.status ? ` (${r.status})` : ''}, ${r.via === 'own' ? "the owner's business" : "a consultant's client"}`;

  it.each(TABLE.map((row, i) => [name(row), i] as const))('%s', async (_, i) => {
    const { row, payerId, businessId, clientId } = set[i]!;
    const paid = row.size > 3;

    // Who pays.
    const { payer, tier } = await payerOf(t.ctx, businessId);
    expect(tier).toBe(paid ? row.plan : 'free');
    expect(payer?.userId ?? null).toBe(paid ? payerId : null);
    expect(payer?.via ?? null).toBe(paid ? (row.via === 'own' ? 'owner' : 'client') : null);

    // The visibility grid: its size, and as many of the saved keywords as the plan takes.
    const business = (await t.ctx.db.query.businesses.findFirst({ where: (b, { eq: is }) => is(b.id, businessId) }))!;
    const data = await analyseBusiness(t.ctx, reportInput(business), { now: NOW, ledger: new SearchLedger() });
    expect(data.visibility).toMatchObject({ status: 'measured', tier: paid ? row.plan : 'free', size: row.size });
    expect(data.visibility!.keywords.map((k) => k.keyword)).toEqual(KEYWORDS.slice(0, row.keywords));

    // The scheduled work of the month's first day, and the jobs' own checks at run time.
    const queued = async (type: string) => (await t.ctx.db.select().from(jobs).where(eq(jobs.type, type))).map((j) => j.payload as Record<string, unknown>);
    const { period } = reanalysisPeriod(NOW, t.ctx.env.REANALYSIS_INTERVAL_DAYS);
    expect((await queued('business.reanalyse')).some((p) => p.businessId === businessId && p.period === period)).toBe(row.trends);
    expect(await businessCan(t.ctx, businessId, 'trends')).toBe(row.trends);
    expect((await queued('reviews.check')).some((p) => p.businessId === businessId)).toBe(row.earlyWarning);
    expect(await businessCan(t.ctx, businessId, 'earlyWarning')).toBe(row.earlyWarning);
    // The month's report: the owner's monthly report, or the client's report from its consultant.
    const monthly = (await queued('report.monthly')).some((p) => p.businessId === businessId && p.userId === payerId);
    const clientReport = (await queued('client.report')).some((p) => p.clientId === clientId && p.kind === 'scheduled');
    expect({ monthly, clientReport }).toEqual({ monthly: row.via === 'own' && row.monthly, clientReport: row.via === 'client' && row.monthly });
  });

  it('an owner on Pro whose business is also an Agency client gets the better plan, and the owner on a tie', async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Shared Smile Dental', snapshots: [{ daysAgo: 10 }], now: NOW.getTime() });
    await addClient(t.ctx, agency.viewer.consultant!.id, business.id);
    expect(await payerOf(t.ctx, business.id)).toMatchObject({ tier: 'agency', payer: { userId: agency.userId, via: 'client' } });

    const enterprise = await createUser(t.ctx, { tier: 'enterprise' });
    const other = await createUser(t.ctx, { role: 'consultant', tier: 'enterprise' });
    const { business: tied } = await seedBusiness(t.ctx, { userId: enterprise.userId, company: 'Tied Smile Dental', snapshots: [{ daysAgo: 10 }], now: NOW.getTime() });
    await addClient(t.ctx, other.viewer.consultant!.id, tied.id);
    expect(await payerOf(t.ctx, tied.id)).toMatchObject({ tier: 'enterprise', payer: { userId: enterprise.userId, via: 'owner' } });
  });

  it("a visitor's business (nobody pays) has the free plan", async () => {
    const { business } = await seedBusiness(t.ctx, { userId: null, company: 'Visitor Dental', snapshots: [{ daysAgo: 10 }], now: NOW.getTime() });
    expect(await payerOf(t.ctx, business.id)).toEqual({ payer: null, tier: 'free' });
    expect(await businessCan(t.ctx, business.id, 'trends')).toBe(false);
  });
});
