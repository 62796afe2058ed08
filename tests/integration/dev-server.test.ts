// `npm run dev` as a developer runs it: a bad setting stops it, named, and a report request made
// against it gets its e-mail (the job worker runs in the dev process, as with `npm start`).
import { spawn, type ChildProcess } from 'node:child_process';
import { request } from 'node:http';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import { createContext } from '../../api/create-context.ts';
import { loadEnv } from '../../api/env.ts';
import { REPORT_DOMAIN_NOT_FOUND } from '../../api/services/report-domains/host.ts';
import { brandingProfiles } from '../../db/schema/consultants.ts';
import { reports } from '../../db/schema/reports.ts';
import { call } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'localrank-dev-'));
let child: ChildProcess | undefined;
let port = 0;

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child!.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  rmSync(dataDir, { recursive: true, force: true });
});

function devEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn', ASTRO_TELEMETRY_DISABLED: '1', ...extra };
  for (const name of ['DATABASE_URL', 'SMTP_URL', 'PUBLIC_BASE_URL', 'WORKER', 'NODE_ENV', 'PLACES_PROVIDER']) if (!(name in extra)) delete env[name];
  // Under VITEST, Astro's dev server serves no routes: run it as a developer's shell would.
  for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name];
  return env;
}

function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
    server.on('error', fail);
  });
}

async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, ms: number): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('npm run dev', () => {
  it('stops at start-up naming a bad setting', async () => {
    const bad = spawn(process.execPath, ['scripts/dev.ts'], { env: devEnv({ LOG_LEVEL: 'loud' }) });
    let err = '';
    bad.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const hung = setTimeout(() => bad.kill('SIGKILL'), 120_000);
    const code = await new Promise((done) => bad.on('close', done));
    clearTimeout(hung);
    expect(code).toBe(1);
    expect(err).toContain('Invalid settings:');
    expect(err).toContain('LOG_LEVEL:');
  }, 180_000);

  it('runs the job worker: a report request made against it lands in the outbox', async () => {
    port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['scripts/dev.ts'], { env: devEnv({ PORT: String(port) }), stdio: ['ignore', 'ignore', 'inherit'] });
    await waitFor(() => fetch(`${base}/api/health`).then((r) => (r.ok ? true : undefined), () => undefined), 180_000);

    const res = await fetch(`${base}/api/submit-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ fullName: 'Dev Test', email: 'dev@example.com', company: 'Dev Bakery', role: 'owner', website: 'https://dev.example', address: '1 Main St', city: 'Dallas', state: 'TX', zip: '75201', consent: true }),
    });
    expect(res.status).toBe(202);
    const outbox = join(dataDir, 'outbox');
    const mail = await waitFor(() => (existsSync(outbox) ? readdirSync(outbox).find((f) => f.includes('-report-')) : undefined), 120_000);
    expect(mail).toMatch(/\.eml$/);
  }, 300_000);

  it('answers a report domain\'s host as the production server does (api/server.ts\'s gate)', async () => {
    expect(child?.exitCode).toBe(null);
    const get = (path: string, host: string) =>
      new Promise<{ status: number; body: string }>((done, fail) => {
        const req = request({ host: '127.0.0.1', port, path, headers: { host } }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => done({ status: res.statusCode!, body }));
        });
        req.on('error', fail);
        req.end();
      });
    // An agency with a verified report domain and a client report, in the dev server's database.
    const ctx = await createContext(loadEnv({ DATA_DIR: dataDir, LOG_LEVEL: 'silent', NODE_ENV: 'test', WORKER: 'off' }), { migrate: false });
    try {
      const agency = await createUser(ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
      const app = createApp(ctx);
      const profile = (await call(app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing' }, agency.cookie)).body as { id: string };
      await ctx.db.update(brandingProfiles).set({ customDomain: 'reports.northstar.example', domainVerifiedAt: new Date() }).where(eq(brandingProfiles.id, profile.id));
      const client = (await call(app, 'POST', '/api/clients', { clientName: 'Dana Whitfield', clientEmail: 'dana@client.example', company: 'Whitfield Dental', website: 'https://whitfield.example', address: '100 Congress Ave', city: 'Dallas', state: 'TX', zip: '75201' }, agency.cookie)).body as { id: string };

      expect(await get('/', 'elsewhere.example')).toEqual({ status: 421, body: 'This host is not served here.' });
      expect(await get('/account', 'reports.northstar.example')).toEqual({ status: 404, body: REPORT_DOMAIN_NOT_FOUND });
      expect((await get('/faq', `127.0.0.1:${port}`)).status).toBe(200);

      // The dev process's worker makes the client's report; the domain serves it.
      const token = await waitFor(async () => (await ctx.db.select({ token: reports.token, data: reports.data }).from(reports).where(eq(reports.clientId, client.id))).find((r) => r.data)?.token ?? undefined, 180_000);
      const page = await get(`/report/${token}`, 'reports.northstar.example');
      expect(page.status).toBe(200);
      expect(page.body).toContain('Whitfield Dental');
      expect(page.body).toContain('Northstar Marketing');
    } finally {
      ctx.db.$client.close();
    }
  }, 300_000);
});
