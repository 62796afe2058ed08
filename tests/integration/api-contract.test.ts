// The OpenAPI document is the contract: requests generated from it (fast-check, from the JSON
// Schemas of its parameters and bodies, not from the route definitions) are never refused as bad
// input (400) and never fail (5xx), and every answer is one the document describes. Prints the
// number of requests and the failures by kind.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiScope } from '../../common/schemas/api-keys.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';
import { expectDocumented, type OpenApiDocument } from '../helpers/openapi.ts';

type Schema = Record<string, unknown> & { type?: string | string[]; $ref?: string };
type Parameter = { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema: Schema };
type Operation = { parameters?: Parameter[]; requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> }; responses: Record<string, unknown> };

const RUNS_PER_OPERATION = 40;
const ALL: ApiScope[] = ['reports:read', 'reports:write', 'businesses:read', 'alerts:read', 'alerts:write', 'clients:read', 'clients:write', 'webhooks:write'];

let t: TestContext;
let doc: OpenApiDocument;
let key: string;
/** Ids of the caller's own objects: a path parameter is one of them or any string the document allows. */
const own: Record<string, string[]> = {};
/** Parameters only the server makes (its `nextCursor`): one it gave out for that operation, or none. */
const SERVER_MADE = new Set(['cursor']);
const issued: Record<string, string[]> = {};

beforeAll(async () => {
  t = await createTestContext({ API_RATE_LIMIT_AGENCY: '1000000' });
  doc = (await call(t.app, 'GET', '/api/v1/openapi.json')).body;
  const user = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
  key = (await call(t.app, 'POST', '/api/api-keys', { name: 'Contract', scopes: ALL }, user.cookie)).body.key;
  const { business } = await seedBusiness(t.ctx, { userId: user.userId, snapshots: [{ daysAgo: 3 }] });
  await seedBusiness(t.ctx, { userId: user.userId, company: 'Second Shop' });
  own.businessId = [business.id];
  const firstPage = await t.app.request('/api/v1/businesses?limit=1', { headers: { authorization: `Bearer ${key}` } });
  issued['get /businesses cursor'] = [((await firstPage.json()) as { nextCursor: string }).nextCursor];
});
afterAll(() => t.close());

const deref = (schema: Schema): Schema => (schema.$ref ? deref((doc.components.schemas as Record<string, Schema>)[schema.$ref.replace('#/components/schemas/', '')]!) : schema);

/** fast-check's regex generator has no lookarounds: generate without them, keep what matches the real pattern. */
const withoutLookarounds = (pattern: string) => pattern.replace(/\(\?<?[!=](?:[^()\\]|\\.|\((?:[^()\\]|\\.)*\))*\)/g, '');

