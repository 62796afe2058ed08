// Two machines on one database, each with a DATA_DIR of its own (decision 0208): a logo uploaded
// through one is served by the other and drawn in the reports the other renders; an export a
// worker makes is downloaded through the other web process, and the daily purge removes it for
// both; an erasure through one stops the other serving its cached report files at once and its
// sweep removes them; an upgraded DATA_DIR's logo and export files move into the database.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { and, count, eq } from 'drizzle-orm';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import sharp from 'sharp';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app.ts';
import type { AppContext } from '../../api/context.ts';
import { createContext } from '../../api/create-context.ts';
import { closeMailer, outboxDir } from '../../api/email/mailer.ts';
import { loadEnv } from '../../api/env.ts';
import { createRegistry } from '../../api/jobs/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { startReportFilesSweep, sweepReportFiles, UNSTAMPED_GRACE_MS } from '../../api/report/files/sweep.ts';
import { reportFiles } from '../../api/report/files/store.ts';
import { inlineRenderer, type Renderer } from '../../api/report/render/renderer.ts';
import type { Branding } from '../../api/report/model/branding.ts';
import { eraseAccount } from '../../api/services/data-rights/account-closure.ts';
import { forgetEmail } from '../../api/services/data-rights/erasure.ts';
import { readExport, purgeExpiredExports } from '../../api/services/data-rights/export.ts';
import { signLink } from '../../api/lib/signed-link.ts';
import { brandingProfiles } from '../../db/schema/consultants.ts';
import { dataExports } from '../../db/schema/data-rights.ts';
import { brandingLogos, dataExportChunks } from '../../db/schema/files.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { createReportRequest } from '../helpers/report-requests.ts';

const base = 'https://app.example.com';
const DAY = 24 * 60 * 60 * 1000;
const settings = { PUBLIC_BASE_URL: base, AUTH_SECRET: 'one-secret-for-every-machine-0123456789abcdef' };

let t: TestContext;
/** The second machine: its own DATA_DIR, the same database. */
let b: { ctx: AppContext; app: ReturnType<typeof createApp>; dataDir: string };
const others: AppContext[] = [];

async function machine(dataDir: string) {
  const ctx = await createContext(loadEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', WORKER: 'off', ...settings, DATA_DIR: dataDir, DATABASE_URL: t.ctx.env.DATABASE_URL }), { migrate: true });
  others.push(ctx);
  return ctx;
}

beforeAll(async () => {
  t = await createTestContext(settings);
  const dataDir = mkdtempSync(join(tmpdir(), 'localrank-test-b-'));
  const ctx = await machine(dataDir);
  b = { ctx, app: createApp(ctx), dataDir };
});
afterAll(async () => {
  for (const ctx of others) {
    closeMailer(ctx);
    ctx.db.$client.close();
    rmSync(ctx.env.DATA_DIR, { recursive: true, force: true });
  }
  closeMailer(t.ctx);
  await t.close();
});

/** Runs every queued job on `ctx`'s machine, rendering through `renderer`. */
async function drain(ctx: AppContext, renderer: Renderer = inlineRenderer()) {
  const worker = createWorker(ctx, { registry: createRegistry({ analyse: async () => reportDataFixture({ seed: 5 }), renderer }) });
  while (await worker.runNext());
}

/** A renderer that notes the branding each render got. */
function watchingRenderer(seen: Array<Branding | null>): Renderer {
  const inner = inlineRenderer();
  return { ...inner, render: (data, links, branding = null, options) => (seen.push(branding), inner.render(data, links, branding, options)) };
}

const pdfText = async (pdf: ArrayBuffer | Uint8Array) => (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true })).text;
const pathOf = (url: string) => new URL(url).pathname + new URL(url).search;

/** The latest link to `path` e-mailed to `to`, from the outbox of `ctx`'s machine. */
function linkIn(ctx: AppContext, to: string, path: string): string {
  const dir = outboxDir(ctx);
  for (const f of readdirSync(dir).sort().reverse()) {
    const raw = readFileSync(join(dir, f), 'latin1').replace(/=\r?\n/g, '').replace(/=3D/g, '=');
    if (!raw.toLowerCase().includes(to.toLowerCase())) continue;
    const m = raw.match(new RegExp(`${base.replace(/[.]/g, '\\.')}${path}\\?token=[A-Za-z0-9._%-]+`));
    if (m) return m[0];
  }
  throw new Error(`no e-mail to ${to} with ${path}`);
}

