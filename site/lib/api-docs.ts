// What the /docs/api page shows for each operation of the OpenAPI document: its parameters and
// body fields as rows, and request examples in curl and TypeScript built from the schemas (their
// examples where they give one), so the examples change with the routes.
import type { Operation, OpenApiDocument, SchemaObject } from '../../api/routes/v1/document.ts';

export const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

export function resolve(schema: SchemaObject | undefined, doc: OpenApiDocument): SchemaObject {
  if (!schema) return {};
  if (schema.$ref) return resolve(doc.components.schemas[schema.$ref.replace('#/components/schemas/', '')], doc);
  return schema;
}

export function typeName(schema: SchemaObject, doc: OpenApiDocument): string {
  const s = resolve(schema, doc);
  if (s.enum) return s.enum.map((v) => JSON.stringify(v)).join(' | ');
  if (s.anyOf) return s.anyOf.map((x) => typeName(x, doc)).join(' | ');
  const types = Array.isArray(s.type) ? s.type : [s.type ?? 'object'];
  return types.map((t) => (t === 'array' && s.items ? `${typeName(s.items, doc)}[]` : t === 'string' && s.format ? `string (${s.format})` : t)).join(' | ');
}

export interface Field {
  name: string;
  type: string;
  required: boolean;
  description: string;
}

export function fieldsOf(schema: SchemaObject | undefined, doc: OpenApiDocument): Field[] {
  const s = resolve(schema, doc);
  return Object.entries(s.properties ?? {}).map(([name, p]) => ({
    name,
    type: typeName(p, doc),
    required: s.required?.includes(name) ?? false,
    description: resolve(p, doc).description ?? '',
  }));
}

export function exampleOf(schema: SchemaObject | undefined, doc: OpenApiDocument, depth = 0): unknown {
  const s = resolve(schema, doc);
  if (s.example !== undefined) return s.example;
  if (s.enum) return s.enum[0];
  if (s.anyOf) return exampleOf(s.anyOf.find((x) => resolve(x, doc).type !== 'null'), doc, depth);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (type === 'array') return depth > 4 ? [] : [exampleOf(s.items, doc, depth + 1)];
  if (type === 'object' || s.properties) {
    if (depth > 4) return {};
    return Object.fromEntries(Object.entries(s.properties ?? {}).filter(([k]) => s.required?.includes(k)).map(([k, v]) => [k, exampleOf(v, doc, depth + 1)]));
  }
  if (type === 'integer') return s.minimum ?? 1;
  if (type === 'number') return s.minimum ?? 1;
  if (type === 'boolean') return true;
  if (s.format === 'date-time') return '2026-11-01T00:00:00Z';
  return 'string';
}

const pathWithExamples = (path: string, op: Operation) =>
  path.replace(/\{(\w+)\}/g, (_, name: string) => `{${name}}`.replace(/\{(\w+)\}/, (op.parameters?.some((p) => p.name === name) ? `$${name.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}` : name)));

export function examples(method: string, path: string, op: Operation, doc: OpenApiDocument) {
  const body = op.requestBody ? JSON.stringify(exampleOf(op.requestBody.content['application/json']?.schema, doc), null, 2) : null;
  const idempotent = op.parameters?.some((p) => p.in === 'header' && p.name.toLowerCase() === 'idempotency-key');
  const url = `$LOCALRANK_URL/api/v1${pathWithExamples(path, op)}`;
  const curl = [
    `curl -X ${method.toUpperCase()} "${url}"`,
    '  -H "Authorization: Bearer $LOCALRANK_API_KEY"',
    ...(idempotent ? ['  -H "Idempotency-Key: $(uuidgen)"'] : []),
    ...(body ? ['  -H "Content-Type: application/json"', `  -d '${body.replaceAll("'", "'\\''")}'`] : []),
  ].join(' \\\n');
  // TypeScript: the typed client (@localrank/api-client), as a customer installs it.
  const params: string[] = [];
  const pathParams = (op.parameters ?? []).filter((p) => p.in === 'path');
  if (pathParams.length) params.push(`path: { ${pathParams.map((p) => `${p.name}: '${String(resolve(p.schema, doc).example ?? `your-${p.name}`)}'`).join(', ')} }`);
  if (idempotent) params.push("header: { 'idempotency-key': crypto.randomUUID() }");
  const args = [
    ...(params.length ? [`  params: { ${params.join(', ')} },`] : []),
    ...(body ? [`  body: ${body.replace(/\n/g, '\n  ')},`] : []),
  ];
  const ts = [
    `const { data, error } = await localrank.${method.toUpperCase()}('${path}'${args.length ? ', {' : ');'}`,
    ...(args.length ? [...args, '});'] : []),
    'if (error) throw new Error(`${error.status} ${error.code}: ${error.detail}`);',
  ].join('\n');
  return { curl, ts };
}

export const anchorOf = (op: Operation) => op.operationId;
