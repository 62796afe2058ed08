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
import { createTestContext, type TestContext } from '../helpers/context.ts';
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
  t = await createTestContext({ ...standin.env, AI_VISIBILITY_SAMPLES: '5' });
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
