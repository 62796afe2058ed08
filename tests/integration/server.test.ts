// The HTTP server as api/server.ts composes it for `npm start` and the browser tests: the method
// refusal and the report-domain host gate before anything else, and the report the gate looked up
// handed to the page, which does not look it up a second time (issue 45).
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRegistry } from '../../api/jobs/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { createHttpServer } from '../../api/server.ts';
import { REPORT_DOMAIN_NOT_FOUND, reportForPage } from '../../api/services/report-domains/host.ts';
import { brandingProfiles } from '../../db/schema/consultants.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

const DOMAIN = 'reports.northstar.example';
let t: TestContext;
let port = 0;
let server: ReturnType<typeof createHttpServer>;
let token = '';
/** SQL statements that read a report by its token, while counting. */
let tokenReads: string[] | null = null;
/** What the stand-in for Astro's page saw: the report it would show. */
let pageSaw: { state: string; businessName?: string } | null = null;

beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: 'https://app.example.com' });
  const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const profile = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing' }, agency.cookie)).body as { id: string };
  await t.ctx.db.update(brandingProfiles).set({ customDomain: DOMAIN, domainVerifiedAt: new Date() }).where(eq(brandingProfiles.id, profile.id));
  const client = (await call(t.app, 'POST', '/api/clients', { clientName: 'Dana Whitfield', clientEmail: 'dana@client.example', company: 'Whitfield Dental', website: 'https://whitfield.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' }, agency.cookie)).body as { id: string };
  const worker = createWorker(t.ctx, { registry: createRegistry({ analyse: async () => reportDataFixture({ seed: 5 }) }) });
  while (await worker.runNext());
  token = (await t.ctx.db.select({ token: reports.token }).from(reports).where(eq(reports.clientId, client.id)))[0]!.token!;

  const client$ = t.ctx.db.$client as unknown as { execute: (stmt: unknown, ...rest: unknown[]) => Promise<unknown> };
  const execute = client$.execute.bind(client$);
  client$.execute = (stmt, ...rest) => {
    const sql = typeof stmt === 'string' ? stmt : String((stmt as { sql?: string }).sql);
    const args = typeof stmt === 'string' ? rest[0] : (stmt as { args?: unknown }).args;
    if (tokenReads && /from "reports"/.test(sql) && JSON.stringify(args ?? []).includes(token)) tokenReads.push(sql);
    return execute(stmt, ...rest);
  };
  // Astro's handler, as the online report page uses the context: it asks for the report by its token.
  const page = async (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
    const found = await reportForPage(t.ctx, req.url!.split('/').pop()!);
    pageSaw = { state: found.state, businessName: found.state === 'valid' ? found.data.business.place.name : undefined };
    res.writeHead(200, { 'Content-Type': 'text/plain' }).end('page');
  };
  server = createHttpServer(t.ctx, { astro: (req, res) => void page(req, res) });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server.close();
  await t.close();
});

function get(path: string, host: string, method = 'GET'): Promise<{ status: number; body: string }> {
  return new Promise((done, fail) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => (body += chunk));
      res.on('end', () => done({ status: res.statusCode!, body }));
    });
    req.on('error', fail);
    req.end();
  });
}

describe('the composed server', () => {
  it('refuses a host that is neither ours nor a verified report domain, and a report domain\'s other paths', async () => {
    expect(await get('/', 'elsewhere.example')).toEqual({ status: 421, body: 'This host is not served here.' });
    expect(await get('/account', DOMAIN)).toEqual({ status: 404, body: REPORT_DOMAIN_NOT_FOUND });
    expect((await get('/', DOMAIN, 'TRACE')).status).toBe(405);
    expect(await get('/account', '127.0.0.1')).toEqual({ status: 200, body: 'page' });
  });

  it('hands the report the gate looked up to the page: one read of the report for the request', async () => {
    tokenReads = [];
    pageSaw = null;
    expect(await get(`/report/${token}`, DOMAIN)).toEqual({ status: 200, body: 'page' });
    const reads = tokenReads;
    tokenReads = null;
    expect(pageSaw).toMatchObject({ state: 'valid', businessName: expect.any(String) });
    expect(reads).toHaveLength(1);
  });

  it('on our own host the page reads the report itself, once', async () => {
    tokenReads = [];
    expect(await get(`/report/${token}`, '127.0.0.1')).toEqual({ status: 200, body: 'page' });
    const reads = tokenReads;
    tokenReads = null;
    expect(reads).toHaveLength(1);
  });
});
