// Visibility in AI answers (issue 50): the three engines' stand-ins (tests/helpers/ai-standin.ts)
// answer from a known script, so every count is known: per engine the answers received, the answers
// naming the business (an alias and other scripts included) and its average place, the same for
// competitors, the cited domains (Gemini's real domains, not its redirect); a failed call (429,
// 5xx, a call that hangs) is retried once and otherwise counted as failed, never as "not named";
// every call is in the provider-call ledger with its tokens.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { engineLine, uncertainty, type AiEngine, type AiScan } from '../../common/ai-visibility.ts';
import { providerCalls } from '../../db/schema/operations.ts';
import { withCallSubject } from '../../api/lib/provider-calls.ts';
import { priceTable } from '../../api/lib/provider-prices.ts';
import { subjectSpend } from '../../api/lib/provider-spend.ts';
import { configuredEngines } from '../../api/services/ai-visibility/engines.ts';
import { scanKeyword, type ScanInput } from '../../api/services/ai-visibility/scan.ts';
import { and, eq } from 'drizzle-orm';
import { competitors as competitorsTable } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { AI_SCAN, aiScanWaiting, estimateScanUsd, scheduleAiScans, startFirstAiScan } from '../../api/services/ai-visibility/job.ts';
import { pricesFor } from '../../api/lib/provider-prices.ts';
import { listScans } from '../../api/services/ai-visibility/store.ts';
import { extractText, getDocumentProxy } from 'unpdf';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { aiAnswersForReport } from '../../api/services/ai-visibility/for-report.ts';
import { saveScan } from '../../api/services/ai-visibility/store.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';
import { testRegistry } from '../helpers/registry.ts';
import { startAiStandin, type AiStandin } from '../helpers/ai-standin.ts';

const input: ScanInput = {
  keyword: 'dentist',
  where: { city: 'Austin', region: 'TX', country: 'US', point: { latitude: 30.27, longitude: -97.74 } },
  own: { key: 'own', name: 'Brightwater Family Dental', otherNames: ['Brightwater Family Dentistry'], website: 'https://www.brightwaterdental.com' },
  competitors: [
    { key: 'c1', name: 'Congress Avenue Dental', website: 'https://congressdental.com' },
    { key: 'c2', name: 'Lone Star Smiles', website: null },
    { key: 'c3', name: 'Улыбка Дентал', website: null },
  ],
};

let t: TestContext;
let standin: AiStandin;
let scan: AiScan;
const engine = (id: AiEngine) => scan.engines.find((e) => e.engine === id)!;

beforeAll(async () => {
  standin = await startAiStandin();
  t = await createTestContext({ ...standin.env, AI_VISIBILITY_SAMPLES: '5', AI_VISIBILITY_MONTHLY_BUDGET_USD: '1' });
  standin.script.openai = [
    { text: 'Top picks:\n1. **Congress Avenue Dental** - modern office [1]\n2. **Brightwater Dental** - gentle care [2]\n3. Lone Star Smiles: family dentistry', sources: ['https://www.brightwaterdental.com/about', 'https://www.yelp.com/biz/brightwater'] },
    { status: 429 },
    { text: 'People in Austin often mention Brightwater Family Dental for families, and Lone Star Smiles for weekend hours.', sources: ['https://www.yelp.com/search?q=dentist'] },
    { text: '1. Lone Star Smiles - open late\n2. Sunrise Dental Studio - cosmetic work', sources: [] },
    { status: 500 },
    { status: 503 },
    { text: '- **Brightwater Dental**: highly rated\n- **Sunrise Dental Studio**: new patients welcome', sources: [] },
  ];
  const cyrillic = { text: '1. **Улыбка Дентал** — хорошие отзывы\n2. **Congress Avenue Dental** - downtown', sources: ['https://www.healthgrades.com/x', 'https://congressdental.com/'] };
  standin.script.perplexity = [{ hang: true }, cyrillic, cyrillic, cyrillic, cyrillic, cyrillic];
  standin.script.gemini = [
    { text: '1. **Brightwater Family Dental** is a favourite.\n2. **Congress Avenue Dental**', sources: ['https://www.yelp.com/biz/a', 'brightwaterdental.com'] },
    { status: 500 },
    { status: 500 },
    { text: 'Consider **Sunrise Dental Studio** or **Brightwater Dental**.', sources: ['yelp.com'] },
    { status: 503 },
    { status: 503 },
    { status: 429 },
    { status: 429 },
  ];
  // A call that hangs is ended the moment the stand-in holds it, as the time limit would end it.
  const deadlines = new Map<AiEngine, AbortController>();
  standin.onHang((e) => deadlines.get(e)?.abort(new Error('time limit')));
  const { engines, notAsked } = configuredEngines(t.ctx.env);
  scan = await withCallSubject({ type: 'ai-visibility', id: 'scan-1' }, () =>
    scanKeyword(t.ctx, input, {
      engines,
      notAsked,
      samples: 5,
      prices: priceTable(),
      deadline: (e) => {
        const c = new AbortController();
        deadlines.set(e, c);
        return c.signal;
      },
    }),
  );
}, 60_000);

