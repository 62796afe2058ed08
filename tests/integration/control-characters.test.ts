// Control, invisible and text-direction characters in free text (decision 0211), route by route:
// each answers 400 with the field's own message and stores nothing; text in other scripts, with
// emoji, ZWJ/ZWNJ where a script needs them and RTL marks, is taken as it was typed.
import { eq, sql } from 'drizzle-orm';
import type { SQLiteTable } from 'drizzle-orm/sqlite-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKeys, webhookEndpoints } from '../../db/schema/api.ts';
import { users } from '../../db/schema/auth.ts';
import { businesses, reportRequests } from '../../db/schema/businesses.ts';
import { agencyMailServers, brandingProfiles, clients } from '../../db/schema/consultants.ts';
import { contactMessages } from '../../db/schema/operations.ts';
import { widgetKeys, widgetLeads } from '../../db/schema/widget.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser, uniqueEmail } from '../helpers/factories.ts';
import { validForm } from '../helpers/report-requests.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: 'true' });
});
afterAll(() => t.close());

const rows = async (table: SQLiteTable) => Number((await t.ctx.db.select({ n: sql<number>`count(*)` }).from(table))[0]!.n);
const NUL = 'U+0000 NULL';
const ZWSP = 'U+200B ZERO WIDTH SPACE';
const RLO = 'U+202E RIGHT-TO-LEFT OVERRIDE';
const control = (label: string, what = NUL) => `${label} contains a control character (${what}). Remove it, or type the text again instead of pasting it.`;
const invisible = (label: string, what = ZWSP) => `${label} contains an invisible character (${what}). Type the text again instead of pasting it.`;
const direction = (label: string, what = RLO) => `${label} contains a text-direction control (${what}), which changes the order text is shown in. Remove it.`;

/** Sends `body`, expects 400 with exactly `fields`, and the same row count in `table` afterwards. */
async function refused(table: SQLiteTable, method: string, path: string, body: unknown, cookie: string | undefined, fields: Record<string, string>) {
  const before = await rows(table);
  const res = await call(t.app, method, path, body, cookie);
  expect(res.status, JSON.stringify(res.body)).toBe(400);
  expect(res.body.fields).toEqual(fields);
  expect(await rows(table)).toBe(before);
  return res;
}

const profileInput = (overrides: Record<string, unknown> = {}) => ({ companyName: 'Northstar Marketing', primaryColor: '#7C3AED', secondaryColor: '#111827', accentColor: '#F59E0B', ...overrides });
const clientInput = (overrides: Record<string, unknown> = {}) => ({ clientName: 'Dana Whitfield', clientEmail: 'dana@client.example', company: 'Whitfield Dental', website: 'https://whitfield-dental.example', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701', ...overrides });

describe('the free report form and the contact form (public)', () => {
  it('POST /api/submit-request: 400 per field, no business or request stored', async () => {
    const before = await rows(reportRequests);
    await refused(businesses, 'POST', '/api/submit-request', validForm({ company: 'Lopez\u0000Plumbing', city: 'Aus\u200Btin', address: '1200 Barton \u202ESprings Rd', fullName: 'Maria\tLopez' }), undefined, {
      company: control('Company name'),
      city: invisible('City'),
      address: direction('Address'),
      fullName: 'Full name cannot contain a tab.',
    });
    await refused(businesses, 'POST', '/api/submit-request', validForm({ website: 'https://lopezplumbing.example.com/\u0000' }), undefined, { website: control('Website') });
    expect(await rows(reportRequests)).toBe(before);
  });

  it('POST /api/submit-request takes names in other scripts, emoji and combining marks as typed', async () => {
    const form = validForm({ company: 'می\u200Cخواهم 👩🏽\u200D🍳 Café\u0301', fullName: 'דנה כהן\u200F', city: 'Austin' });
    const res = await call(t.app, 'POST', '/api/submit-request', form);
    expect(res.status).toBe(202);
    const stored = await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.company, form.company) });
    expect(stored?.company).toBe('می\u200Cخواهم 👩🏽\u200D🍳 Café\u0301');
  });

  it('POST /api/contact, JSON and a plain form post: 400 with the message, nothing stored; a message keeps its lines', async () => {
    const message = { name: 'Dana Whitfield', email: 'dana@example.com', subject: 'support', message: 'My report\r\n\tdid not arrive.' };
    await refused(contactMessages, 'POST', '/api/contact', { ...message, name: 'Dana\u2066 Whitfield' }, undefined, { name: direction('Name', 'U+2066 LEFT-TO-RIGHT ISOLATE') });
    await refused(contactMessages, 'POST', '/api/contact', { ...message, message: 'My report\u0007 did not arrive.' }, undefined, { message: control('Message', 'U+0007') });
    const before = await rows(contactMessages);
    const form = await t.app.request('/api/contact', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: new URLSearchParams({ ...message, name: 'Dana\u0000' }).toString(),
    });
    expect(form.status).toBe(400);
    expect(await form.text()).toContain('Name contains a control character (U+0000 NULL)');
    expect(await rows(contactMessages)).toBe(before);
    expect((await call(t.app, 'POST', '/api/contact', message)).status).toBe(201);
    expect(await rows(contactMessages)).toBe(before + 1);
  });

  it('POST /api/auth/signup: a consultant company name with a control character is refused, no account made', async () => {
    const email = uniqueEmail('signup');
    await refused(users, 'POST', '/api/auth/signup', { email, password: 'correct-horse-battery', role: 'consultant', companyName: 'Acme\u200BConsulting' }, undefined, { companyName: invisible('Company name') });
    expect(await t.ctx.db.query.users.findFirst({ where: eq(users.email, email) })).toBeUndefined();
  });
});

