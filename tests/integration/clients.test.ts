// Client management and branding profiles: a consultant adds clients (each reported on at once,
// to the client, and a copy to the consultant), sends reports, archives and deletes; an agency keeps
// branding profiles with logos. Every route checks each id against the signed-in consultant.
import { listScans } from '../../api/services/ai-visibility/store.ts';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { reportFiles } from '../../api/report/files/store.ts';
import { brandingFor } from '../../api/services/branding/sender.ts';
import { users } from '../../db/schema/auth.ts';
import { businesses } from '../../db/schema/businesses.ts';
import { clients } from '../../db/schema/consultants.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: 'https://app.example.com' });
});
afterAll(() => t.close());

const outbox = () => (existsSync(join(t.dataDir, 'outbox')) ? readdirSync(join(t.dataDir, 'outbox')).filter((f) => f.endsWith('.eml')).sort() : []);
const mailText = (f: string) => readFileSync(join(t.dataDir, 'outbox', f), 'utf8').replace(/=\r?\n/g, '');
const drain = async () => {
  const worker = createWorker(t.ctx, { registry: testRegistry({ analyse: async () => reportDataFixture({ seed: 11 }) }) });
  let ran = 0;
  while (await worker.runNext()) ran++;
  return ran;
};

const newClient = (overrides: Record<string, unknown> = {}) => ({
  clientName: 'Dana Whitfield',
  clientEmail: 'dana@client.example',
  notes: 'Wants more reviews before the spring season.',
  company: 'Whitfield Dental',
  website: 'https://whitfield-dental.example',
  address: '100 Congress Ave',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  ...overrides,
});

const png = (colour: string) => sharp({ create: { width: 80, height: 40, channels: 3, background: colour } }).png().toBuffer();

