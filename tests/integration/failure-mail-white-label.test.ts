// A report that could not be made is told by e-mail in the name the report would have carried
// (issue 37): an agency's widget lead and an agency's client hear from the agency alone, through
// its own mail server when it has one, with a link to its website or none; every header and part
// is searched for our name, domains and the operator's name and address. A visitor of our own form
// still hears from us, with our form's link.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { PermanentJobError } from '../../api/jobs/errors.ts';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { requestReportViaApi } from '../../api/services/api-reports.ts';
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import { agencyMailServers, consultants } from '../../db/schema/consultants.ts';
import { reportRequests } from '../../db/schema/businesses.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { startSmtpServer, type ReceivedMail } from '../helpers/smtp.ts';

let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let agencySmtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  smtp = await startSmtpServer();
  agencySmtp = await startSmtpServer();
  t = await createTestContext({
    SMTP_URL: smtp.url,
    PUBLIC_BASE_URL: 'https://reports.neutral-host.example',
    WHITE_LABEL_MAIL_FROM: 'reports@client-reports.example',
    WIDGET_RATE_LIMIT_PER_IP: '1000',
    // The agency's test server listens on loopback, which only an operator's list lets through.
    AGENCY_MAIL_PRIVATE_ADDRESSES: '127.0.0.1',
  });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
  await agencySmtp.close();
});

/** Every analysis fails for good (an address nobody can place): the request gives up at once. */
const drainFailing = async () => {
  const registry = testRegistry({
    analyse: async () => {
      throw new PermanentJobError('the address could not be placed on the map');
    },
  });
  const worker = createWorker(t.ctx, { registry });
  while (await worker.runNext());
};

/** Our names and addresses, as any part of a message might carry them. */
const OURS_LIST = [
  PRODUCT_NAME,
  'localrank',
  OPERATOR.name,
  OPERATOR.legalName,
  OPERATOR.postalAddress,
  '600 Congress',
  OPERATOR.supportEmail,
  OPERATOR.salesEmail,
  OPERATOR.privacyEmail,
  OPERATOR.supportEmail.split('@')[1]!,
];
const OURS = new RegExp(OURS_LIST.map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'i');

/** Every header (unfolded) and every part, decoded. */
function everything(mail: ReceivedMail): string[] {
  const headers = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  return [headers, mail.raw, mail.parsed.text ?? '', mail.parsed.html ?? '', mail.envelope.from, ...mail.parsed.headers.map((h) => `${h.key}: ${h.value}`)];
}
const to = (server: typeof smtp, address: string) => server.received.filter((m) => m.envelope.to.includes(address));
const links = (mail: ReceivedMail) => [...(mail.parsed.html ?? '').matchAll(/href="([^"]+)"/g)].map((m) => m[1]);

const lead = (email: string) => ({
  fullName: 'Riley Park',
  email,
  company: 'Park Street Bakery',
  role: 'owner',
  website: 'https://parkstreetbakery.example',
  address: '200 Congress Ave',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  consent: true,
});

async function agencyWithWidget(profile: Record<string, unknown>) {
  const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const created = await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing', footerText: 'Northstar Marketing LLC · 500 Main St, Austin, TX 78701', ...profile }, agency.cookie);
  expect(created.status).toBe(201);
  const key = await call(
    t.app,
    'POST',
    '/api/widget/keys',
    { name: 'Main site', allowedHostnames: ['northstar.example'], brandingProfileId: created.body.id, components: ['report-form'], scoreCardClientId: null, leadEmails: 'daily' },
    agency.cookie,
  );
  expect(key.status).toBe(201);
  const consultant = (await t.ctx.db.query.consultants.findFirst({ where: eq(consultants.userId, agency.userId) }))!;
  return { agency, consultant, publishableKey: key.body.publishableKey as string };
}

async function sendLead(publishableKey: string, email: string) {
  const res = await t.app.request(`/api/widget/v1/${publishableKey}/leads`, { method: 'POST', headers: { origin: 'https://northstar.example', 'content-type': 'application/json' }, body: JSON.stringify(lead(email)) });
  expect(res.status).toBe(202);
}

function expectNoTraceOfUs(mail: ReceivedMail) {
  for (const part of everything(mail)) expect(part).not.toMatch(OURS);
}

