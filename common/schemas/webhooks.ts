// Outgoing webhooks (issue 16): the events an endpoint may receive, and the endpoint form.
import { z } from '../zod.ts';
import { OPTIONAL_PLAIN_LINE_PATTERN, plainText } from './plain-text.ts';

export const WEBHOOK_EVENTS = ['report.completed', 'report.failed', 'alert.created', 'lead.created', 'visibility.changed'] as const;
export type WebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_EVENT_LABELS: Record<WebhookEvent, string> = {
  'report.completed': 'A report you requested is ready',
  'report.failed': 'A report you requested could not be made',
  'alert.created': 'A new review at or below a business\'s alert threshold',
  'lead.created': 'Your website widget took a new lead (Agency)',
  'visibility.changed': 'A business\'s Share of Local Voice changed from its previous scan',
};

/**
 * For the document: addresses every check at creation accepts (a public host name, no port, no
 * user name); the server also takes public IP addresses and ports 80 and 443.
 */
export const WEBHOOK_URL_PATTERN =
  '^https?://(?:(?![Xx][Nn]--)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+(?![Xx][Nn]--|[Ll][Oo][Cc][Aa][Ll][Hh][Oo][Ss][Tt](?:[/?#]|$))[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:[/?#][!-~]*)?$';

export const createWebhookSchema = z.strictObject({
  url: z
    .url({ protocol: /^https?$/, error: 'Enter an http:// or https:// address' })
    .max(2000)
    // Only on an address the checks above accepted: `new URL` throws on any other.
    .refine((u) => !new URL(u).username && !new URL(u).password, { message: 'No user name or password in the address', when: (payload) => !payload.issues.length })
    .meta({ pattern: WEBHOOK_URL_PATTERN }),
  events: z.array(z.enum(WEBHOOK_EVENTS, { error: 'Unknown event' })).min(1, 'Choose at least one event').transform((e) => [...new Set(e)]),
  description: z.string().trim().max(200).check(plainText('The description')).meta({ pattern: OPTIONAL_PLAIN_LINE_PATTERN }).optional(),
});
export type CreateWebhookInput = z.output<typeof createWebhookSchema>;
