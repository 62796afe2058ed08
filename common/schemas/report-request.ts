// The free-report request (spec section 2, "Report request form"; section 7, POST
// /api/submit-request), as the API validates it. Bounds, predicates and messages come from
// report-request-rules.ts, which the form island also runs in the browser without zod.
import { z } from '../zod.ts';
import { PLAIN_LINE_PATTERN, plainText } from './plain-text.ts';
import {
  EMAIL_PATTERN,
  isEmail,
  isWebsiteUrl,
  isZip,
  MESSAGES,
  REPORT_ROLE_VALUES,
  REQUIRED,
  STATE_CODES,
  TEXT_BOUNDS,
  WEBSITE_PATTERN,
  ZIP_PATTERN,
} from './report-request-rules.ts';

/** How a field's message names it when its text holds a control or invisible character (decision
 *  0211). The browser's forms leave that check to this schema: its 400 shows under the field. */
export const TEXT_LABELS = {
  fullName: 'Full name',
  company: 'Company name',
  website: 'Website',
  address: 'Address',
  city: 'City',
} as const;

const text = (bounds: { min: number; max: number }) =>
  z.string().trim().min(1, REQUIRED).min(bounds.min).max(bounds.max);
/** Text bounded once trimmed, of characters that show (decision 0211); the document says so with
 *  a pattern (no surrounding spaces). */
const trimmedText = (bounds: { min: number; max: number }, label: string) => text(bounds).check(plainText(label)).meta({ pattern: PLAIN_LINE_PATTERN });

/** An e-mail address; the document carries the exact rule (`format` and `pattern`). */
export const emailField = (max: number) =>
  z.string().trim().min(1, REQUIRED).max(max).refine(isEmail, MESSAGES.email).meta({ format: 'email', pattern: EMAIL_PATTERN }).transform((v) => v.toLowerCase());

const requiredChoice = (iss: { input?: unknown }) => (iss.input === '' || iss.input === undefined ? REQUIRED : undefined);

export const reportRequestSchema = z.strictObject({
  fullName: trimmedText(TEXT_BOUNDS.fullName, TEXT_LABELS.fullName),
  email: emailField(TEXT_BOUNDS.email.max),
  company: trimmedText(TEXT_BOUNDS.company, TEXT_LABELS.company),
  role: z.enum(REPORT_ROLE_VALUES, { error: requiredChoice }),
  website: text(TEXT_BOUNDS.website).refine(isWebsiteUrl, MESSAGES.url).check(plainText(TEXT_LABELS.website)).meta({ format: 'uri', pattern: WEBSITE_PATTERN }),
  address: trimmedText(TEXT_BOUNDS.address, TEXT_LABELS.address),
  city: trimmedText(TEXT_BOUNDS.city, TEXT_LABELS.city),
  state: z.enum(STATE_CODES, { error: requiredChoice }),
  zip: z.string().trim().min(1, REQUIRED).refine(isZip, MESSAGES.zip).meta({ pattern: ZIP_PATTERN }),
  // Not in the spec's payload: a request without it still gets its report, but no marketing mail.
  consent: z.boolean().optional(),
});

export type ReportRequestInput = z.input<typeof reportRequestSchema>;
export type ReportRequest = z.output<typeof reportRequestSchema>;

/** The fields a request names, in the schema's order (a request's fingerprint follows it). */
export type RequestField = Exclude<keyof ReportRequest, 'consent'>;
export const REQUEST_FIELDS = Object.keys(reportRequestSchema.shape).filter((key): key is RequestField => key !== 'consent');
/** The business's contact: the request's fields but the requester's role. */
export type ContactField = Exclude<RequestField, 'role'>;
export const CONTACT_FIELDS = REQUEST_FIELDS.filter((key): key is ContactField => key !== 'role');
/** A business's contact as a stored row, the analysis and `npm run report` hold it: text (the
 *  schema's state code is text in the row). */
export type BusinessContact = Record<ContactField, string>;

/** The contact fields of a row that has more. */
export function contactOf(row: BusinessContact): BusinessContact {
  return Object.fromEntries(CONTACT_FIELDS.map((key) => [key, row[key]])) as BusinessContact;
}
