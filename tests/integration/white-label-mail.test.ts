// White-label mail leaves no trace of us: a client's report e-mail, through the jobs and a real
// SMTP server, is read header by header and part by part (text, HTML, the score card's PNG, the
// PDF's text and metadata) for the product's and the operator's names and addresses. It leaves
// from the operator's neutral WHITE_LABEL_MAIL_FROM, or from the agency's own SMTP server, whose
// password is stored encrypted, never answered back, and cut out of every error.
import { inflateSync } from 'node:zlib';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { createRegistry } from '../../api/jobs/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { OPERATOR, PRODUCT_NAME } from '../../common/constants.ts';
import { eq } from 'drizzle-orm';
import { agencyMailServers, consultants } from '../../db/schema/consultants.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';
import { startRelay, type LoopbackServer } from '../helpers/agency-servers.ts';
import { startSmtpServer, type ReceivedMail } from '../helpers/smtp.ts';

const SECRET = 'a-mail-secret-key-of-at-least-32-characters';
let t: TestContext;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let agencySmtp: Awaited<ReturnType<typeof startSmtpServer>>;
/** The agency's server as the agency names it: on port 2525 of an address of its own. */
let agencyHost: LoopbackServer;
beforeAll(async () => {
  smtp = await startSmtpServer();
  agencySmtp = await startSmtpServer({ auth: { user: 'reports@northstar.example', pass: 'pa55-Word-of-the-agency' } });
  agencyHost = await startRelay(agencySmtp.port);
  t = await createTestContext({
    SMTP_URL: smtp.url,
    PUBLIC_BASE_URL: 'https://reports.neutral-host.example',
    MAIL_FROM: `${PRODUCT_NAME} <reports@localrank.app>`,
    OPERATOR_EMAIL: OPERATOR.supportEmail,
    WHITE_LABEL_MAIL_FROM: 'reports@client-reports.example',
    MAIL_SECRET_KEY: SECRET,
    // The agency's test server listens on loopback, which only an operator's list lets through.
    AGENCY_MAIL_PRIVATE_ADDRESSES: agencyHost.host,
  });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
  await agencySmtp.close();
  await agencyHost.close();
});

const drain = async () => {
  const worker = createWorker(t.ctx, { registry: createRegistry({ analyse: async () => reportDataFixture({ seed: 5 }) }) });
  while (await worker.runNext());
};

/** Our names and addresses, as any part of a white-label message might carry them. */
const OURS = new RegExp(
  [PRODUCT_NAME, 'localrank', OPERATOR.legalName, OPERATOR.postalAddress, OPERATOR.supportEmail, OPERATOR.supportEmail.split('@')[1]!].map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'),
  'i',
);

/** The PDF's text, its metadata and every stream it carries, inflated where compressed. */
async function pdfStrings(pdf: Uint8Array): Promise<string> {
  const raw = Buffer.from(pdf).toString('latin1');
  const streams = [...raw.matchAll(/stream\r?\n([\s\S]*?)endstream/g)].map((m) => {
    try {
      return inflateSync(Buffer.from(m[1]!, 'latin1')).toString('latin1');
    } catch {
      return m[1]!;
    }
  });
  const text = (await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true })).text;
  return [raw, ...streams, text].join('\n');
}

/** Every header (unfolded) and every part, decoded, of one message: what the test reads for our names. */
async function everything(mail: ReceivedMail) {
  const headers = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
  const parts = [mail.parsed.text ?? '', mail.parsed.html ?? '', ...mail.parsed.headers.map((h) => `${h.key}: ${h.value}`)];
  for (const a of mail.parsed.attachments) {
    parts.push(`${a.filename ?? ''} ${a.contentId ?? ''} ${a.mimeType}`);
    const bytes = new Uint8Array(a.content as ArrayBuffer);
    parts.push(a.mimeType === 'application/pdf' ? await pdfStrings(bytes) : Buffer.from(bytes).toString('latin1'));
  }
  return { headers, parts };
}

async function agencyWithClient(email: string) {
  const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing', contactEmail: 'hello@northstar.example', footerText: 'Northstar Marketing LLC · 500 Main St, Austin, TX 78701' }, agency.cookie);
  const client = await call(t.app, 'POST', '/api/clients', { clientName: 'Dana Whitfield', clientEmail: email, company: 'Whitfield Dental', website: 'https://whitfield.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' }, agency.cookie);
  expect(client.status).toBe(201);
  return agency;
}

