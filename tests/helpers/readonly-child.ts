// Run as a user that file modes apply to (not root): the database file made read-only under a
// running process, then writable again. Prints one JSON object of what each step answered.
import { chmodSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { createApp } from '../../api/app.ts';
import { createContext } from '../../api/create-context.ts';
import { loadEnv } from '../../api/env.ts';
import { enqueue } from '../../api/jobs/queue.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { jobs } from '../../db/schema/operations.ts';
import { submitForm } from './report-requests.ts';

const dir = process.argv[2]!;
const env = loadEnv({ NODE_ENV: 'test', DATA_DIR: dir, LOG_LEVEL: 'silent', WORKER: 'off', TRUST_PROXY: 'true' });
const first = await createContext(env, { migrate: true });
const jobId = (await enqueue(first.db, { type: 'test.readonly', payload: {} }))!;
first.db.$client.close();

// A restore with the wrong owner: the file cannot be written when the process opens it.
chmodSync(join(dir, 'app.db'), 0o444);
const ctx = await createContext(env);
const app = createApp(ctx);
const worker = createWorker(ctx, { registry: { 'test.readonly': { run: async () => {} } }, pollMs: 50 });
const job = async () => (await ctx.db.select({ status: jobs.status, attempts: jobs.attempts }).from(jobs).where(eq(jobs.id, jobId)))[0];
const health = async () => (await (await app.request('/api/health')).json()) as Record<string, unknown>;

const refused = await submitForm(app);
const healthReadOnly = await health();
const claimedReadOnly = await worker.runNext().catch(() => false);
const jobReadOnly = await job();

chmodSync(join(dir, 'app.db'), 0o644);
// As a client told Retry-After would: asked again until taken (a new connection is opened at most
// once a second, so the first try after the change may still meet the read-only one).
const sleep = () => new Promise((r) => setTimeout(r, 200));
let accepted = await submitForm(app);
for (const end = Date.now() + 30_000; accepted.status !== 202 && Date.now() < end; await sleep()) accepted = await submitForm(app);
let claimedAfter = false;
for (const end = Date.now() + 30_000; !claimedAfter && Date.now() < end; await sleep()) claimedAfter = await worker.runNext().catch(() => false);
console.log(JSON.stringify({ refused, healthReadOnly, claimedReadOnly, jobReadOnly, accepted, claimedAfter, jobAfter: await job(), healthAfter: await health() }));
ctx.db.$client.close();
