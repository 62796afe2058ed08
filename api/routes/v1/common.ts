// Pieces every /api/v1 route uses: the environment (the verified caller), the scope check, the
// JSON and problem+json response entries of the route definitions.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ApiScope } from '../../../common/schemas/api-keys.ts';
import { PROBLEM_MEDIA_TYPE, problemSchema } from '../../lib/problem.ts';
import { requireScope, type ApiCaller } from '../../services/api-keys.ts';

export type V1Env = { Variables: { caller: ApiCaller; requestId: string } };

export const NO_STORE = { 'Cache-Control': 'private, no-store' };

/** Checks the caller's key has the scope, before the body is read. */
export const scope = (name: ApiScope) =>
  createMiddleware<V1Env>(async (c, next) => {
    requireScope(c.get('caller'), name);
    await next();
  });

export const jsonContent = <T extends z.ZodType>(schema: T, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

const PROBLEMS = {
  400: 'Invalid input: `fields` holds a message per field.',
  401: 'Missing or invalid API key.',
  403: 'The key lacks the scope (`forbidden`), or its owner\'s plan no longer includes the API (`plan_required`).',
  404: 'No such object, or one that belongs to another account.',
  409: 'A request with this Idempotency-Key is still being processed.',
  422: 'The Idempotency-Key was used with a different request.',
  429: 'Over the key\'s rate limit: see Retry-After.',
} as const;

export function problems<const C extends keyof typeof PROBLEMS>(...codes: C[]) {
  return Object.fromEntries(
    [401, 403, 429, ...codes].map((code) => [code, { description: PROBLEMS[code as keyof typeof PROBLEMS], content: { [PROBLEM_MEDIA_TYPE]: { schema: problemSchema } } }]),
  ) as Record<C | 401 | 403 | 429, { description: string; content: { 'application/problem+json': { schema: typeof problemSchema } } }>;
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