describe('a white-label e-mail', () => {
  it('names neither the product nor the operator in any header or part', async () => {
    await agencyWithClient('dana@client.example');
    await drain();
    const mail = smtp.received.find((m) => m.envelope.to.includes('dana@client.example'))!;
    expect(mail).toBeDefined();
    const { headers, parts } = await everything(mail);
    expect(headers).not.toMatch(OURS);
    for (const part of parts) expect(part).not.toMatch(OURS);
    // The parts were read: the agency's footer is in the text, the HTML and the PDF's pages.
    expect(parts.filter((p) => p.includes('500 Main St')).length).toBeGreaterThanOrEqual(3);
    // What each would have named: the sender, the Message-ID, the one-click unsubscribe, the score card.
    expect(mail.parsed.from).toEqual({ name: 'Northstar Marketing', address: 'reports@client-reports.example' });
    expect(mail.envelope.from).toBe('reports@client-reports.example');
    expect(mail.parsed.messageId).toMatch(/@client-reports\.example>$/);
    const header = (name: string) => mail.parsed.headers.find((h) => h.key === name.toLowerCase())?.value;
    expect(header('List-Unsubscribe')).toMatch(/^<https:\/\/reports\.neutral-host\.example\/api\/unsubscribe\?token=[\w-]+>$/);
    expect(header('List-Unsubscribe-Post')).toBe('List-Unsubscribe=One-Click');
    expect(mail.parsed.html).toMatch(/src="cid:score-card@client-reports\.example"/);
    expect(mail.parsed.attachments.find((a) => a.mimeType === 'image/png')!.contentId).toBe('<score-card@client-reports.example>');
    // Every link goes to the public host.
    for (const [, url] of mail.parsed.html!.matchAll(/href="([^"]+)"/g)) expect(url).toMatch(/^(https:\/\/reports\.neutral-host\.example\/|mailto:hello@northstar\.example)/);
  });
});

