// Local stand-ins of the three AI engines the AI-answers scan asks (issue 50), written from their
// documentation (decision 0300), on one loopback server:
// - OpenAI Responses API: POST /v1/responses, bearer key; needs the `web_search` tool with an
//   approximate `user_location`; answers `output` with a `web_search_call` item and a `message`
//   whose `output_text` carries `url_citation` annotations; `usage.input_tokens`/`output_tokens`.
// - Perplexity: POST /chat/completions, bearer key, model `sonar`, `web_search_options.user_location`;
//   answers `choices[0].message.content`, `citations` and `search_results`; `usage.prompt_tokens`/`completion_tokens`.
// - Gemini: POST /v1beta/models/{model}:generateContent, `x-goog-api-key`, the `google_search`
//   tool; answers `candidates[0].content.parts`, `groundingMetadata.groundingChunks[].web` whose
//   `uri` is a grounding redirect and whose `title` is the domain; `usageMetadata`.
// Each engine answers from a script of outcomes, in order (an answer, an HTTP failure, or a call
// held open until the test lets go), then from default answers that change from one ask to the next.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AiEngine } from '../../common/ai-visibility.ts';

export type Outcome = { text: string; sources?: string[] } | { status: number } | { hang: true };

export interface AiStandin {
  base: string;
  /** The settings that point every engine at this stand-in, with keys. */
  env: Record<string, string>;
  /** Outcomes each engine gives next, in order (consumed). */
  script: Partial<Record<AiEngine, Outcome[]>>;
  /** Requests received per engine, with their bodies. */
  received: Record<AiEngine, Array<Record<string, unknown>>>;
  /** Calls each engine answered with a 2xx. */
  answered: Record<AiEngine, number>;
  /** The names default answers list (a few of them each ask, from a different one each time). */
  names: string[];
  /** Starts the default answers' rotation and the counts again. */
  reset: () => void;
  /** Called when a call is held open (a slow answer), with the engine. */
  onHang: (fn: (engine: AiEngine) => void) => void;
  close: () => Promise<void>;
}

export const STANDIN_KEYS = { OPENAI_API_KEY: 'sk-standin', PERPLEXITY_API_KEY: 'pplx-standin', GEMINI_API_KEY: 'gemini-standin' };

const json = (res: ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));

async function bodyOf(req: IncomingMessage): Promise<Record<string, unknown> | null> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  try {
    const v: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return v && typeof v === 'object' ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const domain = (u: string) => new URL(/^https?:/.test(u) ? u : `https://${u}`).hostname.replace(/^www\./, '');
const tokens = (text: string) => Math.ceil(text.length / 4);

/** The answer an engine gives in its own shape. */
function shaped(engine: AiEngine, q: string, a: { text: string; sources: string[] }): unknown {
  const urls = a.sources.map((s) => (/^https?:/.test(s) ? s : `https://www.${s}/austin`));
  const usage = { in: 12 + tokens(q), out: tokens(a.text) };
  if (engine === 'openai') {
    return {
      id: 'resp_standin',
      object: 'response',
      status: 'completed',
      model: 'gpt-4.1-mini',
      output: [
        { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: q } },
        {
          type: 'message',
          id: 'msg_1',
          status: 'completed',
          role: 'assistant',
          content: [{ type: 'output_text', text: a.text, annotations: urls.map((url, i) => ({ type: 'url_citation', start_index: i, end_index: i + 1, url: `${url}?utm_source=openai`, title: domain(url) })) }],
        },
      ],
      usage: { input_tokens: usage.in, output_tokens: usage.out, total_tokens: usage.in + usage.out },
    };
  }
  if (engine === 'perplexity') {
    return {
      id: 'pplx-standin',
      model: 'sonar',
      object: 'chat.completion',
      created: 1_764_633_600,
      choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: a.text } }],
      citations: urls,
      search_results: urls.map((url) => ({ title: domain(url), url, date: '2026-11-30' })),
      usage: { prompt_tokens: usage.in, completion_tokens: usage.out, total_tokens: usage.in + usage.out, search_context_size: 'low' },
    };
  }
  return {
    candidates: [
      {
        content: { role: 'model', parts: [{ text: a.text }] },
        finishReason: 'STOP',
        groundingMetadata: {
          webSearchQueries: [q],
          // Google gives a redirect through its grounding service, the domain only as the title.
          groundingChunks: urls.map((url) => ({ web: { uri: `https://vertexaisearch.cloud.google.com/grounding-api-redirect/${Buffer.from(url).toString('base64url')}`, title: domain(url) } })),
          groundingSupports: [],
        },
      },
    ],
    usageMetadata: { promptTokenCount: usage.in, candidatesTokenCount: usage.out, totalTokenCount: usage.in + usage.out },
    modelVersion: 'gemini-2.5-flash',
  };
}