async function agencyWithLogo(tag: string) {
  const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: `Lanternfish Agency ${tag}` });
  const profile = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: `Lanternfish Brand ${tag}`, primaryColor: '#0F766E' }, agency.cookie)).body as { id: string };
  const upload = await sharp({ create: { width: 160, height: 48, channels: 3, background: '#0f766e' } }).png().toBuffer();
  const up = await t.app.request(`/api/branding-profiles/${profile.id}/logo`, { method: 'PUT', headers: { cookie: agency.cookie, 'content-type': 'image/png' }, body: new Uint8Array(upload) });
  expect(up.status).toBe(200);
  const { logoUrl } = (await up.json()) as { logoUrl: string };
  return { agency, profileId: profile.id, logoUrl };
}

describe('a logo uploaded through one machine', () => {
  it('is served by the other, drawn in the client report the other renders, and replaced for both', async () => {
    const { agency, profileId, logoUrl } = await agencyWithLogo('l1');
    const fromA = await t.app.request(pathOf(logoUrl));
    const fromB = await b.app.request(pathOf(logoUrl));
    expect([fromA.status, fromB.status]).toEqual([200, 200]);
    const png = Buffer.from(await fromB.arrayBuffer());
    expect(png.equals(Buffer.from(await fromA.arrayBuffer()))).toBe(true);
    expect(fromB.headers.get('content-type')).toBe('image/png');
    // Neither machine keeps it on its disk.
    for (const dir of [t.dataDir, b.dataDir]) expect(existsSync(join(dir, 'files', 'branding'))).toBe(false);

    // A client's report, made and rendered by a worker on the other machine, is drawn with it.
    const client = await call(t.app, 'POST', '/api/clients', { clientName: 'Dana Whitfield', clientEmail: 'dana@lanternfish.example', company: 'Whitfield Dental', website: 'https://whitfield-dental.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', brandingProfileId: profileId }, agency.cookie);
    expect(client.status).toBe(201);
    const seen: Array<Branding | null> = [];
    await drain(b.ctx, watchingRenderer(seen));
    const drawn = seen.find((s) => s?.id === profileId);
    expect(drawn?.logoPng && Buffer.from(drawn.logoPng).equals(png)).toBe(true);
    const mail = readdirSync(outboxDir(b.ctx)).map((f) => readFileSync(join(outboxDir(b.ctx), f), 'latin1').replace(/=\r?\n/g, '').replace(/=3D/g, '=')).find((m) => m.includes('dana@lanternfish.example'));
    expect(mail).toContain(logoUrl);

    // Replaced through the other machine: the old name is gone for both, the new one served by both.
    const next = await sharp({ create: { width: 90, height: 90, channels: 3, background: '#be123c' } }).png().toBuffer();
    const up = await b.app.request(`/api/branding-profiles/${profileId}/logo`, { method: 'PUT', headers: { cookie: agency.cookie, 'content-type': 'image/png' }, body: new Uint8Array(next) });
    const { logoUrl: nextUrl } = (await up.json()) as { logoUrl: string };
    expect(nextUrl).not.toBe(logoUrl);
    expect((await t.app.request(pathOf(logoUrl))).status).toBe(404);
    expect((await t.app.request(pathOf(nextUrl))).status).toBe(200);
    expect((await t.ctx.db.select({ file: brandingLogos.file }).from(brandingLogos).where(eq(brandingLogos.profileId, profileId))).map((r) => r.file)).toEqual([nextUrl.split('/').pop()]);
    // Removed: nothing served; the profile's deletion takes its logo row with it.
    expect((await b.app.request(`/api/branding-profiles/${profileId}/logo`, { method: 'DELETE', headers: { cookie: agency.cookie } })).status).toBe(200);
    expect((await t.app.request(pathOf(nextUrl))).status).toBe(404);
    await b.app.request(`/api/branding-profiles/${profileId}/logo`, { method: 'PUT', headers: { cookie: agency.cookie, 'content-type': 'image/png' }, body: new Uint8Array(next) });
    expect((await call(t.app, 'DELETE', `/api/branding-profiles/${profileId}`, undefined, agency.cookie)).status).toBe(200);
    expect(await t.ctx.db.select().from(brandingLogos).where(eq(brandingLogos.profileId, profileId))).toEqual([]);
  });
});

