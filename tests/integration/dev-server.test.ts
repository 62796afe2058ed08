// `npm run dev` as a developer runs it: a bad setting stops it, named, and a report request made
// against it gets its e-mail (the job worker runs in the dev process, as with `npm start`).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const dataDir = mkdtempSync(join(tmpdir(), 'localrank-dev-'));
let child: ChildProcess | undefined;

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
    const hung = setTimeout(() => bad.kill('SIGKILL'), 15_000);
    const code = await new Promise((done) => bad.on('close', done));
    clearTimeout(hung);
    expect(code).toBe(1);
    expect(err).toContain('Invalid settings:');
    expect(err).toContain('LOG_LEVEL:');
  });

  it('runs the job worker: a report request made against it lands in the outbox', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    child = spawn(process.execPath, ['scripts/dev.ts'], { env: devEnv({ PORT: String(port) }), stdio: ['ignore', 'ignore', 'inherit'] });
    await waitFor(() => fetch(`${base}/api/health`).then((r) => (r.ok ? true : undefined), () => undefined), 30_000);

    const res = await fetch(`${base}/api/submit-request`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ fullName: 'Dev Test', email: 'dev@example.com', company: 'Dev Bakery', role: 'owner', website: 'https://dev.example', address: '1 Main St', city: 'Dallas', state: 'TX', zip: '75201', consent: true }),
    });
    expect(res.status).toBe(202);
    const outbox = join(dataDir, 'outbox');
    const mail = await waitFor(() => (existsSync(outbox) ? readdirSync(outbox).find((f) => f.includes('-report-')) : undefined), 30_000);
    expect(mail).toMatch(/\.eml$/);
  }, 90_000);
});
