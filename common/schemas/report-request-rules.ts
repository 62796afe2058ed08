// The free-report request's rules, written once: field bounds, the predicates, the messages, the
// roles, the 50 states and the consent text. Two readers use them: the zod schema in
// report-request.ts (the API, and the source of truth) and `checkReportRequest` below, which the
// landing page's form island runs in the browser. This file imports no zod on purpose: zod on the
// client would cost 5-7 KB gzip of the 80 KB budget for `/` (docs/decisions/0020). A unit test
// runs both over the same inputs and requires the same verdict and the same message per field.
import { EMAIL_MAX_LENGTH } from '../constants.ts';

export const REPORT_ROLES = [
  { value: 'owner', label: 'Business Owner' },
  { value: 'director', label: 'Director' },
  { value: 'gm', label: 'General Manager' },
  { value: 'marketing', label: 'Marketing Manager' },
  { value: 'other', label: 'Other' },
] as const;
export const REPORT_ROLE_VALUES = REPORT_ROLES.map((r) => r.value) as unknown as readonly [ReportRole, ...ReportRole[]];
export type ReportRole = (typeof REPORT_ROLES)[number]['value'];

export const US_STATES = [
  ['AL', 'Alabama'], ['AK', 'Alaska'], ['AZ', 'Arizona'], ['AR', 'Arkansas'], ['CA', 'California'],
  ['CO', 'Colorado'], ['CT', 'Connecticut'], ['DE', 'Delaware'], ['FL', 'Florida'], ['GA', 'Georgia'],
  ['HI', 'Hawaii'], ['ID', 'Idaho'], ['IL', 'Illinois'], ['IN', 'Indiana'], ['IA', 'Iowa'],
  ['KS', 'Kansas'], ['KY', 'Kentucky'], ['LA', 'Louisiana'], ['ME', 'Maine'], ['MD', 'Maryland'],
  ['MA', 'Massachusetts'], ['MI', 'Michigan'], ['MN', 'Minnesota'], ['MS', 'Mississippi'], ['MO', 'Missouri'],
  ['MT', 'Montana'], ['NE', 'Nebraska'], ['NV', 'Nevada'], ['NH', 'New Hampshire'], ['NJ', 'New Jersey'],
  ['NM', 'New Mexico'], ['NY', 'New York'], ['NC', 'North Carolina'], ['ND', 'North Dakota'], ['OH', 'Ohio'],
  ['OK', 'Oklahoma'], ['OR', 'Oregon'], ['PA', 'Pennsylvania'], ['RI', 'Rhode Island'], ['SC', 'South Carolina'],
  ['SD', 'South Dakota'], ['TN', 'Tennessee'], ['TX', 'Texas'], ['UT', 'Utah'], ['VT', 'Vermont'],
  ['VA', 'Virginia'], ['WA', 'Washington'], ['WV', 'West Virginia'], ['WI', 'Wisconsin'], ['WY', 'Wyoming'],
] as const;
export type StateCode = (typeof US_STATES)[number][0];
export const STATE_CODES = US_STATES.map((s) => s[0]) as unknown as readonly [StateCode, ...StateCode[]];

/** The consent checkbox's text. Change the version whenever the text changes: records keep it. */
export const CONSENT_TEXT =
  'I agree to receive my free report and occasional marketing communications by e-mail. I can unsubscribe at any time.';
export const CONSENT_TEXT_VERSION = '2025-10-01';

export const REQUIRED = 'Required';
export const MESSAGES = {
  required: REQUIRED,
  email: 'Invalid email',
  url: 'Invalid url',
  zip: 'ZIP code must be 5 digits or ZIP+4 (12345-6789)',
  consent: 'Please agree to receive your report',
  tooShort: (min: number) => `String must contain at least ${min} character(s)`,
  tooLong: (max: number) => `String must contain at most ${max} character(s)`,
  oneOf: (values: readonly string[], input: string) => `Invalid enum value. Expected ${values.map((v) => `'${v}'`).join(' | ')}, received '${input}'`,
} as const;