describe('clients', () => {
  it('adds a client, reports on its business at once (to the client, and a copy to the consultant) and lists its scores', async () => {
    const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
    const created = await call(t.app, 'POST', '/api/clients', newClient(), agency.cookie);
    expect(created.status).toBe(201);
    const client = created.body as { id: string; business: { id: string; company: string }; latest: unknown; nextReport: string; reportFrequency: string };
    expect(client.business.company).toBe('Whitfield Dental');
    expect(client.latest).toBeNull();
    expect(client.reportFrequency).toBe('monthly');
    expect(Date.parse(client.nextReport)).toBeGreaterThan(Date.now());
    const before = outbox().length;
    // The client report, then the business's first AI-answers scan it queued (issue 50, decision 0302).
    expect(await drain()).toBe(2);
    expect((await listScans(t.ctx, client.business.id)).map((x) => x.sample)).toEqual([true]);
    const mail = outbox().slice(before).map(mailText);
    expect(mail).toHaveLength(2);
    expect(mail[0]).toContain('To: dana@client.example');
    expect(mail[1]).toContain(`To: ${agency.email}`);
    for (const m of mail) expect(m).not.toContain('Cc:');
    const [row] = await t.ctx.db.select().from(reports).where(and(eq(reports.clientId, client.id), eq(reports.reportType, 'client')));
    expect(row).toMatchObject({ consultantId: agency.viewer.consultant!.id, reportType: 'client', emailSent: true, recipientEmail: 'dana@client.example', ccEmail: null });
    expect(row!.pdfUrl).toMatch(/^https:\/\/app\.example\.com\/api\/reports\/.+\/report\.pdf$/);

    const list = await call(t.app, 'GET', '/api/clients?search=whitfield', undefined, agency.cookie);
    const [summary] = (list.body as { clients: Array<{ latest: { overall: number; rank: number; of: number; change: number | null } }> }).clients;
    expect(summary!.latest.overall).toBeGreaterThanOrEqual(1);
    expect(summary!.latest.rank).toBeGreaterThanOrEqual(1);
    expect(summary!.latest.of).toBe(10);
    expect(summary!.latest.change).toBeNull();
    expect(((await call(t.app, 'GET', '/api/clients?search=nobody', undefined, agency.cookie)).body as { clients: unknown[] }).clients).toEqual([]);

    const detail = await call(t.app, 'GET', `/api/clients/${client.id}`, undefined, agency.cookie);
    expect(detail.status).toBe(200);
    expect((detail.body as { reports: Array<{ status: string }> }).reports.map((r) => r.status)).toEqual(['sent']);
    expect((detail.body as { alerts: unknown }).alerts).toEqual(expect.any(Array));
  });

  it('validates a new client with the report form rules, field by field', async () => {
    const pro = await createUser(t.ctx, { role: 'consultant', tier: 'pro' });
    const res = await call(t.app, 'POST', '/api/clients', newClient({ clientEmail: 'not-an-email', zip: '7', state: 'ZZ', website: 'nope' }), pro.cookie);
    expect(res.status).toBe(400);
    const fields = (res.body as { fields: Record<string, string> }).fields;
    expect(fields.clientEmail).toBe('Invalid email');
    expect(fields.website).toBe('Invalid url');
    expect(fields.zip).toMatch(/ZIP code/);
    expect(fields.state).toMatch(/Invalid enum value/);
    expect(await t.ctx.db.select().from(clients).where(eq(clients.clientEmail, 'not-an-email'))).toHaveLength(0);
  });

  it('"Send report now" twice in a minute queues one report; "Send a test to me" goes to the consultant alone', async () => {
    const pro = await createUser(t.ctx, { role: 'consultant', tier: 'pro' });
    const { body } = await call(t.app, 'POST', '/api/clients', newClient({ clientEmail: 'owner@send.example' }), pro.cookie);
    const id = (body as { id: string }).id;
    await drain();
    const [a, b] = await Promise.all([call(t.app, 'POST', `/api/clients/${id}/send`, { to: 'client' }, pro.cookie), call(t.app, 'POST', `/api/clients/${id}/send`, { to: 'client' }, pro.cookie)]);
    expect([a.status, b.status]).toEqual([202, 202]);
    expect([(a.body as { queued: boolean }).queued, (b.body as { queued: boolean }).queued].sort()).toEqual([false, true]);
    const test = await call(t.app, 'POST', `/api/clients/${id}/send`, { to: 'me' }, pro.cookie);
    expect(test.body).toMatchObject({ queued: true, to: pro.email });
    const before = outbox().length;
    expect(await drain()).toBe(2);
    const mail = outbox().slice(before).map(mailText);
    // The report to the client, the consultant's copy of it, and the test.
    expect(mail.filter((m) => m.includes('To: owner@send.example') && !m.includes('Cc:'))).toHaveLength(1);
    const toConsultant = mail.filter((m) => m.split(/\r?\n/).includes(`To: ${pro.email}`));
    expect(toConsultant.filter((m) => /^Subject: Copy of the report sent to /m.test(m))).toHaveLength(1);
    expect(toConsultant.filter((m) => !/^Subject: Copy of/m.test(m))).toHaveLength(1);
    expect((await call(t.app, 'POST', `/api/clients/${id}/send`, { to: 'everyone' }, pro.cookie)).status).toBe(400);
  });

  it('sends one e-mail per report even when the job runs again after it finished (a crash after delivery)', async () => {
    const pro = await createUser(t.ctx, { role: 'consultant', tier: 'pro' });
    const { body } = await call(t.app, 'POST', '/api/clients', newClient({ clientEmail: 'once@client.example' }), pro.cookie);
    const id = (body as { id: string }).id;
    await drain();
    const count = outbox().length;
    const mine = (await t.ctx.db.select().from(jobs).where(eq(jobs.type, 'client.report'))).find((j) => (j.payload as { clientId: string }).clientId === id)!;
    await t.ctx.db.update(jobs).set({ status: 'queued', runAt: new Date(0) }).where(eq(jobs.id, mine.id));
    await drain();
    expect(outbox().length).toBe(count);
    // The report and the consultant's copy, each once.
    expect((await t.ctx.db.select().from(reports).where(eq(reports.clientId, id))).map((r) => r.reportType).sort()).toEqual(['client', 'client-copy']);
  });

  it('edits, archives and deletes a client, saying what deletion removes', async () => {
    const pro = await createUser(t.ctx, { role: 'consultant', tier: 'enterprise' });
    const { body } = await call(t.app, 'POST', '/api/clients', newClient({ clientEmail: 'gone@client.example' }), pro.cookie);
    const client = body as { id: string; business: { id: string } };
    await drain();
    const edited = await call(t.app, 'PATCH', `/api/clients/${client.id}`, { clientName: 'Dana W.', reportFrequency: 'weekly', archived: true }, pro.cookie);
    expect(edited.body).toMatchObject({ clientName: 'Dana W.', reportFrequency: 'weekly', archived: true, nextReport: null });
    const preview = await call(t.app, 'GET', `/api/clients/${client.id}/deletion`, undefined, pro.cookie);
    expect(preview.body).toEqual({ clientName: 'Dana W.', reports: 1, businessRemoved: true });
    const [report] = await t.ctx.db.select().from(reports).where(and(eq(reports.clientId, client.id), eq(reports.reportType, 'client')));
    expect(existsSync(reportFiles(t.ctx, report!.id).pdf)).toBe(true);
    const deleted = await call(t.app, 'DELETE', `/api/clients/${client.id}`, undefined, pro.cookie);
    expect(deleted.body).toEqual({ deleted: true, reports: 1, businessRemoved: true });
    expect(await t.ctx.db.select().from(businesses).where(eq(businesses.id, client.business.id))).toHaveLength(0);
    expect(await t.ctx.db.select().from(reports).where(eq(reports.id, report!.id))).toHaveLength(0);
    expect(existsSync(reportFiles(t.ctx, report!.id).dir)).toBe(false);
  });
});

