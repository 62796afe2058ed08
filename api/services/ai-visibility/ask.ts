// One question to one engine: the call, its time limit, one retry of a call that failed (429, a
// 5xx, no answer in time, no connection), and every call in the provider-call ledger with its
// status and tokens (decision 0270), so the AI scan's spend is counted where the rest is.
import type { AppContext } from '../../context.ts';
import { recordProviderCall } from '../../lib/provider-calls.ts';
import type { Engine, EngineAnswer, Where } from './engines.ts';

export interface AskOptions {
  fetchImpl?: typeof fetch;
  /** The signal that ends one call: by default AI_VISIBILITY_TIMEOUT_MS after it starts. */
  deadline?: (engine: Engine['id']) => AbortSignal;
  signal?: AbortSignal;
  /** False for the offline sample answers, which cost nothing and are not provider calls. */
  record?: boolean;
}

export interface Attempt {
  status: number;
  inputTokens: number;
  outputTokens: number;
}

export interface Asked {
  answer: EngineAnswer | null;
  /** Why there is no answer, when there is none. */
  failure: string | null;
  attempts: Attempt[];
}

const retryable = (status: number) => status === 0 || status === 429 || status >= 500;

async function callOnce(ctx: Pick<AppContext, 'db' | 'env' | 'log'>, engine: Engine, q: string, where: Where, options: AskOptions): Promise<{ attempt: Attempt; answer: EngineAnswer | null; failure: string | null }> {
  const req = engine.request(q, where);
  const deadline = options.deadline?.(engine.id) ?? AbortSignal.timeout(ctx.env.AI_VISIBILITY_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  let status = 0;
  let answer: EngineAnswer | null = null;
  let failure: string | null = null;
  try {
    const res = await (options.fetchImpl ?? fetch)(req.url, { method: 'POST', headers: req.headers, body: JSON.stringify(req.body), signal });
    status = res.status;
    const text = await res.text();
    if (res.ok) {
      try {
        answer = engine.parse(JSON.parse(text));
      } catch {
        answer = null;
      }
      if (!answer) failure = 'the answer could not be read';
    } else failure = `HTTP ${status}`;
  } catch (error) {
    options.signal?.throwIfAborted();
    failure = deadline.aborted ? 'no answer within the time limit' : `no connection (${error instanceof Error ? error.message : String(error)})`;
  }
  const attempt = { status, inputTokens: answer?.inputTokens ?? 0, outputTokens: answer?.outputTokens ?? 0 };
  if (options.record !== false) await recordProviderCall(ctx.db, { provider: engine.id, sku: engine.sku, ...attempt }).catch((error) => ctx.log.warn('provider call not recorded', { error: error instanceof Error ? error.message : String(error) }));
  return { attempt, answer, failure };
}

/** Asks once, and once more when the first call failed in a way a second may not. */
export async function ask(ctx: Pick<AppContext, 'db' | 'env' | 'log'>, engine: Engine, q: string, where: Where, options: AskOptions = {}): Promise<Asked> {
  const first = await callOnce(ctx, engine, q, where, options);
  if (first.answer || !retryable(first.attempt.status)) return { answer: first.answer, failure: first.failure, attempts: [first.attempt] };
  const second = await callOnce(ctx, engine, q, where, options);
  return { answer: second.answer, failure: second.failure, attempts: [first.attempt, second.attempt] };
}
