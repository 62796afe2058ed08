// The product on a 16 MB file system (tmpfs) filled while it serves: submits are refused with 503
// storage_full and Retry-After (never 500), the worker pauses without spending the attempts of
// the job it holds, the health check says degraded, the log says so once a minute; given space
// again, the report goes out once. Mounting needs root, which CI has; elsewhere the file is skipped
// (vitest lists it as skipped, it is never silently green).
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { AppContext } from '../../api/context.ts';
import { createContext } from '../../api/create-context.ts';
import { closeMailer } from '../../api/email/mailer.ts';
import { loadEnv } from '../../api/env.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker, type Worker } from '../../api/jobs/worker.ts';
import type { Logger } from '../../api/log.ts';
import { inlineRenderer } from '../../api/report/render/renderer.ts';
import { reportRequests } from '../../db/schema/businesses.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { until } from '../helpers/crash-suite.ts';
import { submitForm } from '../helpers/report-requests.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

const root = process.getuid?.() === 0;
const lines: { level: string; msg: string }[] = [];
const log = Object.fromEntries((['debug', 'info', 'warn', 'error'] as const).map((level) => [level, (msg: string) => void lines.push({ level, msg })])) as Logger;

let mount: string;
let ctx: AppContext;
let app: ReturnType<typeof createApp>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let worker: Worker | undefined;

beforeAll(async () => {
  if (!root) return;
  mount = mkdtempSync(join(tmpdir(), 'localrank-tiny-'));
  // 16 MB: the write-ahead log alone grows to 4 MB before SQLite checkpoints it into the database
  // file, which then needs room of its own; on 4 MB the product cannot work even when empty.
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mount]);
  smtp = await startSmtpServer();
  const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: mount, SMTP_URL: smtp.url, WORKER: 'off', TRUST_PROXY: 'true', LOG_LEVEL: 'silent' });
  ctx = await createContext(env, { migrate: true, log });
  app = createApp(ctx);
});
afterAll(async () => {
  if (!root) return;
  await worker?.stop();
  closeMailer(ctx);
  ctx.db.$client.close();
  await smtp.close();
  execFileSync('umount', ['-l', mount]); // lazily: the last handles of the closed database go with the process
  rmSync(mount, { recursive: true, force: true });
});

const submit = () => submitForm(app);

/** Fills the file system with a file of zeros until it refuses another byte; returns the file. */
function fill(dir: string): string {
  const file = join(dir, 'filler');
  const fd = openSync(file, 'w');
  const chunk = Buffer.alloc(16 * 1024);
  try {
    for (;;) writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    closeSync(fd);
  }
  return file;
}

const health = async () => (await (await app.request('/api/health')).json()) as { status: string; problems: string[]; storage: string };

describe.skipIf(!root)('a full disk while the product serves', () => {
  it('refuses submits with 503 storage_full, pauses the worker without spending attempts, and catches up once there is space', async () => {
    const accepted = await submit();
    expect(accepted.status).toBe(202);
    expect((await health()).status).toBe('ok');

    const filler = fill(mount);
    // SQLite may still find room in its write-ahead log for a write or two; the disk is full all the same.
    const answers: number[] = [];
    let refused: Awaited<ReturnType<typeof submit>> | undefined;
    for (let i = 0; i < 40 && !refused; i++) {
      const r = await submit();
      answers.push(r.status);
      if (r.status === 503) refused = r;
    }
    expect(answers.filter((s) => s !== 202 && s !== 503)).toEqual([]);
    expect(refused?.body.code).toBe('storage_full');
    expect(Number(refused?.retryAfter)).toBeGreaterThan(0);
    const degraded = await health();
    expect(degraded.status).toBe('degraded');
    expect(degraded.problems).toContain('storage_full');

    // The worker meets the full disk: for three seconds (twelve polls at the default 250 ms) it
    // pauses, and the job it is given keeps its attempts.
    worker = createWorker(ctx, { registry: testRegistry({ analyse: async () => reportDataFixture(), renderer: inlineRenderer() }), concurrency: 1 });
    worker.start();
    await new Promise((r) => setTimeout(r, 3_000));
    const job = (await ctx.db.select().from(jobs).where(eq(jobs.key, `report.generate:${accepted.body.requestId}`)))[0]!;
    expect(job.status).not.toBe('failed');
    expect(job.attempts).toBeLessThanOrEqual(1);
    const faultLines = lines.filter((l) => l.level === 'warn' || l.level === 'error');
    expect(faultLines.filter((l) => l.msg === 'claim failed' || l.msg === 'unhandled error')).toEqual([]);
    // Once per minute per kind of fault, whatever the number of refused writes.
    expect(faultLines.filter((l) => l.msg === 'storage full: writes refused').length).toBe(1);

    rmSync(filler);
    // Given space, submits are taken again at once (the process does not need a restart).
    const later = await submit();
    expect(later.status).toBe(202);
    answers.push(later.status);
    await until('the accepted report sent', async () => (await ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, accepted.body.requestId!) }))?.status === 'sent', 60_000);
    const done = (await ctx.db.select().from(jobs).where(eq(jobs.id, job.id)))[0]!;
    expect(done.status).toBe('done');
    expect(done.attempts).toBe(1);
    await until('every accepted report sent', async () => (await ctx.db.select().from(reportRequests)).every((r) => r.status === 'sent'), 90_000);
    const accepted202 = 1 + answers.filter((s) => s === 202).length;
    expect(smtp.received).toHaveLength(accepted202);
    expect((await health()).status).toBe('ok');
  }, 150_000);
});
