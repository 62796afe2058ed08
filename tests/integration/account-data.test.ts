// An account's data: the export (a ZIP compared with the database), deleting the account (closed at
// once, sign-in refused, restored by the e-mailed link with everything back), and the purge after
// the grace period, after which no table and no file names the account, its e-mail or its
// businesses; another account's data, and a business another consultant holds, are untouched.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { unzipSync, strFromU8 } from 'fflate';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { candidates } from '../../api/services/plans/payers.ts';
import { closeMailer, outboxDir } from '../../api/email/mailer.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { reportFiles } from '../../api/report/files/store.ts';
import { eraseAccount, exportClosedAccount, lookupRestoreLink, purgeClosedAccounts, restoreAccount } from '../../api/services/data-rights/account-closure.ts';
import { TABLES } from '../../api/services/data-rights/registry.ts';
import { users } from '../../db/schema/auth.ts';
import { businesses, businessMetrics } from '../../db/schema/businesses.ts';
import { contactMessages } from '../../db/schema/operations.ts';
import { reports, reviewAlerts } from '../../db/schema/reports.ts';
import { widgetKeys } from '../../db/schema/widget.ts';
import { call, createTestContext, databaseEnv, type TestContext } from '../helpers/context.ts';
import { findMentions } from '../helpers/data-walk.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';
import { entry } from '../helpers/entries.ts';

let t: TestContext;
const base = 'https://app.example.com';
const DAY = 24 * 60 * 60 * 1000;

beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: base });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
});

const worker = () => createWorker(t.ctx, { registry: testRegistry({}) });
async function drain() {
  while (await worker().runNext()) {
    /* every queued job */
  }
}

/** The latest outbox message to the address whose text names the link's path; its URL. */
function linkIn(to: string, path: string): string {
  const dir = outboxDir(t.ctx);
  const files = readdirSync(dir).sort().reverse();
  for (const f of files) {
    const raw = readFileSync(join(dir, f), 'latin1').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    if (!raw.toLowerCase().includes(to.toLowerCase())) continue;
    const m = raw.match(new RegExp(`${base.replace(/[.]/g, '\\.')}${path}\\?token=[A-Za-z0-9._%-]+`));
    if (m) return m[0];
  }
  throw new Error(`no e-mail to ${to} with ${path}`);
}

/** An agency consultant with an own business, a client's business, a business shared with another consultant, a logo. */
async function agencyAccount(tag: string) {
  const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: `Quillfeather Agency ${tag}` });
  const consultant = (await t.ctx.db.query.consultants.findFirst({ where: (c, { eq }) => eq(c.userId, agency.userId) }))!;
  const own = await seedBusiness(t.ctx, { userId: agency.userId, company: `Marigold Bakery ${tag}`, snapshots: [{ daysAgo: 14 }, { daysAgo: 7 }] });
  const client = await seedBusiness(t.ctx, { company: `Juniper Dental ${tag}`, snapshots: [{ daysAgo: 3 }] });
  const clientRow = await addClient(t.ctx, consultant.id, client.business.id);
  await t.ctx.db.insert(reviewAlerts).values({ businessId: own.business.id, platform: 'google', reviewRating: 1, reviewText: 'Cold bread', reviewAuthor: 'Pat' });
  await t.ctx.db.insert(contactMessages).values({ name: 'Agency', email: agency.email, subject: 'Question', message: `From Quillfeather Agency ${tag}` });
  const profile = await call(t.app, 'POST', '/api/branding-profiles', { companyName: `Quillfeather Brand ${tag}`, primaryColor: '#112233', secondaryColor: '#223344', accentColor: '#334455' }, agency.cookie);
  expect(profile.status).toBe(201);
  const logo = await sharp({ create: { width: 80, height: 40, channels: 3, background: '#ff0000' } }).png().toBuffer();
  const up = await t.app.request(`/api/branding-profiles/${profile.body.id}/logo`, { method: 'PUT', headers: { cookie: agency.cookie, 'content-type': 'image/png' }, body: new Uint8Array(logo) });
  expect(up.status).toBe(200);
  return { agency, consultant, own, client, clientRow, profileId: profile.body.id as string, tag };
}

