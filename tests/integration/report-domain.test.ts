// A branding profile's report domain (decision 0172): the TXT record is checked through real DNS
// (a local DNS server on loopback), then every link of that profile's e-mails goes to the domain,
// and that host serves only that agency's reports and their links; other hosts are refused.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { createRegistry } from '../../api/jobs/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { reportHostGate } from '../../api/services/report-host.ts';
import { reports } from '../../db/schema/reports.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { startDnsServer } from '../helpers/dns.ts';
import { createUser } from '../helpers/factories.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

const txt: Record<string, string[]> = {};
let dns: Awaited<ReturnType<typeof startDnsServer>>;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let t: TestContext;
beforeAll(async () => {
  dns = await startDnsServer(() => txt);
  smtp = await startSmtpServer();
  t = await createTestContext({ SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'https://app.example.com', DNS_SERVERS: dns.server });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
  await dns.close();
});

const drain = async () => {
  const worker = createWorker(t.ctx, { registry: createRegistry({ analyse: async () => reportDataFixture({ seed: 5 }) }) });
  while (await worker.runNext());
};
const newClient = (email: string) => ({ clientName: 'Dana Whitfield', clientEmail: email, company: 'Whitfield Dental', website: 'https://whitfield.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' });

describe('a report domain', () => {
  it('is verified by its TXT record, then carries every link of the profile and serves only that agency', async () => {
    const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
    const profile = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing' }, agency.cookie)).body as { id: string };

    for (const bad of ['not a domain', 'app.example.com', 'x.app.example.com', '']) {
      const res = await call(t.app, 'PUT', `/api/branding-profiles/${profile.id}/domain`, { domain: bad }, agency.cookie);
      expect(res.status, bad).toBe(400);
      expect(res.body.fields.domain).toBeTruthy();
    }
    const set = await call(t.app, 'PUT', `/api/branding-profiles/${profile.id}/domain`, { domain: 'https://Reports.Northstar.example/' }, agency.cookie);
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ domain: 'reports.northstar.example', verified: false });
    const [cname, record] = set.body.records as Array<{ type: string; name: string; value: string }>;
    expect(cname).toEqual({ type: 'CNAME', name: 'reports.northstar.example', value: 'app.example.com' });
    expect(record).toMatchObject({ type: 'TXT', name: '_report-domain.reports.northstar.example' });

    // Not there yet, then another value, then the right one.
    const missing = await call(t.app, 'POST', `/api/branding-profiles/${profile.id}/domain/verify`, undefined, agency.cookie);
    expect(missing.body).toMatchObject({ verified: false });
    expect(missing.body.problem).toMatch(/No TXT record/);
    txt['_report-domain.reports.northstar.example'] = ['report-domain-verification=someone-else'];
    expect((await call(t.app, 'POST', `/api/branding-profiles/${profile.id}/domain/verify`, undefined, agency.cookie)).body.problem).toMatch(/does not hold/);
    txt['_report-domain.reports.northstar.example'] = ['v=spf1 -all', record!.value];
    const verified = await call(t.app, 'POST', `/api/branding-profiles/${profile.id}/domain/verify`, undefined, agency.cookie);
    expect(verified.body).toMatchObject({ verified: true, problem: null });
    expect((await call(t.app, 'GET', '/api/branding-profiles', undefined, agency.cookie)).body.profiles[0].domain.verified).toBe(true);

    // Another agency cannot take the domain.
    const other = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
    const theirs = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Other Agency' }, other.cookie)).body as { id: string };
    expect((await call(t.app, 'PUT', `/api/branding-profiles/${theirs.id}/domain`, { domain: 'reports.northstar.example' }, other.cookie)).body.fields.domain).toMatch(/already in use/);

    // Every link of the client's e-mail is on the domain.
    const client = (await call(t.app, 'POST', '/api/clients', newClient('dana@client.example'), agency.cookie)).body as { id: string };
    const otherClient = (await call(t.app, 'POST', '/api/clients', newClient('sam@client.example'), other.cookie)).body as { id: string };
    await drain();
    const mail = smtp.received.find((m) => m.envelope.to.includes('dana@client.example'))!;
    const links = [...mail.parsed.html!.matchAll(/href="(https?:[^"]+)"/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const url of links) expect(url.startsWith('https://reports.northstar.example/')).toBe(true);
    expect(mail.parsed.text).not.toContain('app.example.com');
    expect(mail.parsed.headers.find((h) => h.key === 'list-unsubscribe')!.value).toMatch(/^<https:\/\/reports\.northstar\.example\/api\/unsubscribe\?token=/);

    // The host serves that agency's report and its links, nothing else; other hosts nothing.
    const [mine] = await t.ctx.db.select().from(reports).where(eq(reports.clientId, client.id));
    const [notMine] = await t.ctx.db.select().from(reports).where(eq(reports.clientId, otherClient.id));
    const gate = reportHostGate(t.ctx);
    const host = 'reports.northstar.example';
    for (const path of [`/report/${mine!.token}`, `/api/reports/${mine!.token}/report.pdf`, `/api/reports/${mine!.token}/score-card.png`, `/unsubscribe?token=${mine!.token}`, `/api/unsubscribe?token=${mine!.token}`, '/_astro/base.Ab12.css', '/delete-data']) {
      expect((await gate(`${host}:443`, path)).kind, path).toBe('report-domain');
    }
    for (const path of [`/report/${notMine!.token}`, '/report/unknown-token-0000000000', '/', '/account', '/api/health', '/api/auth/me', '/dashboard']) {
      expect(await gate(host, path), path).toEqual({ kind: 'refused', status: 404, message: 'Not found' });
    }
    expect((await gate('evil.example', '/')).kind).toBe('refused');
    expect((await gate('evil.example', `/report/${mine!.token}`))).toMatchObject({ status: 421 });
    for (const ours of ['app.example.com', '127.0.0.1:4321', 'localhost']) expect((await gate(ours, '/account')).kind).toBe('ours');

    // The TLS proxy's question.
    expect((await t.app.request(`/api/tls/ask?domain=${host}`)).status).toBe(200);
    expect((await t.app.request('/api/tls/ask?domain=app.example.com')).status).toBe(200);
    expect((await t.app.request('/api/tls/ask?domain=evil.example')).status).toBe(404);
    expect((await t.app.request('/api/tls/ask')).status).toBe(404);

    // Removed: the links go back to our host.
    expect((await call(t.app, 'DELETE', `/api/branding-profiles/${profile.id}/domain`, undefined, agency.cookie)).status).toBe(200);
    expect((await t.app.request(`/api/tls/ask?domain=${host}`)).status).toBe(404);
  });
});
