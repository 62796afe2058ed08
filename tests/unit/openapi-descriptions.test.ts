// Every field of every request and answer body, and every parameter, of the public API's OpenAPI
// document has a description (issue 26): /docs/api shows them, and client generators copy them.
import { expect, it } from 'vitest';
import { buildOpenApiDocument, type OpenApiDocument, type SchemaObject } from '../../api/routes/v1/document.ts';

function undescribed(doc: OpenApiDocument): string[] {
  const missing: string[] = [];
  const seen = new Set<string>();
  const named = (ref: string) => ref.replace('#/components/schemas/', '');
  const walk = (schema: SchemaObject | undefined, where: string): void => {
    if (!schema) return;
    if (schema.$ref) {
      const name = named(schema.$ref);
      if (seen.has(name)) return;
      seen.add(name);
      return walk(doc.components.schemas[name], name);
    }
    for (const [key, property] of Object.entries(schema.properties ?? {})) {
      const target = property.$ref ? doc.components.schemas[named(property.$ref)] : property;
      if (!property.description && !target?.description) missing.push(`${where}.${key}`);
      walk(property, `${where}.${key}`);
    }
    if (schema.items) walk(schema.items, `${where}[]`);
    for (const alternative of schema.anyOf ?? []) walk(alternative, where);
  };
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      if (!op) continue;
      walk(op.requestBody?.content['application/json']?.schema, `${method} ${path} body`);
      for (const [status, answer] of Object.entries(op.responses)) for (const media of Object.values(answer.content ?? {})) walk(media.schema, `${method} ${path} ${status}`);
      for (const p of op.parameters ?? []) if (!p.description && !p.schema?.description) missing.push(`${method} ${path} parameter ${p.name}`);
    }
  }
  return missing;
}

it('describes every request and answer field and every parameter', async () => {
  const doc = await buildOpenApiDocument();
  expect(Object.keys(doc.paths).length).toBeGreaterThan(5);
  expect(undescribed(doc)).toEqual([]);
});
