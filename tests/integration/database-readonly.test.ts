// A database file that cannot be written (a restore with the wrong owner, a volume remounted
// read-only), as a process not running as root meets it: submits answer 503 with Retry-After, the
// health check says storage_readonly, the worker claims nothing and spends no attempt; once the
// file is writable again, everything is taken again without a restart. File modes do not bind
// root, so the scenario runs in a child process as the unprivileged user `nobody` when the tests
// run as root (as CI does).
import { spawn } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ON_SQLD } from '../helpers/context.ts';
import { entry } from '../helpers/entries.ts';

const NOBODY = 65534;
const dir = mkdtempSync(join(tmpdir(), 'localrank-readonly-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.skipIf(ON_SQLD)('a database file made read-only', () => {
  it('refuses writes with 503 and storage_readonly, spends no job attempt, and recovers by itself', async () => {
    const asRoot = process.getuid?.() === 0;
    if (asRoot) chownSync(dir, NOBODY, NOBODY);
    const child = spawn(process.execPath, [entry('tests/helpers/readonly-child.ts'), dir], {
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
      env: { ...process.env, HOME: dir },
    });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise((done) => child.on('close', done));
    expect(code, err).toBe(0);
    const seen = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(seen.refused).toMatchObject({ status: 503, retryAfter: '30', body: { code: 'storage_readonly' } });
    expect(seen.refused.body.message).toMatch(/read-only/);
    expect(seen.healthReadOnly).toMatchObject({ status: 'degraded', storage: 'readonly' });
    expect(seen.healthReadOnly.problems).toContain('storage_readonly');
    expect(seen.claimedReadOnly).toBe(false);
    expect(seen.jobReadOnly).toEqual({ status: 'queued', attempts: 0 });
    expect(seen.accepted.status).toBe(202);
    expect(seen.claimedAfter).toBe(true);
    expect(seen.jobAfter).toEqual({ status: 'done', attempts: 1 });
  }, 60_000);
});
