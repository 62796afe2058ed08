import { describe, expect, it } from 'vitest';
import { fieldErrors, z } from '../../common/zod.ts';

const messages = (schema: z.ZodType, value: unknown) => {
  const result = schema.safeParse(value);
  return result.success ? {} : fieldErrors(result.error);
};

describe('the spec generic validation messages', () => {
  const schema = z.object({
    name: z.string().min(2),
    email: z.email(),
    site: z.url(),
    role: z.enum(['owner', 'other']),
    count: z.number(),
  });

  it('says Required for a missing field', () => {
    expect(messages(schema, {}).name).toBe('Required');
  });

  it('words each failure as the spec shows it', () => {
    const fields = messages(schema, { name: 'a', email: 'nope', site: 'nope', role: 'boss', count: 'x' });
    expect(fields).toEqual({
      name: 'String must contain at least 2 character(s)',
      email: 'Invalid email',
      site: 'Invalid url',
      role: "Invalid enum value. Expected 'owner' | 'other', received 'boss'",
      count: 'Expected number, received string',
    });
  });

  it('keeps a schema-specific message over the generic one', () => {
    expect(messages(z.object({ p: z.string().min(8, 'Too short') }), { p: 'x' }).p).toBe('Too short');
  });
});

describe('unknown fields', () => {
  it('are named each under its own key; a body that is not an object goes under _', () => {
    const strict = z.strictObject({ name: z.string(), address: z.strictObject({ zip: z.string() }) });
    expect(messages(strict, { name: 'a', address: { zip: '1', plus4: '2' }, isAdmin: true, tier: 'agency' })).toEqual({
      isAdmin: "Unrecognized key(s) in object: 'isAdmin'",
      tier: "Unrecognized key(s) in object: 'tier'",
      'address.plus4': "Unrecognized key(s) in object: 'plus4'",
    });
    expect(messages(strict, 'hello')).toEqual({ _: 'Expected object, received string' });
  });
});
