// The operator command as an operator runs it (`npm run admin -- …`): a process on the database
// the settings point at, with help, clear errors and exit codes.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@libsql/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin, runScript } from '../helpers/admin.ts';
import { createTestContext, ON_SQLD, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { eq } from 'drizzle-orm';
import { MAIL_WAIT_PREFIX } from '../../api/jobs/faults.ts';
import { jobs } from '../../db/schema/operations.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const admin = (...args: string[]) => runAdmin(t, ...args);

describe('npm run admin', () => {
  it('--help lists the commands; an unknown command or missing argument says so and fails', async () => {
    const [help, unknown, missing] = await Promise.all([admin('--help'), admin('make-coffee'), admin('set-plan', 'someone@example.com')]);
    expect(help.code).toBe(0);
    for (const command of ['users', 'set-plan <email> <tier> [status]', 'jobs [status]', 'retry-job <id>', 'send-waiting-mail', 'backup <file>']) expect(help.out).toContain(command);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("Unknown command 'make-coffee'.");
    expect(missing.code).toBe(1);
    expect(missing.err).toContain('Usage: npm run admin -- set-plan <email> <tier> [status]');
  });

  it("run without the server's settings: names the database it would use, creates none, and fails", async () => {
    const empty = mkdtempSync(join(tmpdir(), 'localrank-admin-empty-'));
    try {
      const { DATABASE_URL: _unset, ...env } = process.env;
      const run = await runScript('scripts/admin.ts', ['users'], { ...env, DATA_DIR: empty, LOG_LEVEL: 'silent' });
      expect(run.code).toBe(1);
      expect(run.out).not.toContain('No users yet');
      expect(run.err).toContain(`No database at ${join(empty, 'app.db')} (DATA_DIR=${empty}, DATABASE_URL unset). Run the command with the server's settings`);
      expect(readdirSync(empty)).toEqual([]);
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  }, 180_000);

  it('set-plan changes the plan of a user and their consultant profile; unknown e-mail, tier or status fail clearly', async () => {
    const consultant = await createUser(t.ctx, { role: 'consultant' });
    const ok = await admin('set-plan', consultant.email.toUpperCase(), 'agency');
    expect(ok).toMatchObject({ code: 0, out: `${consultant.email} is now on agency (active), consultant profile too.\n` });
    const users = await admin('users');
    expect(users.out).toContain([consultant.email, 'consultant', 'agency/active', 'Acme Consulting'].join('\t'));

    const [noUser, noTier, noStatus] = await Promise.all([
      admin('set-plan', 'nobody@example.com', 'pro'),
      admin('set-plan', consultant.email, 'platinum'),
      admin('set-plan', consultant.email, 'pro', 'sleeping'),
    ]);
    expect(noUser).toMatchObject({ code: 1, err: "No user with the e-mail 'nobody@example.com'.\n" });
    expect(noTier).toMatchObject({ code: 1, err: "Unknown tier 'platinum'. Tiers: free, pro, enterprise, agency.\n" });
    expect(noStatus.code).toBe(1);
    expect(noStatus.err).toMatch(/^Unknown status 'sleeping'\. Statuses: /);
  });

  it.runIf(ON_SQLD)('backup on a libSQL server says the server keeps its own backups', async () => {
    const said = await admin('backup', join(t.dataDir, 'backups', 'copy.db'));
    expect(said).toMatchObject({ code: 1, err: expect.stringContaining('a libSQL server (DATABASE_URL=libsql://…) keeps its own backups') });
  });

  it.skipIf(ON_SQLD)('backup copies the database to a new file while it serves, and will not overwrite one', async () => {
    const user = await createUser(t.ctx);
    const target = join(t.dataDir, 'backups', 'copy.db');
    const made = await admin('backup', target);
    expect(made.code).toBe(0);
    expect(made.out).toMatch(/^Database copied to .*copy\.db \(\d+ KB\)\.\n$/);
    const copy = createClient({ url: `file:${target}` });
    const rows = await copy.execute({ sql: 'SELECT email FROM users WHERE email = ?', args: [user.email] });
    copy.close();
    expect(rows.rows).toHaveLength(1);
    const again = await admin('backup', target);
    expect(again.code).toBe(1);
    expect(again.err).toContain('already exists; choose a new file name.');
  });

  it('send-waiting-mail makes the jobs waiting for the mail server due now, and no other job', async () => {
    const later = new Date(Date.now() + 3_600_000);
    const [waiting, other] = await t.ctx.db
      .insert(jobs)
      .values([
        { type: 'report.generate', payload: {}, runAt: later, attempts: 1, lastError: `${MAIL_WAIT_PREFIX} (connection refused); next try in 1 h` },
        { type: 'report.generate', payload: {}, runAt: later, attempts: 1, lastError: 'geocoding failed' },
      ])
      .returning();
    const jobsSaid = await admin('jobs');
    expect(jobsSaid.out).toMatch(/^Waiting for the mail server: 1 job\(s\), .*\(send-waiting-mail: now\)\.$/m);
    const sent = await admin('send-waiting-mail');
    expect(sent).toMatchObject({ code: 0, out: '1 job(s) waiting for the mail server are due now: a running worker sends them within seconds.\n' });
    const row = async (id: string) => (await t.ctx.db.query.jobs.findFirst({ where: eq(jobs.id, id) }))!;
    expect((await row(waiting!.id)).runAt.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await row(waiting!.id)).toMatchObject({ status: 'queued', attempts: 1 });
    expect((await row(other!.id)).runAt.getTime()).toBe(later.getTime());
    expect((await admin('send-waiting-mail')).out).toBe('1 job(s) waiting for the mail server are due now: a running worker sends them within seconds.\n');
  });
});
