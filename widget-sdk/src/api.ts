// The widget's calls to the product: never with cookies (credentials: 'omit'), always to the
// origin the script came from, under the publishable key's path (the server checks the Origin).
import type { ScoreCardData, WidgetConfig } from './types.ts';

/** What a refused call throws: the status (0: no answer), the message and per-field messages. */
export interface WidgetApiError {
  status: number;
  message: string;
  fields?: Record<string, string>;
}

export interface WidgetApi {
  config(): Promise<WidgetConfig>;
  submit(form: Record<string, unknown>): Promise<{ leadId: string }>;
  lead(leadId: string): Promise<{ status: 'pending' | 'ready'; scoreCard?: ScoreCardData }>;
  scoreCard(): Promise<{ scoreCard: ScoreCardData | null; website: string | null }>;
}

export const CONNECTION_MESSAGE = 'We could not reach the server. Please try again.';

/** Where a key's calls go: the loader uses it too, to start the config request early. */
export const widgetBase = (origin: string, publishableKey: string) => `${origin}/api/widget/v1/${encodeURIComponent(publishableKey)}`;

/** The key's config, asked for once per page and key (every instance shares the answer); a
 *  request the loader started is used when there is one. A failure is not kept: the next mount asks again. */
const configs: Record<string, Promise<WidgetConfig>> = {};

export function widgetApi(origin: string, publishableKey: string, started?: Promise<Response | null>): WidgetApi {
  const base = widgetBase(origin, publishableKey);
  const request = async (path: string, body?: unknown, sent?: Promise<Response | null>) => {
    const res = await (sent ||
      fetch(base + path, {
        method: body ? 'POST' : 'GET',
        credentials: 'omit',
        headers: body ? { 'Content-Type': 'application/json' } : {},
        body: body ? JSON.stringify(body) : null,
      }).catch(() => null));
    const data = res ? await res.json().catch(() => ({})) : {};
    if (!res?.ok) throw { status: res?.status ?? 0, message: data.message || CONNECTION_MESSAGE, fields: data.fields } satisfies WidgetApiError;
    return data;
  };
  return {
    config: () =>
      (configs[base] ||= request('/config', undefined, started).catch((error) => {
        delete configs[base];
        throw error;
      })),
    submit: (form) => request('/leads', form),
    lead: (leadId) => request(`/leads/${encodeURIComponent(leadId)}`),
    scoreCard: () => request('/score-card'),
  };
}