describe('an owner', () => {
  it('PUT /api/business/:id/visibility-keywords: NUL, zero-width and bidi controls refused per keyword; keywords kept as they were', async () => {
    const owner = await createUser(t.ctx, { tier: 'pro' });
    const { business } = await seedBusiness(t.ctx, { userId: owner.userId, snapshots: [{ daysAgo: 1 }] });
    const path = `/api/business/${business.id}/visibility-keywords`;
    expect((await call(t.app, 'PUT', path, { keywords: ['emergency dentist'] }, owner.cookie)).status).toBe(200);
    for (const [keyword, message] of [
      ['den\u0000tist', control('A keyword')],
      ['den\u200Btist', invisible('A keyword')],
      ['dentist \u202Enear me', direction('A keyword')],
      ['dentist\u200E', 'A keyword contains a direction mark (U+200E LEFT-TO-RIGHT MARK) but no right-to-left text. Type the text again instead of pasting it.'],
    ] as const) {
      const res = await call(t.app, 'PUT', path, { keywords: ['kids dentist', keyword] }, owner.cookie);
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ 'keywords.1': message });
    }
    const stored = await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, business.id) });
    expect(stored!.visibilityKeywords).toEqual(['emergency dentist']);
    // Keywords as people search in Persian, Hindi or with an emoji.
    const ok = await call(t.app, 'PUT', path, { keywords: ['دندان\u200Cپزشک', 'दंत चिकित्सक', 'pizza 🍕'] }, owner.cookie);
    expect(ok.body.keywords).toEqual(['دندان\u200Cپزشک', 'दंत चिकित्सक', 'pizza 🍕']);
  });
});

