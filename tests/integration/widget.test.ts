// The widget's server side (issue 15): keys on the Agency plan, CORS only for the key's hostnames,
// leads through the report pipeline in the key's branding, queued (never lost) when the plan has
// lapsed, listed, exported and converted to clients.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { scheduleWidgetLeads } from '../../api/services/widget-lead-mail.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testRegistry } from '../helpers/registry.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { contrastRatio, inkOn, MIN_CONTRAST, MIN_GRAPHIC_CONTRAST, MIN_NON_TEXT_CONTRAST } from '../../common/colour.ts';
import { DEFAULT_WIDGET_THEME, WIDGET_CARD_BACKGROUND } from '../../common/widget.ts';
import { SCORE_CARD_OFF_MESSAGE } from '../../common/schemas/widget.ts';
import { users } from '../../db/schema/auth.ts';
import { themeStyle } from '../../widget-sdk/src/styles.ts';
import { reports } from '../../db/schema/reports.ts';
import { widgetLeads } from '../../db/schema/widget.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { call, createTestContext, type TestContext } from '../helpers/context.ts';
import { createUser } from '../helpers/factories.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ PUBLIC_BASE_URL: 'https://app.example.com', WIDGET_RATE_LIMIT_PER_IP: '1000' });
});
afterAll(() => t.close());

const drain = async (analysis: () => ReturnType<typeof reportDataFixture> = () => reportDataFixture({ seed: 7 })) => {
  const worker = createWorker(t.ctx, { registry: testRegistry({ analyse: async () => analysis() }) });
  while (await worker.runNext());
};

const outbox = () => (existsSync(join(t.dataDir, 'outbox')) ? readdirSync(join(t.dataDir, 'outbox')).filter((f) => f.endsWith('.eml')).sort() : []);
const mails = () => outbox().map((f) => readFileSync(join(t.dataDir, 'outbox', f), 'utf8').replace(/=\r?\n/g, ''));
/** Addressed to the agency (its To: header; a lead's white-label report names it in Reply-To: only). */
const toAgency = (mail: string, email: string) => new RegExp(`^To: ${email.replace(/[.+]/g, '\\$&')}\\r?$`, 'm').test(mail);

const lead = (overrides: Record<string, unknown> = {}) => ({
  fullName: 'Riley Park',
  email: 'riley@bakery.example',
  company: 'Park Street Bakery',
  role: 'owner',
  website: 'https://parkstreetbakery.example',
  address: '200 Congress Ave',
  city: 'Austin',
  state: 'TX',
  zip: '78701',
  consent: true,
  ...overrides,
});

