// The widget's calls to the product: always to the origin the script came from, under the
// publishable key's path (the server checks the Origin). The config is asked for as the loader and
// the snippet's `crossorigin` hint ask for it (a CORS GET with the default credentials, which
// sends no cookie to another origin), so a hint's answer is used and each key's config is fetched
// once per page; the other calls never send cookies (credentials: 'omit').
import { widgetApiBase, type LeadThanks } from '../../common/widget.ts';
import type { Refusals } from './policy.ts';
import type { ScoreCardData, WidgetConfig } from './types.ts';

/** What a refused call throws: the status (0: no answer), the message and per-field messages. */
export interface WidgetApiError {
  status: number;
  message: string;
  fields?: Record<string, string>;
}

export interface WidgetApi {
  config(): Promise<WidgetConfig>;
  /** The config once its answer is in (a view's first render can then be the form itself). */
  known(): WidgetConfig | undefined;
  submit(form: Record<string, unknown>): Promise<{ leadId: string; thanks: LeadThanks }>;
  lead(leadId: string): Promise<{ status: 'pending' | 'ready'; scoreCard?: ScoreCardData }>;
  scoreCard(): Promise<{ scoreCard: ScoreCardData | null; website: string | null }>;
}

export const CONNECTION_MESSAGE = 'We could not reach the server. Please try again.';

/** A call's answer with its body read: undefined when there was none (no connection, or the
 *  page's CSP refused it); `hint` is what a refusal tells the site owner. */
export type Answer = { status: number; data: { message?: string; fields?: Record<string, string>; hint?: string } & Record<string, unknown> } | undefined;

/** Reads a response's body as it arrives. The loader reads the config with it while the widget
 *  downloads, so the widget finds the answer whole and renders the form in the task that runs it
 *  (reading the body then cost a task and a frame of "Loading…" at 4× CPU). */
export const answer = (sent: Promise<Response>): Promise<Answer> =>
  sent.then(
    async (res) => ({ status: res.status, data: await res.json().catch(() => ({})) }),
    // A refusal by the page's CSP fails the fetch before its violation event is dispatched: a
    // task later the event has been seen (policy.ts), so the failure can be told apart.
    () => new Promise<undefined>((done) => setTimeout(done)),
  );

/** The configs of the React build's components, by key: asked for once per page and key. */
const shared: Record<string, Promise<Answer>> = {};
/** Each config once its answer is in (a view's first render can then be the form itself). */
const known: Record<string, WidgetConfig> = {};

/**
 * The calls for one key. `configs` holds the config requests by key, shared by every instance on
 * the page (the script-tag build passes the loader's, which it may have started already; a
 * failure is not kept past the task that saw it). `refused` is what the page's CSP refused.
 */
export function widgetApi(origin: string, publishableKey: string, configs = shared, refused: Refusals = {}): WidgetApi {
  const base = widgetApiBase(origin, publishableKey);
  const request = async <T,>(path: string, body?: unknown, sent?: Promise<Answer>): Promise<T> => {
    const got = await (sent ||
      answer(
        fetch(base + path, {
          method: body ? 'POST' : 'GET',
          credentials: 'omit',
          headers: body ? { 'Content-Type': 'application/json' } : {},
          body: body ? JSON.stringify(body) : null,
        }),
      ));
    const data = got?.data ?? {};
    // (A fetch never answers under 200: informational answers are not exposed.)
    if (!got || got.status > 299) {
      // A refusal's fix for the site owner (a hostname to allow, a sandboxed frame), in the console.
      if (data.hint) console.error(data.hint);
      throw { status: got?.status ?? 0, message: data.message || refused['connect-src'] || CONNECTION_MESSAGE, fields: data.fields } satisfies WidgetApiError;
    }
    return data as T;
  };
  return {
    config: () => {
      const sent = (configs[publishableKey] ||= answer(fetch(`${base}/config`)));
      return request<WidgetConfig>('', undefined, sent).then(
        (config) => (known[base] = config),
        (error) => {
          // Kept until this task ends (the element that waited for it and the view it then
          // mounts share it: one request), then dropped: the next mount asks again.
          setTimeout(() => configs[publishableKey] == sent && delete configs[publishableKey]);
          throw error;
        },
      );
    },
    known: () => known[base],
    submit: (form) => request('/leads', form),
    lead: (leadId) => request(`/leads/${encodeURIComponent(leadId)}`),
    scoreCard: () => request('/score-card'),
  };
}
