// API keys (issue 16): what a key may do, and the create and roll forms, shared by the
// /account screen and the API.
import { z } from '../zod.ts';
import { plainText } from './plain-text.ts';

export const API_SCOPES = ['reports:read', 'reports:write', 'businesses:read', 'businesses:write', 'alerts:read', 'alerts:write', 'reviews:read', 'reviews:write', 'clients:read', 'clients:write', 'webhooks:write'] as const;
export type ApiScope = (typeof API_SCOPES)[number];

export const API_SCOPE_LABELS: Record<ApiScope, string> = {
  'reports:read': 'Read reports',
  'reports:write': 'Request reports',
  'businesses:read': 'Read businesses, metrics and history',
  'businesses:write': 'Change a business\'s rank settings',
  'alerts:read': 'Read alerts and the alert threshold',
  'alerts:write': 'Set the alert threshold',
  'reviews:read': 'Read reviews from a connected Google Business Profile, and its calls, clicks and directions',
  'reviews:write': 'Answer reviews on a connected Google Business Profile',
  'clients:read': 'Read clients',
  'clients:write': 'Create and update clients',
  'webhooks:write': 'Manage webhook endpoints and deliveries',
};

/** Scopes for a consultant's clients: an account that cannot have clients is not offered them. */
export const CONSULTANT_SCOPES: readonly ApiScope[] = ['clients:read', 'clients:write'];

/** The scopes an account of this type can use (a business owner has no clients). */
export const scopesFor = (role: string): ApiScope[] => API_SCOPES.filter((s) => role === 'consultant' || !CONSULTANT_SCOPES.includes(s));

/** The message for a scope the account type cannot use. */
export const scopeNotForAccount = (scope: string) => `"${scope}" is for consultant accounts, which have clients`;

/** Hours a rolled key keeps working beside its successor (0: stops at once; at most 7 days). */
export const ROLL_GRACE_HOURS = { default: 24, max: 168 } as const;
export const API_KEY_NAME_MAX = 60;

export const createApiKeySchema = z.strictObject({
  name: z.string().trim().min(1, 'Give the key a name').max(API_KEY_NAME_MAX, `At most ${API_KEY_NAME_MAX} characters`).check(plainText('The name')),
  scopes: z.array(z.enum(API_SCOPES, { error: 'Unknown scope' })).min(1, 'Choose at least one scope').transform((s) => [...new Set(s)]),
});
export type CreateApiKeyInput = z.output<typeof createApiKeySchema>;

export const rollApiKeySchema = z.strictObject({
  graceHours: z.number({ error: 'Enter a number of hours' }).int('Whole hours only').min(0).max(ROLL_GRACE_HOURS.max, `At most ${ROLL_GRACE_HOURS.max} hours`).default(ROLL_GRACE_HOURS.default),
});
