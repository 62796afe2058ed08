// Sample answers for the offline sample provider (PLACES_PROVIDER=sample without engine keys), so a
// fresh `npm start` shows the whole feature: each engine "answers" in its documented shape from
// here, naming the business in some asks and not others, and the answers go through the same
// reading and counting as real ones. Every scan made this way is `sample: true` and labelled.
import type { AiEngine } from '../../../common/ai-visibility.ts';
import type { Env } from '../../env.ts';
import { geminiEngine, openaiEngine, perplexityEngine, type Engine } from './engines.ts';

const BASE = 'https://sample.invalid';

/** The three engines, pointed at the sample answers. */
export function sampleEngines(env: Env): Engine[] {
  return [
    openaiEngine({ ...env, OPENAI_API_KEY: 'sample', OPENAI_BASE_URL: BASE }),
    perplexityEngine({ ...env, PERPLEXITY_API_KEY: 'sample', PERPLEXITY_BASE_URL: BASE }),
    geminiEngine({ ...env, GEMINI_API_KEY: 'sample', GEMINI_BASE_URL: BASE }),
  ];
}

/** A number in [0, 1) from a text: the same business gets the same sample every time. */
function unit(text: string): number {
  let h = 2166136261;
  for (const c of text) h = Math.imul(h ^ c.codePointAt(0)!, 16777619);
  return ((h >>> 0) % 10_000) / 10_000;
}

// How often each engine names the business in the samples: they differ, as engines do.
const NAMED_RATE: Record<AiEngine, number> = { openai: 0.6, perplexity: 0.4, gemini: 0.7 };
const SITES = ['yelp.com', 'google.com', 'healthgrades.com', 'bbb.org', 'reddit.com'];

function answerFor(engine: AiEngine, k: number, seed: string, own: { name: string; website: string | null }, competitors: string[]) {
  const pick = competitors.length ? [0, 1, 2].map((i) => competitors[Math.floor(unit(`${seed}|${engine}|${k}|${i}`) * competitors.length)]!) : [];
  const list = [...new Set(pick)];
  if (unit(`${seed}|${engine}|${k}|named`) < NAMED_RATE[engine]) list.splice(Math.floor(unit(`${seed}|${engine}|${k}|at`) * (list.length + 1)), 0, own.name);
  const text = ['Sample answer (not a real AI answer). Well-reviewed choices nearby:', ...list.map((n, i) => `${i + 1}. **${n}** - sample description.`)].join('\n');
  const sites = SITES.filter((_, i) => unit(`${seed}|${engine}|${k}|site${i}`) < 0.5);
  if (own.website && list.includes(own.name)) sites.push(own.website);
  return { text, urls: sites.map((s) => (/^https?:/.test(s) ? s : `https://www.${s}/`)) };
}

/** A fetch that answers each engine's request in the engine's shape with sample answers. */
export function sampleFetch(seed: string, own: { name: string; website: string | null }, competitors: string[]): typeof fetch {
  const asks: Record<AiEngine, number> = { openai: 0, perplexity: 0, gemini: 0 };
  return async (input) => {
    const path = new URL(String(input instanceof Request ? input.url : input)).pathname;
    const engine: AiEngine = path.endsWith('/responses') ? 'openai' : path.endsWith('/chat/completions') ? 'perplexity' : 'gemini';
    const a = answerFor(engine, asks[engine]++, seed, own, competitors);
    const usage = { in: 0, out: 0 };
    const host = (u: string) => new URL(u).hostname.replace(/^www\./, '');
    const body =
      engine === 'openai'
        ? { output: [{ type: 'message', content: [{ type: 'output_text', text: a.text, annotations: a.urls.map((url) => ({ type: 'url_citation', url })) }] }], usage: { input_tokens: usage.in, output_tokens: usage.out } }
        : engine === 'perplexity'
          ? { choices: [{ message: { content: a.text } }], search_results: a.urls.map((url) => ({ url })), usage: { prompt_tokens: 0, completion_tokens: 0 } }
          : { candidates: [{ content: { parts: [{ text: a.text }] }, groundingMetadata: { groundingChunks: a.urls.map((url) => ({ web: { uri: `${BASE}/redirect`, title: host(url) } })) } }], usageMetadata: { promptTokenCount: 0, candidatesTokenCount: 0 } };
    return new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}
