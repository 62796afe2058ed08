// The free-report request (spec section 2, "Report request form"; section 7, POST
// /api/submit-request), as the API validates it. Bounds, predicates and messages come from
// report-request-rules.ts, which the form island also runs in the browser without zod.
import { z } from '../zod.ts';
import {
  isEmail,
  isWebsiteUrl,
  isZip,
  MESSAGES,
  REPORT_ROLE_VALUES,
  REQUIRED,
  STATE_CODES,
  TEXT_BOUNDS,
} from './report-request-rules.ts';

const text = (bounds: { min: number; max: number }) =>
  z.string().trim().min(1, REQUIRED).min(bounds.min).max(bounds.max);

const requiredChoice = (iss: { input?: unknown }) => (iss.input === '' || iss.input === undefined ? REQUIRED : undefined);

export const reportRequestSchema = z.strictObject({
  fullName: text(TEXT_BOUNDS.fullName),
  email: text(TEXT_BOUNDS.email).refine(isEmail, MESSAGES.email).transform((v) => v.toLowerCase()),
  company: text(TEXT_BOUNDS.company),
  role: z.enum(REPORT_ROLE_VALUES, { error: requiredChoice }),
  website: text(TEXT_BOUNDS.website).refine(isWebsiteUrl, MESSAGES.url),
  address: text(TEXT_BOUNDS.address),
  city: text(TEXT_BOUNDS.city),
  state: z.enum(STATE_CODES, { error: requiredChoice }),
  zip: z.string().trim().min(1, REQUIRED).refine(isZip, MESSAGES.zip),
  // Not in the spec's payload: a request without it still gets its report, but no marketing mail.
  consent: z.boolean().optional(),
});

export type ReportRequestInput = z.input<typeof reportRequestSchema>;
export type ReportRequest = z.output<typeof reportRequestSchema>;