afterAll(async () => {
  await standin?.close();
  await t?.close();
});

describe('an AI-answers scan against the engines’ stand-ins', () => {
  it('sends each engine the question from the business’s location, in the shape its documentation gives', () => {
    expect(scan.question).toBe('best dentist in Austin, TX');
    const o = standin.received.openai[0]!;
    expect(o.tools).toEqual([{ type: 'web_search', user_location: { type: 'approximate', city: 'Austin', region: 'TX', country: 'US' } }]);
    const p = standin.received.perplexity[0]!;
    expect(p.model).toBe('sonar');
    expect(p.web_search_options).toEqual({ user_location: { country: 'US', region: 'TX', city: 'Austin', latitude: 30.27, longitude: -97.74 } });
    expect(standin.received.gemini[0]!.tools).toEqual([{ google_search: {} }]);
  });

  it('counts per engine what the stand-in answered: aliases and prose included, failures apart', () => {
    // OpenAI: a 429 retried into an answer; 500 then 503 is a failed ask; 3 of 4 answers name the
    // business ("Brightwater Dental" twice, in the prose once), at places 2, 1 and 1.
    expect(engine('openai')).toMatchObject({ asked: 5, answered: 4, failed: 1, named: 3, averagePosition: 1.3 });
    // Perplexity: the call that hung is retried and answered; no answer names the business.
    expect(engine('perplexity')).toMatchObject({ asked: 5, answered: 5, failed: 0, named: 0, averagePosition: null });
    // Gemini: two answers, three failed asks: named in both, at places 1 and 2.
    expect(engine('gemini')).toMatchObject({ asked: 5, answered: 2, failed: 3, named: 2, averagePosition: 1.5 });
    expect(engineLine(engine('gemini'))).toBe('Gemini (Google Search grounding): named in 2 of 2 answers, average position 1.5, 3 of 5 asks failed and are not counted');
    expect(engineLine(engine('perplexity'))).toBe('Perplexity: named in none of 5 answers');
    expect(uncertainty(engine('gemini').answered)).toMatch(/^Uncertain: only 2 answers came back/);
    expect(uncertainty(engine('perplexity').answered)).toBeNull();
  });

  it('counts the competitors the same way, in any script', () => {
    const c = Object.fromEntries(scan.competitors.map((x) => [x.name, Object.fromEntries(x.engines.map((e) => [e.engine, [e.named, e.averagePosition]]))]));
    expect(c['Congress Avenue Dental']).toEqual({ openai: [1, 1], perplexity: [5, 2], gemini: [1, 2] });
    expect(c['Lone Star Smiles']).toEqual({ openai: [3, 2], perplexity: [0, null], gemini: [0, null] });
    expect(c['Улыбка Дентал']).toEqual({ openai: [0, null], perplexity: [5, 1], gemini: [0, null] });
  });

  it('gives the cited domains with counts and kinds; Gemini’s are the real domains, not its redirect', () => {
    expect(engine('openai').sources).toEqual([
      { domain: 'yelp.com', count: 2, kind: 'review_site' },
      { domain: 'brightwaterdental.com', count: 1, kind: 'own' },
    ]);
    expect(engine('perplexity').sources).toEqual([
      { domain: 'congressdental.com', count: 5, kind: 'competitor' },
      { domain: 'healthgrades.com', count: 5, kind: 'review_site' },
    ]);
    expect(engine('gemini').sources).toEqual([
      { domain: 'yelp.com', count: 2, kind: 'review_site' },
      { domain: 'brightwaterdental.com', count: 1, kind: 'own' },
    ]);
  });

  it('records every call in the provider-call ledger with its tokens, and the scan’s cost is the ledger’s', async () => {
    const rows = await t.ctx.db.select().from(providerCalls);
    const by = (p: string) => rows.filter((r) => r.provider === p);
    expect(by('openai')).toHaveLength(7);
    expect(by('perplexity')).toHaveLength(6);
    expect(by('gemini')).toHaveLength(8);
    expect(by('perplexity').filter((r) => r.status === 0)).toHaveLength(1);
    expect(rows.every((r) => r.subjectId === 'scan-1')).toBe(true);
    expect(scan.cost.calls).toBe(21);
    expect(scan.cost.inputTokens).toBe(rows.reduce((s, r) => s + r.inputTokens, 0));
    expect(scan.cost.outputTokens).toBe(rows.reduce((s, r) => s + r.outputTokens, 0));
    expect(scan.cost.inputTokens).toBeGreaterThan(0);
    const spend = await subjectSpend(t.ctx.db, priceTable(), 'scan-1');
    expect(spend.usd).toBeCloseTo(scan.cost.usd, 9);
    // 4 + 5 + 2 answered calls at $10, $5 and $35 per 1,000, plus their tokens.
    expect(spend.usd).toBeGreaterThan(0.04 + 0.025 + 0.07);
    expect(spend.usd).toBeLessThan(0.04 + 0.025 + 0.07 + 0.01);
  });

  it('does not ask an engine without a key, and says so', () => {
    const { engines, notAsked } = configuredEngines({ ...t.ctx.env, GEMINI_API_KEY: undefined, PERPLEXITY_API_KEY: undefined });
    expect(engines.map((e) => e.id)).toEqual(['openai']);
    expect(notAsked).toEqual([
      { engine: 'perplexity', reason: 'no PERPLEXITY_API_KEY is set' },
      { engine: 'gemini', reason: 'no GEMINI_API_KEY is set' },
    ]);
  });
});

