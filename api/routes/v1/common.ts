// Pieces every /api/v1 route uses: the environment (the verified caller), the scope check, the
// JSON and problem+json response entries of the route definitions.
import { z } from '@hono/zod-openapi';
import type { Context } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { ApiScope } from '../../../common/schemas/api-keys.ts';
import { AppError } from '../../errors.ts';
import { invalidInput } from '../../lib/validate.ts';
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

/** Each status the API refuses with, the codes it carries, and when (issue 39). */
const PROBLEMS = {
  400: { codes: ['invalid_input'], description: 'Invalid input: a parameter or the body is not as this document says; `fields` holds a message per field.' },
  401: { codes: ['unauthenticated'], description: 'Missing or invalid API key.' },
  403: { codes: ['forbidden', 'plan_required'], description: 'The key lacks the scope (`forbidden`), or its owner\'s plan no longer includes the API (`plan_required`).' },
  404: { codes: ['not_found'], description: 'No such object, or one that belongs to another account.' },
  409: { codes: ['conflict'], description: 'A conflict with the account\'s state: a request with this Idempotency-Key is still being processed, or a limit is reached.' },
  413: { codes: ['payload_too_large'], description: 'The request body is over 64 KB.' },
  415: { codes: ['unsupported_media_type'], description: 'The body is not sent as `Content-Type: application/json`.' },
  422: { codes: ['unprocessable'], description: 'A request the document allows that cannot be acted on: an address the server cannot locate, a branding profile that is not yours (`fields` says which), or an Idempotency-Key used with a different request.' },
  429: { codes: ['rate_limited'], description: 'Over the key\'s rate limit: see Retry-After.' },
  431: { codes: ['headers_too_large'], description: 'The request headers are over 16 KB.' },
} as const;
export type RefusalStatus = keyof typeof PROBLEMS;
export const REFUSAL_CODES = Object.fromEntries(Object.entries(PROBLEMS).map(([s, p]) => [s, p.codes])) as unknown as { [S in RefusalStatus]: readonly string[] };

/** The problem details of one status: `code` says which of that status's codes it is. */
const problemSchemas = Object.fromEntries(
  Object.entries(PROBLEMS).map(([status, { codes }]) => [
    status,
    problemSchema
      .extend({ status: z.literal(Number(status)).describe('The HTTP status, repeated.'), code: z.enum(codes as unknown as [string, ...string[]]).describe('Our error code.') })
      .openapi(`Problem${status}`),
  ]),
) as unknown as Record<RefusalStatus, typeof problemSchema>;

/** Which headers come with a refusal: those answered before the key is counted carry no limit. */
function refusalHeaders(status: RefusalStatus) {
  // A 401 is answered before the key is known, a 403 plan_required before it is counted, a 413
  // before the key is read (the body limit), a 431 by the node server before the app sees it.
  if (status === 401) return EXTRA_HEADERS[401];
  if (status === 403) return OPTIONAL_RATE_LIMIT_HEADERS;
  if (status === 413 || status === 431) return {};
  return { ...RATE_LIMIT_HEADERS, ...EXTRA_HEADERS[status] };
}

export function problemResponse(status: RefusalStatus) {
  return { description: PROBLEMS[status].description, headers: refusalHeaders(status), content: { [PROBLEM_MEDIA_TYPE]: { schema: problemSchemas[status] } } };
}

/** The refusals a route names itself (404, 409, 422); 401, 403 and 429 are on every one, and
 *  withRefusals adds those its method and request make possible. */
export function problems<const C extends RefusalStatus>(...codes: C[]) {
  return Object.fromEntries([401, 403, 429, ...codes].map((code) => [code, problemResponse(code as RefusalStatus)])) as Record<C | 401 | 403 | 429, ReturnType<typeof problemResponse>>;
}

interface RouteLike {
  method: string;
  request?: { params?: unknown; query?: unknown; headers?: unknown; body?: unknown };
  responses: Record<string, unknown>;
}

/**
 * Every status a route can answer, from what the route is: any request can be refused for its
 * headers (431), one with parameters or a body can be invalid (400), a method with a body can
 * carry one too large (413, checked for every method but GET and HEAD), and a route that reads a
 * JSON body refuses another media type (415).
 */
export function withRefusals(route: RouteLike): void {
  const statuses: RefusalStatus[] = [401, 403, 429, 431];
  const { params, query, headers, body } = route.request ?? {};
  if (params || query || headers || body) statuses.push(400);
  if (route.method !== 'get' && route.method !== 'head') statuses.push(413);
  if (body) statuses.push(415);
  for (const status of statuses) route.responses[status] ??= problemResponse(status);
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

/** A path id read by a middleware that runs before the route's validators (the owner checks):
 *  checked against the same schema first, so an id the document refuses is a 400 there too. */
export function validPathId(schema: ReturnType<typeof pathId>, c: Context, name: string): string {
  const parsed = schema.safeParse({ [name]: c.req.param(name) });
  if (!parsed.success) throw invalidInput(parsed.error as unknown as Parameters<typeof invalidInput>[0]);
  return parsed.data[name] as string;
}

const JSON_HEADERS = { 'Content-Type': 'application/json; charset=UTF-8', ...NO_STORE };

/** JSON text made by SQLite, sent as it is (no parse and serialise again, decision 0060), typed
 *  as the route's answer: the integration tests validate these answers against the document. */
export const rawJson = <T>(c: Context, text: string): T => c.body(text, 200, JSON_HEADERS) as unknown as T;
