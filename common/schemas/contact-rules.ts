// The contact form's rules (spec section 5, "Contact"), written once: subjects, bounds and the
// spec's messages. Two readers: the API's zod schema in contact.ts (the source of truth) and
// `checkContactMessage` below, which the /contact island runs in the browser without zod (the
// same reason as the report form, docs/decisions/0020). A unit test requires both to agree.
import { isEmail } from './report-request-rules.ts';
import { EMAIL_MAX_LENGTH } from '../constants.ts';

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

export type ContactFields = 'name' | 'email' | 'subject' | 'message';
export type ContactErrors = Partial<Record<ContactFields, string>>;

const trimmed = (value: unknown) => (typeof value === 'string' ? value.trim() : '');

/** The browser's check, with the messages the API's zod schema gives. */
export function checkContactMessage(input: Record<string, unknown>): ContactErrors {
  const errors: ContactErrors = {};
  const name = trimmed(input.name);
  if (name.length < CONTACT_BOUNDS.name.min) errors.name = CONTACT_MESSAGES.name;
  else if (name.length > CONTACT_BOUNDS.name.max) errors.name = CONTACT_MESSAGES.nameTooLong;
  const email = trimmed(input.email);
  if (!isEmail(email) || email.length > CONTACT_BOUNDS.email.max) errors.email = CONTACT_MESSAGES.email;
  if (!(CONTACT_SUBJECT_VALUES as readonly unknown[]).includes(input.subject)) errors.subject = CONTACT_MESSAGES.subject;
  const message = trimmed(input.message);
  if (message.length < CONTACT_BOUNDS.message.min) errors.message = CONTACT_MESSAGES.message;
  else if (message.length > CONTACT_BOUNDS.message.max) errors.message = CONTACT_MESSAGES.messageTooLong;
  return errors;
}