describe('the scan job', () => {
  const drain = () => createWorker(t.ctx, { registry: testRegistry() }).drain();

  it('runs a paid business’s first scan with its first report, counted as the stand-in answered', async () => {
    const { userId } = await createUser(t.ctx, { tier: 'pro' });
    const { business } = await seedBusiness(t.ctx, { userId, company: 'Brightwater Family Dental', snapshots: [{ daysAgo: 0 }] });
    const rivals = await t.ctx.db.select({ name: competitorsTable.name }).from(competitorsTable).where(eq(competitorsTable.businessId, business.id));
    // Each default answer lists three of these five from a different one: asks 0, 3 and 4 of five
    // name the business, at places 1, 3 and 2.
    standin.names = ['Brightwater Family Dental', ...rivals.slice(0, 4).map((r) => r.name)];
    standin.reset();
    expect(await startFirstAiScan(t.ctx, business.id)).toBe(true);
    expect(await startFirstAiScan(t.ctx, business.id)).toBe(false);
    await drain();
    const scans = await listScans(t.ctx, business.id);
    expect(scans).toHaveLength(1);
    expect(scans[0]).toMatchObject({ keyword: 'dentist', location: 'Austin, TX', sample: false });
    for (const e of scans[0]!.engines) expect(e).toMatchObject({ asked: 5, answered: 5, failed: 0, named: 3, averagePosition: 2 });
    expect(scans[0]!.competitors.find((c) => c.name === rivals[0]!.name)!.engines.map((e) => e.named)).toEqual([3, 3, 3]);
    // Now queued only as often as the plan says: Pro, monthly.
    expect(await scheduleAiScans(t.ctx, new Date())).toBe(0);
    expect(await scheduleAiScans(t.ctx, new Date(Date.now() + 31 * 86_400_000))).toBe(1);
    await t.ctx.db.delete(jobs).where(eq(jobs.type, AI_SCAN));
  });

  it('does not scan a free business', async () => {
    const { business } = await seedBusiness(t.ctx, { snapshots: [{ daysAgo: 0 }] });
    expect(await startFirstAiScan(t.ctx, business.id)).toBe(false);
  });

  it('waits, asking nothing, when the month’s AI budget has no room, and says until when', async () => {
    const { userId } = await createUser(t.ctx, { tier: 'enterprise' });
    const { business } = await seedBusiness(t.ctx, { userId, snapshots: [{ daysAgo: 0 }] });
    // This month's AI calls so far: 20 grounded Gemini answers, $0.70, on top of the scans above.
    await t.ctx.db.insert(providerCalls).values(Array.from({ length: 20 }, () => ({ day: new Date().toISOString().slice(0, 10), at: new Date(), provider: 'gemini', sku: 'gemini.grounded', status: 200 })));
    standin.reset();
    await startFirstAiScan(t.ctx, business.id);
    await drain();
    expect(standin.received.openai.length + standin.received.perplexity.length + standin.received.gemini.length).toBe(0);
    expect(await listScans(t.ctx, business.id)).toHaveLength(0);
    const [job] = await t.ctx.db.select().from(jobs).where(eq(jobs.type, AI_SCAN));
    expect(job!.status).toBe('queued');
    expect(job!.lastError).toMatch(/^AI answers wait for the budget: this month's AI answers cost \$1\.\d\d, leaving no room for this scan's \$\d\.\d\d within AI_VISIBILITY_MONTHLY_BUDGET_USD \$1\.00/);
    const now = new Date();
    expect(await aiScanWaiting(t.ctx, business.id)).toEqual(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)));
  });
});

