// A fresh server for a benchmark: a free port, an empty data folder and `scripts/start.ts` with
// the given settings. `stop()` ends it and removes the folder.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');

export function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => done(port));
    });
    probe.on('error', fail);
  });
}

export async function startBenchServer(settings: Record<string, string>) {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'localrank-bench-'));
  const env = { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...settings };
  const server = spawn(process.execPath, ['scripts/start.ts'], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  await new Promise<void>((ready, fail) => {
    server.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('serving on') && ready());
    server.on('exit', (code) => fail(new Error(`server exited with ${code}`)));
  });
  return {
    port,
    env,
    pid: server.pid!,
    async stop() {
      server.kill('SIGTERM');
      if (server.exitCode === null) await new Promise((done) => server.on('exit', done));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
