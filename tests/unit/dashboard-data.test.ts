// The dashboard's view model: numbers from strings, ranks, deltas from history, market average,
// and the spec's error matching.
import { describe, expect, it } from 'vitest';
import { buildDashboard, errorStateOf, everyInterval, num, timeOf, type DashboardResponse } from '../../site/islands/dashboard/dashboard-data.ts';

const business = { id: 'b1', company: 'Acme Dental', city: 'Austin', state: 'TX' };
const row = (over: Record<string, unknown>) => ({ reviewScore: 5, digitalPresenceScore: 5, engagementScore: 5, marketShareScore: 5, marketSharePercent: 10, overallScore: 5, ...over });

function response(stringify: boolean): DashboardResponse {
  const metrics = [
    row({ isMainBusiness: true, competitorId: null, overallScore: 7.25, reviewScore: 8.5, marketSharePercent: 31.5 }),
    row({ competitorId: 'c1', overallScore: 8, reviewScore: 9 }),
    row({ competitorId: 'c2', overallScore: 7.25, reviewScore: 4 }),
    row({ competitorId: 'c3', overallScore: 3, reviewScore: 8.5 }),
  ];
  const history = [
    row({ overallScore: 6.5, reviewScore: 8, reportedAt: Date.UTC(2026, 9, 1) }),
    row({ overallScore: 7.25, reviewScore: 8.5, reportedAt: Date.UTC(2026, 10, 20) }),
    row({ overallScore: 6.9, reviewScore: 8.75, reportedAt: Date.UTC(2026, 10, 13) }),
  ];
  const res: DashboardResponse = {
    business,
    competitors: [
      { id: 'c1', name: 'One', website: 'https://one.example', rating: 4.5, reviewCount: 10 },
      { id: 'c2', name: 'Two', website: null, rating: 3.1, reviewCount: 5 },
      { id: 'c3', name: 'Three', website: '', rating: 2.4, reviewCount: 1 },
    ],
    metrics,
    history,
    access: { trends: true, earlyWarning: false },
  };
  if (!stringify) return res;
  return JSON.parse(JSON.stringify(res).replace(/":(-?\d+(?:\.\d+)?)([,}])/g, '":"$1"$2'));
}

describe('buildDashboard', () => {
  for (const stringify of [false, true]) {
    it(`computes ranks, deltas and the market average${stringify ? ' from scores delivered as strings' : ''}`, () => {
      const v = buildDashboard(response(stringify));
      expect(v.analysed).toBe(true);
      expect(v.scores.overall).toBe(7.25);
      // One row scores higher (8), one ties: rank 2 of 4.
      expect(v.overallRank).toBe(2);
      expect(v.total).toBe(4);
      expect(v.cards.find((c) => c.key === 'reviews')).toMatchObject({ score: 8.5, rank: 2, delta: -0.25 });
      expect(v.cards.find((c) => c.key === 'marketShare')).toMatchObject({ percent: 31.5, delta: 0 });
      // Latest (Nov 20) against the one before it (Nov 13), whatever order history arrives in.
      expect(v.overallDelta).toBe(0.35);
      expect(v.previousAt).toBe(Date.UTC(2026, 10, 13));
      expect(v.trend.map((p) => p.overall)).toEqual([6.5, 6.9, 7.25]);
      expect(v.marketAverage).toEqual({ reviews: 7.17, digitalPresence: 5, engagement: 5, marketShare: 5 });
      expect(v.competitors.map((c) => [c.rank, c.rating])).toEqual([[1, 4.5], [2, 3.1], [4, 2.4]]);
      expect(v.details).toHaveLength(3);
    });
  }

  it('lists the business itself in the table, highlighted, so the ranks never skip a number', () => {
    const res = { ...response(false), self: { rating: 4.3, reviewCount: 17, siteReachable: 0 } };
    const v = buildDashboard(res);
    expect(v.table.map((c) => [c.rank, c.name, Boolean(c.isYou)])).toEqual([[1, 'One', false], [2, 'Acme Dental', true], [2, 'Two', false], [4, 'Three', false]]);
    expect(v.table.find((c) => c.isYou)).toMatchObject({ rating: 4.3, reviewCount: 17, siteReachable: false, distance: null, scores: { overall: 7.25 } });
    // Without the figures (an older answer), the row is still there, its unknowns blank.
    expect(buildDashboard(response(true)).table.find((c) => c.isYou)).toMatchObject({ rating: null, reviewCount: null, siteReachable: null });
    // A business with no overall ("Not enough data") comes after every ranked row.
    const unranked = buildDashboard({ ...res, metrics: res.metrics.map((m) => (m.isMainBusiness ? { ...m, overallScore: null } : m)) });
    expect(unranked.table.at(-1)).toMatchObject({ isYou: true, rank: null });
  });

  it('takes the business\'s rating and review count from a connected Google Business Profile, and says so', () => {
    const res = { ...response(false), self: { rating: 4.3, reviewCount: 17, siteReachable: 1 } };
    const reviews = { source: 'google_business_profile' as const, label: 'from your Google Business Profile', count: 212, average: 4.1, last90: 9, previous90: 12, newest: [] };
    const profile = { connectable: true, connection: { status: 'connected' as const, title: 'Acme Dental' }, reviews, days: [] };
    const own = buildDashboard({ ...res, googleProfile: profile }).table.find((c) => c.isYou)!;
    expect(own).toMatchObject({ rating: 4.1, reviewCount: 212, fromProfile: true });
    // Not connected (or no profile block): the listing's figures, as before.
    expect(buildDashboard({ ...res, googleProfile: { ...profile, connection: null, reviews: null } }).table.find((c) => c.isYou)).toMatchObject({ rating: 4.3, reviewCount: 17 });
    expect(buildDashboard(res).table.find((c) => c.isYou)!.fromProfile).toBeUndefined();
  });

  it("names how the business's own website was met, and only the states it knows", () => {
    const base = response(false);
    const own = (siteState: string | undefined) => buildDashboard({ ...base, self: { siteReachable: 1, siteState } }).table.find((c) => c.isYou)!.siteState;
    expect(own('refused')).toBe('refused');
    expect(own('script_rendered')).toBe('script_rendered');
    // Decision 0230: what the address is.
    for (const state of ['social', 'link_in_bio', 'marketplace', 'parked', 'placeholder', 'password', 'cert_error', 'error_page']) expect(own(state)).toBe(state);
    expect(own('<b>not a state</b>')).toBeNull();
    // An older answer has no state: the column falls back to whether the site answered.
    expect(own(undefined)).toBeNull();
  });

  it('has no deltas and no trend with a single snapshot, and no market average without competitors', () => {
    const v = buildDashboard({ business, competitors: [], metrics: [row({ isMainBusiness: true, overallScore: '6.00' })], history: [row({ reportedAt: '2026-11-20T10:00:00.000Z' })] });
    expect(v.overallDelta).toBeNull();
    expect(v.cards.every((c) => c.delta === null)).toBe(true);
    expect(v.trend).toHaveLength(1);
    expect(v.trend[0]!.at).toBe(Date.parse('2026-11-20T10:00:00.000Z'));
    expect(v.marketAverage).toBeNull();
    // Without competitors there is no market to rank in (decision 0216): no "#1 of 1".
    expect(v.hasMarket).toBe(false);
    expect(v.overallRank).toBeNull();
    expect(v.cards.every((c) => c.rank === null)).toBe(true);
  });

  it('marks a business without its own metrics as not analysed yet', () => {
    expect(buildDashboard({ business, competitors: [], metrics: [], history: [] }).analysed).toBe(false);
  });

  it('caps the table at 10 competitors and the details at 5', () => {
    const competitors = Array.from({ length: 12 }, (_, i) => ({ id: `c${i}`, name: `C${i}` }));
    const metrics = [row({ isMainBusiness: true }), ...competitors.map((c) => row({ competitorId: c.id }))];
    const v = buildDashboard({ business, competitors, metrics });
    expect(v.competitors).toHaveLength(10);
    expect(v.details).toHaveLength(5);
  });
});

describe('num and timeOf', () => {
  it('read numbers, numeric strings and dates; anything else is null', () => {
    expect(num('7.25')).toBe(7.25);
    expect(num(3)).toBe(3);
    expect(num('')).toBeNull();
    expect(num('abc')).toBeNull();
    expect(num(null)).toBeNull();
    expect(timeOf('1763600000000')).toBe(1763600000000);
    expect(timeOf('2026-11-20T00:00:00Z')).toBe(Date.UTC(2026, 10, 20));
    expect(timeOf('not a date')).toBeNull();
  });
});

describe('errorStateOf (spec section 8)', () => {
  it('matches the message the way the spec says', () => {
    expect(errorStateOf('401: {"code":"unauthenticated","message":"Not authenticated"}')).toBe('login');
    expect(errorStateOf('Not authenticated')).toBe('login');
    expect(errorStateOf('404: {"code":"not_found","message":"No business found"}')).toBe('no-business');
    expect(errorStateOf('No business found')).toBe('no-business');
    expect(errorStateOf('500: Internal Server Error')).toBe('not-found');
    expect(errorStateOf('Failed to fetch')).toBe('not-found');
  });
});

describe('the re-analysis interval (REANALYSIS_INTERVAL_DAYS, from the server)', () => {
  it('reads it from the answer, a number or a string, and says it in words', () => {
    expect(buildDashboard({ ...response(false), reanalysisDays: 14 }).reanalysisDays).toBe(14);
    expect(buildDashboard({ ...response(true), reanalysisDays: '3' }).reanalysisDays).toBe(3);
    expect(buildDashboard(response(false)).reanalysisDays).toBe(7);
    expect([1, 7, 14, 10, 30].map(everyInterval)).toEqual(['every day', 'every week', 'every 2 weeks', 'every 10 days', 'every 30 days']);
  });
});

// Decision 0235: the brand's other locations are listed without a rank unless they count.
describe('the brand\'s other locations', () => {
  const metrics = [row({ isMainBusiness: true, competitorId: null, overallScore: 6 }), ...[9, 8, 7, 5, 4].map((o, i) => row({ competitorId: `c${i}`, overallScore: o, yourBrand: i < 2 ? 'name' : null }))];
  const competitors = [0, 1, 2, 3, 4].map((i) => ({ id: `c${i}`, name: `c${i}`, yourBrand: i < 2 ? 'name' : null }));
  it('rank against independents first, each brand row in place without a number, then all of them when chosen', () => {
    const view = buildDashboard({ business, competitors, metrics });
    expect(view.branches).toEqual({ count: 2, counted: false, why: 'default' });
    expect(view.overallRank).toBe(2);
    expect(view.total).toBe(4);
    expect(view.table.map((c) => [c.id, c.rank])).toEqual([['c0', null], ['c1', null], ['c2', 1], ['b1', 2], ['c3', 3], ['c4', 4]]);
    const chosen = buildDashboard({ business: { ...business, rankWithBranches: true }, competitors, metrics });
    expect([chosen.overallRank, chosen.total, chosen.branches?.why]).toEqual([4, 6, 'chosen']);
  });
  it('count when without them fewer than 3 competitors are left', () => {
    const few = metrics.slice(0, 4);
    const view = buildDashboard({ business, competitors: competitors.slice(0, 3), metrics: few });
    expect(view.branches).toEqual({ count: 2, counted: true, why: 'too_few' });
    expect(view.overallRank).toBe(4);
  });
});