describe('an export made by a worker on one machine', () => {
  it('downloads through the other, and the daily purge on either removes it for both', async () => {
    const { agency, profileId, logoUrl } = await agencyWithLogo('e1');
    expect((await call(t.app, 'POST', '/api/account/data/export', undefined, agency.cookie)).status).toBe(202);
    await drain(b.ctx);
    const url = linkIn(b.ctx, agency.email, '/api/data-exports/download');
    const res = await t.app.request(pathOf(url));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.headers.get('content-length')).toBe(String(bytes.byteLength));
    const zip = unzipSync(bytes);
    expect(strFromU8(zip['README.txt']!)).toContain(agency.email);
    const logo = Buffer.from(await (await t.app.request(pathOf(logoUrl))).arrayBuffer());
    expect(Buffer.from(zip[`logos/${profileId}.png`]!).equals(logo)).toBe(true);
    for (const dir of [t.dataDir, b.dataDir]) expect(existsSync(join(dir, 'files', 'exports'))).toBe(false);

    const row = (await t.ctx.db.query.dataExports.findFirst({ where: eq(dataExports.userId, agency.userId) }))!;
    const pieces = async () => (await t.ctx.db.select({ n: count() }).from(dataExportChunks).where(eq(dataExportChunks.exportId, row.id)))[0]!.n;
    expect(await pieces()).toBeGreaterThan(0);
    // Not yet expired: the purge keeps it.
    expect(await purgeExpiredExports(t.ctx)).toBe(0);
    expect((await b.app.request(pathOf(url))).status).toBe(200);
    // Expired: the purge run by the other machine removes it from the database, for every machine.
    expect(await purgeExpiredExports(b.ctx, new Date(row.expiresAt!.getTime() + 1))).toBe(1);
    expect(await pieces()).toBe(0);
    await expect(readExport(t.ctx, new URL(url).searchParams.get('token')!)).rejects.toThrow(/no longer available/);
    expect((await t.app.request(pathOf(url))).status).toBe(410);
    expect(await purgeExpiredExports(b.ctx, new Date(row.expiresAt!.getTime() + DAY))).toBe(0);
  });

  it('is stored once when two runs of its job race, and is never mixed', async () => {
    const owner = await createUser(t.ctx);
    expect((await call(t.app, 'POST', '/api/account/data/export', undefined, owner.cookie)).status).toBe(202);
    const row = (await t.ctx.db.query.dataExports.findFirst({ where: eq(dataExports.userId, owner.userId) }))!;
    // What a run that lost its lease would have left: pieces of its own, never claimed.
    await t.ctx.db.insert(dataExportChunks).values({ exportId: row.id, attempt: 'lost-run', seq: 0, bytes: Buffer.from('not a zip') });
    await drain(b.ctx);
    const stored = await t.ctx.db.select({ attempt: dataExportChunks.attempt }).from(dataExportChunks).where(eq(dataExportChunks.exportId, row.id));
    const ready = (await t.ctx.db.query.dataExports.findFirst({ where: eq(dataExports.id, row.id) }))!;
    expect(ready.status).toBe('ready');
    expect(stored.map((s) => s.attempt)).toEqual(stored.map(() => ready.archive));
    const res = await t.app.request(pathOf(linkIn(b.ctx, owner.email, '/api/data-exports/download')));
    expect(unzipSync(new Uint8Array(await res.arrayBuffer()))['README.txt']).toBeDefined();
  });
});

