// The ES module build for agencies whose sites are React apps: `import { ReportForm, ScoreCard }
// from '@localrank/widget'`, react and react-dom as peer dependencies. The same components as the
// script-tag build, each isolated in a shadow root.
import { createElement, useMemo } from 'react';
import { widgetApi } from './api.ts';
import { PublishedScoreCardView, ReportFormView } from './report-form.tsx';
import { Isolated } from './shadow.tsx';
import type { WidgetProps } from './types.ts';

export type { ScoreCardData, WidgetConfig, WidgetProps, WidgetTheme } from './types.ts';
export { THEME_PROPERTIES } from './styles.ts';

/** The report form, white-labelled with the key's branding profile. */
export function ReportForm({ publishableKey, origin }: WidgetProps) {
  const api = useMemo(() => widgetApi(origin, publishableKey), [origin, publishableKey]);
  return createElement(Isolated, null, createElement(ReportFormView, { api }));
}

/** The score card the agency publishes for the key (a client's latest scores). */
export function ScoreCard({ publishableKey, origin }: WidgetProps) {
  const api = useMemo(() => widgetApi(origin, publishableKey), [origin, publishableKey]);
  return createElement(Isolated, null, createElement(PublishedScoreCardView, { api }));
}
