// Several machines on one libSQL server (issue 35; ARCHITECTURE "Wave 4"), as README "Scaling out"
// runs them: sqld, two web processes (`npm start`'s script, WORKER=off, one AUTH_SECRET, a DATA_DIR
// each) behind a round-robin proxy, two `npm run worker` processes, an SMTP sink. Every check goes
// through the proxy, and each names the machine it lands on: a session made on one is known to the
// other and ended by a sign-out there; 24 reports asked for at once are all accepted and each
// e-mailed once; an account is closed; an export and a logo made through one are served by the
// other; an erasure reaches every process's disk within a minute; a worker killed mid-report leaves it
// to the other, which sends it once. It waits on outcomes with generous limits, never on time.
// The web processes are `npm start`'s script with --api-only (the same server, no site to build).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, inArray } from 'drizzle-orm';
import { strFromU8, unzipSync } from 'fflate';
import sharp from 'sharp';
import type { AppContext } from '../../api/context.ts';
import { createContext } from '../../api/create-context.ts';
import { loadEnv } from '../../api/env.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { runScript } from '../helpers/admin.ts';
import { ON_SQLD } from '../helpers/context.ts';
import { startCluster, until, type Cluster } from '../helpers/cluster.ts';
import { uniqueEmail } from '../helpers/factories.ts';
import { validForm } from '../helpers/report-requests.ts';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';

let cluster: Cluster | undefined;
let ctx: AppContext | undefined;
/** The operator's machine, where the admin CLI runs: a DATA_DIR of its own. */
let opsDir = '';
const A = 'web a';
const B = 'web b';
const PASSWORD = 'correct-horse-battery-staple';
const TEST_MS = 120_000;

beforeAll(async () => {
  if (ON_SQLD) return;
  opsDir = mkdtempSync(join(tmpdir(), 'localrank-ops-'));
  cluster = await startCluster(
    async (env) => {
      ctx = await createContext(loadEnv({ ...env, LOG_LEVEL: 'silent' }), { migrate: true });
    },
    // Every request reaches the product from the proxy's address, 127.0.0.1.
    // sqld with a key, as README "Scaling out" sets it up: every process sends the token.
    { auth: true, env: { INTAKE_RATE_LIMIT_PER_IP: '100000', SIGNUP_RATE_LIMIT_PER_IP: '100000', POW_AFTER_PER_NETWORK: '100000', POW_AFTER_PER_DOMAIN: '100000' } },
  );
}, 180_000);

afterAll(async () => {
  ctx?.db.$client.close();
  await cluster?.stop();
  if (opsDir) rmSync(opsDir, { recursive: true, force: true });
}, 60_000);

/** On a failure, what the processes said. */
function tellOnFailure() {
  onTestFailed(() => {
    for (const p of [...(cluster?.webs ?? []), ...(cluster?.workers ?? [])]) console.error(`--- ${p.name}:\n${p.output() || '(nothing)'}`);
  });
}

const c = () => cluster!;
const db = () => ctx!.db;

/** A browser's cookies, as far as these checks need them. */
class Jar {
  private cookies = new Map<string, string>();
  header = () => [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  take(headers: Headers) {
    for (const line of headers.getSetCookie()) {
      const [pair = '', ...attributes] = line.split(';');
      const i = pair.indexOf('=');
      const name = pair.slice(0, i).trim();
      const value = pair.slice(i + 1).trim();
      const gone = !value || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a));
      if (gone) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }
}

type Answer = { status: number; upstream: string; headers: Headers; bytes: Buffer; json: () => Record<string, unknown> };

/** A request through the proxy; `on` turns its rotation to that machine first. */
async function call(method: string, path: string, options: { body?: unknown; raw?: Buffer; type?: string; jar?: Jar; cookie?: string; on?: string } = {}): Promise<Answer> {
  if (options.on) c().proxy.turnTo(options.on);
  const headers: Record<string, string> = {};
  const cookie = options.cookie ?? options.jar?.header();
  if (cookie) headers.cookie = cookie;
  let body: BodyInit | undefined;
  if (options.raw) {
    headers['content-type'] = options.type ?? 'application/octet-stream';
    body = new Uint8Array(options.raw);
  } else if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(options.body);
  }
  const res = await fetch(`${c().proxy.url}${path}`, { method, headers, body });
  options.jar?.take(res.headers);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, upstream: res.headers.get('x-upstream') ?? '', headers: res.headers, bytes, json: () => JSON.parse(bytes.toString('utf8')) as Record<string, unknown> };
}

