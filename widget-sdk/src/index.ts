// The ES module build for agencies whose sites are React apps: `import { ReportForm, ScoreCard }
// from '@localrank/widget'`, react and react-dom as peer dependencies. The same components as the
// script-tag build, each isolated in a shadow root.
import { createElement, useMemo } from 'react';
import { widgetApi } from './api.ts';
import { watchPolicy, type Refusals } from './policy.ts';
import { PublishedScoreCardView, ReportFormView } from './report-form.tsx';
import { Isolated } from './shadow.tsx';
import type { WidgetProps } from './types.ts';

export type { ScoreCardData, WidgetConfig, WidgetProps, WidgetTheme } from './types.ts';
export { THEME_PROPERTIES } from './styles.ts';

/** What the page's CSP refused, by product origin, watched from the first component on (not
 *  while a server renders the page: there is no document there). */
const refusals: Record<string, Refusals> = {};
function refusalsOf(origin: string): Refusals {
  if (!refusals[origin]) {
    refusals[origin] = {};
    if (typeof document != 'undefined') watchPolicy(origin, refusals[origin]);
  }
  return refusals[origin];
}
const useApi = (origin: string, publishableKey: string) => useMemo(() => widgetApi(origin, publishableKey, undefined, refusalsOf(origin)), [origin, publishableKey]);

/** The report form, white-labelled with the key's branding profile. */
export function ReportForm({ publishableKey, origin }: WidgetProps) {
  const api = useApi(origin, publishableKey);
  return createElement(Isolated, null, createElement(ReportFormView, { api }));
}

/** The score card the agency publishes for the key (a client's latest scores). */
export function ScoreCard({ publishableKey, origin }: WidgetProps) {
  const api = useApi(origin, publishableKey);
  return createElement(Isolated, null, createElement(PublishedScoreCardView, { api }));
}
