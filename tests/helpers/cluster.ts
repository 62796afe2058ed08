// Several machines on one libSQL server, as README "Scaling out" runs them, on loopback: sqld, web
// processes (`npm start`'s script with --api-only: the same server without the site, so no build;
// WORKER=off, one AUTH_SECRET, a DATA_DIR each, TRUST_PROXY=true) behind a round-robin HTTP proxy
// whose address is their PUBLIC_BASE_URL, `npm run worker` processes (a DATA_DIR each) and an SMTP
// sink every process sends to. For tests/integration/scale-out.test.ts and `npm run bench:scale`.
// `stop()` stops every process it started, and never throws.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, createServer, request, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startSmtpServer } from './smtp.ts';
import { freePort, startSqld, type Sqld } from './sqld.ts';
import { entry } from './entries.ts';

const ROOT = resolve(import.meta.dirname, '../..');
export const CLUSTER_AUTH_SECRET = 'one-secret-for-every-machine-0123456789abcdef';

/** A process of ours: its last output lines, and stop (SIGTERM, then SIGKILL after 10 s). */
export interface Proc {
  name: string;
  child: ChildProcess;
  dataDir: string;
  env: Record<string, string>;
  output: () => string;
  stop: () => Promise<void>;
}

export interface Web extends Proc {
  port: number;
  url: string;
}

/** Only what a process needs from ours: nothing of the test run's own settings leaks in. */
function baseEnv(): Record<string, string> {
  const keep = ['PATH', 'HOME', 'TMPDIR', 'LANG', 'ASTRO_TELEMETRY_DISABLED'];
  return Object.fromEntries(keep.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!]));
}

async function exited(child: ChildProcess, ms: number): Promise<boolean> {
  if (child.exitCode !== null || child.signalCode !== null) return true;
  return Promise.race([new Promise<boolean>((r) => child.once('exit', () => r(true))), new Promise<boolean>((r) => setTimeout(() => r(false), ms))]);
}

/** Starts `node <args>` with `env` (as `user` when given) and waits for a line containing `ready` on its standard output. */
export async function startProcess(name: string, args: string[], env: Record<string, string>, ready: string, options: { keepDataDir?: boolean; user?: { uid: number; gid: number } } = {}): Promise<Proc> {
  const child = spawn(process.execPath, [entry(args[0]!), ...args.slice(1)], { cwd: ROOT, env: { ...baseEnv(), ...env }, stdio: ['ignore', 'pipe', 'pipe'], ...options.user });
  let output = '';
  const note = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8000));
  child.stderr!.on('data', note);
  const proc: Proc = {
    name,
    child,
    dataDir: env.DATA_DIR!,
    env,
    output: () => output,
    stop: async () => {
      if (!(await exited(child, 0))) {
        child.kill('SIGTERM');
        if (!(await exited(child, 10_000))) child.kill('SIGKILL');
        await exited(child, 5_000);
      }
      if (!options.keepDataDir) rmSync(env.DATA_DIR!, { recursive: true, force: true });
    },
  };
  try {
    await new Promise<void>((done, fail) => {
      const timer = setTimeout(() => fail(new Error(`${name} did not start in 120 s:\n${output}`)), 120_000);
      child.stdout!.on('data', (chunk: Buffer) => {
        note(chunk);
        if (output.includes(ready)) {
          clearTimeout(timer);
          done();
        }
      });
      child.once('exit', (code, signal) => {
        clearTimeout(timer);
        fail(new Error(`${name} exited (${code ?? signal}) before it was ready:\n${output}`));
      });
    });
  } catch (error) {
    await proc.stop();
    throw error;
  }
  return proc;
}

/** `npm start`'s script, without the site (--api-only), on a free port. */
export async function startWeb(name: string, env: Record<string, string>, options: { port?: number; keepDataDir?: boolean; user?: { uid: number; gid: number } } = {}): Promise<Web> {
  const port = options.port ?? (await freePort());
  const proc = await startProcess(name, ['scripts/start.ts', '--api-only'], { HOST: '127.0.0.1', ...env, PORT: String(port) }, 'is serving on', options);
  return { ...proc, port, url: `http://127.0.0.1:${port}` };
}

/** `npm run worker`'s script. */
export function startWorkerProcess(name: string, env: Record<string, string>): Promise<Proc> {
  return startProcess(name, ['scripts/worker.ts'], env, 'worker running');
}

export interface Proxy {
  url: string;
  /** How many requests each upstream was sent. */
  sent: Map<string, number>;
  /** The upstream the next request goes to is `name` (as if the rotation had come round to it). */
  turnTo: (name: string) => void;
  close: () => Promise<void>;
}

/**
 * A load balancer as small as it gets: each request goes to the next upstream in turn, with the
 * client's address appended to X-Forwarded-For (the entry TRUST_PROXY=true reads) and the name of
 * the upstream that answered in `x-upstream`.
 */
