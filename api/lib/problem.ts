// RFC 9457 problem details for the public API (/api/v1): the same AppError codes as the rest of
// the API, in the standard shape. `type` is a relative reference to the docs page's list of codes.
import { z } from '@hono/zod-openapi';
import type { AppError } from '../errors.ts';

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';
/** The public API's paths: its errors are problem details. */
export const V1_PREFIX = '/api/v1/';

export const problemSchema = z
  .object({
    type: z.string().describe('A link to this code in the API documentation.'),
    title: z.string().describe("The code's title, the same for every error of that code."),
    status: z.number().int().describe('The HTTP status, repeated.'),
    detail: z.string().describe('What went wrong, in a sentence for people.'),
    code: z.string().describe('Our error code: invalid_input, unauthenticated, forbidden, plan_required, not_found, conflict, payload_too_large, unsupported_media_type, unprocessable, rate_limited, headers_too_large, …'),
    fields: z.record(z.string(), z.string()).optional().describe('Per-field messages of a 400 invalid_input.'),
    instance: z.string().optional().describe('The request id, also sent as X-Request-Id.'),
  })
  .openapi('Problem');
export type Problem = z.infer<typeof problemSchema>;

const TITLES: Record<string, string> = {
  invalid_input: 'Invalid input',
  unauthenticated: 'Unauthenticated',
  forbidden: 'Forbidden',
  plan_required: 'Plan does not include the API',
  not_found: 'Not found',
  conflict: 'Conflict',
  unprocessable: 'Unprocessable request',
  gone: 'Gone',
  payload_too_large: 'Payload too large',
  unsupported_media_type: 'Unsupported media type',
  method_not_allowed: 'Method not allowed',
  headers_too_large: 'Request headers too large',
  rate_limited: 'Too many requests',
  not_configured: 'Not configured',
  busy: 'Busy',
  storage_full: 'Storage full',
  storage_readonly: 'Storage read-only',
  internal: 'Internal error',
};

function problemOf(error: ErrorLike, status: number, requestId?: string): Problem {
  return {
    type: `/docs/api#error-${error.code}`,
    title: TITLES[error.code] ?? error.code,
    status,
    detail: error.message,
    code: error.code,
    ...(error.fields ? { fields: error.fields } : {}),
    ...(requestId ? { instance: `urn:request:${requestId}` } : {}),
  };
}

type ErrorLike = Pick<AppError, 'code' | 'message' | 'fields'>;

/**
 * An error answer's type and body, whoever writes it (the app, or the node server before the app
 * sees the request): RFC 9457 problem details under /api/v1/, `{ code, message, fields? }` elsewhere.
 */
export function errorAnswer(path: string, error: ErrorLike, status: number, requestId?: string): { contentType: string; body: string } {
  if (path.startsWith(V1_PREFIX)) return { contentType: PROBLEM_MEDIA_TYPE, body: JSON.stringify(problemOf(error, status, requestId)) };
  return { contentType: 'application/json; charset=UTF-8', body: JSON.stringify({ code: error.code, message: error.message, ...(error.fields ? { fields: error.fields } : {}) }) };
}
