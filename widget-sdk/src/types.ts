// The shapes the widget API answers with are defined once, in common/widget.ts.
export type { ScoreCardData, WidgetConfig, WidgetTheme } from '../../common/widget.ts';

export interface WidgetProps {
  /** The agency's publishable key (lr_pk_…). */
  publishableKey: string;
  /** The product's address, e.g. https://app.localrank.example (where the widget is served). */
  origin: string;
}