async function visitor(method: string, path: string, origin: string | null, body?: unknown) {
  const headers: Record<string, string> = {};
  if (origin) headers.origin = origin;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method === 'OPTIONS') Object.assign(headers, { 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' });
  const res = await t.app.request(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

async function agencyWithKey(keyInput: Record<string, unknown> = {}) {
  const agency = await createUser(t.ctx, { role: 'consultant', tier: 'agency', companyName: 'Northstar Marketing' });
  const profile = await call(t.app, 'POST', '/api/branding-profiles', { companyName: 'Northstar Marketing', primaryColor: '#7C3AED', secondaryColor: '#111827', accentColor: '#F59E0B', website: 'https://northstar.example' }, agency.cookie);
  expect(profile.status).toBe(201);
  const created = await call(
    t.app,
    'POST',
    '/api/widget/keys',
    { name: 'Main site', allowedHostnames: ['https://northstar.example/', '*.northstar.example'], brandingProfileId: profile.body.id, components: ['report-form', 'score-card'], scoreCardClientId: null, leadEmails: 'each', ...keyInput },
    agency.cookie,
  );
  expect(created.status).toBe(201);
  return { agency, profileId: profile.body.id as string, key: created.body as { id: string; publishableKey: string; allowedHostnames: string[] } };
}

describe('widget keys', () => {
  it('are the Agency plan\'s, checked per consultant, with normalised hostnames', async () => {
    const { agency, key } = await agencyWithKey();
    expect(key.publishableKey).toMatch(/^lr_pk_[A-Za-z0-9_-]{24}$/);
    expect(key.allowedHostnames).toEqual(['northstar.example', '*.northstar.example']);

    const pro = await createUser(t.ctx, { role: 'consultant', tier: 'pro' });
    const refused = await call(t.app, 'GET', '/api/widget/keys', undefined, pro.cookie);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('plan_required');

    const other = await createUser(t.ctx, { role: 'consultant', tier: 'agency' });
    expect((await call(t.app, 'POST', `/api/widget/keys/${key.id}/rotate`, undefined, other.cookie)).status).toBe(404);

    const bad = await call(t.app, 'POST', '/api/widget/keys', { name: '', allowedHostnames: ['*.com'], brandingProfileId: null, components: [], scoreCardClientId: null, leadEmails: 'each' }, agency.cookie);
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.fields).sort()).toEqual(['allowedHostnames.0', 'components', 'name']);

    // A score card's client only with the score card on: refused, not saved silently.
    const scoreCardOff = await call(t.app, 'PUT', `/api/widget/keys/${key.id}`, { name: 'Main site', allowedHostnames: ['northstar.example'], brandingProfileId: null, components: ['report-form'], scoreCardClientId: '00000000-0000-4000-8000-000000000000', leadEmails: 'each' }, agency.cookie);
    expect(scoreCardOff.status).toBe(400);
    expect(scoreCardOff.body.fields).toEqual({ scoreCardClientId: SCORE_CARD_OFF_MESSAGE });

    const rotated = await call(t.app, 'POST', `/api/widget/keys/${key.id}/rotate`, undefined, agency.cookie);
    expect(rotated.body.publishableKey).not.toBe(key.publishableKey);
    expect((await visitor('GET', `/api/widget/v1/${key.publishableKey}/config`, 'https://northstar.example')).status).toBe(403);
    expect((await visitor('GET', `/api/widget/v1/${rotated.body.publishableKey}/config`, 'https://northstar.example')).status).toBe(200);
  });
});

describe('the widget API from other sites', () => {
  it("keeps the widget readable on any brand colour: text on the button and the score's colour meet WCAG AA", async () => {
    const { agency, profileId, key } = await agencyWithKey();
    // A light yellow primary and a pale secondary: white text on them, or them as text on white, would not read.
    expect((await call(t.app, 'PUT', `/api/branding-profiles/${profileId}`, { companyName: 'Northstar Marketing', primaryColor: '#FDE047', secondaryColor: '#E5E7EB', accentColor: '#F59E0B' }, agency.cookie)).status).toBe(200);
    const { theme } = (await visitor('GET', `/api/widget/v1/${key.publishableKey}/config`, 'https://northstar.example')).body;
    // Too pale to see on white, the button and the bars take the darker shades the branding page names.
    expect(theme).toMatchObject({ primary: inkOn('#FDE047', '#FFFFFF', MIN_GRAPHIC_CONTRAST), accent: inkOn('#F59E0B', '#FFFFFF', MIN_GRAPHIC_CONTRAST) });
    expect(theme.primary).not.toBe('#FDE047');
    for (const shape of [theme.primary, theme.accent]) expect(contrastRatio(shape, '#FFFFFF'), shape).toBeGreaterThanOrEqual(MIN_NON_TEXT_CONTRAST);
    expect(contrastRatio(theme.primary, theme.onPrimary)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    for (const ink of [theme.primaryInk, theme.secondary]) expect(contrastRatio(ink, '#FFFFFF'), ink).toBeGreaterThanOrEqual(MIN_CONTRAST);
    // The focus ring reads (3:1) on white, on the score card's grey and on the primary colour.
    for (const background of ['#FFFFFF', WIDGET_CARD_BACKGROUND, theme.primary]) expect(contrastRatio(theme.focus, background), background).toBeGreaterThanOrEqual(MIN_NON_TEXT_CONTRAST);
    // The SDK passes them on as the properties its stylesheet reads.
    expect(themeStyle(theme)).toEqual({ '--lr-primary': theme.primary, '--lr-on-primary': theme.onPrimary, '--lr-primary-ink': theme.primaryInk, '--lr-secondary': theme.secondary, '--lr-accent': theme.accent, '--lr-focus': theme.focus });
    // Without a profile, the SDK's written-out defaults are the default theme's.
    expect(themeStyle(null)).toEqual({ '--lr-primary': DEFAULT_WIDGET_THEME.primary, '--lr-secondary': DEFAULT_WIDGET_THEME.secondary, '--lr-accent': DEFAULT_WIDGET_THEME.accent, '--lr-focus': DEFAULT_WIDGET_THEME.focus });
  });

  it('answers CORS only to the key\'s hostnames, without credentials', async () => {
    const { key } = await agencyWithKey();
    const base = `/api/widget/v1/${key.publishableKey}`;
    const ok = await visitor('GET', `${base}/config`, 'https://shop.northstar.example');
    expect(ok.status).toBe(200);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.northstar.example');
    expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
    expect(ok.body).toMatchObject({ agency: 'Northstar Marketing', website: 'https://northstar.example', components: ['report-form', 'score-card'], theme: { primary: '#7C3AED' } });

    const preflight = await visitor('OPTIONS', `${base}/leads`, 'https://northstar.example');
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET, POST');

    for (const origin of ['https://evil-example.com', 'https://northstar.example.evil.net', null]) {
      const refused = await visitor('GET', `${base}/config`, origin);
      expect(refused.status).toBe(403);
      // The visitor's message, and for the site owner's console the Origin refused and the fix.
      expect(refused.body).toEqual({ code: 'forbidden', message: 'This form is not enabled for this site.', hint: expect.stringContaining(`this key does not allow ${origin ?? 'a request without an Origin'}. On LocalRank's Website Widget page, add this site's hostname`) });
      // Readable by the widget on that page (a request without an Origin is no browser's CORS call).
      expect(refused.headers.get('access-control-allow-origin')).toBe(origin);
      const refusedPreflight = await visitor('OPTIONS', `${base}/leads`, origin);
      expect(refusedPreflight.status).toBe(403);
      expect(refusedPreflight.headers.get('access-control-allow-origin')).toBeNull();
    }
    expect((await visitor('GET', '/api/widget/v1/lr_pk_unknownunknownunknown00/config', 'https://northstar.example')).status).toBe(403);

    // A frame sandboxed without allow-same-origin sends "Origin: null": refused, readable by it
    // (issue 40: it said "could not reach the server"), with what to change.
    const sandboxed = await visitor('GET', `${base}/config`, 'null');
    expect(sandboxed.status).toBe(403);
    expect(sandboxed.headers.get('access-control-allow-origin')).toBe('null');
    expect(sandboxed.headers.get('access-control-allow-credentials')).toBeNull();
    expect(sandboxed.body).toEqual({ code: 'sandboxed', message: 'This form cannot run inside this frame.', hint: expect.stringContaining('Add allow-same-origin to the iframe') });
  });

  it('a lead alone in its market gets a score card with no rank and Market Share "No market" (decision 0216)', async () => {
    const { key } = await agencyWithKey();
    const base = `/api/widget/v1/${key.publishableKey}`;
    const sent = await visitor('POST', `${base}/leads`, 'https://northstar.example', lead({ company: 'Prairie Creek Bakery', email: 'prairie@bakery.example' }));
    expect(sent.status).toBe(202);
    await drain(() => {
      const alone = reportDataFixture({ seed: 8 });
      alone.competitors = [];
      alone.business.scores = { ...alone.business.scores, marketShare: null, marketSharePercent: null };
      return alone;
    });
    const ready = await visitor('GET', `${base}/leads/${sent.body.leadId}`, 'https://northstar.example');
    expect(ready.body.status).toBe('ready');
    expect(ready.body.scoreCard).toMatchObject({ rank: null, of: 1, rankText: 'No market: no competitor nearby', empty: { marketShare: 'No market' } });
  });

  it('takes a lead through the report pipeline in the key\'s branding and shows its score card', async () => {
    const { agency, key, profileId } = await agencyWithKey();
    const base = `/api/widget/v1/${key.publishableKey}`;
    const invalid = await visitor('POST', `${base}/leads`, 'https://northstar.example', lead({ email: 'nope', consent: false }));
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('access-control-allow-origin')).toBe('https://northstar.example');
    expect(invalid.body.fields).toMatchObject({ email: 'Invalid email', consent: 'Please agree to receive your report' });

    const sent = await visitor('POST', `${base}/leads`, 'https://www.northstar.example', lead());
    expect(sent.status).toBe(202);
    expect((await visitor('GET', `${base}/leads/${sent.body.leadId}`, 'https://northstar.example')).body).toEqual({ status: 'pending' });
    await drain();
    const ready = await visitor('GET', `${base}/leads/${sent.body.leadId}`, 'https://northstar.example');
    expect(ready.body.status).toBe('ready');
    expect(ready.body.scoreCard).toMatchObject({ rank: expect.any(Number), of: expect.any(Number), rankText: expect.stringMatching(/^Rank #\d+ of \d+ nearby$/) });
    const [row] = await t.ctx.db.select().from(widgetLeads).where(eq(widgetLeads.id, sent.body.leadId));
    expect(row!.notifiedAt).toBeInstanceOf(Date);
    const sentMail = mails();
    expect(sentMail.some((m) => toAgency(m, agency.email) && m.includes('Subject: New lead from your widget: Park Street Bakery') && m.includes('Riley Park, Park Street Bakery <riley@bakery.example>, from www.northstar.example'))).toBe(true);
    expect(sentMail.some((m) => m.includes('To: riley@bakery.example'))).toBe(true);
    const [report] = await t.ctx.db.select().from(reports).where(eq(reports.requestId, row!.requestId!));
    expect(report).toMatchObject({ consultantId: agency.viewer.consultant!.id, brandingProfileId: profileId });

    const leads = await call(t.app, 'GET', '/api/widget/leads', undefined, agency.cookie);
    expect(leads.body.leads).toHaveLength(1);
    expect(leads.body.leads[0]).toMatchObject({ fullName: 'Riley Park', company: 'Park Street Bakery', email: 'riley@bakery.example', sourceHostname: 'www.northstar.example', status: 'ready' });
    const csv = await t.app.request('/api/widget/leads.csv', { headers: { cookie: agency.cookie } });
    const text = await csv.text();
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(text.split('\r\n')[0]).toBe('Name,Business,E-mail,Overall score,Rank,Of,Status,Date,Source hostname');
    expect(text).toContain('Riley Park,Park Street Bakery,riley@bakery.example,');

    const converted = await call(t.app, 'POST', `/api/widget/leads/${sent.body.leadId}/convert`, undefined, agency.cookie);
    expect(converted.status).toBe(201);
    const client = await call(t.app, 'GET', `/api/clients/${converted.body.clientId}`, undefined, agency.cookie);
    expect(client.body.client ?? client.body).toBeTruthy();
    expect((await call(t.app, 'POST', `/api/widget/leads/${sent.body.leadId}/convert`, undefined, agency.cookie)).status).toBe(409);
  });

  it('ignores a filled honeypot and keeps nothing', async () => {
    const { agency, key } = await agencyWithKey();
    const sent = await visitor('POST', `/api/widget/v1/${key.publishableKey}/leads`, 'https://northstar.example', lead({ nickname: 'bot' }));
    expect(sent.status).toBe(202);
    expect((await call(t.app, 'GET', '/api/widget/leads', undefined, agency.cookie)).body.leads).toEqual([]);
  });

  it('never goes dark: a lapsed plan queues the lead, which is requested once the plan is back', async () => {
    const { agency, key } = await agencyWithKey();
    await t.ctx.db.update(users).set({ subscriptionStatus: 'suspended' }).where(eq(users.id, agency.viewer.user.id));
    const sent = await visitor('POST', `/api/widget/v1/${key.publishableKey}/leads`, 'https://northstar.example', lead({ email: 'waiting@bakery.example' }));
    expect(sent.status).toBe(202);
    expect(sent.body.status).toBe('received');
    const [queued] = await t.ctx.db.select().from(widgetLeads).where(eq(widgetLeads.id, sent.body.leadId));
    expect(queued).toMatchObject({ status: 'queued', queuedReason: 'plan', requestId: null });
    // The agency is told what is waiting.
    await drain();
    expect(mails().some((m) => toAgency(m, agency.email) && m.includes('waiting@bakery.example') && m.includes('Its report is waiting: your plan does not include the widget'))).toBe(true);

    await t.ctx.db.update(users).set({ subscriptionStatus: 'active' }).where(eq(users.id, agency.viewer.user.id));
    const leads = await call(t.app, 'GET', '/api/widget/leads', undefined, agency.cookie);
    expect(leads.body.leads[0]).toMatchObject({ email: 'waiting@bakery.example', status: 'processing' });
  });

  it('sends a daily digest instead, once per day, for keys that chose it', async () => {
    const { agency, key } = await agencyWithKey({ leadEmails: 'daily' });
    for (const email of ['one@digest.example', 'two@digest.example']) {
      expect((await visitor('POST', `/api/widget/v1/${key.publishableKey}/leads`, 'https://northstar.example', lead({ email, company: `Digest ${email}` }))).status).toBe(202);
    }
    const before = mails().filter((m) => toAgency(m, agency.email)).length;
    const day = new Date('2026-11-25T08:00:00Z');
    expect((await scheduleWidgetLeads(t.ctx, day)).digests).toBe(1);
    expect((await scheduleWidgetLeads(t.ctx, day)).digests).toBe(0);
    await drain();
    const sent = mails().filter((m) => toAgency(m, agency.email));
    expect(sent.length - before).toBe(1);
    expect(sent.at(-1)).toContain('Subject: 2 new leads from your widget');
  });

  it('counts leads per address when they are taken, queued ones too: a sixth in the hour is refused', async () => {
    const { agency, key } = await agencyWithKey();
    // Queued (the plan lapsed), so no report request counts them: the lead itself must.
    await t.ctx.db.update(users).set({ subscriptionStatus: 'suspended' }).where(eq(users.id, agency.viewer.user.id));
    const statuses: number[] = [];
    for (let n = 1; n <= 8; n++) {
      statuses.push((await visitor('POST', `/api/widget/v1/${key.publishableKey}/leads`, 'https://northstar.example', lead({ email: 'Many@Bakery.example', company: `Bakery ${n}` }))).status);
    }
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429, 429, 429]);
    expect(await t.ctx.db.select().from(widgetLeads).where(eq(widgetLeads.email, 'many@bakery.example'))).toHaveLength(5);
  });

  it('refuses a revoked key', async () => {
    const { agency, key } = await agencyWithKey();
    expect((await call(t.app, 'POST', `/api/widget/keys/${key.id}/revoke`, undefined, agency.cookie)).body.revoked).toBe(true);
    const refused = await visitor('POST', `/api/widget/v1/${key.publishableKey}/leads`, 'https://northstar.example', lead());
    expect(refused.status).toBe(403);
  });
});

describe("a lapsed agency's widget (decision 0171)", () => {
  it('keeps its leads readable and exportable, and tells the visitor when the report will come', async () => {
    const { agency, key } = await agencyWithKey();
    const first = await visitor('POST', `/api/widget/v1/${key.publishableKey}/leads`, 'https://northstar.example', lead({ email: 'on-time@bakery.example' }));
    expect(first.body).toMatchObject({ status: 'received', delivery: 'minutes' });

    // In the payment grace period (past_due) the reports still go out at once.
    await t.ctx.db.update(users).set({ subscriptionStatus: 'past_due' }).where(eq(users.id, agency.viewer.user.id));
    const grace = await visitor('POST', `/api/widget/v1/${key.publishableKey}/leads`, 'https://northstar.example', lead({ email: 'grace@bakery.example' }));
    expect(grace.body.delivery).toBe('minutes');

    // Past it, the lead is kept and the visitor is told the report is delayed.
    await t.ctx.db.update(users).set({ subscriptionStatus: 'suspended' }).where(eq(users.id, agency.viewer.user.id));
    const late = await visitor('POST', `/api/widget/v1/${key.publishableKey}/leads`, 'https://northstar.example', lead({ email: 'late@bakery.example' }));
    expect(late.body).toMatchObject({ status: 'received', delivery: 'later', thanks: { title: 'Thank you! Your request is saved.', card: false } });
    expect(late.body.thanks.text).toContain('it will not arrive in the usual 15-30 minutes');
    expect(first.body.thanks).toMatchObject({ title: 'Thank you! Your report is on its way.', card: true });
    expect(first.body.thanks.text).toContain('will arrive in 15-30 minutes');
    const leads = await call(t.app, 'GET', '/api/widget/leads', undefined, agency.cookie);
    expect(leads.status).toBe(200);
    expect(leads.body.leads.map((l: { email: string }) => l.email)).toEqual(expect.arrayContaining(['on-time@bakery.example', 'grace@bakery.example', 'late@bakery.example']));
    const csv = await t.app.request('/api/widget/leads.csv', { headers: { cookie: agency.cookie } });
    expect(csv.status).toBe(200);
    expect(await csv.text()).toContain('late@bakery.example');
    // What needs the plan stays closed: keys and turning a lead into a client.
    expect((await call(t.app, 'GET', '/api/widget/keys', undefined, agency.cookie)).status).toBe(403);
    expect((await call(t.app, 'POST', `/api/widget/leads/${late.body.leadId}/convert`, undefined, agency.cookie)).status).toBe(403);
    // Someone who is not a consultant has no leads to read.
    const owner = await createUser(t.ctx, { tier: 'pro' });
    expect((await call(t.app, 'GET', '/api/widget/leads', undefined, owner.cookie)).status).toBe(403);
  });
});
