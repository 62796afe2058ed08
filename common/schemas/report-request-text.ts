// The report form's check of its text's characters (decision 0211), beside the rules of
// report-request-rules.ts and in the order the API's schema applies them: a field's own rules
// first. The landing page's form runs both; the widget, held to its size budget, runs only the
// rules and shows the API's 400 for the characters, which names the field with the same message.
import { plainTextError } from '../plain-text.ts';
import type { ReportRequestErrors } from './report-request-rules.ts';

/** How a field's message names it when its text holds a control or invisible character. */
export const TEXT_LABELS = {
  fullName: 'Full name',
  company: 'Company name',
  website: 'Website',
  address: 'Address',
  city: 'City',
} as const;

/** `errors` of `checkReportRequest`, with the characters' messages of the text fields that passed their rules. */
export function withTextErrors(input: Record<string, unknown>, errors: ReportRequestErrors): ReportRequestErrors {
  const all = { ...errors };
  for (const key of Object.keys(TEXT_LABELS) as Array<keyof typeof TEXT_LABELS>) {
    const message = all[key] ? undefined : plainTextError(TEXT_LABELS[key], String(input[key]).trim());
    if (message) all[key] = message;
  }
  return all;
}
