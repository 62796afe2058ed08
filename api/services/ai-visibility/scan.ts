// One keyword's scan: the question asked of each configured engine AI_VISIBILITY_SAMPLES times
// (engines side by side, one engine's asks one after another), each answer read for the names it
// gives and the sites it cites, and counted: per engine, answers received, answers naming the
// business, its average place when named, the same for each competitor, the cited domains. A
// question that got no answer is counted as failed, never as "not named" (decision 0301).
import type { AiCompetitor, AiEngine, AiEngineResult, AiScan, AiSource } from '../../../common/ai-visibility.ts';
import type { AppContext } from '../../context.ts';
import { callUsd, type SkuPrice } from '../../lib/provider-prices.ts';
import { readAnswer, sourceKind, type Contender, type ReadAnswer } from './answers.ts';
import { ask, type AskOptions, type Attempt } from './ask.ts';
import { question, type Engine, type Where } from './engines.ts';

export interface ScanInput {
  keyword: string;
  where: Where;
  own: Contender;
  competitors: Contender[];
}

export interface ScanSetup extends AskOptions {
  engines: Engine[];
  notAsked: Array<{ engine: AiEngine; reason: string }>;
  samples: number;
  prices: Record<string, SkuPrice>;
  now?: () => Date;
}

const OWN = 'own';

const average = (xs: number[]) => (xs.length ? Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10 : null);

/** The figures of one contender in a set of answers. */
function namedIn(answers: ReadAnswer[], key: string) {
  const places = answers.map((a) => a.named.findIndex((n) => n.key === key) + 1).filter((p) => p > 0);
  return { named: places.length, averagePosition: average(places) };
}

/** One engine's answers counted. */
export function tally(engine: AiEngine, answers: ReadAnswer[], asked: number, own: Contender, competitors: Contender[]): AiEngineResult {
  const byDomain = new Map<string, number>();
  for (const a of answers) for (const d of a.domains) byDomain.set(d, (byDomain.get(d) ?? 0) + 1);
  const sources: AiSource[] = [...byDomain]
    .map(([domain, count]) => ({ domain, count, kind: sourceKind(domain, own, competitors) }))
    .sort((a, b) => b.count - a.count || a.domain.localeCompare(b.domain));
  return { engine, asked, answered: answers.length, failed: asked - answers.length, ...namedIn(answers, OWN), sources };
}

/** Each competitor's figures per engine, the most named first (ties by name). */
export function competitorFigures(perEngine: Array<{ engine: AiEngine; answers: ReadAnswer[] }>, competitors: Contender[]): AiCompetitor[] {
  const rows = competitors.map((c) => ({ name: c.name, engines: perEngine.map(({ engine, answers }) => ({ engine, ...namedIn(answers, c.key) })) }));
  const total = (c: AiCompetitor) => c.engines.reduce((s, e) => s + e.named, 0);
  return rows.sort((a, b) => total(b) - total(a) || a.name.localeCompare(b.name));
}

/** Scans one keyword. */
export async function scanKeyword(ctx: Pick<AppContext, 'db' | 'env' | 'log'>, input: ScanInput, setup: ScanSetup): Promise<AiScan> {
  const q = question(input.keyword, input.where);
  const contenders: Contender[] = [{ ...input.own, key: OWN }, ...input.competitors];
  const attempts: Array<{ sku: string; attempt: Attempt }> = [];
  const perEngine = await Promise.all(
    setup.engines.map(async (engine) => {
      const answers: ReadAnswer[] = [];
      for (let i = 0; i < setup.samples; i++) {
        const asked = await ask(ctx, engine, q, input.where, setup);
        for (const attempt of asked.attempts) attempts.push({ sku: engine.sku, attempt });
        if (asked.answer) answers.push(readAnswer(asked.answer.text, asked.answer.sources, contenders));
        else ctx.log.info('AI answer failed', { engine: engine.id, keyword: input.keyword, reason: asked.failure });
      }
      return { engine: engine.id, answers };
    }),
  );
  const billed = attempts.filter((a) => a.attempt.status >= 200 && a.attempt.status < 300);
  const cost = {
    calls: attempts.length,
    inputTokens: attempts.reduce((s, a) => s + a.attempt.inputTokens, 0),
    outputTokens: attempts.reduce((s, a) => s + a.attempt.outputTokens, 0),
    usd: billed.reduce((s, a) => s + callUsd(setup.prices[a.sku], 1, a.attempt.inputTokens, a.attempt.outputTokens), 0),
  };
  const engines: AiEngineResult[] = [
    ...perEngine.map(({ engine, answers }) => tally(engine, answers, setup.samples, input.own, input.competitors)),
    ...setup.notAsked.map(({ engine, reason }) => ({ engine, asked: 0, answered: 0, failed: 0, named: 0, averagePosition: null, notAsked: reason, sources: [] })),
  ];
  return {
    keyword: input.keyword,
    location: `${input.where.city}, ${input.where.region}`,
    question: q,
    scannedAt: (setup.now?.() ?? new Date()).toISOString(),
    sample: false,
    engines,
    competitors: competitorFigures(perEngine, input.competitors),
    cost,
  };
}