export async function startProxy(upstreams: Array<{ name: string; port: number }>, port?: number): Promise<Proxy> {
  let turn = 0;
  const sent = new Map<string, number>();
  const agent = new Agent({ keepAlive: true, maxSockets: 256 });
  const server: Server = createServer((req, res) => {
    const upstream = upstreams[turn++ % upstreams.length]!;
    sent.set(upstream.name, (sent.get(upstream.name) ?? 0) + 1);
    const forwardedFor = [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');
    const forward = request(
      { host: '127.0.0.1', port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, 'x-forwarded-for': forwardedFor }, agent },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-upstream': upstream.name });
        answer.pipe(res);
      },
    );
    forward.on('error', (error) => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain', 'x-upstream': upstream.name });
      res.end(`proxy: ${upstream.name}: ${error.message}`);
    });
    req.pipe(forward);
  });
  const listening = port ?? (await freePort());
  await new Promise<void>((done, fail) => server.once('error', fail).listen(listening, '127.0.0.1', done));
  return {
    url: `http://127.0.0.1:${listening}`,
    sent,
    turnTo: (name) => {
      const i = upstreams.findIndex((u) => u.name === name);
      if (i < 0) throw new Error(`no upstream ${name}`);
      turn = i;
    },
    close: () =>
      new Promise<void>((done) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}

export interface ClusterOptions {
  webs?: number;
  workers?: number;
  /** Settings every process gets (on top of the cluster's own). */
  env?: Record<string, string>;
  /** sqld's admin API (its /metrics counters) on a port of its own. */
  adminApi?: boolean;
  /** sqld refuses calls without a token; every process gets it (README "Scaling out"). */
  auth?: boolean;
  /** Settings of one process of the cluster only, by its name ('web a', 'worker 1', …). */
  envOf?: (name: string) => Record<string, string>;
}

export interface Cluster {
  sqld: Sqld;
  /** sqld's admin API, when asked for. */
  adminUrl?: string;
  smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  webs: Web[];
  workers: Proc[];
  proxy: Proxy;
  /** The settings of a process of this cluster with a DATA_DIR of its own (the admin CLI, the test's reads). */
  envFor: (dataDir: string) => Record<string, string>;
  /** Starts a web process again on its port and DATA_DIR (its sweep of cached files runs at start). */
  restartWeb: (i: number) => Promise<void>;
  stop: () => Promise<void>;
}

const tempDir = (name: string) => mkdtempSync(join(tmpdir(), `localrank-${name}-`));

/**
 * sqld, `webs` web processes behind the proxy and `workers` worker processes, all sending mail to
 * one sink. The database is migrated by `migrate` first (the caller's own connection), so the
 * processes do not all migrate a fresh database at once.
 */
export async function startCluster(migrate: (env: Record<string, string>) => Promise<void>, options: ClusterOptions = {}): Promise<Cluster> {
  const stoppers: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    for (const stop of stoppers.reverse()) await stop().catch(() => {});
    stoppers.length = 0;
  };
  try {
    const adminPort = options.adminApi ? await freePort() : undefined;
    const sqld = await startSqld(adminPort ? ['--admin-listen-addr', `127.0.0.1:${adminPort}`] : [], undefined, { auth: options.auth });
    stoppers.push(() => sqld.stop());
    const smtp = await startSmtpServer();
    stoppers.push(() => smtp.close());
    // The address users reach (links in e-mails) is the proxy's: its port is chosen first.
    const proxyPort = await freePort();
    const envFor = (dataDir: string): Record<string, string> => ({
      NODE_ENV: 'production',
      PLACES_PROVIDER: 'sample',
      LOG_LEVEL: 'warn',
      DATABASE_URL: sqld.url,
      ...(sqld.authToken ? { DATABASE_AUTH_TOKEN: sqld.authToken } : {}),
      AUTH_SECRET: CLUSTER_AUTH_SECRET,
      SMTP_URL: smtp.url,
      PUBLIC_BASE_URL: `http://127.0.0.1:${proxyPort}`,
      ...options.env,
      DATA_DIR: dataDir,
    });
    const own = tempDir('migrate');
    stoppers.push(async () => rmSync(own, { recursive: true, force: true }));
    await migrate(envFor(own));
    const webEnv = (name: string): Record<string, string> => ({ ...envFor(tempDir('web')), WORKER: 'off', TRUST_PROXY: 'true', ...options.envOf?.(name) });
    const webs: Web[] = [];
    const workers: Proc[] = [];
    stoppers.push(() => Promise.all(webs.map((w) => w.stop())));
    stoppers.push(() => Promise.all(workers.map((w) => w.stop())));
    const names = 'abcdefgh';
    // Every start is waited for, failed or not, so none is left running when another fails.
    const started = await Promise.allSettled([
      ...Array.from({ length: options.webs ?? 2 }, async (_, i) => void webs.push(await startWeb(`web ${names[i]}`, webEnv(`web ${names[i]}`)))),
      ...Array.from({ length: options.workers ?? 2 }, async (_, i) => void workers.push(await startWorkerProcess(`worker ${i + 1}`, { ...envFor(tempDir('worker')), ...options.envOf?.(`worker ${i + 1}`) }))),
    ]);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw failed.reason;
    webs.sort((x, y) => x.name.localeCompare(y.name));
    workers.sort((x, y) => x.name.localeCompare(y.name));
    const proxy = await startProxy(webs.map((w) => ({ name: w.name, port: w.port })), proxyPort);
    stoppers.push(() => proxy.close());
    return {
      sqld,
      adminUrl: adminPort ? `http://127.0.0.1:${adminPort}` : undefined,
      smtp,
      webs,
      workers,
      proxy,
      envFor,
      restartWeb: async (i) => {
        const old = webs[i]!;
        if (!(await exited(old.child, 0))) {
          old.child.kill('SIGTERM');
          if (!(await exited(old.child, 10_000))) old.child.kill('SIGKILL');
        }
        webs[i] = await startWeb(old.name, old.env, { port: old.port });
      },
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/** Polls `check` every `everyMs` until it returns a value other than undefined/false; fails after `ms`. */
export async function until<T>(what: string, check: () => Promise<T | undefined | false> | T | undefined | false, ms = 60_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