describe('the AI budget with scans under way', () => {
  it('counts what a running scan reserved: a second scan that would pass the month waits, asking nothing', async () => {
    const engines = configuredEngines(t.ctx.env).engines.map((e) => e.id);
    const one = estimateScanUsd(pricesFor(t.ctx.env), engines, 1, 5);
    // Room for one Pro scan this month, not two; nothing spent yet in this database.
    const t2 = await createTestContext({ ...standin.env, AI_VISIBILITY_SAMPLES: '5', AI_VISIBILITY_MONTHLY_BUDGET_USD: (1.5 * one).toFixed(4) });
    try {
      // Another scan, under way in another worker: its job runs, holding its estimate.
      const month = new Date().toISOString().slice(0, 7);
      await t2.ctx.db.insert(jobs).values({ type: AI_SCAN, payload: { businessId: 'elsewhere' }, status: 'running', leaseUntil: new Date(Date.now() + 3_600_000), lockedBy: 'another-worker', progress: { budgetMonth: month, budgetDay: new Date().toISOString().slice(0, 10), budgetUsd: one } });
      const { userId } = await createUser(t2.ctx, { tier: 'pro' });
      const { business } = await seedBusiness(t2.ctx, { userId, snapshots: [{ daysAgo: 0 }] });
      standin.reset();
      expect(await startFirstAiScan(t2.ctx, business.id)).toBe(true);
      await createWorker(t2.ctx, { registry: testRegistry() }).drain();
      expect(standin.received.openai.length + standin.received.perplexity.length + standin.received.gemini.length).toBe(0);
      const [waiting] = await t2.ctx.db.select().from(jobs).where(and(eq(jobs.type, AI_SCAN), eq(jobs.status, 'queued')));
      expect(waiting!.lastError).toMatch(/^AI answers wait for the budget: this month's AI answers cost \$0\.00 and \$\d+\.\d\d held by work under way, leaving no room/);
    } finally {
      await t2.close();
    }
  });
});

describe('sample answers', () => {
  it('with the sample provider and no keys, scans with labelled sample answers and no provider call', async () => {
    const s = await createTestContext({ PLACES_PROVIDER: 'sample' });
    try {
      const { userId } = await createUser(s.ctx, { tier: 'pro' });
      const { business } = await seedBusiness(s.ctx, { userId, snapshots: [{ daysAgo: 0 }] });
      await startFirstAiScan(s.ctx, business.id);
      await createWorker(s.ctx, { registry: testRegistry() }).drain();
      const [scan] = await listScans(s.ctx, business.id);
      expect(scan!.sample).toBe(true);
      expect(scan!.engines.map((e) => [e.engine, e.answered])).toEqual([['openai', 5], ['perplexity', 5], ['gemini', 5]]);
      expect(scan!.engines.reduce((n, e) => n + e.named, 0)).toBeGreaterThan(0);
      expect(await s.ctx.db.select().from(providerCalls)).toHaveLength(0);
    } finally {
      await s.close();
    }
  });
});

describe('the report', () => {
  const pdfText = async (ai: Awaited<ReturnType<typeof aiAnswersForReport>>) => {
    const data = { ...reportDataFixture({ seed: 5 }), aiAnswers: ai };
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(await renderPdf(data, { methodologyUrl: 'https://localrank.example/methodology' }))), { mergePages: true });
    return text.replace(/\s+/g, ' ');
  };

  it('gives a paid business the section, in counts, and a free one one line', async () => {
    const paidUser = await createUser(t.ctx, { tier: 'pro' });
    const paid = (await seedBusiness(t.ctx, { userId: paidUser.userId, snapshots: [{ daysAgo: 0 }] })).business;
    const free = (await seedBusiness(t.ctx, { snapshots: [{ daysAgo: 0 }] })).business;
    expect(await aiAnswersForReport(t.ctx, free.id)).toBeNull();
    for (const b of [paid, free]) await saveScan(t.ctx, b.id, { ...scan, scannedAt: '2026-11-30T10:00:00.000Z' });
    const forPaid = await aiAnswersForReport(t.ctx, paid.id);
    const forFree = await aiAnswersForReport(t.ctx, free.id);
    expect(forPaid!.paid).toBe(true);
    expect(forFree!.paid).toBe(false);
    const text = await pdfText(forPaid);
    expect(text).toContain('AI answers');
    expect(text).toContain('"best dentist in Austin, TX"');
    expect(text).toContain('ChatGPT (OpenAI web search): named in 3 of 4 answers, average position 1.3, 1 of 5 asks failed and is not counted');
    expect(text).toContain('Gemini (Google Search grounding): named in 2 of 2 answers');
    expect(text).toContain('Uncertain: only 2 answers came back');
    expect(text).not.toMatch(/AI[^.]*\d+(\.\d+)?%/);
    const line = await pdfText(forFree);
    expect(line).toContain('AI answers: asked "best dentist in Austin, TX", your business was named in 5 of 11 answers from 3 AI assistants.');
    expect(line).not.toContain('ChatGPT (OpenAI web search): named');
    // Two PDFs drawn with their fonts: a generous ceiling on a busy machine.
  }, 180_000);
});
