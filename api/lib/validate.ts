import { zValidator } from '@hono/zod-validator';
import type { ValidationTargets } from 'hono';
import { fieldErrors, type z } from '../../common/zod.ts';
import { AppError } from '../errors.ts';

export function invalidInput(error: z.ZodError, message = 'Please check the highlighted fields.'): AppError {
  return new AppError('invalid_input', message, { fields: fieldErrors(error) });
}

/** zod validation for a route; failures become 400 with per-field messages. */
export function validate<T extends z.ZodType, Target extends keyof ValidationTargets>(target: Target, schema: T) {
  return zValidator(target, schema, (result) => {
    if (!result.success) throw invalidInput(result.error as unknown as z.ZodError);
  });
}
