// The widget's calls to the product: never with cookies (credentials: 'omit'; the loader's config
// request, which must match the snippet's hint, uses the default, which sends none to another
// origin), always to the origin the script came from, under the publishable key's path (the server
// checks the Origin).
import { widgetApiBase, type LeadThanks } from '../../common/widget.ts';
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

/** A call's answer with its body read: null when there was none (no connection). */
export type Answer = { status: number; data: { message?: string; fields?: Record<string, string> } & Record<string, unknown> } | null;

/** Reads a response's body as it arrives. The loader reads the config with it while the widget
 *  downloads, so the widget finds the answer whole and renders the form in the task that runs it
 *  (reading the body then cost a task and a frame of "Loading…" at 4× CPU). */
export const answer = (sent: Promise<Response>): Promise<Answer> =>
  sent.then(
    async (res) => ({ status: res.status, data: await res.json().catch(() => ({})) }),
    () => null,
  );

/** The key's config, asked for once per page and key (every instance shares the answer); a
 *  request the loader started is used when there is one. A failure is not kept: the next mount asks again. */
const configs: Record<string, Promise<WidgetConfig>> = {};
const known: Record<string, WidgetConfig> = {};

export function widgetApi(origin: string, publishableKey: string, started?: Promise<Answer>): WidgetApi {
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
    if (!got || got.status < 200 || got.status > 299) throw { status: got?.status ?? 0, message: data.message || CONNECTION_MESSAGE, fields: data.fields } satisfies WidgetApiError;
    return data as T;
  };
  return {
    config: () =>
      (configs[base] ||= request<WidgetConfig>('/config', undefined, started).then(
        (config) => (known[base] = config),
        (error) => {
          delete configs[base];
          throw error;
        },
      )),
    known: () => known[base],
    submit: (form) => request('/leads', form),
    lead: (leadId) => request(`/leads/${encodeURIComponent(leadId)}`),
    scoreCard: () => request('/score-card'),
  };
}