describe("the e-mail of a report that could not be made", () => {
  it("tells an agency's widget lead in the agency's name, with a link to the agency's site and nothing of ours", async () => {
    const { publishableKey } = await agencyWithWidget({ website: 'https://northstar.example', contactEmail: 'hello@northstar.example' });
    await sendLead(publishableKey, 'riley@bakery.example');
    await drainFailing();
    const [mail, ...more] = to(smtp, 'riley@bakery.example');
    expect(more).toHaveLength(0);
    expectNoTraceOfUs(mail!);
    expect(mail!.parsed.subject).toBe('We could not finish your report for Park Street Bakery');
    expect(mail!.parsed.from).toEqual({ name: 'Northstar Marketing', address: 'reports@client-reports.example' });
    expect(mail!.envelope.from).toBe('reports@client-reports.example');
    expect(mail!.parsed.messageId).toMatch(/@client-reports\.example>$/);
    expect(mail!.parsed.replyTo).toEqual([{ name: '', address: 'hello@northstar.example' }]);
    // The one link is the agency's site, where its form is; the footer is the agency's.
    expect(links(mail!)).toEqual(['https://northstar.example']);
    expect(mail!.parsed.text).toContain('Ask again: https://northstar.example');
    expect(mail!.parsed.text).toContain('500 Main St');
    expect(mail!.parsed.html).toContain('500 Main St');
  });

  it("leaves through the agency's own mail server, and links nowhere when the agency has no website", async () => {
    const { consultant, publishableKey } = await agencyWithWidget({});
    await t.ctx.db.insert(agencyMailServers).values({ consultantId: consultant.id, host: '127.0.0.1', port: agencySmtp.port, security: 'none', fromAddress: 'reports@northstar.example' });
    await sendLead(publishableKey, 'sam@plumbing.example');
    await drainFailing();
    expect(to(smtp, 'sam@plumbing.example')).toHaveLength(0);
    const [mail] = to(agencySmtp, 'sam@plumbing.example');
    expect(mail).toBeDefined();
    expectNoTraceOfUs(mail!);
    expect(mail!.parsed.from).toEqual({ name: 'Northstar Marketing', address: 'reports@northstar.example' });
    expect(mail!.parsed.messageId).toMatch(/@northstar\.example>$/);
    // No contact address on the profile: replies reach the consultant.
    expect(mail!.parsed.replyTo?.[0]?.address).toMatch(/^consultant-.*@example\.com$/);
    expect(links(mail!)).toEqual([]);
    expect(mail!.parsed.text).not.toMatch(/https?:\/\//);
    expect(mail!.parsed.text).toContain('ask again where you asked before');
  });

  it("tells an agency's client whose report was asked for over the API in the agency's name", async () => {
    const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
    await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing', website: 'https://northstar.example', footerText: 'Northstar Marketing LLC · 500 Main St, Austin, TX 78701' }, agency.cookie);
    const client = await call(t.app, 'POST', '/api/clients', { clientName: 'Dana Whitfield', clientEmail: 'dana@whitfield.example', company: 'Whitfield Dental', website: 'https://whitfield.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' }, agency.cookie);
    expect(client.status).toBe(201);
    const { id } = await requestReportViaApi({
      ctx: t.ctx,
      userId: agency.userId,
      input: { fullName: 'Dana Whitfield', email: 'dana@whitfield.example', company: 'Whitfield Dental', role: 'owner', website: 'https://whitfield.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', clientId: client.body.id },
      ip: '198.51.100.7',
      userAgent: null,
    });
    await drainFailing();
    expect((await t.ctx.db.query.reportRequests.findFirst({ where: eq(reportRequests.id, id) }))!.status).toBe('failed');
    const failed = to(smtp, 'dana@whitfield.example').filter((m) => /could not finish/.test(m.parsed.subject ?? ''));
    expect(failed).toHaveLength(1);
    expectNoTraceOfUs(failed[0]!);
    expect(failed[0]!.parsed.from).toEqual({ name: 'Northstar Marketing', address: 'reports@client-reports.example' });
    expect(links(failed[0]!)).toEqual(['https://northstar.example']);
  });

  it('tells a visitor of our own form in our name, with our form', async () => {
    const res = await call(t.app, 'POST', '/api/submit-request', { ...lead('pat@visitor.example'), company: 'Visitor Bakery' });
    expect(res.status).toBe(202);
    await drainFailing();
    const [mail] = to(smtp, 'pat@visitor.example');
    expect(mail!.parsed.subject).toBe(`We could not finish your ${PRODUCT_NAME} report for Visitor Bakery`);
    expect(mail!.parsed.from?.address).toBe('reports@localrank.app');
    expect(links(mail!)).toEqual(['https://reports.neutral-host.example/#report-form']);
    expect(mail!.parsed.text).toContain(OPERATOR.postalAddress);
  });
});
