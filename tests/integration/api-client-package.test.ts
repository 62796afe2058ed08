// The typed client is one command away (issue 39): the tarball the site serves installs with
// `npm install <url>` into an empty project (no other package fetched: openapi-fetch is bundled),
// an example compiles under tsc --strict (exactOptionalPropertyTypes, noUncheckedIndexedAccess)
// as an ES module, `require` loads it too, and its verifyWebhook accepts a delivery signed as the
// product signs (Standard Webhooks, two secrets during a rotation) and refuses a tampered one.
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_CLIENT_BASE_PATH, API_CLIENT_FILE, packApiClient } from '../../scripts/lib/api-client-package.ts';

const TSC = resolve(import.meta.dirname, '../../node_modules/typescript/bin/tsc');
let server: Server;
let project: string;
let url: string;

beforeAll(async () => {
  const tarball = await packApiClient();
  server = createServer((req, res) => {
    if (req.url !== `${API_CLIENT_BASE_PATH}${API_CLIENT_FILE}`) return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/gzip', 'content-length': tarball.length }).end(tarball);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${API_CLIENT_BASE_PATH}${API_CLIENT_FILE}`;
  project = mkdtempSync(join(tmpdir(), 'api-client-customer-'));
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'customer', version: '1.0.0', private: true, type: 'module' }));
  // Asynchronously: the server answering npm is in this process.
  await promisify(execFile)('npm', ['install', url, '--no-audit', '--no-fund', '--ignore-scripts', '--fetch-retries=0'], { cwd: project, timeout: 120_000 });
}, 180_000);
afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()));
  rmSync(project, { recursive: true, force: true });
});

describe('@localrank/api-client from its URL', () => {
  it('installs with npm install <url> into an empty project, with nothing else to fetch', () => {
    const lock = JSON.parse(execFileSync('cat', [join(project, 'package-lock.json')]).toString()) as { packages: Record<string, unknown> };
    expect(Object.keys(lock.packages).sort()).toEqual(['', 'node_modules/@localrank/api-client']);
  });

  it('compiles an example under tsc --strict with the payload types and the verifying helper', () => {
    writeFileSync(
      join(project, 'example.ts'),
      `import { createLocalRankClient, verifyWebhook, type WebhookEvents, type Problem } from '@localrank/api-client';

const localrank = createLocalRankClient({ baseUrl: 'https://app.localrank.example', apiKey: 'lr_live_x' });
export async function run(): Promise<string | undefined> {
  const { data, error } = await localrank.POST('/reports', {
    params: { header: { 'idempotency-key': 'one' } },
    body: { fullName: 'Dana Whitfield', email: 'dana@whitfield.example', company: 'Whitfield Dental', role: 'owner', website: 'https://whitfield.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' },
  });
  if (error) return (error as Problem).code;
  const page = await localrank.GET('/businesses', { params: { query: { limit: 5 } } });
  return \`\${data.id} \${page.data?.businesses[0]?.company ?? ''}\`;
}
export async function onWebhook(body: string, headers: Headers): Promise<number | null> {
  const event = await verifyWebhook('whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', body, headers);
  if (event.type === 'alert.created') return event.data.reviewRating;
  if (event.type === 'report.completed') { const done: WebhookEvents['report.completed'] = event; return done.data.reportId.length; }
  return null;
}
`,
    );
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, exactOptionalPropertyTypes: true, noUncheckedIndexedAccess: true, noEmit: true, lib: ['ES2022', 'DOM'], types: [] }, files: ['example.ts'] }),
    );
    expect(() => execFileSync(process.execPath, [TSC, '-p', 'tsconfig.json'], { cwd: project, stdio: 'pipe' })).not.toThrow();
  });

  it('loads as an ES module and with require', () => {
    const esm = execFileSync(process.execPath, ['--input-type=module', '-e', "import * as m from '@localrank/api-client'; console.log(typeof m.createLocalRankClient, typeof m.verifyWebhook)"], { cwd: project }).toString().trim();
    const cjs = execFileSync(process.execPath, ['-e', "const m = require('@localrank/api-client'); console.log(typeof m.createLocalRankClient, typeof m.verifyWebhook)"], { cwd: project }).toString().trim();
    expect(esm).toBe('function function');
    expect(cjs).toBe('function function');
  });

  it('verifyWebhook accepts a delivery signed as the product signs it, with either secret during a rotation, and refuses a tampered one', async () => {
    const installed = (await import(pathToFileURL(join(project, 'node_modules/@localrank/api-client/dist/index.js')).href)) as typeof import('../../packages/api-client/src/index.ts');
    const [oldSecret, newSecret] = ['whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', 'whsec_C2FVsBQIhrscChlQIMV+b5sSYspob7oD'];
    const body = JSON.stringify({ type: 'report.completed', timestamp: new Date().toISOString(), data: { reportId: 'r1', businessId: 'b1', status: 'completed' } });
    const now = new Date();
    const headers = new Headers({
      'webhook-id': 'msg_1',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': [newSecret, oldSecret].map((s) => new Webhook(s).sign('msg_1', now, body)).join(' '),
    });
    for (const secret of [oldSecret, newSecret]) expect(await installed.verifyWebhook(secret, body, headers)).toMatchObject({ type: 'report.completed', data: { reportId: 'r1' } });
    await expect(installed.verifyWebhook(oldSecret, body.replace('r1', 'r2'), headers)).rejects.toThrow('No signature matches');
    await expect(installed.verifyWebhook('whsec_' + Buffer.from('another secret of 24 by').toString('base64'), body, headers)).rejects.toThrow();
    const stale = new Headers(headers);
    stale.set('webhook-timestamp', String(Math.floor(now.getTime() / 1000) - 3600));
    await expect(installed.verifyWebhook(oldSecret, body, stale)).rejects.toThrow('timestamp');
  });
});
