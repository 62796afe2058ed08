// The ledger of provider calls (decision 0270): every call to Google Places, Yelp and the geocoder
// is a row in provider_calls, so every process and worker adds to one count. Recording is one
// function any provider can call (the AI-answers scan too); the Places providers and the geocoder
// reach it through one fetch, `meteredFetch`, that every call of theirs passes.
import { AsyncLocalStorage } from 'node:async_hooks';
import { providerCalls } from '../../db/schema/operations.ts';
import type { Db } from '../../db/client.ts';
import { skuOf } from './provider-prices.ts';

/** What made a call: a report (its request id), a scan, the grid, a review check... */
export interface CallSubject {
  type: string;
  id: string | null;
}

// One store per process, on globalThis: Astro's bundle carries its own copy of this module.
const KEY = Symbol.for('localrank.call-subject');
const subjects = ((globalThis as { [KEY]?: AsyncLocalStorage<CallSubject> })[KEY] ??= new AsyncLocalStorage<CallSubject>());

/** Runs `fn` with the calls it makes recorded against `subject` (the worker does it for each job). */
export function withCallSubject<T>(subject: CallSubject, fn: () => T): T {
  return subjects.run(subject, fn);
}

export const utcDay = (at: Date) => at.toISOString().slice(0, 10);

export interface ProviderCall {
  provider: string;
  sku: string;
  /** The HTTP status, 0 when no answer came. */
  status: number;
  subject?: CallSubject | null;
  at?: Date;
  inputTokens?: number;
  outputTokens?: number;
}

/** Adds one call to the ledger. */
export async function recordProviderCall(db: Pick<Db, 'insert'>, call: ProviderCall): Promise<void> {
  const at = call.at ?? new Date();
  const subject = call.subject === undefined ? (subjects.getStore() ?? null) : call.subject;
  await db.insert(providerCalls).values({ day: utcDay(at), at, provider: call.provider, sku: call.sku, status: call.status, subjectType: subject?.type ?? null, subjectId: subject?.id ?? null, inputTokens: call.inputTokens ?? 0, outputTokens: call.outputTokens ?? 0 });
}

/** A fetch that records each provider call it makes, whatever its outcome. A call to no known
 *  provider (a website) passes unrecorded. A failed record is reported, never the call's failure:
 *  the answer has been paid for. */
export function meteredFetch(db: Pick<Db, 'insert'>, options: { geocoderUrl: string | null; onRecordError?: (error: unknown) => void }, base: typeof fetch = fetch): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const headers = new Headers(init?.headers ?? (input instanceof Request ? input.headers : undefined));
    const sku = skuOf(url, headers, options.geocoderUrl);
    if (!sku) return base(input, init);
    let status = 0;
    try {
      const res = await base(input, init);
      status = res.status;
      return res;
    } finally {
      await recordProviderCall(db, { ...sku, status }).catch((error) => options.onRecordError?.(error));
    }
  };
}