describe('cached report files after an erasure through the other machine', () => {
  it('are refused at once and swept: the erased report, and a visitor report in an erased brand', async () => {
    // A visitor's report, and a widget lead's report in an agency's brand, made by machine A and
    // fetched through machine B (which caches its own copies).
    const visitor = await createReportRequest(t.ctx, { company: 'Cobblestone Bakery' });
    const lead = await createReportRequest(t.ctx, { company: 'Saltmarsh Kayaks' });
    const kept = await createReportRequest(t.ctx, { company: 'Tidewater Books' });
    const { agency, profileId } = await agencyWithLogo('r1');
    await drain(t.ctx);
    const rowOf = async (requestId: string) => (await t.ctx.db.select().from(reports).where(eq(reports.requestId, requestId)))[0]!;
    const consultant = (await t.ctx.db.query.consultants.findFirst({ where: (c, { eq }) => eq(c.userId, agency.userId) }))!;
    await t.ctx.db.update(reports).set({ consultantId: consultant.id, brandingProfileId: profileId }).where(eq(reports.requestId, lead.request.id));
    const [visitorReport, leadReport, keptReport] = [await rowOf(visitor.request.id), await rowOf(lead.request.id), await rowOf(kept.request.id)];
    for (const r of [visitorReport, leadReport, keptReport]) expect((await b.app.request(`/api/reports/${r.token}/report.pdf`)).status).toBe(200);
    expect(await pdfText(await (await b.app.request(`/api/reports/${leadReport.token}/report.pdf`)).arrayBuffer())).toContain('Lanternfish Brand r1');
    for (const r of [visitorReport, leadReport, keptReport]) expect(existsSync(reportFiles(b.ctx, r.id).pdf)).toBe(true);

    // Erased through machine A: the visitor by their address, the agency with its account.
    await forgetEmail(t.ctx, visitor.request.email);
    await eraseAccount(t.ctx, agency.userId);
    for (const r of [visitorReport, leadReport]) expect(existsSync(reportFiles(t.ctx, r.id).dir)).toBe(false);
    // Machine B serves nothing of either from its cache: the erased report is gone, and the
    // visitor's report that stays is rendered again without the erased brand.
    expect((await b.app.request(`/api/reports/${visitorReport.token}/report.pdf`)).status).toBe(404);
    const unbranded = await b.app.request(`/api/reports/${leadReport.token}/report.pdf`);
    expect(unbranded.status).toBe(200);
    expect(await pdfText(await unbranded.arrayBuffer())).not.toContain('Lanternfish');
    // Its sweep removes the erased report's folder; the current ones stay.
    expect(existsSync(reportFiles(b.ctx, visitorReport.id).dir)).toBe(true);
    expect((await sweepReportFiles(b.ctx)).removed).toBeGreaterThanOrEqual(1);
    expect(existsSync(reportFiles(b.ctx, visitorReport.id).dir)).toBe(false);
    expect(existsSync(reportFiles(b.ctx, keptReport.id).pdf)).toBe(true);
    expect(readFileSync(reportFiles(b.ctx, leadReport.id).pdf).equals(Buffer.from(await (await b.app.request(`/api/reports/${leadReport.token}/report.pdf`)).arrayBuffer()))).toBe(true);
  });

  it("reach the other machine's disk through the database, not at its 10-minute sweep", async () => {
    const visitor = await createReportRequest(t.ctx, { company: 'Gullwing Ceramics' });
    await drain(t.ctx);
    const report = (await t.ctx.db.select().from(reports).where(eq(reports.requestId, visitor.request.id)))[0]!;
    expect((await b.app.request(`/api/reports/${report.token}/report.pdf`)).status).toBe(200);
    const folder = reportFiles(b.ctx, report.id).dir;
    expect(existsSync(folder)).toBe(true);
    // Machine B runs its sweep as a process does (at start, then every 10 minutes), reading the
    // erasures' count often; nothing else touches its disk.
    const stop = startReportFilesSweep(b.ctx, { pollMs: 50 });
    try {
      await forgetEmail(t.ctx, visitor.request.email);
      // A ceiling well under the 10-minute sweep; gone as soon as B reads the count.
      for (const end = Date.now() + 30_000; existsSync(folder) && Date.now() < end; ) await new Promise((r) => setTimeout(r, 50));
      expect(existsSync(folder)).toBe(false);
    } finally {
      await stop();
    }
  });

  it('a folder whose stamp names an erased brand is swept without being read; one without a stamp once it is old', async () => {
    const { agency, profileId } = await agencyWithLogo('r2');
    const lead = await createReportRequest(t.ctx, { company: 'Driftwood Surf' });
    const plain = await createReportRequest(t.ctx, { company: 'Oakmoss Candles' });
    await drain(t.ctx);
    const consultant = (await t.ctx.db.query.consultants.findFirst({ where: (c, { eq }) => eq(c.userId, agency.userId) }))!;
    await t.ctx.db.update(reports).set({ consultantId: consultant.id, brandingProfileId: profileId }).where(eq(reports.requestId, lead.request.id));
    const [leadReport] = await t.ctx.db.select().from(reports).where(eq(reports.requestId, lead.request.id));
    const [plainReport] = await t.ctx.db.select().from(reports).where(eq(reports.requestId, plain.request.id));
    for (const r of [leadReport!, plainReport!]) expect((await b.app.request(`/api/reports/${r.token}/score-card.png`)).status).toBe(200);
    await eraseAccount(t.ctx, agency.userId);
    // A folder from before stamps (no `brand` file): left while it may be being written, then swept.
    rmSync(reportFiles(b.ctx, plainReport!.id).brand);
    expect((await sweepReportFiles(b.ctx)).removed).toBe(1);
    expect(existsSync(reportFiles(b.ctx, leadReport!.id).dir)).toBe(false);
    expect(existsSync(reportFiles(b.ctx, plainReport!.id).pdf)).toBe(true);
    const old = (Date.now() - UNSTAMPED_GRACE_MS - 60_000) / 1000;
    utimesSync(reportFiles(b.ctx, plainReport!.id).dir, old, old);
    expect((await sweepReportFiles(b.ctx)).removed).toBe(1);
    expect(existsSync(reportFiles(b.ctx, plainReport!.id).dir)).toBe(false);
    // Asked for again, it is rendered and cached again, stamped.
    expect((await b.app.request(`/api/reports/${plainReport!.token}/score-card.png`)).status).toBe(200);
    expect(existsSync(reportFiles(b.ctx, plainReport!.id).brand)).toBe(true);
  });
});

