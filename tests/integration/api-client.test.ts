// The typed client (packages/api-client): its types are what the API document gives today, and
// it works against the server over real HTTP: a report requested, read back, a business listed,
// an error answered as problem details with its fields, the rate-limit headers at hand.
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalRankClient, type LocalRankClient } from '../../packages/api-client/src/index.ts';
import { apiClientSchema } from '../../scripts/lib/api-client-schema.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
let server: Server;
let client: LocalRankClient;

beforeAll(async () => {
  t = await createTestContext();
  server = createServer(getRequestListener(t.app.fetch));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const owner = await createUser(t.ctx, { tier: 'enterprise' });
  await seedBusiness(t.ctx, { userId: owner.userId, company: 'Client Test Dental', snapshots: [{ daysAgo: 2 }] });
  const { key } = (await call(t.app, 'POST', '/api/api-keys', { name: 'SDK', scopes: ['reports:read', 'reports:write', 'businesses:read'] }, owner.cookie)).body;
  client = createLocalRankClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, apiKey: key });
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await t.close();
});

describe('@localrank/api-client', () => {
  it('has the types the API document gives now (npm run api-client regenerates them)', async () => {
    expect(readFileSync(new URL('../../packages/api-client/src/schema.ts', import.meta.url), 'utf8')).toBe(await apiClientSchema());
  });

  it('requests a report, reads it back and lists businesses against the running server', async () => {
    const accepted = await client.POST('/reports', {
      params: { header: { 'idempotency-key': 'client-test-1' } },
      body: { fullName: 'Dana Whitfield', email: 'dana@whitfield.example', company: 'Whitfield Dental', role: 'owner', website: 'https://whitfield-dental.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
    });
    expect(accepted.response.status).toBe(202);
    expect(accepted.data).toMatchObject({ id: expect.any(String), status: 'queued' });
    const report = await client.GET('/reports/{reportId}', { params: { path: { reportId: accepted.data!.id } } });
    expect(report.data).toMatchObject({ id: accepted.data!.id, status: 'queued', result: null });
    const page = await client.GET('/businesses', { params: { query: { limit: 10 } } });
    expect(page.data!.businesses.map((b) => b.company)).toContain('Client Test Dental');
    expect(page.response.headers.get('RateLimit-Policy')).toMatch(/^"per-key";q=\d+;w=60$/);
  });

  it('answers errors as typed problem details', async () => {
    const bad = await client.POST('/reports', {
      params: { header: { 'idempotency-key': 'client-test-2' } },
      body: { fullName: 'D', email: 'not-an-email', company: 'Whitfield Dental', role: 'owner', website: 'https://whitfield-dental.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
    });
    expect(bad.data).toBeUndefined();
    expect(bad.error).toMatchObject({ status: 400, code: 'invalid_input', fields: { fullName: expect.any(String), email: 'Invalid email' } });
    const missing = await client.GET('/reports/{reportId}', { params: { path: { reportId: 'no-such-report' } } });
    expect(missing.error).toMatchObject({ status: 404, code: 'not_found' });
    const anonymous = createLocalRankClient({ baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, apiKey: 'lr_live_wrong' });
    const refused = await anonymous.GET('/businesses');
    expect(refused.response.status).toBe(401);
    expect(refused.response.headers.get('WWW-Authenticate')).toMatch(/^Bearer/);
  });
});
