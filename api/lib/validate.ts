import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import { fieldErrors, type z } from '../../common/zod.ts';
import { AppError } from '../errors.ts';

// The media types Hono's json validator reads; it validates `{}` for any other (every field
// then "Required", however complete the body), so those are refused first with the real reason.
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;
export const NOT_JSON_MESSAGE = 'The request body must be JSON (Content-Type: application/json).';

export function invalidInput(error: z.ZodError, message = 'Please check the highlighted fields.'): AppError {
  return new AppError('invalid_input', message, { fields: fieldErrors(error) });
}

/** zod validation for a route; failures become 400 with per-field messages. */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  const check = zValidator(target, schema, (result) => {
    if (!result.success) throw invalidInput(result.error as unknown as z.ZodError);
  });
  if (target !== 'json') return check;
  const jsonOnly: typeof check = async (c, next) => {
    const mediaType = (c.req.header('content-type') ?? '').split(';')[0]!.trim();
    if (!JSON_MEDIA_TYPE.test(mediaType)) throw new AppError('invalid_input', NOT_JSON_MESSAGE);
    return check(c, next);
  };
  return jsonOnly;
}