/** Default answers: a short list of `names` starting at a different one each ask. */
function defaultAnswer(names: string[], k: number): { text: string; sources: string[] } {
  const pick = names.length ? [0, 1, 2].map((i) => names[(k + i) % names.length]!) : [];
  return { text: ['Here are some well-reviewed options:', ...[...new Set(pick)].map((n, i) => `${i + 1}. **${n}** - friendly staff and good reviews.`)].join('\n'), sources: ['yelp.com', 'healthgrades.com'] };
}

export async function startAiStandin(options: { names?: string[] } = {}): Promise<AiStandin> {
  const script: AiStandin['script'] = {};
  const received: AiStandin['received'] = { openai: [], perplexity: [], gemini: [] };
  const answered: AiStandin['answered'] = { openai: 0, perplexity: 0, gemini: 0 };
  const asks: Record<AiEngine, number> = { openai: 0, perplexity: 0, gemini: 0 };
  const hanging = new Set<ServerResponse>();
  const hangListeners: Array<(e: AiEngine) => void> = [];

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://standin');
    const engine: AiEngine | null = url.pathname === '/v1/responses' ? 'openai' : url.pathname === '/chat/completions' ? 'perplexity' : /^\/v1beta\/models\/[\w.-]+:generateContent$/.test(url.pathname) ? 'gemini' : null;
    if (req.method !== 'POST' || !engine) return json(res, 404, { error: { message: 'not found' } });
    const body = await bodyOf(req);
    const auth = engine === 'gemini' ? req.headers['x-goog-api-key'] === STANDIN_KEYS.GEMINI_API_KEY : req.headers.authorization === `Bearer ${engine === 'openai' ? STANDIN_KEYS.OPENAI_API_KEY : STANDIN_KEYS.PERPLEXITY_API_KEY}`;
    if (!auth) return json(res, engine === 'gemini' ? 403 : 401, { error: { message: 'invalid key' } });
    if (!body) return json(res, 400, { error: { message: 'invalid JSON' } });
    received[engine].push(body);
    let q: string;
    const tools = Array.isArray(body.tools) ? (body.tools as Array<Record<string, unknown>>) : [];
    if (engine === 'openai') {
      const tool = tools.find((t) => t.type === 'web_search');
      const loc = tool?.user_location as Record<string, unknown> | undefined;
      if (!tool || loc?.type !== 'approximate' || typeof body.input !== 'string') return json(res, 400, { error: { message: 'web_search tool with an approximate user_location and an input are required' } });
      q = body.input;
    } else if (engine === 'perplexity') {
      const messages = body.messages as Array<{ role: string; content: string }> | undefined;
      const loc = (body.web_search_options as Record<string, unknown> | undefined)?.user_location;
      if (body.model !== 'sonar' || !messages?.length || !loc) return json(res, 400, { error: { message: 'model sonar, messages and web_search_options.user_location are required' } });
      q = messages.at(-1)!.content;
    } else {
      const contents = body.contents as Array<{ parts: Array<{ text: string }> }> | undefined;
      if (!tools.some((t) => t.google_search) || !contents?.[0]?.parts?.[0]?.text) return json(res, 400, { error: { code: 400, message: 'contents and the google_search tool are required', status: 'INVALID_ARGUMENT' } });
      q = contents[0].parts[0].text;
    }
    const outcome = script[engine]?.shift() ?? defaultAnswer(standin.names, asks[engine]);
    asks[engine]++;
    if ('hang' in outcome) {
      hanging.add(res);
      res.on('close', () => hanging.delete(res));
      for (const fn of hangListeners) fn(engine);
      return;
    }
    if ('status' in outcome) return json(res, outcome.status, { error: { message: outcome.status === 429 ? 'Rate limit reached' : 'The server had an error' } });
    answered[engine]++;
    return json(res, 200, shaped(engine, q, { text: outcome.text, sources: outcome.sources ?? [] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const standin: AiStandin = {
    base,
    env: { ...STANDIN_KEYS, OPENAI_BASE_URL: base, PERPLEXITY_BASE_URL: base, GEMINI_BASE_URL: base },
    script,
    received,
    answered,
    names: options.names ?? [],
    reset: () => {
      for (const e of ['openai', 'perplexity', 'gemini'] as const) {
        asks[e] = 0;
        answered[e] = 0;
        received[e] = [];
      }
    },
    onHang: (fn) => hangListeners.push(fn),
    close: async () => {
      for (const r of hanging) r.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return standin;
}
