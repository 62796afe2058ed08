// The widget's calls to the product: never with cookies (credentials: 'omit'), always to the
// origin the script came from, under the publishable key's path (the server checks the Origin).
import type { LeadThanks } from '../../common/widget.ts';
import type { ScoreCardData, WidgetConfig } from './types.ts';

/** What a refused call throws: the status (0: no answer), the message and per-field messages. */
export interface WidgetApiError {
  status: number;
  message: string;
  fields?: Record<string, string>;
}

export interface WidgetApi {
  config(): Promise<WidgetConfig>;
  submit(form: Record<string, unknown>): Promise<{ leadId: string; thanks: LeadThanks }>;
  lead(leadId: string): Promise<{ status: 'pending' | 'ready'; scoreCard?: ScoreCardData }>;
  scoreCard(): Promise<{ scoreCard: ScoreCardData | null; website: string | null }>;
}

export const CONNECTION_MESSAGE = 'We could not reach the server. Please try again.';

export function widgetApi(origin: string, publishableKey: string): WidgetApi {
  const base = `${origin}/api/widget/v1/${encodeURIComponent(publishableKey)}`;
  const request = async (path: string, body?: unknown) => {
    const res = await fetch(base + path, {
      method: body ? 'POST' : 'GET',
      credentials: 'omit',
      headers: body ? { 'Content-Type': 'application/json' } : {},
      body: body ? JSON.stringify(body) : null,
    }).catch(() => null);
    const data = res ? await res.json().catch(() => ({})) : {};
    if (!res?.ok) throw { status: res?.status ?? 0, message: data.message || CONNECTION_MESSAGE, fields: data.fields } satisfies WidgetApiError;
    return data;
  };
  return {
    config: () => request('/config'),
    submit: (form) => request('/leads', form),
    lead: (leadId) => request(`/leads/${encodeURIComponent(leadId)}`),
    scoreCard: () => request('/score-card'),
  };
}
