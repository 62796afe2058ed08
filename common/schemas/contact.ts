// The contact form's payload as the API validates it (POST /api/contact), built from the shared
// rules in contact-rules.ts.
import { z } from '../zod.ts';
import { CONTACT_BOUNDS, CONTACT_LABELS, CONTACT_MESSAGES, CONTACT_MULTILINE, CONTACT_SUBJECT_VALUES } from './contact-rules.ts';
import { plainText } from './plain-text.ts';
import { isEmail } from './report-request-rules.ts';

const text = (message: string) => z.string({ error: message }).trim();

export const contactMessageSchema = z.strictObject({
  name: text(CONTACT_MESSAGES.name).min(CONTACT_BOUNDS.name.min, CONTACT_MESSAGES.name).max(CONTACT_BOUNDS.name.max, CONTACT_MESSAGES.nameTooLong).check(plainText(CONTACT_LABELS.name)),
  email: text(CONTACT_MESSAGES.email)
    .max(CONTACT_BOUNDS.email.max, CONTACT_MESSAGES.email)
    .refine(isEmail, CONTACT_MESSAGES.email)
    .transform((v) => v.toLowerCase()),
  subject: z.enum(CONTACT_SUBJECT_VALUES, { error: CONTACT_MESSAGES.subject }),
  message: text(CONTACT_MESSAGES.message)
    .min(CONTACT_BOUNDS.message.min, CONTACT_MESSAGES.message)
    .max(CONTACT_BOUNDS.message.max, CONTACT_MESSAGES.messageTooLong)
    .check(plainText(CONTACT_LABELS.message, CONTACT_MULTILINE)),
});

export type ContactMessageInput = z.input<typeof contactMessageSchema>;
export type ContactMessage = z.output<typeof contactMessageSchema>;
