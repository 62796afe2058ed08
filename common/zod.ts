// The one place zod is configured. Every schema in the product imports `z` from here, so the
// browser and the server produce the same messages: the spec's generic ones ('Required',
// 'Invalid email', 'String must contain at least N character(s)', ...), which are zod 3's
// wording. Zod 4 words them differently, hence this error map.
import { z } from 'zod';

type Issue = z.core.$ZodRawIssue;

function received(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && Number.isNaN(input)) return 'nan';
  return typeof input;
}

// Only primitives are written into a message. A client's object is named by its type: turning it
// into a string would call its own `toString`/`valueOf` (JSON can make them non-functions, which
// throws), and an echoed object says nothing to the person who sent it.
const quote = (value: unknown) => {
  if (typeof value === 'string') return `'${value.length > 100 ? `${value.slice(0, 100)}…` : value}'`;
  if (value === null || value === undefined || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
  return received(value);
};

export function zod3Message(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined ? 'Required' : `Expected ${issue.expected}, received ${received(issue.input)}`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return `String must contain at least ${min} character(s)`;
      if (issue.origin === 'array') return `Array must contain at least ${min} element(s)`;
      return `Number must be greater than ${issue.inclusive ? 'or equal to ' : ''}${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `String must contain at most ${max} character(s)`;
      if (issue.origin === 'array') return `Array must contain at most ${max} element(s)`;
      return `Number must be less than ${issue.inclusive ? 'or equal to ' : ''}${max}`;
    }
    case 'invalid_format':
      if (issue.format === 'email') return 'Invalid email';
      if (issue.format === 'url') return 'Invalid url';
      return 'Invalid';
    case 'invalid_value':
      return `Invalid enum value. Expected ${issue.values.map(quote).join(' | ')}, received ${quote(issue.input)}`;
    case 'unrecognized_keys':
      return `Unrecognized key(s) in object: ${issue.keys.map(quote).join(', ')}`;
    default:
      return 'Invalid input';
  }
}

z.config({ customError: zod3Message });

/** First message per field path ("a.b"), the shape the API's 400 answers and the forms use. An
 *  unknown field is named under its own key; a problem with the whole body goes under "_". */
export function fieldErrors(error: z.ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  const put = (path: PropertyKey[], message: string) => (fields[path.length ? path.map(String).join('.') : '_'] ??= message);
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys') for (const key of issue.keys) put([...issue.path, key], `Unrecognized key(s) in object: ${quote(key)}`);
    else put(issue.path, issue.message);
  }
  return fields;
}

export { z };