describe('an agency', () => {
  let agency: Awaited<ReturnType<typeof createUser>>;
  let profileId: string;
  beforeAll(async () => {
    agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
    const profile = await call(t.app, 'POST', '/api/branding-profiles', profileInput(), agency.cookie);
    expect(profile.status).toBe(201);
    profileId = profile.body.id as string;
  });

  it('branding profiles (create, update, preview): company name, phone, website and footer refused per field; nothing stored', async () => {
    const bad = profileInput({ companyName: 'North\u0000star', contactPhone: '+1 512\u200B 555 0100', website: 'https://northstar.example/\u0085', footerText: 'Northstar \u202EMarketing' });
    const fields = { companyName: control('Company name'), contactPhone: invisible('Contact phone'), website: control('Website', 'U+0085'), footerText: direction('Footer text') };
    await refused(brandingProfiles, 'POST', '/api/branding-profiles', bad, agency.cookie, fields);
    await refused(brandingProfiles, 'PUT', `/api/branding-profiles/${profileId}`, bad, agency.cookie, fields);
    expect((await t.ctx.db.query.brandingProfiles.findFirst({ where: eq(brandingProfiles.id, profileId) }))!.companyName).toBe('Northstar Marketing');
    await refused(brandingProfiles, 'POST', '/api/branding-profiles/preview', { ...bad, profileId }, agency.cookie, fields);
    // A footer in Arabic with a direction mark, a name with an emoji: kept.
    const ok = await call(t.app, 'PUT', `/api/branding-profiles/${profileId}`, profileInput({ companyName: 'نجم الشمال ⭐', footerText: 'شركة\u061C 10 · عمّان' }), agency.cookie);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ companyName: 'نجم الشمال ⭐', footerText: 'شركة\u061C 10 · عمّان' });
  });

  it('PUT /api/branding/mail-server: a user name with a line break is refused, nothing stored', async () => {
    await refused(agencyMailServers, 'PUT', '/api/branding/mail-server', { host: 'smtp.northstar.example', port: 587, security: 'starttls', username: 'reports\r\nRCPT TO:<x@y.z>', password: 'pa55-Word-of-the-agency', fromAddress: 'reports@northstar.example' }, agency.cookie, {
      username: 'User name must be on one line.',
    });
  });

  it('clients (create, update): name and notes refused, notes keep their lines; nothing stored', async () => {
    await refused(clients, 'POST', '/api/clients', clientInput({ clientName: 'Dana\u2060 Whitfield', notes: 'Call \u0000 first', company: 'Whitfield\u200DDental' }), agency.cookie, {
      clientName: invisible('Client name', 'U+2060 WORD JOINER'),
      notes: control('Notes'),
      company: invisible('Company name', 'U+200D ZERO WIDTH JOINER'),
    });
    const created = await call(t.app, 'POST', '/api/clients', clientInput({ clientName: 'प्रिया शर्मा', notes: 'Spring season:\n\t- more reviews' }), agency.cookie);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ clientName: 'प्रिया शर्मा', notes: 'Spring season:\n\t- more reviews' });
    const res = await call(t.app, 'PATCH', `/api/clients/${created.body.id}`, { clientName: 'Priya\u202E Sharma' }, agency.cookie);
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({ clientName: direction('Client name') });
    expect((await t.ctx.db.query.clients.findFirst({ where: eq(clients.id, created.body.id) }))!.clientName).toBe('प्रिया शर्मा');
  });

  it('the public API (POST /api/v1/clients): problem details with the field message, nothing stored', async () => {
    const { key } = (await call(t.app, 'POST', '/api/api-keys', { name: 'CRM sync', scopes: ['clients:write', 'clients:read'] }, agency.cookie)).body;
    const before = await rows(clients);
    const res = await t.app.request('/api/v1/clients', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(clientInput({ city: 'Austin\u0000' })) });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as { fields: Record<string, string> }).fields).toEqual({ city: control('City') });
    expect(await rows(clients)).toBe(before);
  });

  it('names of API keys and widget keys, a webhook endpoint description: refused, nothing stored', async () => {
    await refused(apiKeys, 'POST', '/api/api-keys', { name: 'CRM\u0000', scopes: ['clients:read'] }, agency.cookie, { name: control('The name') });
    await refused(widgetKeys, 'POST', '/api/widget/keys', { name: 'Main \u202Esite', allowedHostnames: ['northstar.example'], brandingProfileId: profileId, components: ['report-form'], scoreCardClientId: null, leadEmails: 'each' }, agency.cookie, { name: direction('The name') });
    const { key } = (await call(t.app, 'POST', '/api/api-keys', { name: 'Hooks', scopes: ['webhooks:write'] }, agency.cookie)).body;
    const before = await rows(webhookEndpoints);
    const res = await t.app.request('/api/v1/webhooks', { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ url: 'https://hooks.northstar.example/in', events: ['report.completed'], description: 'CRM\u200B' }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields).toEqual({ description: invisible('The description') });
    expect(await rows(webhookEndpoints)).toBe(before);
  });

  it("a widget lead from the agency's site: 400 per field, no lead stored", async () => {
    const created = await call(t.app, 'POST', '/api/widget/keys', { name: 'Main site', allowedHostnames: ['northstar.example'], brandingProfileId: profileId, components: ['report-form'], scoreCardClientId: null, leadEmails: 'each' }, agency.cookie);
    expect(created.status).toBe(201);
    const before = await rows(widgetLeads);
    const res = await t.app.request(`/api/widget/v1/${created.body.publishableKey}/leads`, {
      method: 'POST',
      headers: { origin: 'https://northstar.example', 'content-type': 'application/json' },
      body: JSON.stringify({ ...validForm({ company: 'Park\u200B Street Bakery' }), consent: true }),
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { fields: Record<string, string> }).fields).toEqual({ company: invisible('Company name') });
    expect(await rows(widgetLeads)).toBe(before);
  });
});
