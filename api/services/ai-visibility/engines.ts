// The three AI engines asked for local recommendations (issue 50), each as its documentation has
// it (decision 0300): what is sent, where the location goes, and what is read back (the answer's
// text, the pages it cites, the tokens billed). Pure request and response shapes: the asking,
// the retry and the ledger are in ask.ts.
//
// - OpenAI Responses API, `POST {base}/v1/responses` with the `web_search` tool and its
//   `user_location: {type: "approximate", city, region, country}`; the text is the `output_text`
//   parts of the `message` output items, the sources their `url_citation` annotations; `usage`
//   has `input_tokens` and `output_tokens` (developers.openai.com/api/docs/guides/tools-web-search).
// - Perplexity, `POST {base}/chat/completions`, model `sonar`, `web_search_options.user_location`
//   (country, region, city, latitude, longitude); the text is `choices[0].message.content`, the
//   sources `search_results[].url` and `citations[]`; `usage.prompt_tokens`/`completion_tokens`
//   (docs.perplexity.ai, chat completions and "user location filter").
// - Gemini, `POST {base}/v1beta/models/{model}:generateContent` with the `google_search` tool; no
//   location field, so the city is in the question; the text is the first candidate's parts,
//   the sources `groundingMetadata.groundingChunks[].web`, whose `uri` is a redirect through
//   Google's grounding service and whose `title` is the page's domain; `usageMetadata`
//   `promptTokenCount`/`candidatesTokenCount` (ai.google.dev/gemini-api/docs/google-search).
import type { AiEngine } from '../../../common/ai-visibility.ts';
import type { Env } from '../../env.ts';

export interface Where {
  city: string;
  /** The state as the business gives it ("TX"). */
  region: string;
  country: string;
  point: { latitude: number; longitude: number } | null;
}

export interface EngineAnswer {
  text: string;
  /** Cited pages: a URL, or a bare domain where the engine gives only that (Gemini's titles). */
  sources: string[];
  inputTokens: number;
  outputTokens: number;
}

export interface EngineRequest {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

export interface Engine {
  id: AiEngine;
  /** The provider-call ledger's SKU of one call. */
  sku: string;
  /** The request asking `question` from `where`. */
  request: (question: string, where: Where) => EngineRequest;
  /** The answer in a 2xx body; null when the body is not an answer (counted as a failed call). */
  parse: (body: unknown) => EngineAnswer | null;
}

type Json = Record<string, unknown>;
const obj = (v: unknown): Json | null => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : null);
const arr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string | null => (typeof v === 'string' && v.trim() ? v : null);
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : 0);
const trim = (base: string) => base.replace(/\/+$/, '');

/** The question a person would ask. */
export const question = (keyword: string, where: Pick<Where, 'city' | 'region'>) => `best ${keyword} in ${where.city}, ${where.region}`;

export function openaiEngine(env: Pick<Env, 'OPENAI_BASE_URL' | 'OPENAI_API_KEY' | 'OPENAI_MODEL'>): Engine {
  return {
    id: 'openai',
    sku: 'openai.web_search',
    request: (q, where) => ({
      url: `${trim(env.OPENAI_BASE_URL)}/v1/responses`,
      headers: { authorization: `Bearer ${env.OPENAI_API_KEY ?? ''}`, 'content-type': 'application/json' },
      body: { model: env.OPENAI_MODEL, input: q, tools: [{ type: 'web_search', user_location: { type: 'approximate', city: where.city, region: where.region, country: where.country } }] },
    }),
    parse(body) {
      const b = obj(body);
      if (!b || !Array.isArray(b.output)) return null;
      const texts: string[] = [];
      const sources: string[] = [];
      for (const item of arr(b.output).map(obj)) {
        if (item?.type !== 'message') continue;
        for (const part of arr(item.content).map(obj)) {
          if (part?.type !== 'output_text') continue;
          const t = str(part.text);
          if (t) texts.push(t);
          for (const a of arr(part.annotations).map(obj)) if (a?.type === 'url_citation' && str(a.url)) sources.push(String(a.url));
        }
      }
      if (!texts.length) return null;
      const usage = obj(b.usage);
      return { text: texts.join('\n'), sources, inputTokens: num(usage?.input_tokens), outputTokens: num(usage?.output_tokens) };
    },
  };
}

