// Two `npm run worker` processes on one libSQL server (sqld) share one count of provider calls
// (issue 49, decisions 0270 and 0271): every call the Google stand-in receives, from either
// process, is one ledger row, and a budget of 2.5 reports lets exactly 2 of 5 start between them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inArray } from 'drizzle-orm';
import type { AppContext } from '../../api/context.ts';
import { createContext } from '../../api/create-context.ts';
import { loadEnv } from '../../api/env.ts';
import { BUDGET_WAIT_PREFIX } from '../../api/jobs/faults.ts';
import { reportRequests } from '../../db/schema/businesses.ts';
import { jobs, providerCalls } from '../../db/schema/operations.ts';
import { startCluster, until, type Cluster } from '../helpers/cluster.ts';
import { sharedTestDns } from '../helpers/dns.ts';
import { MARKETS } from '../helpers/markets.ts';
import { startStandin, type Standin } from '../helpers/places-standin.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

const NO_ALLOWANCE = JSON.stringify(Object.fromEntries(['google.text_search.enterprise', 'google.nearby_search.enterprise', 'google.place_details.atmosphere'].map((sku) => [sku, { freePerMonth: 0 }])));
// A Google free report at list price: 2 Enterprise searches and 10 Place Details with reviews.
const PER_REPORT = 0.035 + 0.035 + 10 * 0.025;

let cluster: Cluster | undefined;
let ctx: AppContext | undefined;
let standin: Standin | undefined;

beforeAll(async () => {
  standin = await startStandin(MARKETS.chain.market('http://127.0.0.1:9'));
  cluster = await startCluster(
    async (env) => {
      ctx = await createContext(loadEnv({ ...env, LOG_LEVEL: 'silent' }), { migrate: true });
    },
    {
      webs: 0,
      workers: 2,
      // Five requests for one place would share the first one's analysis (decision 0351); each one here makes its own calls.
      env: { SHARED_ANALYSIS_MINUTES: '0', PLACES_PROVIDER: 'google', GOOGLE_PLACES_KEY: 'g', GOOGLE_PLACES_BASE_URL: standin.base, PROVIDER_PRICES: NO_ALLOWANCE, PROVIDER_DAILY_BUDGET_USD: String(2.5 * PER_REPORT), DNS_SERVERS: await sharedTestDns(), SITE_FETCH_TIMEOUT_MS: '2000' },
    },
  );
}, 180_000);

afterAll(async () => {
  ctx?.db.$client.close();
  await cluster?.stop();
  await standin?.close();
});

describe('two worker processes on sqld', () => {
  it('add to one count, and between them start 2 of 5 reports on a 2.5-report budget', async () => {
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createReportRequest(ctx!, { company: MARKETS.chain.company }));
    const ids = made.map((m) => m.jobId);
    // Every job is either done or waiting for the budget.
    const settled = await until(
      'every report made or waiting',
      async () => {
        const rows = await ctx!.db.select().from(jobs).where(inArray(jobs.id, ids));
        return rows.every((j) => j.status === 'done' || (j.status === 'queued' && j.lastError?.startsWith(BUDGET_WAIT_PREFIX))) && rows;
      },
      120_000,
    );
    expect(settled.filter((j) => j.status === 'done')).toHaveLength(2);
    expect(settled.filter((j) => j.status === 'queued').every((j) => j.attempts === 0)).toBe(true);
    const requests = await ctx!.db.select().from(reportRequests).where(inArray(reportRequests.id, made.map((m) => m.request.id)));
    expect(requests.filter((r) => r.status === 'sent')).toHaveLength(2);
    expect(requests.some((r) => r.status === 'failed')).toBe(false);
    const calls = await ctx!.db.select().from(providerCalls);
    expect(calls.length).toBe(Object.values(standin!.hits).reduce((a, b) => a + (b ?? 0), 0));
    expect(new Set(calls.map((c) => c.subjectId))).toEqual(new Set(requests.filter((r) => r.status === 'sent').map((r) => r.id)));
  }, 150_000);
});
