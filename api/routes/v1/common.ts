// Pieces every /api/v1 route uses: the environment (the verified caller), the scope check, the
// JSON and problem+json response entries of the route definitions.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ApiScope } from '../../../common/schemas/api-keys.ts';
import { AppError } from '../../errors.ts';
import { PROBLEM_MEDIA_TYPE, problemSchema } from '../../lib/problem.ts';
import { requireScope, type ApiCaller } from '../../services/api-keys.ts';

export type V1Env = { Variables: { caller: ApiCaller; requestId: string } };

export const NO_STORE = { 'Cache-Control': 'private, no-store' };

/**
 * The document's 400 means "the document refuses this request". A request it allows that a
 * service still cannot act on (an address the offline data cannot locate, a branding profile
 * that is not the caller's) is 422 `unprocessable`, with the service's fields.
 */
export async function unprocessable<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && error.code === 'invalid_input') throw new AppError('unprocessable', error.message, { fields: error.fields });
    throw error;
  }
}

/** Checks the caller's key has the scope, before the body is read. */
export const scope = (name: ApiScope) =>
  createMiddleware<V1Env>(async (c, next) => {
    requireScope(c.get('caller'), name);
    await next();
  });

const header = (description: string, example: string, required = true) => ({ description, required, schema: { type: 'string' as const, example } });

/** On every answer of an authenticated request (decision 0124). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Policy': header("The key's limit (IETF draft): `q` requests per window of `w` seconds.", '"per-key";q=600;w=60'),
  RateLimit: header('What is left of the limit (IETF draft): `r` requests for `t` more seconds.', '"per-key";r=599;t=42'),
};
const OPTIONAL_RATE_LIMIT_HEADERS = Object.fromEntries(Object.entries(RATE_LIMIT_HEADERS).map(([name, h]) => [name, { ...h, required: false }]));
const EXTRA_HEADERS: Partial<Record<number, Record<string, ReturnType<typeof header>>>> = {
  401: { 'WWW-Authenticate': header('The scheme to authenticate with (RFC 6750).', 'Bearer realm="LocalRank API"') },
  429: { 'Retry-After': header('Seconds until the key may call again.', '12') },
};
/** Answers repeated for a request with the same Idempotency-Key carry it. */
export const IDEMPOTENT_REPLAYED_HEADER = { 'Idempotent-Replayed': header('`true` when this is the answer to an earlier request with the same Idempotency-Key.', 'true', false) };

export const jsonContent = <T extends z.ZodType>(schema: T, description: string, headers: Record<string, ReturnType<typeof header>> = {}) => ({
  description,
  headers: { ...RATE_LIMIT_HEADERS, ...headers },
  content: { 'application/json': { schema } },
});

const PROBLEMS = {
  400: 'Invalid input: `fields` holds a message per field.',
  401: 'Missing or invalid API key.',
  403: 'The key lacks the scope (`forbidden`), or its owner\'s plan no longer includes the API (`plan_required`).',
  404: 'No such object, or one that belongs to another account.',
  409: 'A request with this Idempotency-Key is still being processed.',
  422: 'A request the document allows that cannot be acted on: an address the server cannot locate, a branding profile that is not yours (`fields` says which), or an Idempotency-Key used with a different request.',
  429: 'Over the key\'s rate limit: see Retry-After.',
} as const;

export function problems<const C extends keyof typeof PROBLEMS>(...codes: C[]) {
  return Object.fromEntries(
    [401, 403, 429, ...codes].map((code) => [
      code,
      {
        description: PROBLEMS[code as keyof typeof PROBLEMS],
        // A 401 is answered before the key is known, a 403 plan_required before it is counted:
        // no limit to report.
        headers: code === 401 ? EXTRA_HEADERS[401] : code === 403 ? OPTIONAL_RATE_LIMIT_HEADERS : { ...RATE_LIMIT_HEADERS, ...EXTRA_HEADERS[code] },
        content: { [PROBLEM_MEDIA_TYPE]: { schema: problemSchema } },
      },
    ]),
  ) as Record<C | 401 | 403 | 429, { description: string; headers: Record<string, ReturnType<typeof header>>; content: { 'application/problem+json': { schema: typeof problemSchema } } }>;
}

/**
 * A request schema shared with the product's own forms (common/schemas), with the public API's
 * description of each field: the descriptions belong to the API's document, so the shared schema
 * (and the forms' bundles) stay as they are. Made with .extend, so the result has .openapi.
 */
export function describeFields<T extends z.ZodObject>(schema: T, descriptions: { [K in keyof T['shape']]: string }): T {
  const described = Object.fromEntries(Object.entries(descriptions).map(([name, text]) => [name, (schema.shape[name] as z.ZodType).describe(text as string)]));
  return schema.extend(described) as unknown as T;
}

export const pathId = (name: string, description: string) =>
  z.object({ [name]: z.string().min(1).max(100).openapi({ param: { name, in: 'path' }, description }) });

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=UTF-8', ...NO_STORE };

/** JSON text made by SQLite, sent as it is (no parse and serialise again, decision 0060), typed
 *  as the route's answer: the integration tests validate these answers against the document. */
export const rawJson = <T>(c: Context, text: string): T => c.body(text, 200, JSON_HEADERS) as unknown as T;
