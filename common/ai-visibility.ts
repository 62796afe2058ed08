// Visibility in AI answers (issue 50, decision 0300): what a scan found, as the API, the dashboard,
// the report (online and PDF) and the bench read it, and the words every one of them says it in.
// An answer is a sample of a chance, never a rank: a figure is always "k of n answers", and under
// MIN_CERTAIN_ANSWERS answers it says the figure is uncertain. Imports nothing, so the dashboard's
// island carries only this.

export const AI_ENGINES = ['openai', 'perplexity', 'gemini'] as const;
export type AiEngine = (typeof AI_ENGINES)[number];

export const ENGINE_LABELS: Record<AiEngine, string> = { openai: 'ChatGPT (OpenAI web search)', perplexity: 'Perplexity', gemini: 'Gemini (Google Search grounding)' };

/** Under this many answers an engine's figure is uncertain, and says so. */
export const MIN_CERTAIN_ANSWERS = 5;

export type SourceKind = 'own' | 'competitor' | 'review_site' | 'directory' | 'other';

export interface AiSource {
  domain: string;
  /** Answers that cited the domain (once per answer, however many of its pages). */
  count: number;
  kind: SourceKind;
}

/** One business's figures in one engine's answers. */
export interface AiNamed {
  /** Answers that named it. */
  named: number;
  /** Its average place in the answers that named it (1 = named first); null when never named. */
  averagePosition: number | null;
}

export interface AiEngineResult extends AiNamed {
  engine: AiEngine;
  /** Questions put (each failed call retried once inside one question). */
  asked: number;
  /** Answers received: the denominator of every figure. */
  answered: number;
  /** Questions without an answer (429, 5xx, time-out after the retry): never counted as "not named". */
  failed: number;
  /** Set when the engine was not asked at all (no key). */
  notAsked?: string;
  sources: AiSource[];
}

export interface AiCompetitor {
  name: string;
  engines: Array<{ engine: AiEngine } & AiNamed>;
}

export interface AiScan {
  keyword: string;
  /** "Austin, TX": where the question was asked from. */
  location: string;
  question: string;
  scannedAt: string;
  /** Sample answers (the offline sample provider): labelled wherever shown. */
  sample: boolean;
  engines: AiEngineResult[];
  competitors: AiCompetitor[];
  /** Calls made (retries included), tokens in and out, dollars at the price table's prices. */
  cost: { calls: number; inputTokens: number; outputTokens: number; usd: number };
}

export const SAMPLE_AI_LABEL = 'Sample answers: example figures, not real AI answers about your business';

/** "named in 3 of 5 answers"; "in no answer (0 of 5)"; "no answer received" when none came. */
export function namedPhrase(named: number, answered: number): string {
  if (answered === 0) return 'no answer received';
  if (named === 0) return `named in none of ${answered} answer${answered === 1 ? '' : 's'}`;
  return `named in ${named} of ${answered} answer${answered === 1 ? '' : 's'}`;
}

/** What an engine's figure can be trusted for: null when it has enough answers. */
export function uncertainty(answered: number): string | null {
  if (answered === 0) return null;
  return answered < MIN_CERTAIN_ANSWERS ? `Uncertain: only ${answered} answer${answered === 1 ? '' : 's'} came back; answers change from one ask to the next.` : null;
}

/** "average position 2.3" or null. */
export const positionPhrase = (p: number | null) => (p === null ? null : `average position ${p.toFixed(1).replace(/\.0$/, '')}`);

/** "3 of 5 asks failed (not counted)" or null. */
export const failedPhrase = (failed: number, asked: number) => (failed === 0 ? null : `${failed} of ${asked} ask${asked === 1 ? '' : 's'} failed and ${failed === 1 ? 'is' : 'are'} not counted`);

