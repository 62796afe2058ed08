// Widget keys and widget leads (issue 15) as the API validates them. The lead is the report
// form's request with the same rules and messages (report-request.ts), consent required (the
// form's line names the agency) and a honeypot field people never see.
import { z } from '../zod.ts';
import { plainText } from './plain-text.ts';
import { normaliseHostPattern, WIDGET_COMPONENTS } from '../widget.ts';
import { MESSAGES } from './report-request-rules.ts';
import { reportRequestSchema } from './report-request.ts';
import { LEAD_EMAIL_MODES, scoreCardChoiceError } from './widget-choices.ts';

export { LEAD_EMAIL_MODES, SCORE_CARD_OFF_MESSAGE, scoreCardChoiceError } from './widget-choices.ts';

export const WIDGET_HOSTNAMES_MAX = 20;
/** The honeypot's field name: an input hidden from people; a bot that fills it is thanked and ignored. */
export const WIDGET_HONEYPOT = 'nickname';

const hostname = z
  .string()
  .trim()
  .min(1, 'Required')
  .max(253)
  .transform((value, ctx) => {
    const normalised = normaliseHostPattern(value);
    if (!normalised) {
      ctx.addIssue({ code: 'custom', message: `'${value.slice(0, 60)}' is not a hostname (use example.com or *.example.com)` });
      return z.NEVER;
    }
    return normalised;
  });


export const widgetKeySchema = z.strictObject({
  name: z.string().trim().min(1, 'Required').max(80).check(plainText('The name')),
  allowedHostnames: z
    .array(hostname)
    .min(1, 'Add at least one hostname')
    .max(WIDGET_HOSTNAMES_MAX)
    .transform((list) => [...new Set(list)]),
  brandingProfileId: z.string().uuid().nullable(),
  components: z
    .array(z.enum(WIDGET_COMPONENTS))
    .min(1, 'Choose at least one component')
    .transform((list) => WIDGET_COMPONENTS.filter((c) => list.includes(c))),
  scoreCardClientId: z.string().uuid().nullable(),
  leadEmails: z.enum(LEAD_EMAIL_MODES),
}).superRefine((key, ctx) => {
  const message = scoreCardChoiceError(key.components, key.scoreCardClientId);
  if (message) ctx.addIssue({ code: 'custom', path: ['scoreCardClientId'], message });
});
export type WidgetKeyInput = z.output<typeof widgetKeySchema>;

export const widgetLeadSchema = reportRequestSchema.extend({
  consent: z.literal(true, { error: MESSAGES.consent }),
  [WIDGET_HONEYPOT]: z.string().max(200).optional(),
});
export type WidgetLeadInput = z.output<typeof widgetLeadSchema>;