describe("the agency's own mail server", () => {
  it('stores the password encrypted, never answers it, tests the server and then sends every white-label e-mail through it', async () => {
    const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
    const server = { host: agencyHost.host, port: agencyHost.port, security: 'none', username: 'reports@northstar.example', fromAddress: 'reports@northstar.example' };
    const wrong = await call(t.app, 'PUT', '/api/branding/mail-server', { ...server, password: 'not-the-Password-123' }, agency.cookie);
    expect(wrong.status).toBe(200);
    expect(wrong.body.server).toMatchObject({ host: agencyHost.host, hasPassword: true, fromAddress: 'reports@northstar.example' });
    expect(JSON.stringify(wrong.body)).not.toContain('not-the-Password-123');
    const [row] = await t.ctx.db.select().from(agencyMailServers);
    expect(row!.passwordEncrypted).not.toContain('not-the-Password-123');
    expect(row!.passwordEncrypted).toMatch(/^v1\./);

    // A refused test says why, without the password.
    const refused = await call(t.app, 'POST', '/api/branding/mail-server/test', undefined, agency.cookie);
    expect(refused.status).toBe(200);
    expect(refused.body.sent).toBe(false);
    expect(refused.body.error).toMatch(new RegExp(`^We connected to ${agencyHost.host.replace(/\./g, '\\.')}:2525, but the server refused the user name or password: 535 `));
    expect(refused.body.steps).toEqual({ connected: true, tls: false, auth: 'refused' });
    expect(JSON.stringify(refused.body)).not.toContain('not-the-Password-123');
    expect((await call(t.app, 'GET', '/api/branding/mail-server', undefined, agency.cookie)).body.server.lastError).toMatch(/refused/);

    // The right password (kept when an update leaves it out of the form).
    await call(t.app, 'PUT', '/api/branding/mail-server', { ...server, password: 'pa55-Word-of-the-agency' }, agency.cookie);
    expect((await call(t.app, 'PUT', '/api/branding/mail-server', server, agency.cookie)).body.server.hasPassword).toBe(true);
    const ok = await call(t.app, 'POST', '/api/branding/mail-server/test', undefined, agency.cookie);
    expect(ok.body).toMatchObject({ sent: true, to: agency.email, error: null, steps: { connected: true, tls: false, auth: 'accepted' } });
    expect(ok.body.said).toMatch(/^We connected to .*:2525 and logged in without TLS, and the server accepted the message \(250 /);
    expect(agencySmtp.received.at(-1)!.envelope.to).toEqual([agency.email]);

    // A client report now leaves through it, from the agency's address.
    await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing' }, agency.cookie);
    await call(t.app, 'POST', '/api/clients', { clientName: 'Sam Ortiz', clientEmail: 'sam@client.example', company: 'Ortiz Plumbing', website: 'https://ortiz.example', address: '1 Main St', city: 'Austin', state: 'TX', zip: '78701' }, agency.cookie);
    await drain();
    expect(smtp.received.some((m) => m.envelope.to.includes('sam@client.example'))).toBe(false);
    const mail = agencySmtp.received.find((m) => m.envelope.to.includes('sam@client.example'))!;
    expect(mail.parsed.from).toEqual({ name: 'Northstar Marketing', address: 'reports@northstar.example' });
    expect(mail.parsed.messageId).toMatch(/@northstar\.example>$/);
    const { headers, parts } = await everything(mail);
    expect(headers).not.toMatch(OURS);
    for (const part of parts) expect(part).not.toMatch(OURS);
  });

  it('refuses a password the server cannot encrypt (no MAIL_SECRET_KEY) and bad fields, per field', async () => {
    const bare = await createTestContext();
    try {
      const agency = await createUser(bare.ctx, { role: 'consultant', tier: 'agency' });
      const res = await call(bare.app, 'PUT', '/api/branding/mail-server', { host: 'smtp.example.com', port: 587, security: 'starttls', username: 'u', password: 'secret-1', fromAddress: 'r@example.com' }, agency.cookie);
      expect(res.status).toBe(400);
      expect(res.body.fields.password).toMatch(/MAIL_SECRET_KEY/);
      const bad = await call(bare.app, 'PUT', '/api/branding/mail-server', { host: 'not a host', port: 70000, security: 'ssl', fromAddress: 'nope' }, agency.cookie);
      expect(bad.status).toBe(400);
      expect(Object.keys(bad.body.fields).sort()).toEqual(['fromAddress', 'host', 'port', 'security']);
      const pro = await createUser(bare.ctx, { role: 'consultant', tier: 'pro' });
      expect((await call(bare.app, 'GET', '/api/branding/mail-server', undefined, pro.cookie)).status).toBe(403);
    } finally {
      await bare.close();
    }
  });

  it('refuses a private or loopback address: a literal one when saved, a name or a stored one at each connection, and connects to nothing', async () => {
    const strict = await createTestContext({ MAIL_SECRET_KEY: SECRET });
    try {
      const agency = await createUser(strict.ctx, { role: 'consultant', tier: 'agency' });
      const server = { port: 2525, security: 'none' as const, username: 'reports@northstar.example', fromAddress: 'reports@northstar.example' };
      const hint = "Enter your mail server's name or public address.";
      const refusals = {
        '10.1.2.3': `10.1.2.3 is an address on a private network. ${hint}`,
        '127.0.0.1': `127.0.0.1 is a loopback address (this server itself). ${hint}`,
        '169.254.169.254': `169.254.169.254 is a link-local address. ${hint}`,
        '100.64.0.1': `100.64.0.1 is a carrier-grade NAT address. ${hint}`,
        '240.0.0.1': `240.0.0.1 is a reserved address. ${hint}`,
        // Loopback however it is spelled: the forms a resolver reads as 127.0.0.1, and 0.
        '127.1': `127.1 is 127.0.0.1, a loopback address (this server itself). ${hint}`,
        '2130706433': `2130706433 is 127.0.0.1, a loopback address (this server itself). ${hint}`,
        '0x7f000001': `0x7f000001 is 127.0.0.1, a loopback address (this server itself). ${hint}`,
        '0177.0.0.1': `0177.0.0.1 is 127.0.0.1, a loopback address (this server itself). ${hint}`,
        '0': `0 is 0.0.0.0, the unspecified address (this server itself). ${hint}`,
        '10.1': `10.1 is 10.0.0.1, an address on a private network. ${hint}`,
        '1.2.3.4.5': `1.2.3.4.5 is not a valid address. ${hint}`,
        localhost: `localhost is this server itself. ${hint}`,
        'mail.localhost': `mail.localhost is this server itself. ${hint}`,
      };
      for (const [host, message] of Object.entries(refusals)) {
        const res = await call(strict.app, 'PUT', '/api/branding/mail-server', { ...server, host }, agency.cookie);
        expect(res.status, host).toBe(400);
        expect(res.body.fields, host).toEqual({ host: message });
      }
      // A public address in another spelling is stored in its usual form.
      const spelled = await call(strict.app, 'PUT', '/api/branding/mail-server', { ...server, host: '0x5db8d822' }, agency.cookie);
      expect(spelled.status).toBe(200);
      expect(spelled.body.server.host).toBe('93.184.216.34');
      await call(strict.app, 'DELETE', '/api/branding/mail-server', undefined, agency.cookie);
      // A row whose host is private by the time it is used (saved before this rule, or a name whose
      // DNS now points inside): the test send connects to nothing and says why.
      const consultant = (await strict.ctx.db.query.consultants.findFirst({ where: eq(consultants.userId, agency.userId) }))!;
      await strict.ctx.db.insert(agencyMailServers).values({ consultantId: consultant.id, host: '127.0.0.1', ...server, passwordEncrypted: null, testedAt: null, lastError: null });
      const before = agencySmtp.received.length;
      const res = await call(strict.app, 'POST', '/api/branding/mail-server/test', undefined, agency.cookie);
      expect(res.body).toMatchObject({ sent: false, error: "The server's address is refused: 127.0.0.1 is not a mail server on the internet (127.0.0.1 is loopback); private networks are not reached" });
      expect(agencySmtp.received.length).toBe(before);
    } finally {
      await strict.close();
    }
  });
});
