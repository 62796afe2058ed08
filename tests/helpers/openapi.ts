// Checks real answers of the public API against its published OpenAPI document: the document is
// fetched from /api/v1/openapi.json, the operation found by method and path, and the body validated
// with the document's JSON Schema for that status and media type (turned into a validator by zod's
// own JSON Schema reader, not by the route definitions the document was made from).
import { expect } from 'vitest';
import { z } from '../../common/zod.ts';

type Json = Record<string, unknown>;
export interface OpenApiDocument {
  paths: Record<string, Record<string, { requestBody?: unknown; responses: Record<string, { headers?: Record<string, { required?: boolean }>; content?: Record<string, { schema: Json }> }> }>>;
  components: { schemas?: Record<string, Json> };
}

function inline(schema: unknown, doc: OpenApiDocument): unknown {
  if (Array.isArray(schema)) return schema.map((s) => inline(s, doc));
  if (!schema || typeof schema !== 'object') return schema;
  const ref = (schema as Json).$ref;
  if (typeof ref === 'string') return inline(doc.components.schemas![ref.replace('#/components/schemas/', '')], doc);
  return Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, inline(v, doc)]));
}

const templateOf = (doc: OpenApiDocument, path: string) =>
  Object.keys(doc.paths).find((template) => new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path));

/** Every operation (METHOD template status) an answer was checked against. */
export const checked = new Set<string>();

export function expectDocumented(doc: OpenApiDocument, method: string, url: string, res: { status: number; body: unknown; headers: Headers }) {
  const path = new URL(url, 'http://x').pathname.replace(/^\/api\/v1/, '');
  const template = templateOf(doc, path);
  expect(template, `${method} ${path} is in the document`).toBeDefined();
  const operation = doc.paths[template!]![method.toLowerCase()];
  expect(operation, `${method} ${template} is in the document`).toBeDefined();
  const response = operation!.responses[String(res.status)];
  expect(response, `${method} ${template} documents status ${res.status}`).toBeDefined();
  const mediaType = (res.headers.get('content-type') ?? '').split(';')[0]!.trim();
  const schema = response!.content?.[mediaType]?.schema;
  expect(schema, `${method} ${template} ${res.status} documents ${mediaType}`).toBeDefined();
  for (const [name, header] of Object.entries(response!.headers ?? {})) {
    if (header.required) expect(res.headers.get(name), `${method} ${template} ${res.status} sends the header ${name}`).not.toBeNull();
  }
  const result = z.fromJSONSchema(inline(schema, doc) as never).safeParse(res.body);
  expect(result.success, `${method} ${template} ${res.status}: ${result.error?.message}`).toBe(true);
  checked.add(`${method.toUpperCase()} ${template} ${res.status}`);
}

/** Validates a value against a schema of the document (its $refs followed), as expectDocumented does. */
export function matchesSchema(doc: OpenApiDocument, schema: unknown, value: unknown): { success: boolean; message?: string } {
  const result = z.fromJSONSchema(inline(schema, doc) as never).safeParse(value);
  return { success: result.success, message: result.error?.message };
}

export const operationsOf = (doc: OpenApiDocument) =>
  Object.entries(doc.paths).flatMap(([template, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${template}`));