const mailsTo = (address: string) => c().smtp.received.filter((m) => m.envelope.to.includes(address.toLowerCase()));

/** The path and query of the first link to `path` in the latest e-mail to `address` that has one. */
async function linkFor(address: string, pattern: RegExp): Promise<string> {
  const url = await until(`an e-mail to ${address} with ${pattern}`, () => {
    for (const mail of [...mailsTo(address)].reverse()) {
      const found = `${mail.parsed.text ?? ''}\n${mail.parsed.html ?? ''}`.replace(/&amp;/g, '&').match(pattern);
      if (found) return found[0];
    }
    return undefined;
  });
  return new URL(url).pathname + new URL(url).search;
}

async function signUp(input: { role: 'client' | 'consultant'; companyName?: string }, on: string) {
  const email = uniqueEmail(`scale-${input.role}`);
  const jar = new Jar();
  const answer = await call('POST', '/api/auth/signup', { body: { email, password: PASSWORD, ...input }, jar, on });
  expect(answer.status, answer.bytes.toString()).toBe(201);
  return { email, jar };
}

async function submit(email = uniqueEmail('scale-report')) {
  const answer = await call('POST', '/api/submit-request', { body: validForm({ email }) });
  return { email, answer, requestId: answer.status === 202 ? String(answer.json().requestId) : '' };
}

const admin = (...args: string[]) => runScript('scripts/admin.ts', args, { ...process.env, ...c().envFor(opsDir), LOG_LEVEL: 'silent' });

const jobOf = async (requestId: string) => (await db().select().from(jobs).where(eq(jobs.key, `report.generate:${requestId}`)))[0];

