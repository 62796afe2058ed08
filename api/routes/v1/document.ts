// The OpenAPI document outside a running server: the same app answers /api/v1/openapi.json over
// a throwaway empty database (the routes need a context; the document reads none of it). Used
// by `npm run openapi:lint` and the /docs/api page at build time.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createContext } from '../../create-context.ts';
import { loadEnv } from '../../env.ts';
import { OPENAPI_PATH, v1Routes } from './app.ts';

export async function buildOpenApiDocument(): Promise<OpenApiDocument> {
  const dir = mkdtempSync(join(tmpdir(), 'localrank-openapi-'));
  try {
    const ctx = await createContext(loadEnv({ NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'silent', WORKER: 'off' }));
    try {
      const res = await v1Routes(ctx).request(OPENAPI_PATH);
      if (!res.ok) throw new Error(`the OpenAPI document could not be generated: ${await res.text()}`);
      return (await res.json()) as OpenApiDocument;
    } finally {
      ctx.db.$client.close();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export type SchemaObject = {
  type?: string | string[];
  properties?: Record<string, SchemaObject>;
  required?: string[];
  items?: SchemaObject;
  enum?: unknown[];
  anyOf?: SchemaObject[];
  $ref?: string;
  description?: string;
  example?: unknown;
  format?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  maxLength?: number;
};
export interface Operation {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  parameters?: { name: string; in: string; required?: boolean; description?: string; schema: SchemaObject }[];
  requestBody?: { content: Record<string, { schema: SchemaObject }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: SchemaObject }> }>;
}
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; description: string };
  tags: { name: string; description: string }[];
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, SchemaObject> };
  /** Each webhook event: what is POSTed to a receiver (OpenAPI 3.1). */
  webhooks: Record<string, { post: Operation }>;
}
