// White-label end to end through the jobs and a real SMTP server: a client report in a
// non-default branding profile arrives under the agency's name, with its Reply-To and footer and
// nothing of LocalRank; a deleted profile falls back to the agency's default; any report row with
// a branding profile (a widget lead's too) renders branded; the branding preview draws unsaved
// values with the production renderers.
import { rmSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { createRegistry } from '../../api/jobs/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { reportFiles } from '../../api/report/files/store.ts';
import { reportSender } from '../../api/services/branding/sender.ts';
import { consumeRateLimits } from '../../api/services/rate-limit.ts';
import { BRANDING_PREVIEW_PER_MINUTE } from '../../common/schemas/branding.ts';
import { users } from '../../db/schema/auth.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { createReportRequest } from '../helpers/report-requests.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://app.example.com', MAIL_FROM: 'LocalRank <reports@app.example.com>' });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
});

const drain = async () => {
  const worker = createWorker(t.ctx, { registry: createRegistry({ analyse: async () => reportDataFixture({ seed: 5 }) }) });
  while (await worker.runNext());
};
const pdfText = async (pdf: ArrayBuffer | Uint8Array) => (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true })).text;
const newClient = (email: string, brandingProfileId?: string) => ({
  clientName: 'Dana Whitfield',
  clientEmail: email,
  company: 'Whitfield Dental',
  website: 'https://whitfield-dental.example',
  address: '100 Congress Ave',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  ...(brandingProfileId ? { brandingProfileId } : {}),
});

async function agencyWithProfiles() {
  const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const a = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing', contactEmail: 'hello@northstar.example', footerText: 'Northstar Marketing LLC · 500 Main St, Austin, TX 78701' }, agency.cookie)).body as { id: string };
  const b = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar for Dentists', primaryColor: '#0F766E', contactEmail: 'dentists@northstar.example', contactPhone: '(512) 555-0188', footerText: 'Northstar Dental Marketing · 12 Elm St, Austin, TX 78702' }, agency.cookie)).body as { id: string };
  const logo = await sharp({ create: { width: 200, height: 60, channels: 3, background: '#0f766e' } }).png().toBuffer();
  const up = await t.app.request(`/api/branding-profiles/${b.id}/logo`, { method: 'PUT', headers: { cookie: agency.cookie, 'content-type': 'image/png' }, body: new Uint8Array(logo) });
  expect(up.status).toBe(200);
  return { agency, a, b };
}

