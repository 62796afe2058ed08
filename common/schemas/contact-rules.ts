// The contact form's rules (spec section 5, "Contact"), written once: subjects, bounds and the
// spec's messages. Two readers: the API's zod schema in contact.ts (the source of truth) and
// `checkContactMessage` below, which the /contact island runs in the browser without zod (the
// same reason as the report form, docs/decisions/0020). A unit test requires both to agree.
import { isEmail } from './report-request-rules.ts';
import { EMAIL_MAX_LENGTH } from '../constants.ts';
import { plainTextError } from '../plain-text.ts';

export const CONTACT_SUBJECTS = [
  { value: 'general', label: 'General Inquiry' },
  { value: 'support', label: 'Technical Support' },
  { value: 'billing', label: 'Billing Question' },
  { value: 'sales', label: 'Sales & Pricing' },
  { value: 'agency', label: 'Agency Partnership' },
] as const;
export type ContactSubject = (typeof CONTACT_SUBJECTS)[number]['value'];
export const CONTACT_SUBJECT_VALUES = CONTACT_SUBJECTS.map((s) => s.value) as unknown as readonly [ContactSubject, ...ContactSubject[]];

export const CONTACT_BOUNDS = {
  name: { min: 2, max: 100 },
  email: { max: EMAIL_MAX_LENGTH },
  message: { min: 10, max: 5000 },
} as const;

export const CONTACT_MESSAGES = {
  name: 'Name must be at least 2 characters',
  nameTooLong: `Name must be at most ${CONTACT_BOUNDS.name.max} characters`,
  email: 'Please enter a valid email',
  subject: 'Please select a subject',
  message: 'Message must be at least 10 characters',
  messageTooLong: `Message must be at most ${CONTACT_BOUNDS.message.max} characters`,
} as const;

/** How a field's message names it when its text holds a control or invisible character (decision 0211). */
export const CONTACT_LABELS = { name: 'Name', message: 'Message' } as const;
/** The message keeps its line breaks and tabs; the name is one line. */
export const CONTACT_MULTILINE = { multiline: true } as const;

export type ContactFields = 'name' | 'email' | 'subject' | 'message';
export type ContactErrors = Partial<Record<ContactFields, string>>;

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The browser's check, with the messages the API's zod schema gives. */
export function checkContactMessage(input: Record<string, unknown>): ContactErrors {
  const errors: ContactErrors = {};
  const name = trimmed(input.name);
  const nameError = name.length < CONTACT_BOUNDS.name.min ? CONTACT_MESSAGES.name : name.length > CONTACT_BOUNDS.name.max ? CONTACT_MESSAGES.nameTooLong : plainTextError(CONTACT_LABELS.name, name);
  if (nameError) errors.name = nameError;
  const email = trimmed(input.email);
  if (!isEmail(email) || email.length > CONTACT_BOUNDS.email.max) errors.email = CONTACT_MESSAGES.email;
  if (!(CONTACT_SUBJECT_VALUES as readonly unknown[]).includes(input.subject)) errors.subject = CONTACT_MESSAGES.subject;
  const message = trimmed(input.message);
  const messageError =
    message.length < CONTACT_BOUNDS.message.min
      ? CONTACT_MESSAGES.message
      : message.length > CONTACT_BOUNDS.message.max
        ? CONTACT_MESSAGES.messageTooLong
        : plainTextError(CONTACT_LABELS.message, message, CONTACT_MULTILINE);
  if (messageError) errors.message = messageError;
  return errors;
}
