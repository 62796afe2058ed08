// A consultant's client (spec section 3, `clients`) and the business it is reported on, as the
// API validates it. The business's details are the report form's fields with the report form's
// rules (report-request.ts); the client's name and e-mail are the report's addressee.
import { z } from '../zod.ts';
import { PLAIN_LINE_PATTERN, PLAIN_LINES_PATTERN, plainText } from './plain-text.ts';
import { REQUIRED, TEXT_BOUNDS } from './report-request-rules.ts';
import { emailField, reportRequestSchema } from './report-request.ts';
import { REPORT_FREQUENCIES } from './client-frequencies.ts';

export { REPORT_FREQUENCIES, type ReportFrequency } from './client-frequencies.ts';

export const NOTES_MAX = 2000;

const business = reportRequestSchema.pick({ company: true, website: true, address: true, city: true, state: true, zip: true });

const clientFields = {
  clientName: z.string().trim().min(1, REQUIRED).min(TEXT_BOUNDS.fullName.min).max(TEXT_BOUNDS.fullName.max).check(plainText('Client name')).meta({ pattern: PLAIN_LINE_PATTERN }),
  clientEmail: emailField(TEXT_BOUNDS.email.max),
  notes: z.string().trim().max(NOTES_MAX).check(plainText('Notes', { multiline: true })).meta({ pattern: PLAIN_LINES_PATTERN }).optional(),
  reportFrequency: z.enum(REPORT_FREQUENCIES).optional(),
  /** null or absent: the consultant's default branding profile. */
  brandingProfileId: z.string().uuid().nullable().optional(),
};

export const createClientSchema = z.strictObject({ ...clientFields, ...business.shape });
export type CreateClientInput = z.output<typeof createClientSchema>;

/** Every field optional; the business's details change together or not at all. */
export const updateClientSchema = z.strictObject({
  ...z.object(clientFields).partial().shape,
  archived: z.boolean().optional(),
});
export type UpdateClientInput = z.output<typeof updateClientSchema>;

export const sendClientReportSchema = z.strictObject({ to: z.enum(['client', 'me']) });
