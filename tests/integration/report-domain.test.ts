// A branding profile's report domain (decision 0172): the TXT record is checked through real DNS
// (a local DNS server on loopback), then every link of that profile's e-mails goes to the domain,
// and that host serves only that agency's reports and their links; other hosts are refused.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { runRetentionPurge, scheduleRetentionPurge } from '../../api/services/data-rights/retention-job.ts';
import { REPORT_DOMAIN_CLAIM_DAYS } from '../../api/services/report-domains/domains.ts';
import { reportHostGate } from '../../api/services/report-domains/host.ts';
import { brandingProfiles } from '../../db/schema/consultants.ts';
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
  const worker = createWorker(t.ctx, { registry: testRegistry({ analyse: async () => reportDataFixture({ seed: 5 }) }) });
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
    for (const path of [`/report/${mine!.token}`, `/api/reports/${mine!.token}/report.pdf`, `/api/reports/${mine!.token}/score-card.png`, `/unsubscribe?token=${mine!.token}`, `/api/unsubscribe?token=${mine!.token}`, '/_astro/base.Ab12.css', '/delete-data', '/api/sample-sites/eyJuIjoiQmF5In0/']) {
      expect((await gate(`${host}:443`, path)).kind, path).toBe('report-domain');
    }
    for (const path of [`/report/${notMine!.token}`, '/report/unknown-token-0000000000', '/', '/account', '/api/health', '/api/auth/me', '/dashboard', '/favicon.svg']) {
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

describe('claims on one domain by two agencies (issue 36, decision 0213)', () => {
  const domain = 'reports.agency-a.example';
  const label = `_report-domain.${domain}`;
  const agencyWithProfile = async (name: string) => {
    const user = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: name });
    const profile = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: name }, user.cookie)).body as { id: string };
    return { ...user, profileId: profile.id, path: `/api/branding-profiles/${profile.id}/domain` };
  };
  const profileOf = async (agency: { cookie: string; profileId: string }) => (await call(t.app, 'GET', `/api/branding-profiles/${agency.profileId}`, undefined, agency.cookie)).body;
  const mailTo = (email: string) => smtp.received.filter((m) => m.envelope.to.includes(email));
  const txtOf = (setup: { records: Array<{ type: string; value: string }> }) => setup.records.find((r) => r.type === 'TXT')!.value;

  it('both may claim; the squatter cannot verify without the TXT record; the owner verifies and wins; the squatter is released and e-mailed', async () => {
    const owner = await agencyWithProfile('Agency A');
    const squatter = await agencyWithProfile('Agency B');

    // B claims A's domain first: a claim holds nothing, so A can still claim it.
    const b = await call(t.app, 'PUT', squatter.path, { domain }, squatter.cookie);
    expect(b.status).toBe(200);
    expect(b.body).toMatchObject({ domain, verified: false });
    const expires = Date.parse(b.body.claimExpiresAt);
    expect(expires - Date.now()).toBeGreaterThan((REPORT_DOMAIN_CLAIM_DAYS * 24 - 1) * 3600_000);
    expect(expires - Date.now()).toBeLessThanOrEqual(REPORT_DOMAIN_CLAIM_DAYS * 24 * 3600_000);
    const a = await call(t.app, 'PUT', owner.path, { domain }, owner.cookie);
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ domain, verified: false });
    expect(txtOf(a.body)).not.toBe(txtOf(b.body));

    // B cannot verify: no record, then only A's value (A controls the DNS).
    const none = await call(t.app, 'POST', `${squatter.path}/verify`, undefined, squatter.cookie);
    expect(none.body).toMatchObject({ verified: false });
    expect(none.body.problem).toMatch(/No TXT record/);
    txt[label] = [txtOf(a.body)];
    const wrong = await call(t.app, 'POST', `${squatter.path}/verify`, undefined, squatter.cookie);
    expect(wrong.body).toMatchObject({ verified: false });
    expect(wrong.body.problem).toMatch(/does not hold/);
    expect((await t.app.request(`/api/tls/ask?domain=${domain}`)).status).toBe(404);

    // A verifies and wins; B's claim is released.
    const verified = await call(t.app, 'POST', `${owner.path}/verify`, undefined, owner.cookie);
    expect(verified.body).toMatchObject({ domain, verified: true, claimExpiresAt: null, problem: null });
    expect((await t.app.request(`/api/tls/ask?domain=${domain}`)).status).toBe(200);
    expect((await profileOf(owner)).domain).toMatchObject({ domain, verified: true });
    const released = await profileOf(squatter);
    expect(released.domain).toBeNull();
    expect(released.domainReleased).toMatchObject({ domain, reason: 'taken' });
    // Its verify (a second tab, or one that began after A's had finished) says what happened, not "add one".
    const late = await call(t.app, 'POST', `${squatter.path}/verify`, undefined, squatter.cookie);
    expect(late.status).toBe(200);
    expect(late.body).toMatchObject({ domain, verified: false, released: true, problem: expect.stringMatching(/^Another account verified /) });
    // Verified now: nobody else may claim it.
    expect((await call(t.app, 'PUT', squatter.path, { domain }, squatter.cookie)).body.fields.domain).toMatch(/already in use/);

    // B is told by e-mail, through the account e-mail; A gets no such e-mail.
    await drain();
    const [notice, ...more] = mailTo(squatter.email);
    expect(more).toEqual([]);
    expect(notice!.parsed.subject).toBe(`Your claim on ${domain} was released`);
    expect(notice!.parsed.text).toContain(`Another LocalRank account proved that it controls ${domain}`);
    expect(notice!.parsed.text).toContain('https://app.example.com/branding');
    expect(mailTo(owner.email)).toEqual([]);

    // Adding another domain clears the note.
    await call(t.app, 'PUT', squatter.path, { domain: 'reports.agency-b.example' }, squatter.cookie);
    expect((await profileOf(squatter)).domainReleased).toBeNull();
  });

  it('two verifications at once: exactly one wins, the other claim is released and says so', async () => {
    const first = await agencyWithProfile('Agency F');
    const second = await agencyWithProfile('Agency G');
    const contested = 'reports.contested.example';
    const a = (await call(t.app, 'PUT', first.path, { domain: contested }, first.cookie)).body;
    const b = (await call(t.app, 'PUT', second.path, { domain: contested }, second.cookie)).body;
    txt[`_report-domain.${contested}`] = [txtOf(a), txtOf(b)];
    const results = (await Promise.all([first, second].map((agency) => call(t.app, 'POST', `${agency.path}/verify`, undefined, agency.cookie)))).map((r) => r.body);
    expect(results.filter((r) => r.verified)).toHaveLength(1);
    expect(results.find((r) => !r.verified)).toMatchObject({ released: true, problem: expect.stringMatching(/^Another account verified reports\.contested\.example first/) });
    const rows = await t.ctx.db.query.brandingProfiles.findMany({ where: eq(brandingProfiles.customDomain, contested) });
    expect(rows.map((r) => r.domainVerifiedAt !== null)).toEqual([true]);
  });

  it('one agency cannot claim the same domain on two of its profiles', async () => {
    const agency = await agencyWithProfile('Agency E');
    const second = (await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Agency E West' }, agency.cookie)).body as { id: string };
    expect((await call(t.app, 'PUT', agency.path, { domain: 'reports.agency-e.example' }, agency.cookie)).status).toBe(200);
    const again = await call(t.app, 'PUT', `/api/branding-profiles/${second.id}/domain`, { domain: 'reports.agency-e.example' }, agency.cookie);
    expect(again.status).toBe(400);
    expect(again.body.fields.domain).toBe('This domain is already added to your profile Agency E.');
  });

  it('an unverified claim older than 7 days is released by the daily purge job, its agency e-mailed; a younger one stays', async () => {
    const stale = await agencyWithProfile('Agency C');
    const fresh = await agencyWithProfile('Agency D');
    expect((await call(t.app, 'PUT', stale.path, { domain: 'reports.agency-c.example' }, stale.cookie)).status).toBe(200);
    expect((await call(t.app, 'PUT', fresh.path, { domain: 'reports.agency-d.example' }, fresh.cookie)).status).toBe(200);
    const day = 24 * 3600_000;
    const claimed = (profileId: string, ago: number) => t.ctx.db.update(brandingProfiles).set({ domainClaimedAt: new Date(Date.now() - ago) }).where(eq(brandingProfiles.id, profileId));
    await claimed(stale.profileId, REPORT_DOMAIN_CLAIM_DAYS * day + 60_000);
    await claimed(fresh.profileId, REPORT_DOMAIN_CLAIM_DAYS * day - 3600_000);

    // The daily purge job (data.retention-purge), as the scheduler queues it.
    await scheduleRetentionPurge(t.ctx);
    await drain();
    const gone = await profileOf(stale);
    expect(gone.domain).toBeNull();
    expect(gone.domainReleased).toMatchObject({ domain: 'reports.agency-c.example', reason: 'expired' });
    expect((await profileOf(fresh)).domain).toMatchObject({ domain: 'reports.agency-d.example', verified: false });
    const [notice] = mailTo(stale.email);
    expect(notice!.parsed.subject).toBe('Your claim on reports.agency-c.example ended unverified');
    expect(mailTo(fresh.email)).toEqual([]);
    // Once released, another run finds nothing more to release.
    expect((await runRetentionPurge(t.ctx)).expiredDomainClaims).toBe(0);
  });
});