describe('account export', () => {
  it('builds a ZIP with every entity the account has, e-mails a 7-day link, and allows one per 24 hours', async () => {
    const a = await agencyAccount('x1');
    await seedBusiness(t.ctx, { company: 'Unrelated Garage', snapshots: [{ daysAgo: 1 }] });
    const requested = await call(t.app, 'POST', '/api/account/data/export', undefined, a.agency.cookie);
    expect(requested.status).toBe(202);
    const again = await call(t.app, 'POST', '/api/account/data/export', undefined, a.agency.cookie);
    expect(again.status).toBe(429);
    expect(again.body.message).toMatch(/one export every 24 hours/);
    expect((await call(t.app, 'POST', '/api/account/data/export')).status).toBe(401);
    await drain();

    const url = linkIn(a.agency.email, '/api/data-exports/download');
    const res = await t.app.request(new URL(url).pathname + new URL(url).search);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const zip = unzipSync(new Uint8Array(await res.arrayBuffer()));
    const json = (name: string) => JSON.parse(strFromU8(zip[name]!)) as Record<string, unknown>[];

    // Every exported table's file is there, and README lists it.
    const readme = strFromU8(zip['README.txt']!);
    for (const rule of Object.values(TABLES)) {
      if (!rule.exportRows) continue;
      expect(zip[`${rule.exportRows.file}.json`], rule.exportRows.file).toBeDefined();
      if (rule.exportRows.csv) expect(zip[`${rule.exportRows.file}.csv`], rule.exportRows.file).toBeDefined();
      expect(readme).toContain(`${rule.exportRows.file}.json`);
    }
    // Compared with the database.
    const ids = (rows: Record<string, unknown>[]) => rows.map((r) => r.id).sort();
    const businessIds = [a.own.business.id, a.client.business.id];
    expect(ids(json('businesses.json'))).toEqual([...businessIds].sort());
    const metrics = await t.ctx.db.select({ id: businessMetrics.id }).from(businessMetrics);
    const accountMetrics = (await t.ctx.db.select().from(businessMetrics)).filter((m) => businessIds.includes(m.businessId));
    expect(metrics.length).toBeGreaterThan(accountMetrics.length);
    expect(ids(json('metrics.json'))).toEqual(accountMetrics.map((m) => m.id).sort());
    const accountReports = (await t.ctx.db.select().from(reports)).filter((r) => businessIds.includes(r.businessId));
    expect(ids(json('reports.json'))).toEqual(accountReports.map((r) => r.id).sort());
    for (const r of accountReports) expect(strFromU8(zip[`reports/${r.id}.pdf`]!.slice(0, 5))).toBe('%PDF-');
    expect(json('clients.json').map((c) => c.client_name)).toEqual([a.clientRow.clientName]);
    expect(json('review-alerts.json').map((r) => r.review_text)).toEqual(['Cold bread']);
    expect(json('branding-profiles.json').map((p) => p.id)).toEqual([a.profileId]);
    expect(zip[`logos/${a.profileId}.png`]).toBeDefined();
    expect(json('profile.json')[0]).toMatchObject({ id: a.agency.userId, email: a.agency.email, subscription_tier: 'agency' });
    expect(json('contact-messages.json')).toHaveLength(1);
    expect(strFromU8(zip['businesses.csv']!).split('\r\n')[0]).toContain('company');
    // Never secrets: no password hash, no session or report link token.
    const all = Object.values(zip).map((b) => strFromU8(b, true)).join('\n');
    const credential = (await t.ctx.db.$client.execute({ sql: 'SELECT password FROM accounts WHERE user_id = ?', args: [a.agency.userId] })).rows[0]!;
    expect(all).not.toContain(String(credential.password));
    for (const s of (await t.ctx.db.$client.execute({ sql: 'SELECT token FROM sessions WHERE user_id = ?', args: [a.agency.userId] })).rows) expect(all).not.toContain(String(s.token));
    for (const r of accountReports) expect(all).not.toContain(r.token!);

    // A changed link is refused; an expired one too.
    const bad = await t.app.request(`/api/data-exports/download?token=${new URL(url).searchParams.get('token')!.slice(0, -3)}xyz`);
    expect(bad.status).toBe(404);
  });
});