/** Text fields: trimmed, then bounded. */
export const TEXT_BOUNDS = {
  fullName: { min: 2, max: 100 },
  email: { min: 1, max: EMAIL_MAX_LENGTH },
  company: { min: 2, max: 150 },
  website: { min: 1, max: 2048 },
  address: { min: 5, max: 200 },
  city: { min: 2, max: 100 },
} as const;

// A practical address shape: local part, @, dotted domain with a 2+ letter top level, no "..".
// The patterns are the API document's too (JSON Schema `pattern`, ECMA-262), so they are strings.
export const EMAIL_PATTERN = "^(?!.*\\.\\.)[A-Za-z0-9._%+'-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+[A-Za-z]{2,}$";
// [0-9], not \d: to a JSON Schema reader outside JavaScript (Python's re, .NET) \d is any Unicode digit.
export const ZIP_PATTERN = '^[0-9]{5}(?:-[0-9]{4})?$';
/** For the document: addresses `isWebsiteUrl` accepts (a subset: dotted names, a letter-led top level). */
export const WEBSITE_PATTERN = '^https?://(?:(?![Xx][Nn]--)[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\\.)+(?![Xx][Nn]--)[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?::[1-9][0-9]{0,3})?(?:[/?#][!-~]*)?$';
const EMAIL = new RegExp(EMAIL_PATTERN);
const ZIP = new RegExp(ZIP_PATTERN);

export const isEmail = (value: string) => EMAIL.test(value);
export const isZip = (value: string) => ZIP.test(value);

/** An http(s) address with a dotted host name, the kind a local business's website has. */
export function isWebsiteUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && /^[^.]+(\.[^.]+)+$/.test(url.hostname);
  } catch {
    return false;
  }
}

export type ReportRequestFields = 'fullName' | 'email' | 'company' | 'role' | 'website' | 'address' | 'city' | 'state' | 'zip' | 'consent';
export type ReportRequestErrors = Partial<Record<ReportRequestFields, string>>;

function checkText(value: unknown, bounds: { min: number; max: number }): string | undefined {
  if (typeof value !== 'string') return REQUIRED;
  const text = value.trim();
  if (!text) return REQUIRED;
  if (text.length < bounds.min) return MESSAGES.tooShort(bounds.min);
  if (text.length > bounds.max) return MESSAGES.tooLong(bounds.max);
  return undefined;
}

function checkChoice(value: unknown, values: readonly string[]): string | undefined {
  if (typeof value !== 'string' || !value) return REQUIRED;
  return values.includes(value) ? undefined : MESSAGES.oneOf(values, value);
}

/**
 * The browser's check of the form, with the messages the API's zod schema gives. The form also
 * requires consent (the API does not: a request without it still gets its report).
 */
export function checkReportRequest(input: Record<string, unknown>, options: { requireConsent?: boolean } = {}): ReportRequestErrors {
  const errors: ReportRequestErrors = {};
  for (const key of Object.keys(TEXT_BOUNDS) as Array<keyof typeof TEXT_BOUNDS>) {
    const message = checkText(input[key], TEXT_BOUNDS[key]);
    if (message) errors[key] = message;
  }
  const email = String(input.email ?? '').trim();
  if (!errors.email && !isEmail(email)) errors.email = MESSAGES.email;
  const website = String(input.website ?? '').trim();
  if (!errors.website && !isWebsiteUrl(website)) errors.website = MESSAGES.url;
  const role = checkChoice(input.role, REPORT_ROLE_VALUES);
  if (role) errors.role = role;
  const state = checkChoice(input.state, STATE_CODES);
  if (state) errors.state = state;
  const zip = typeof input.zip === 'string' ? input.zip.trim() : '';
  if (!zip) errors.zip = REQUIRED;
  else if (!isZip(zip)) errors.zip = MESSAGES.zip;
  if (options.requireConsent && input.consent !== true) errors.consent = MESSAGES.consent;
  return errors;
}