/** One engine's line: "ChatGPT (OpenAI web search): named in 3 of 5 answers, average position 2". */
export function engineLine(e: AiEngineResult): string {
  if (e.notAsked) return `${ENGINE_LABELS[e.engine]}: not asked (${e.notAsked})`;
  return [`${ENGINE_LABELS[e.engine]}: ${namedPhrase(e.named, e.answered)}`, positionPhrase(e.named ? e.averagePosition : null), failedPhrase(e.failed, e.asked)].filter(Boolean).join(', ');
}

/** Across engines: named in k of n answers received. */
export function scanTotals(scan: Pick<AiScan, 'engines'>): { named: number; answered: number; failed: number } {
  return scan.engines.reduce((t, e) => ({ named: t.named + e.named, answered: t.answered + e.answered, failed: t.failed + e.failed }), { named: 0, answered: 0, failed: 0 });
}

/** The free report's one line. */
export function freeReportLine(scan: Pick<AiScan, 'engines' | 'keyword' | 'location'>): string {
  const t = scanTotals(scan);
  return `AI answers: asked "best ${scan.keyword} in ${scan.location}", your business was ${namedPhrase(t.named, t.answered)} from ${scan.engines.filter((e) => !e.notAsked).length} AI assistant${scan.engines.filter((e) => !e.notAsked).length === 1 ? '' : 's'}.`;
}

export const AI_TITLE = 'AI answers';
export const AI_INTRO = 'When people ask an AI assistant for a recommendation, is your business named? Each engine was asked the same question several times, because its answers change from one ask to the next: read each figure as a count of answers, not a rank.';

/** What a report shows of AI answers: the full section on a paid plan, one line on a free report. */
export interface ReportAiAnswers {
  paid: boolean;
  /** Each keyword's latest scan. */
  scans: AiScan[];
}

/** "Also named: Lone Star Smiles (3 of 15), …" or null when no competitor was named. */
/** The competitors the answers named most (up to 5), each "Name (k of n)" over every engine's answers. */
export function rivalsNamed(scan: Pick<AiScan, 'engines' | 'competitors'>): string[] {
  const answered = scanTotals(scan).answered;
  return scan.competitors
    .filter((c) => c.engines.some((e) => e.named > 0))
    .slice(0, 5)
    .map((c) => `${c.name} (${c.engines.reduce((n, e) => n + e.named, 0)} of ${answered})`);
}

export function rivalsLine(scan: Pick<AiScan, 'engines' | 'competitors'>): string | null {
  const named = rivalsNamed(scan);
  return named.length ? `Also named: ${named.join(', ')}` : null;
}

const KIND_WORDS: Record<SourceKind, string> = { own: 'your website', competitor: "a competitor's website", review_site: 'review site', directory: 'directory', other: 'other site' };

/** The domains every engine's answers cite most, "yelp.com (review site, 7)", summed over engines. */
export function sourcesCited(scan: Pick<AiScan, 'engines'>, top = 6): string[] {
  const by = new Map<string, { count: number; kind: SourceKind }>();
  for (const e of scan.engines) for (const s of e.sources) by.set(s.domain, { count: (by.get(s.domain)?.count ?? 0) + s.count, kind: s.kind });
  return [...by]
    .sort((a, b) => b[1].count - a[1].count || a[0].localeCompare(b[0]))
    .slice(0, top)
    .map(([d, s]) => `${d} (${KIND_WORDS[s.kind]}, ${s.count})`);
}

/** "Sources the answers cite: yelp.com (review site, 7), …" or null. */
export function sourcesLine(scan: Pick<AiScan, 'engines'>, top = 6): string | null {
  const list = sourcesCited(scan, top);
  return list.length ? `Sources the answers cite: ${list.join(', ')}` : null;
}

/** A table's average-position cell: "1.5", or a dash when the engine never named the business. */
export const positionCell = (e: Pick<AiEngineResult, 'named' | 'averagePosition'>) => (e.named && e.averagePosition !== null ? e.averagePosition.toFixed(1).replace(/\.0$/, '') : '—');