/** Any value the JSON Schema allows (the subset the document uses). */
export function arbitraryOf(input: Schema): fc.Arbitrary<unknown> {
  const schema = deref(input);
  if (Array.isArray(schema.anyOf)) return fc.oneof(...(schema.anyOf as Schema[]).map(arbitraryOf));
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.length > 1) return fc.oneof(...types.map((type) => arbitraryOf({ ...schema, type })));
  const n = (k: string) => (typeof schema[k] === 'number' ? (schema[k] as number) : undefined);
  switch (types[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
      return fc.integer({ min: n('minimum') ?? -1e6, max: n('maximum') ?? 1e6 });
    case 'number': {
      const step = n('multipleOf');
      const min = n('minimum') ?? -1e6;
      const max = n('maximum') ?? 1e6;
      if (step) return fc.integer({ min: Math.ceil(min / step), max: Math.floor(max / step) }).map((k) => k * step);
      return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
    }
    case 'array':
      return fc.array(arbitraryOf(schema.items as Schema), { minLength: n('minItems') ?? 0, maxLength: Math.min(n('maxItems') ?? 4, 4) });
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return fc.record(Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, arbitraryOf(v)])), { requiredKeys: (schema.required as string[] | undefined) ?? [] });
    }
    case 'string': {
      const minLength = n('minLength') ?? 0;
      const maxLength = n('maxLength') ?? 300;
      // JSON Schema counts characters (code points).
      const fits = (s: string) => [...s].length >= minLength && [...s].length <= maxLength;
      if (schema.format === 'uuid') return fc.uuid();
      if (schema.format === 'date-time') return fc.date({ min: new Date('1971-01-01'), max: new Date('2100-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
      if (typeof schema.pattern === 'string') {
        const pattern = new RegExp(schema.pattern, 'u');
        return fc.stringMatching(new RegExp(withoutLookarounds(schema.pattern), 'u')).filter((s) => pattern.test(s) && fits(s));
      }
      return fc.string({ unit: 'binary', minLength, maxLength: Math.min(maxLength, 120) }).filter(fits);
    }
    default:
      return fc.anything();
  }
}

interface Generated {
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body?: unknown;
}

function requestsFor(method: string, template: string, operation: Operation): fc.Arbitrary<Generated> {
  const params = operation.parameters ?? [];
  const value = (p: Parameter): fc.Arbitrary<unknown> => {
    if (SERVER_MADE.has(p.name)) {
      const made = issued[`${method} ${template} ${p.name}`];
      return made ? fc.constantFrom(...made) : fc.constant(undefined);
    }
    const any = arbitraryOf(p.schema).map(String);
    return p.in === 'path' && own[p.name] ? fc.oneof(fc.constantFrom(...own[p.name]!), any) : any;
  };
  const optional = (p: Parameter) => (p.required ? value(p) : fc.option(value(p), { nil: undefined }));
  const body = operation.requestBody?.content['application/json']?.schema;
  return fc.record({
    values: fc.tuple(...params.map(optional)),
    body: body ? arbitraryOf(body) : fc.constant(undefined),
  }).map(({ values, body: b }) => {
    const out: Generated = { path: template, query: {}, headers: {}, body: b };
    params.forEach((p, i) => {
      const v = values[i];
      if (v === undefined) return;
      if (p.in === 'path') out.path = out.path.replace(`{${p.name}}`, encodeURIComponent(v as string));
      else if (p.in === 'query') out.query[p.name] = v as string;
      else out.headers[p.name] = v as string;
    });
    return out;
  });
}

describe('requests generated from the document', () => {
  it('are never refused as bad input, never answered 5xx, and every answer is documented', async () => {
    const failures = new Map<string, string[]>();
    const statuses = new Map<string, number>();
    let requests = 0;
    const fail = (kind: string, what: string) => failures.set(kind, [...(failures.get(kind) ?? []), what]);
    for (const [template, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations as unknown as Record<string, Operation>)) {
        const samples = fc.sample(requestsFor(method, template, operation), { numRuns: RUNS_PER_OPERATION, seed: 29 });
        for (const req of samples) {
          requests += 1;
          const query = new URLSearchParams(req.query).toString();
          const url = `/api/v1${req.path}${query ? `?${query}` : ''}`;
          const res = await t.app.request(url, {
            method: method.toUpperCase(),
            headers: { authorization: `Bearer ${key}`, ...req.headers, ...(req.body === undefined ? {} : { 'content-type': 'application/json' }) },
            body: req.body === undefined ? undefined : JSON.stringify(req.body),
          });
          const text = await res.text();
          const label = `${method.toUpperCase()} ${template}`;
          statuses.set(`${label} ${res.status}`, (statuses.get(`${label} ${res.status}`) ?? 0) + 1);
          const sample = `${label} ${JSON.stringify({ ...req, path: undefined }).slice(0, 300)} → ${res.status} ${text.slice(0, 300)}`;
          if (res.status >= 500) fail('5xx', sample);
          else if (res.status === 400) fail('valid request refused (400)', sample);
          else {
            try {
              expectDocumented(doc, method, url, { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null });
            } catch (error) {
              fail('answer not as documented', `${sample}: ${(error as Error).message.split('\n')[0]}`);
            }
          }
        }
      }
    }
    console.log(
      [
        `${requests} requests generated from the document (${RUNS_PER_OPERATION} per operation)`,
        ...[...statuses].sort().map(([k, v]) => `  ${k}: ${v}`),
        `failures by kind: ${failures.size ? [...failures].map(([k, v]) => `${k} ${v.length}`).join(', ') : 'none'}`,
        ...[...failures].flatMap(([k, v]) => v.filter((s) => !s.startsWith('GET /businesses ')).slice(0, 8).map((s) => `  [${k}] ${s}`)),
      ].join('\n'),
    );
    expect(Object.fromEntries([...failures].map(([k, v]) => [k, v.length]))).toEqual({});
  }, 240_000);

  it('POST /webhooks with a url that is not a URL answers 400 with the field, never 500', async () => {
    for (const url of ['', 'a', '../../etc/passwd', 'http://', '//example.com', 'ftp://example.com/x', 'https://exa mple.com', 'javascript:alert(1)']) {
      const res = await t.app.request('/api/v1/webhooks', {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ url, events: ['report.completed'] }),
      });
      expect(res.status, url).toBe(400);
      expect(((await res.json()) as { fields: Record<string, string> }).fields.url, url).toBeTruthy();
    }
  });

  it('answers 401 with WWW-Authenticate: Bearer', async () => {
    const res = await t.app.request('/api/v1/businesses');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
  });
});