describe('an install upgraded from logo and export files under DATA_DIR', () => {
  it('moves them into the database when it starts, and leaves a logo no profile names', async () => {
    const { profileId } = await agencyWithLogo('u1');
    const owner = await createUser(t.ctx);
    expect((await call(t.app, 'POST', '/api/account/data/export', undefined, owner.cookie)).status).toBe(202);
    const exportRow = (await t.ctx.db.query.dataExports.findFirst({ where: eq(dataExports.userId, owner.userId) }))!;
    // What the earlier version left: a logo file named by the profile, an orphan logo, a ready
    // export's ZIP and an expired one's (its row says ready; the link is valid a day more).
    const dir = mkdtempSync(join(tmpdir(), 'localrank-test-upgrade-'));
    const logoDir = join(dir, 'files', 'branding');
    const exportDir = join(dir, 'files', 'exports');
    mkdirSync(logoDir, { recursive: true });
    mkdirSync(exportDir, { recursive: true });
    const legacy = await sharp({ create: { width: 30, height: 30, channels: 3, background: '#123456' } }).png().toBuffer();
    const legacyFile = `${profileId}-0123456789abcdef.png`;
    const orphan = `${crypto.randomUUID()}-fedcba9876543210.png`;
    writeFileSync(join(logoDir, legacyFile), legacy);
    writeFileSync(join(logoDir, orphan), legacy);
    await t.ctx.db.update(brandingProfiles).set({ logoUrl: `${base}/api/branding/logos/${legacyFile}` }).where(eq(brandingProfiles.id, profileId));
    const zip = zipSync({ 'README.txt': new TextEncoder().encode(`Your data ${owner.email}`) });
    writeFileSync(join(exportDir, `${exportRow.id}.zip`), zip);
    writeFileSync(join(exportDir, `${crypto.randomUUID()}.zip`), zip);
    const now = new Date();
    const expiresAt = new Date(now.getTime() + DAY);
    await t.ctx.db.update(dataExports).set({ status: 'ready', bytes: zip.byteLength, readyAt: now, expiresAt }).where(eq(dataExports.id, exportRow.id));

    const upgraded = await machine(dir);
    expect(readdirSync(logoDir)).toEqual([orphan]);
    expect(existsSync(exportDir)).toBe(false);
    const served = await b.app.request(`/api/branding/logos/${legacyFile}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer()).equals(legacy)).toBe(true);
    const { body } = await readExport(upgraded, await signLink(t.ctx, 'export-download', exportRow.id, expiresAt));
    const downloaded = new Uint8Array(await new Response(body).arrayBuffer());
    expect(strFromU8(unzipSync(downloaded)['README.txt']!)).toBe(`Your data ${owner.email}`);
    expect(await t.ctx.db.select({ n: count() }).from(brandingLogos).where(and(eq(brandingLogos.profileId, profileId), eq(brandingLogos.file, legacyFile)))).toEqual([{ n: 1 }]);
  });
});