describe('a client report in a non-default branding profile', () => {
  it("arrives under the agency's name, replies go to the profile's address, its footer replaces ours; a deleted profile falls back to the default", async () => {
    const { agency, a, b } = await agencyWithProfiles();
    const client = (await call(t.app, 'POST', '/api/clients', newClient('dana@whitelabel.example', b.id), agency.cookie)).body as { id: string };
    await drain();
    const [mail] = smtp.received.filter((m) => m.envelope.to.includes('dana@whitelabel.example'));
    expect(mail).toBeDefined();
    const parsed = mail!.parsed;
    expect(parsed.from).toMatchObject({ name: 'Northstar for Dentists', address: 'reports@app.example.com' });
    expect(parsed.replyTo).toEqual([expect.objectContaining({ address: 'dentists@northstar.example' })]);
    // The agency's copy is a message of its own, with its own unsubscribe (issue 37).
    expect(parsed.cc ?? []).toEqual([]);
    expect(smtp.received.filter((m) => m.envelope.to.includes(agency.email)).map((m) => m.parsed.subject)).toEqual([expect.stringMatching(/^Copy of the report sent to /)]);
    expect(parsed.subject).toContain('Northstar for Dentists');
    for (const body of [parsed.text!, parsed.html!]) {
      expect(body).toContain('Northstar Dental Marketing · 12 Elm St, Austin, TX 78702');
      expect(body).not.toContain('600 Congress Avenue');
      expect(body).not.toMatch(/LocalRank/);
    }
    const pdf = parsed.attachments.find((x) => x.mimeType === 'application/pdf')!;
    expect(pdf.filename).toBe('austin-family-dental-report-example-figures.pdf'); // the analysed name
    const text = await pdfText(pdf.content as ArrayBuffer);
    expect(text).toContain('Northstar for Dentists');
    expect(text).toContain('Example figures, not your real listings');
    expect(text).not.toMatch(/LocalRank/i);
    const [row] = await t.ctx.db.select().from(reports).where(eq(reports.clientId, client.id));
    expect(row!.brandingProfileId).toBe(b.id);

    // The profile is deleted: the report's row loses it, and it renders in the agency's default.
    expect((await call(t.app, 'DELETE', `/api/branding-profiles/${b.id}`, undefined, agency.cookie)).status).toBe(200);
    const [after] = await t.ctx.db.select().from(reports).where(eq(reports.id, row!.id));
    expect(after!.brandingProfileId).toBeNull();
    expect((await reportSender(t.ctx, after!)).branding!.id).toBe(a.id);
    rmSync(reportFiles(t.ctx, row!.id).dir, { recursive: true, force: true });
    const res = await t.app.request(`/api/reports/${row!.token}/report.pdf`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toContain('whitfield-dental-report-example-figures.pdf');
    const again = await pdfText(await res.arrayBuffer());
    expect(again).toContain('Northstar Marketing');
    expect(again).not.toContain('Northstar for Dentists');
    expect(again).not.toMatch(/LocalRank/i);

    // The next report goes out in the default profile too.
    await call(t.app, 'POST', `/api/clients/${client.id}/send`, { to: 'client' }, agency.cookie);
    await drain();
    const next = smtp.received.filter((m) => m.envelope.to.includes('dana@whitelabel.example'));
    expect(next).toHaveLength(2);
    expect(next[1]!.parsed.from).toMatchObject({ name: 'Northstar Marketing' });
    expect(next[1]!.parsed.replyTo).toEqual([expect.objectContaining({ address: 'hello@northstar.example' })]);
  });
});

describe('any report row with a branding profile', () => {
  it("renders in that profile (a widget lead's free report), and in ours once the agency plan lapses", async () => {
    const { agency, b } = await agencyWithProfiles();
    const { request } = await createReportRequest(t.ctx);
    await drain();
    const [row] = await t.ctx.db.select().from(reports).where(eq(reports.requestId, request.id));
    await t.ctx.db.update(reports).set({ brandingProfileId: b.id }).where(eq(reports.id, row!.id));
    const branded = (await t.ctx.db.select().from(reports).where(eq(reports.id, row!.id)))[0]!;
    const sender = await reportSender(t.ctx, branded);
    expect(sender.branding!.companyName).toBe('Northstar for Dentists');
    expect(sender.consultant!.email).toBe(agency.email);
    rmSync(reportFiles(t.ctx, row!.id).dir, { recursive: true, force: true });
    expect(await pdfText(await (await t.app.request(`/api/reports/${row!.token}/report.pdf`)).arrayBuffer())).toContain('Northstar for Dentists');

    await t.ctx.db.update(users).set({ subscriptionTier: 'pro' }).where(eq(users.id, agency.userId));
    expect((await reportSender(t.ctx, branded)).branding).toBeNull();
  });
});

describe('the branding preview', () => {
  it("draws the unsaved values with the production renderers: the PDF's first page, the score card and the e-mail", async () => {
    const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Preview Agency' });
    const logo = await sharp({ create: { width: 120, height: 40, channels: 3, background: '#be123c' } }).png().toBuffer();
    const body = { companyName: 'Bluebonnet Digital', primaryColor: '#BE123C', secondaryColor: '#1E293B', accentColor: '#0EA5E9', contactEmail: 'team@bluebonnet.example', footerText: 'Bluebonnet Digital · 9 Oak St, Dallas, TX 75201', logo: `data:image/png;base64,${logo.toString('base64')}` };
    const res = await call(t.app, 'POST', '/api/branding-profiles/preview', body, agency.cookie);
    expect(res.status).toBe(200);
    const preview = res.body as { pdfPage: string; scoreCard: string; email: { from: string; replyTo: string; subject: string; html: string } };
    const page = await sharp(Buffer.from(preview.pdfPage.split(',')[1]!, 'base64')).raw().toBuffer({ resolveWithObject: true });
    expect(page.info.width).toBeGreaterThan(800);
    expect([...page.data.subarray(4 * (page.info.width * 3 + 400), 4 * (page.info.width * 3 + 400) + 3)]).toEqual([0xbe, 0x12, 0x3c]);
    expect(preview.scoreCard).toMatch(/^data:image\/png;base64,/);
    expect(preview.email.from).toBe('"Bluebonnet Digital" <reports@app.example.com>');
    expect(preview.email.replyTo).toBe('team@bluebonnet.example');
    expect(preview.email.html).toContain('Bluebonnet Digital · 9 Oak St, Dallas, TX 75201');
    expect(preview.email.html).not.toMatch(/LocalRank|cid:/);
    // Nothing was stored.
    expect(((await call(t.app, 'GET', '/api/branding-profiles', undefined, agency.cookie)).body as { profiles: unknown[] }).profiles).toEqual([]);
    // A real logo (here ~150 KB of noise, far past the API's 64 KB JSON limit) previews too.
    const noise = await sharp(Buffer.from(Array.from({ length: 240 * 160 * 3 }, (_, i) => (i * 7919) % 251)), { raw: { width: 240, height: 160, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    expect(noise.length).toBeGreaterThan(64 * 1024);
    expect((await call(t.app, 'POST', '/api/branding-profiles/preview', { ...body, logo: `data:image/png;base64,${noise.toString('base64')}` }, agency.cookie)).status).toBe(200);

    const bad = await call(t.app, 'POST', '/api/branding-profiles/preview', { ...body, primaryColor: 'teal', logo: 'data:image/svg+xml;base64,PHN2Zz4=' }, agency.cookie);
    expect(bad.status).toBe(400);
    expect(Object.keys((bad.body as { fields: object }).fields).sort()).toEqual(['logo', 'primaryColor']);
    const pro = await createUser(t.ctx, { role: 'consultant', tier: 'pro' });
    expect((await call(t.app, 'POST', '/api/branding-profiles/preview', body, pro.cookie)).status).toBe(403);
    expect((await call(t.app, 'POST', '/api/branding-profiles/preview', body)).status).toBe(401);
    const other = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
    const theirs = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Theirs' }, other.cookie)).body as { id: string };
    expect((await call(t.app, 'POST', '/api/branding-profiles/preview', { ...body, profileId: theirs.id }, agency.cookie)).status).toBe(404);

    for (let i = 0; i < BRANDING_PREVIEW_PER_MINUTE; i++) {
      await consumeRateLimits({ ctx: t.ctx, input: [{ key: `branding-preview:${agency.userId}`, limit: 1000, windowMs: 60_000, message: '' }] });
    }
    const limited = await call(t.app, 'POST', '/api/branding-profiles/preview', body, agency.cookie);
    expect(limited.status).toBe(429);
  }, 30_000);
});