describe('who may do what', () => {
  it("another consultant's ids answer as unknown ones on every route; other accounts and plans are refused", async () => {
    const a = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
    const b = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
    const client = (await call(t.app, 'POST', '/api/clients', newClient({ clientEmail: 'a-client@example.com' }), a.cookie)).body as { id: string };
    const profile = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'A Agency' }, a.cookie)).body as { id: string };
    const routes: Array<[string, string, unknown?]> = [
      ['GET', `/api/clients/${client.id}`],
      ['PATCH', `/api/clients/${client.id}`, { notes: 'mine now' }],
      ['GET', `/api/clients/${client.id}/deletion`],
      ['DELETE', `/api/clients/${client.id}`],
      ['POST', `/api/clients/${client.id}/send`, { to: 'me' }],
      ['GET', `/api/branding-profiles/${profile.id}`],
      ['PUT', `/api/branding-profiles/${profile.id}`, { companyName: 'B owns it' }],
      ['DELETE', `/api/branding-profiles/${profile.id}`],
      ['DELETE', `/api/branding-profiles/${profile.id}/logo`],
    ];
    for (const [method, path, body] of routes) {
      const res = await call(t.app, method, path, body, b.cookie);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect((await call(t.app, method, path, body)).status, `${method} ${path} signed out`).toBe(401);
    }
    // B's own client may not use A's profile, and the list shows only B's.
    const bad = await call(t.app, 'POST', '/api/clients', newClient({ brandingProfileId: profile.id }), b.cookie);
    expect(bad.status).toBe(400);
    expect((bad.body as { fields: Record<string, string> }).fields.brandingProfileId).toBe('No such branding profile');
    expect(((await call(t.app, 'GET', '/api/clients', undefined, b.cookie)).body as { clients: unknown[] }).clients).toEqual([]);
    expect(((await call(t.app, 'GET', '/api/clients', undefined, a.cookie)).body as { clients: unknown[] }).clients).toHaveLength(1);

    const owner = await createUser(t.ctx, { role: 'client', tier: 'agency' });
    expect((await call(t.app, 'GET', '/api/clients', undefined, owner.cookie)).status).toBe(403);
    const free = await createUser(t.ctx, { role: 'consultant' });
    const refused = await call(t.app, 'GET', '/api/clients', undefined, free.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: 'plan_required' });
    const pro = await createUser(t.ctx, { role: 'consultant', tier: 'pro' });
    expect((await call(t.app, 'GET', '/api/clients', undefined, pro.cookie)).status).toBe(200);
    expect((await call(t.app, 'GET', '/api/branding-profiles', undefined, pro.cookie)).body).toMatchObject({ code: 'plan_required' });
    const lapsed = await createUser(t.ctx, { role: 'consultant', tier: 'agency', status: 'suspended' });
    expect((await call(t.app, 'GET', '/api/clients', undefined, lapsed.cookie)).status).toBe(403);
  });
});

