// The free-report request (spec section 2, "Report request form"; section 7, POST
// /api/submit-request), as the API validates it. Bounds, predicates and messages come from
// report-request-rules.ts, which the form island also runs in the browser without zod.
import { z } from '../zod.ts';
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
  TRIMMED_PATTERN,
  WEBSITE_PATTERN,
  ZIP_PATTERN,
} from './report-request-rules.ts';

const text = (bounds: { min: number; max: number }) =>
  z.string().trim().min(1, REQUIRED).min(bounds.min).max(bounds.max);
/** Text bounded once trimmed; the document says so with a pattern (no surrounding spaces). */
const trimmedText = (bounds: { min: number; max: number }) => text(bounds).meta({ pattern: TRIMMED_PATTERN });

/** An e-mail address; the document carries the exact rule (`format` and `pattern`). */
export const emailField = (max: number) =>
  z.string().trim().min(1, REQUIRED).max(max).refine(isEmail, MESSAGES.email).meta({ format: 'email', pattern: EMAIL_PATTERN }).transform((v) => v.toLowerCase());

const requiredChoice = (iss: { input?: unknown }) => (iss.input === '' || iss.input === undefined ? REQUIRED : undefined);

export const reportRequestSchema = z.strictObject({
  fullName: trimmedText(TEXT_BOUNDS.fullName),
  email: emailField(TEXT_BOUNDS.email.max),
  company: trimmedText(TEXT_BOUNDS.company),
  role: z.enum(REPORT_ROLE_VALUES, { error: requiredChoice }),
  website: text(TEXT_BOUNDS.website).refine(isWebsiteUrl, MESSAGES.url).meta({ format: 'uri', pattern: WEBSITE_PATTERN }),
  address: trimmedText(TEXT_BOUNDS.address),
  city: trimmedText(TEXT_BOUNDS.city),
  state: z.enum(STATE_CODES, { error: requiredChoice }),
  zip: z.string().trim().min(1, REQUIRED).refine(isZip, MESSAGES.zip).meta({ pattern: ZIP_PATTERN }),
  // Not in the spec's payload: a request without it still gets its report, but no marketing mail.
  consent: z.boolean().optional(),
});

export type ReportRequestInput = z.input<typeof reportRequestSchema>;
export type ReportRequest = z.output<typeof reportRequestSchema>;
