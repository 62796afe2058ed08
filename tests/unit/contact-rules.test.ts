// The browser's contact check and the API's zod schema must flag the same fields with the same
// messages (docs/decisions/0020's arrangement, applied to the contact form).
import { describe, expect, it } from 'vitest';
import { checkContactMessage } from '../../common/schemas/contact-rules.ts';
import { contactMessageSchema } from '../../common/schemas/contact.ts';
import { fieldErrors } from '../../common/zod.ts';

const base = { name: 'Dana Whitfield', email: 'dana@example.com', subject: 'support', message: 'My report did not arrive yet.' };
const variants: Array<[string, unknown]> = [
  ['name', ''], ['name', 'D'], ['name', '  D  '], ['name', 'Do'], ['name', 'D'.repeat(100)], ['name', 'D'.repeat(101)], ['name', undefined], ['name', 7],
  ['email', ''], ['email', 'dana'], ['email', 'dana@example'], ['email', 'da..na@example.com'], ['email', ' dana@example.com '], ['email', `${'a'.repeat(250)}@x.co`], ['email', null],
  ['subject', ''], ['subject', 'general'], ['subject', 'sales'], ['subject', 'agency'], ['subject', 'Sales'], ['subject', undefined],
  ['message', ''], ['message', '123456789'], ['message', '1234567890'], ['message', '   12345678   '], ['message', 'x'.repeat(5000)], ['message', 'x'.repeat(5001)], ['message', false],
  // Control, invisible and text-direction characters (decision 0211): a message keeps its lines.
  ['name', 'Dana\u0000 Whitfield'], ['name', 'Dana\tWhitfield'], ['name', 'Dana\nWhitfield'], ['name', 'Da\u200Bna'], ['name', 'D\u202E'], ['name', 'דנה\u200F כהן'],
  ['message', 'Line one of it\r\nand\tline two'], ['message', 'Hello there\u0007 team'], ['message', 'Hello there\u2028 team'], ['message', 'Hello \u2066there\u2069 team'],
];

describe('checkContactMessage agrees with contactMessageSchema', () => {
  it.each(variants)('%s = %j', (field, value) => {
    const input: Record<string, unknown> = { ...base, [field]: value };
    if (value === undefined) delete input[field];
    const parsed = contactMessageSchema.safeParse(input);
    const server = parsed.success ? {} : fieldErrors(parsed.error);
    expect(checkContactMessage(input)).toEqual(server);
  });

  it('accepts the valid base message', () => {
    expect(checkContactMessage(base)).toEqual({});
    expect(contactMessageSchema.safeParse(base).success).toBe(true);
  });
});