describe('branding profiles', () => {
  it('keeps one default, re-encodes logos, refuses other files, and falls back to the default when a client profile is deleted', async () => {
    const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
    const first = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing', primaryColor: '#0f766e', contactEmail: 'Hello@Northstar.example' }, agency.cookie)).body as Record<string, unknown>;
    expect(first).toMatchObject({ isDefault: true, primaryColor: '#0F766E', secondaryColor: '#1F2937', accentColor: '#059669', contactEmail: 'hello@northstar.example', poweredBy: false });
    const second = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar for Dentists' }, agency.cookie)).body as Record<string, unknown>;
    expect(second.isDefault).toBe(false);
    const bad = await call(t.app, 'POST', '/api/branding-profiles', { companyName: '', primaryColor: 'red', website: 'ftp://x' }, agency.cookie);
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { fields: object }).fields).sort()).toEqual(['companyName', 'primaryColor', 'website']);

    const upload = (body: Buffer | string, type: string) => t.app.request(`/api/branding-profiles/${second.id}/logo`, { method: 'PUT', headers: { cookie: agency.cookie, 'content-type': type }, body: typeof body === 'string' ? body : new Uint8Array(body) });
    const ok = await upload(await png('#ff0000'), 'image/png');
    expect(ok.status).toBe(200);
    const logoUrl = ((await ok.json()) as { logoUrl: string }).logoUrl;
    expect(logoUrl).toMatch(/^https:\/\/app\.example\.com\/api\/branding\/logos\/[0-9a-f-]{36}-[0-9a-f]{16}\.png$/);
    const served = await t.app.request(new URL(logoUrl).pathname);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/png');
    expect((await sharp(Buffer.from(await served.arrayBuffer())).metadata()).format).toBe('png');
    const svg = await upload('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', 'image/svg+xml');
    expect(svg.status).toBe(400);
    const fake = await upload('not really a png', 'image/png');
    expect(fake.status).toBe(400);
    expect(((await fake.json()) as { fields: { logo: string } }).fields.logo).toMatch(/could not be read/);
    expect((await upload(Buffer.alloc(2 * 1024 * 1024, 1), 'image/png')).status).toBe(413);

    const client = (await call(t.app, 'POST', '/api/clients', newClient({ brandingProfileId: second.id }), agency.cookie)).body as { id: string; brandingProfileId: string };
    expect(client.brandingProfileId).toBe(second.id);
    const user = (await t.ctx.db.query.users.findFirst({ where: eq(users.id, agency.userId) }))!;
    const consultantId = agency.viewer.consultant!.id;
    expect((await brandingFor(t.ctx, { user, consultantId, profileId: client.brandingProfileId }))!.companyName).toBe('Northstar for Dentists');
    expect((await call(t.app, 'DELETE', `/api/branding-profiles/${second.id}`, undefined, agency.cookie)).status).toBe(200);
    const [row] = await t.ctx.db.select().from(clients).where(eq(clients.id, client.id));
    expect(row!.brandingProfileId).toBeNull();
    const fallback = await brandingFor(t.ctx, { user, consultantId, profileId: row!.brandingProfileId });
    expect(fallback!.companyName).toBe('Northstar Marketing');
    // The default profile counts the clients that fall back to it.
    const listed = (await call(t.app, 'GET', '/api/branding-profiles', undefined, agency.cookie)).body as { profiles: Array<{ id: string; clients: number }> };
    expect(listed.profiles.find((p) => p.id === first.id)!.clients).toBe(1);
    expect((await t.app.request(new URL(logoUrl).pathname)).status).toBe(404);
    // White-label is the agency plan's: a pro consultant's reports carry no branding.
    await t.ctx.db.update(users).set({ subscriptionTier: 'pro' }).where(eq(users.id, agency.userId));
    expect(await brandingFor(t.ctx, { user: { ...user, subscriptionTier: 'pro' }, consultantId, profileId: null })).toBeNull();
  });
});

describe('report status', () => {
  it('a report is "opened" once its online page is read, and "failed" when its job gave up', async () => {
    const { recordOpened } = await import('../../api/services/reports.ts');
    const pro = await createUser(t.ctx, { role: 'consultant', tier: 'pro' });
    const { body } = await call(t.app, 'POST', '/api/clients', newClient({ clientEmail: 'status@client.example' }), pro.cookie);
    const id = (body as { id: string }).id;
    await drain();
    const [row] = await t.ctx.db.select().from(reports).where(eq(reports.clientId, id));
    await recordOpened(t.ctx, row!.id);
    const detail = (await call(t.app, 'GET', `/api/clients/${id}`, undefined, pro.cookie)).body as { reports: Array<{ status: string; openedAt: string }> };
    expect(detail.reports[0]).toMatchObject({ status: 'opened', openedAt: expect.any(String) });
    const { clientReportJob } = await import('../../api/report/client-report-job.ts');
    await t.ctx.db.update(reports).set({ emailSent: false }).where(eq(reports.id, row!.id));
    await clientReportJob({ analyse: async () => reportDataFixture() }).onGiveUp!(t.ctx, { progress: { reportId: row!.id } } as never, 'test');
    const after = (await call(t.app, 'GET', `/api/clients/${id}`, undefined, pro.cookie)).body as { reports: Array<{ status: string }> };
    expect(after.reports[0]!.status).toBe('failed');
  });
});