describe('delete my account', () => {
  it('closes at once, refuses sign-in, restores from the e-mailed link with everything back, then purges after the grace period', async () => {
    const a = await agencyAccount('z9');
    const other = await agencyAccount('y5');
    // A business this consultant and another one both hold: the purge keeps it.
    const shared = await seedBusiness(t.ctx, { company: 'Shared Hardware Co', snapshots: [{ daysAgo: 1 }] });
    await addClient(t.ctx, a.consultant.id, shared.business.id);
    await addClient(t.ctx, other.consultant.id, shared.business.id);
    const countRows = async () => (await t.ctx.db.$client.execute({ sql: 'SELECT (SELECT count(*) FROM businesses) + (SELECT count(*) FROM business_metrics) + (SELECT count(*) FROM reports) + (SELECT count(*) FROM clients) + (SELECT count(*) FROM branding_profiles)', args: [] })).rows[0]![0];
    const before = await countRows();
    // The agency's website widget: a live key, and one it had revoked itself before closing.
    const key = await call(t.app, 'POST', '/api/widget/keys', { name: 'Main site', allowedHostnames: ['quillfeather.example'], components: ['report-form'], brandingProfileId: null, scoreCardClientId: null, leadEmails: 'each' }, a.agency.cookie);
    const oldKey = await call(t.app, 'POST', '/api/widget/keys', { name: 'Old site', allowedHostnames: ['old.quillfeather.example'], components: ['report-form'], brandingProfileId: null, scoreCardClientId: null, leadEmails: 'each' }, a.agency.cookie);
    expect([key.status, oldKey.status]).toEqual([201, 201]);
    await call(t.app, 'POST', `/api/widget/keys/${oldKey.body.id}/revoke`, undefined, a.agency.cookie);
    const revokedAt = async (id: string) => (await t.ctx.db.select({ at: widgetKeys.revokedAt }).from(widgetKeys).where(eq(widgetKeys.id, id)))[0]!.at;
    const oldRevokedAt = await revokedAt(oldKey.body.id);

    const wrongPassword = await call(t.app, 'POST', '/api/account/delete', { password: 'nope-nope-nope', confirmEmail: a.agency.email }, a.agency.cookie);
    expect(wrongPassword.status).toBe(400);
    expect(wrongPassword.body.fields).toEqual({ password: 'The password is not correct' });
    const wrongEmail = await call(t.app, 'POST', '/api/account/delete', { password: a.agency.password, confirmEmail: 'someone@example.com' }, a.agency.cookie);
    expect(wrongEmail.status).toBe(400);
    expect(wrongEmail.body.fields).toEqual({ confirmEmail: 'This is not the e-mail address of your account' });
    expect((await call(t.app, 'POST', '/api/account/delete', {})).status).toBe(401);

    const closed = await call(t.app, 'POST', '/api/account/delete', { password: a.agency.password, confirmEmail: a.agency.email.toUpperCase() }, a.agency.cookie);
    expect(closed.status).toBe(200);
    // Closed at once: the session no longer works, sign-in is refused, schedules skip the account.
    expect((await call(t.app, 'GET', '/api/account/data', undefined, a.agency.cookie)).status).toBe(401);
    expect((await call(t.app, 'GET', '/api/auth/security', undefined, a.agency.cookie)).status).toBe(401);
    const login = await call(t.app, 'POST', '/api/auth/login', { email: a.agency.email, password: a.agency.password });
    expect(login.status).toBe(403);
    expect(login.body.message).toMatch(/This account is closed/);
    expect((await candidates(t.ctx)).filter((c) => c.userId === a.agency.userId)).toEqual([]);
    expect((await candidates(t.ctx)).some((c) => c.userId === other.agency.userId)).toBe(true);
    expect(await countRows()).toBe(before);
    // The widget stops at once: its key is revoked.
    expect(await revokedAt(key.body.id)).not.toBeNull();

    await drain();
    const restoreUrl = linkIn(a.agency.email, '/restore-account');
    const token = new URL(restoreUrl).searchParams.get('token')!;
    expect(await lookupRestoreLink(t.ctx, token)).toMatchObject({ state: 'closed', email: a.agency.email });
    // The terms' promise: an export can still be requested during the grace period.
    expect(await exportClosedAccount(t.ctx, token)).toEqual({ state: 'export-requested', email: a.agency.email });
    await drain();
    expect(linkIn(a.agency.email, '/api/data-exports/download')).toContain('token=');
    // Forged and expired restore links are refused.
    expect((await restoreAccount(t.ctx, `${token.slice(0, -3)}abc`)).state).toBe('invalid');
    expect((await restoreAccount(t.ctx, token, new Date(Date.now() + 31 * DAY))).state).toBe('expired');

    expect(await restoreAccount(t.ctx, token)).toEqual({ state: 'restored', email: a.agency.email });
    expect(await countRows()).toBe(before);
    // The key the closing revoked works again; the one the agency had revoked stays revoked.
    expect(await revokedAt(key.body.id)).toBeNull();
    expect(await revokedAt(oldKey.body.id)).toEqual(oldRevokedAt);
    const back = await call(t.app, 'POST', '/api/auth/login', { email: a.agency.email, password: a.agency.password });
    expect(back.status).toBe(200);
    expect((await restoreAccount(t.ctx, token)).state).toBe('not-closed');

    // A password-reset token (better-auth keeps the user id in it) must go with the account too.
    expect((await call(t.app, 'POST', '/api/auth/forgot-password', { email: a.agency.email })).status).toBe(200);
    expect(Number((await t.ctx.db.$client.execute({ sql: 'SELECT count(*) FROM verifications WHERE value = ?', args: [a.agency.userId] })).rows[0]![0])).toBe(1);
    // Closed again, and the grace period passes: the purge erases everything that names it.
    const again = await call(t.app, 'POST', '/api/account/delete', { password: a.agency.password, confirmEmail: a.agency.email }, back.cookie);
    expect(again.status).toBe(200);
    expect(await purgeClosedAccounts(t.ctx, new Date(Date.now() + 29 * DAY))).toBe(0);
    await drain();
    expect(await purgeClosedAccounts(t.ctx, new Date(Date.now() + 31 * DAY))).toBe(1);
    const reportIds = (await t.ctx.db.select({ id: reports.id, businessId: reports.businessId }).from(reports)).map((r) => r.id);
    expect(
      await findMentions(t.ctx, t.dataDir, [
        a.agency.userId,
        a.agency.email,
        a.consultant.id,
        'Quillfeather Agency z9',
        'Quillfeather Brand z9',
        'Marigold Bakery z9',
        'Juniper Dental z9',
        a.own.business.id,
        a.client.business.id,
        a.clientRow.id,
        a.profileId,
      ]),
    ).toEqual([]);
    // The shared business stays with the other consultant; the other account is untouched.
    expect(await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, shared.business.id) })).toBeDefined();
    expect(await t.ctx.db.query.users.findFirst({ where: eq(users.id, other.agency.userId) })).toBeDefined();
    expect(await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, other.own.business.id) })).toBeDefined();
    expect(reportIds.length).toBeGreaterThan(0);
    const otherLogin = await call(t.app, 'POST', '/api/auth/login', { email: other.agency.email, password: other.agency.password });
    expect(otherLogin.status).toBe(200);
  });

  it('erases an account directly (the service the purge uses) and refuses an unknown one', async () => {
    const owner = await createUser(t.ctx);
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Hollyhock Florist', snapshots: [{ daysAgo: 2 }] });
    const [report] = await t.ctx.db.select().from(reports).where(eq(reports.businessId, business.id));
    expect(report).toBeDefined();
    await eraseAccount(t.ctx, owner.userId);
    expect(existsSync(reportFiles(t.ctx, report!.id).dir)).toBe(false);
    expect(await findMentions(t.ctx, t.dataDir, [owner.userId, owner.email, 'Hollyhock Florist', business.id])).toEqual([]);
    await expect(eraseAccount(t.ctx, owner.userId)).rejects.toThrow(/No such account/);
  });

  it('npm run admin -- export <email> queues an export for a request by e-mail, a closed account included', async () => {
    const owner = await createUser(t.ctx);
    expect((await call(t.app, 'POST', '/api/account/delete', { password: owner.password, confirmEmail: owner.email }, owner.cookie)).status).toBe(200);
    const admin = (...args: string[]) => {
      const env: NodeJS.ProcessEnv = { ...process.env, ...databaseEnv(t), LOG_LEVEL: 'silent' };
      const child = spawn(process.execPath, [entry('scripts/admin.ts'), ...args], { env });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (out += d.toString()));
      return new Promise<{ code: number; out: string }>((done) => child.on('close', (code) => done({ code: code ?? -1, out })));
    };
    const [ok, unknown] = await Promise.all([admin('export', owner.email.toUpperCase()), admin('export', 'nobody@example.com')]);
    expect(ok).toEqual({ code: 0, out: `Export queued for ${owner.email}: the worker builds it and e-mails the download link (valid 7 days) to that address.\n` });
    expect(unknown.code).toBe(1);
    expect(unknown.out).toContain("No account uses 'nobody@example.com'");
    await drain();
    expect(linkIn(owner.email, '/api/data-exports/download')).toContain('token=');
  });
});