export function perplexityEngine(env: Pick<Env, 'PERPLEXITY_BASE_URL' | 'PERPLEXITY_API_KEY'>): Engine {
  return {
    id: 'perplexity',
    sku: 'perplexity.sonar',
    request: (q, where) => ({
      url: `${trim(env.PERPLEXITY_BASE_URL)}/chat/completions`,
      headers: { authorization: `Bearer ${env.PERPLEXITY_API_KEY ?? ''}`, 'content-type': 'application/json' },
      body: {
        model: 'sonar',
        messages: [{ role: 'user', content: q }],
        web_search_options: { user_location: { country: where.country, region: where.region, city: where.city, ...(where.point ? { latitude: where.point.latitude, longitude: where.point.longitude } : {}) } },
      },
    }),
    parse(body) {
      const b = obj(body);
      const text = str(obj(obj(arr(b?.choices)[0])?.message)?.content);
      if (!b || !text) return null;
      const fromResults = arr(b.search_results).map((r) => str(obj(r)?.url)).filter((u): u is string => u !== null);
      const sources = fromResults.length ? fromResults : arr(b.citations).map(str).filter((u): u is string => u !== null);
      const usage = obj(b.usage);
      return { text, sources, inputTokens: num(usage?.prompt_tokens), outputTokens: num(usage?.completion_tokens) };
    },
  };
}

export function geminiEngine(env: Pick<Env, 'GEMINI_BASE_URL' | 'GEMINI_API_KEY' | 'GEMINI_MODEL'>): Engine {
  return {
    id: 'gemini',
    sku: 'gemini.grounded',
    request: (q) => ({
      url: `${trim(env.GEMINI_BASE_URL)}/v1beta/models/${encodeURIComponent(env.GEMINI_MODEL)}:generateContent`,
      headers: { 'x-goog-api-key': env.GEMINI_API_KEY ?? '', 'content-type': 'application/json' },
      body: { contents: [{ role: 'user', parts: [{ text: q }] }], tools: [{ google_search: {} }] },
    }),
    parse(body) {
      const b = obj(body);
      const candidate = obj(arr(b?.candidates)[0]);
      const text = arr(obj(candidate?.content)?.parts)
        .map((p) => str(obj(p)?.text))
        .filter((t): t is string => t !== null)
        .join('');
      if (!candidate || !text) return null;
      // The uri leads through Google's redirect service, which names no site: the title is the domain.
      const sources = arr(obj(candidate.groundingMetadata)?.groundingChunks)
        .map((c) => obj(obj(c)?.web))
        .map((w) => str(w?.title) ?? null)
        .filter((t): t is string => t !== null);
      const usage = obj(b?.usageMetadata);
      return { text, sources, inputTokens: num(usage?.promptTokenCount), outputTokens: num(usage?.candidatesTokenCount) };
    },
  };
}

/** The engines with a key, and for the others why they are not asked. */
export function configuredEngines(env: Env): { engines: Engine[]; notAsked: Array<{ engine: AiEngine; reason: string }> } {
  const engines: Engine[] = [];
  const notAsked: Array<{ engine: AiEngine; reason: string }> = [];
  if (env.OPENAI_API_KEY) engines.push(openaiEngine(env));
  else notAsked.push({ engine: 'openai', reason: 'no OPENAI_API_KEY is set' });
  if (env.PERPLEXITY_API_KEY) engines.push(perplexityEngine(env));
  else notAsked.push({ engine: 'perplexity', reason: 'no PERPLEXITY_API_KEY is set' });
  if (env.GEMINI_API_KEY) engines.push(geminiEngine(env));
  else notAsked.push({ engine: 'gemini', reason: 'no GEMINI_API_KEY is set' });
  return { engines, notAsked };
}