// Its own sqld in either pass of `npm test`: run once, in the file pass.
describe.skipIf(ON_SQLD)('two web processes and two workers on one libSQL server, behind a proxy', () => {
  it("runs with sqld's authentication on: a call without the token is refused, the processes' token is taken", async () => {
    const pipeline = (headers: Record<string, string>) =>
      fetch(`${c().sqld.url}/v2/pipeline`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ requests: [{ type: 'execute', stmt: { sql: 'SELECT 1' } }, { type: 'close' }] }) });
    expect((await pipeline({})).status).toBe(401);
    expect((await pipeline({ authorization: `Bearer ${c().sqld.authToken}` })).status).toBe(200);
  });

  it('a session made on one machine is known to the other, and a sign-out on the other ends it', async () => {
    tellOnFailure();
    const { email, jar } = await signUp({ role: 'client' }, A);
    const me = await call('GET', '/api/auth/me', { jar, on: B });
    expect([me.upstream, me.status]).toEqual([B, 200]);
    expect((me.json().user as { email: string }).email).toBe(email);

    // A second session, signed in on A; signed out on B.
    const second = new Jar();
    const login = await call('POST', '/api/auth/login', { body: { email, password: PASSWORD }, jar: second, on: A });
    expect([login.upstream, login.status]).toEqual([A, 200]);
    const cookie = second.header();
    expect((await call('GET', '/api/auth/me', { cookie, on: B })).status).toBe(200);
    const logout = await call('POST', '/api/auth/logout', { jar: second, on: B });
    expect([logout.upstream, logout.status]).toEqual([B, 200]);
    const after = await call('GET', '/api/auth/me', { cookie, on: A });
    expect([after.upstream, after.status]).toEqual([A, 401]);
    // The first session is not the one that ended.
    expect((await call('GET', '/api/auth/me', { jar, on: A })).status).toBe(200);
  }, TEST_MS);

  it('24 reports asked for at once: every one accepted, each e-mailed exactly once', async () => {
    tellOnFailure();
    const asked = await Promise.all(Array.from({ length: 24 }, () => submit()));
    expect(asked.map((a) => a.answer.status)).toEqual(asked.map(() => 202));
    expect(new Set(asked.map((a) => a.answer.upstream))).toEqual(new Set([A, B]));
    const keys = asked.map((a) => `report.generate:${a.requestId}`);
    await until(
      'the 24 report jobs done',
      async () => {
        const rows = await db().select({ status: jobs.status, lastError: jobs.lastError }).from(jobs).where(inArray(jobs.key, keys));
        const failed = rows.find((r) => r.status === 'failed');
        if (failed) throw new Error(`a report job failed: ${failed.lastError}`);
        return rows.length === keys.length && rows.every((r) => r.status === 'done');
      },
      100_000,
      250,
    );
    expect(asked.map((a) => mailsTo(a.email).length)).toEqual(asked.map(() => 1));
    // Both workers took part.
    const by = await db().select({ lockedBy: jobs.lockedBy }).from(jobs).where(inArray(jobs.key, keys));
    expect(new Set(by.map((r) => r.lockedBy?.split(':')[1])).size).toBe(2);
  }, TEST_MS);

  it('an account closed through one machine is closed for both', async () => {
    tellOnFailure();
    const { email, jar } = await signUp({ role: 'client' }, A);
    const cookie = jar.header();
    const closed = await call('POST', '/api/account/delete', { body: { password: PASSWORD, confirmEmail: email }, jar, on: B });
    expect([closed.upstream, closed.status], closed.bytes.toString()).toEqual([B, 200]);
    expect((await call('GET', '/api/auth/me', { cookie, on: A })).status).toBe(401);
    const again = await call('POST', '/api/auth/login', { body: { email, password: PASSWORD }, jar: new Jar(), on: A });
    expect([again.upstream, again.status]).toEqual([A, 403]);
  }, TEST_MS);

  it('a data export asked for through one machine downloads through the other', async () => {
    tellOnFailure();
    const { email, jar } = await signUp({ role: 'client' }, A);
    const asked = await call('POST', '/api/account/data/export', { jar, on: A });
    expect([asked.upstream, asked.status], asked.bytes.toString()).toEqual([A, 202]);
    const link = await linkFor(email, /https?:\/\/[^\s"'<>]+\/api\/data-exports\/download\?token=[A-Za-z0-9._%-]+/);
    const download = await call('GET', link, { on: B });
    expect([download.upstream, download.status], download.bytes.toString().slice(0, 300)).toEqual([B, 200]);
    expect(download.headers.get('content-type')).toBe('application/zip');
    const files = unzipSync(new Uint8Array(download.bytes));
    expect(Object.values(files).some((f) => strFromU8(f).includes(email))).toBe(true);
  }, TEST_MS);

  it('a logo uploaded through one machine is served by the other', async () => {
    tellOnFailure();
    const { email, jar } = await signUp({ role: 'consultant', companyName: 'Lanternfish Agency' }, A);
    const plan = await admin('set-plan', email, 'agency');
    expect(plan.code, plan.err).toBe(0);
    const profile = await call('POST', '/api/branding-profiles', { body: { companyName: 'Lanternfish Brand', primaryColor: '#0F766E' }, jar, on: A });
    expect(profile.status, profile.bytes.toString()).toBe(201);
    const png = await sharp({ create: { width: 160, height: 48, channels: 3, background: '#0f766e' } }).png().toBuffer();
    const upload = await call('PUT', `/api/branding-profiles/${String(profile.json().id)}/logo`, { raw: png, type: 'image/png', jar, on: A });
    expect([upload.upstream, upload.status], upload.bytes.toString()).toEqual([A, 200]);
    const logoPath = new URL(String(upload.json().logoUrl)).pathname;
    const fromB = await call('GET', logoPath, { on: B });
    const fromA = await call('GET', logoPath, { on: A });
    expect([fromB.upstream, fromB.status, fromB.headers.get('content-type')]).toEqual([B, 200, 'image/png']);
    expect(fromB.bytes.equals(fromA.bytes)).toBe(true);
  }, TEST_MS);

  it("an erasure reaches every machine's disk through the database: no restart, no 10-minute sweep", async () => {
    tellOnFailure();
    const { email, requestId, answer } = await submit();
    expect(answer.status).toBe(202);
    const reportPath = await linkFor(email, /https?:\/\/[^\s"'<>]+\/report\/[A-Za-z0-9._-]+/);
    const token = reportPath.split('/').pop()!;
    const reportId = (await db().select({ id: reports.id }).from(reports).where(eq(reports.requestId, requestId)))[0]!.id;
    const cached = (i: number) => existsSync(join(c().webs[i]!.dataDir, 'files', 'reports', reportId));
    // Each web process renders the PDF it is asked for and keeps it; the worker that made the
    // report keeps the copy it sent.
    for (const on of [A, B]) {
      const pdf = await call('GET', `/api/reports/${token}/report.pdf`, { on });
      expect([pdf.upstream, pdf.status]).toEqual([on, 200]);
    }
    expect([cached(0), cached(1)]).toEqual([true, true]);
    const onDisk = () => [...c().webs, ...c().workers].filter((p) => existsSync(join(p.dataDir, 'files', 'reports', reportId))).map((p) => p.name);
    expect(onDisk().filter((name) => name.startsWith('worker'))).toHaveLength(1);

    // The operator erases the address from a machine of its own.
    const forget = await admin('forget', email);
    expect(forget.code, forget.err).toBe(0);
    for (const on of [A, B]) expect((await call('GET', `/api/reports/${token}/report.pdf`, { on })).status).toBe(404);
    // Every process reads the erasures' count from the database (decision 0242) and sweeps its
    // copy: within a minute, with no restart and long before its 10-minute sweep.
    await until('the cached copies swept on every machine', () => onDisk().length === 0, 60_000);
  }, TEST_MS);

  it('a worker killed mid-report (kill -9): the other finishes it and sends one e-mail', async () => {
    tellOnFailure();
    const workers = c().workers;
    let done: { email: string; requestId: string; victim: string } | undefined;
    // A report is caught running, its worker frozen and looked at: killed only before the e-mail
    // stage (a kill inside the SMTP conversation may send a second copy, decision 0051). A report
    // caught too late is let go and another asked for.
    for (let attempt = 0; attempt < 10 && !done; attempt++) {
      const { email, requestId, answer } = await submit();
      expect(answer.status).toBe(202);
      const job = await until('the job claimed or done', async () => {
        const row = await jobOf(requestId);
        return row && (row.status === 'running' || row.status === 'done') ? row : undefined;
      }, 30_000, 10);
      if (job.status === 'done') continue;
      const victim = workers.find((w) => String(w.child.pid) === job.lockedBy?.split(':')[1]);
      expect(victim, `a worker of ours holds the job (${job.lockedBy})`).toBeTruthy();
      victim!.child.kill('SIGSTOP');
      const report = (await db().select().from(reports).where(eq(reports.requestId, requestId)))[0];
      const current = await jobOf(requestId);
      if (report?.emailClaimedAt || report?.emailSent || current?.status !== 'running') {
        victim!.child.kill('SIGCONT');
        await until('the job done', async () => (await jobOf(requestId))?.status === 'done', 60_000);
        continue;
      }
      victim!.child.kill('SIGKILL');
      await until('the worker gone', () => victim!.child.exitCode !== null || victim!.child.signalCode !== null, 10_000);
      // Its lease would lapse in 30 s; it lapses now instead.
      await db().update(jobs).set({ leaseUntil: new Date(Date.now() - 1000) }).where(eq(jobs.id, job.id));
      done = { email, requestId, victim: victim!.name };
    }
    expect(done, 'a report caught mid-job in 10 tries').toBeTruthy();
    const finished = await until('the job done by the other worker', async () => {
      const row = await jobOf(done!.requestId);
      if (row?.status === 'failed') throw new Error(`the job failed: ${row.lastError}`);
      return row?.status === 'done' ? row : undefined;
    }, 90_000, 100);
    const survivor = workers.find((w) => w.name !== done!.victim)!;
    expect(finished.lockedBy?.split(':')[1]).toBe(String(survivor.child.pid));
    expect(mailsTo(done!.email)).toHaveLength(1);
  }, TEST_MS);
});
