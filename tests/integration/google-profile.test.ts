// Issue 48: a Google Business Profile connected by OAuth, against the local stand-in of Google's
// side (tests/helpers/gbp-standin.ts): connect (placeId match, the only location, the picker, an
// agency's client), each failure page's cause (denied, wrong state, taken, unverified, quota 0),
// tokens sealed in the database file, the poll (every page first, then newest first until the
// first known review; edits; removals), a refreshed access token, a revoked grant (one e-mail, no
// retry storm) and disconnect revoking the grant. The Google calls per poll are counted here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { eq, ne } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { closeMailer } from '../../api/email/mailer.ts';
import { createWorker } from '../../api/jobs/worker.ts';
import { disconnectProfile } from '../../api/services/google-profile/connection.ts';
import { finishConnect, pickLocation, startConnect, type ConnectOutcome } from '../../api/services/google-profile/connect.ts';
import { PROFILE_POLL } from '../../api/services/google-profile/poll-job.ts';
import { SAMPLE_PROFILE_TITLE } from '../../api/services/google-profile/sample-profile.ts';
import { businesses } from '../../db/schema/businesses.ts';
import { googleConnections, profileMetrics, profileReviews } from '../../db/schema/google-profile.ts';
import { jobs } from '../../db/schema/operations.ts';
import { reviewAlerts } from '../../db/schema/reports.ts';
import { createTestContext, ON_SQLD, type TestContext } from '../helpers/context.ts';
import { addClient, seedBusiness } from '../helpers/dashboard-seed.ts';
import { createUser } from '../helpers/factories.ts';
import { startGbpStandin, type GbpStandin } from '../helpers/gbp-standin.ts';
import { testRegistry } from '../helpers/registry.ts';
import { startSmtpServer } from '../helpers/smtp.ts';

let t: TestContext;
let google: GbpStandin;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
beforeAll(async () => {
  google = await startGbpStandin();
  smtp = await startSmtpServer();
  t = await createTestContext({ ...google.env, SMTP_URL: smtp.url, PUBLIC_BASE_URL: 'http://localrank.test' });
});
afterAll(async () => {
  closeMailer(t.ctx);
  await t.close();
  await smtp.close();
  await google.close();
});
beforeEach(() => {
  google.quotaZero = false;
});

const DAY = 86_400_000;
let seq = 0;

async function ownerWithBusiness(placeId: string | null = null, tier: 'enterprise' | 'agency' = 'enterprise') {
  const owner = await createUser(t.ctx, { tier });
  const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company: `Lamar Smiles ${++seq}` });
  if (placeId) await t.ctx.db.update(businesses).set({ placeId: `google:${placeId}` }).where(eq(businesses.id, business.id));
  return { owner, business };
}

/** The browser's round trip: start, Google's consent screen, back to the callback. */
async function connect(cookie: string, businessId: string, choice: 'allow' | 'deny' = 'allow', callbackCookie = cookie): Promise<ConnectOutcome> {
  const start = await startConnect(t.ctx, cookie, businessId);
  if (start.kind !== 'redirect') return start;
  const back = new URL(await google.consent(start.to, choice));
  expect(`${back.origin}${back.pathname}`).toBe('http://localrank.test/connect/google/callback');
  return finishConnect(t.ctx, callbackCookie, back.searchParams);
}

async function runPolls(businessId: string) {
  const worker = createWorker(t.ctx, { registry: testRegistry({}) });
  // Only this business's polls that are due now (each poll queues the next one, GBP_POLL_SECONDS later).
  const due = async () => (await t.ctx.db.select().from(jobs).where(eq(jobs.status, 'queued'))).filter((j) => j.runAt.getTime() <= Date.now() && (j.type !== PROFILE_POLL || (j.payload as { businessId: string }).businessId === businessId));
  for (let i = 0; i < 20 && (await due()).length; i++) await worker.runNext();
}

const reviewsOf = (businessId: string) => t.ctx.db.select().from(profileReviews).where(eq(profileReviews.businessId, businessId));
const connectionOf = async (businessId: string) => (await t.ctx.db.select().from(googleConnections).where(eq(googleConnections.businessId, businessId)))[0];

it('connects the location whose placeId is the business\'s, reads every page first, then one call a poll', async () => {
  const { owner, business } = await ownerWithBusiness('ChIJ-lamar');
  const other = google.addLocation({ id: '2001', account: '1001', title: 'Lamar Smiles Round Rock', placeId: 'ChIJ-elsewhere' });
  const ours = google.addLocation({ id: '2002', account: '1001', title: 'Lamar Smiles Austin', placeId: 'ChIJ-lamar' });
  for (let i = 0; i < 120; i++) google.addReview(ours.id, { rating: 5 - (i % 3), comment: `Review ${i}`, author: `Person ${i}`, at: Date.now() - (i + 1) * 3_600_000 });
  ours.metrics.CALL_CLICKS = { [new Date(Date.now() - 2 * DAY).toISOString().slice(0, 10)]: 7 };
  expect(other.reviews).toHaveLength(0);

  const outcome = await connect(owner.cookie, business.id);
  expect(outcome).toEqual({ kind: 'connected', businessId: business.id, title: 'Lamar Smiles Austin', sample: false });
  const consent = new URL(google.calls.find((c) => c.route === 'consent')!.url, google.base).searchParams;
  expect(Object.fromEntries(['response_type', 'scope', 'access_type', 'prompt', 'code_challenge_method'].map((k) => [k, consent.get(k)]))).toEqual({ response_type: 'code', scope: 'https://www.googleapis.com/auth/business.manage', access_type: 'offline', prompt: 'consent', code_challenge_method: 'S256' });
  expect(google.calls.find((c) => c.route === 'locations')!.url).toContain('readMask=');

  // The first poll reads all 120 reviews: three pages of 50, 50 and 20, plus the 90 days of metrics.
  const before = google.calls.length;
  await runPolls(business.id);
  const first = google.calls.slice(before);
  expect(first.filter((c) => c.route === 'reviews').map((c) => new URL(c.url, google.base).searchParams.get('orderBy'))).toEqual(['updateTime desc', 'updateTime desc', 'updateTime desc']);
  expect(first.map((c) => c.route).sort()).toEqual(['performance', 'reviews', 'reviews', 'reviews']);
  expect(await reviewsOf(business.id)).toHaveLength(120);
  const metrics = await t.ctx.db.select().from(profileMetrics).where(eq(profileMetrics.businessId, business.id));
  expect(metrics).toHaveLength(90);
  expect(metrics.reduce((n, d) => n + d.calls, 0)).toBe(7);

  // A poll with nothing new: one call. With 3 new reviews (one 1-star): still one call.
  const { pollProfile } = await import('../../api/services/google-profile/poll-job.ts');
  const mark = google.calls.length;
  const idle = await pollProfile(t.ctx, (await connectionOf(business.id))!);
  expect({ calls: idle.calls, changed: idle.changed }).toEqual({ calls: 1, changed: 0 });
  for (const rating of [4, 1, 5]) google.addReview(ours.id, { rating, comment: rating === 1 ? 'Never again.' : 'Fine', author: `New ${rating}` });
  const busy = await pollProfile(t.ctx, (await connectionOf(business.id))!);
  expect({ calls: busy.calls, changed: busy.changed, newAlerts: busy.newAlerts }).toEqual({ calls: 1, changed: 3, newAlerts: 1 });
  expect(google.calls.length - mark).toBe(2);
  const alerts = await t.ctx.db.select().from(reviewAlerts).where(eq(reviewAlerts.businessId, business.id));
  expect(alerts.find((a) => a.reviewAuthor === 'New 1')).toMatchObject({ platform: 'google_business_profile', reviewRating: 1, reviewText: 'Never again.' });

  // An edit updates in place, and a review that left the profile is marked removed in the same
  // poll: Google's totalReviewCount (122) is below the 123 held, so the read goes on to the last page.
  const edited = ours.reviews.find((r) => r.author === 'Person 3')!;
  Object.assign(edited, { comment: 'Changed my mind', rating: 2, updateTime: Date.now() });
  ours.reviews.splice(ours.reviews.findIndex((r) => r.author === 'Person 7'), 1);
  const again = await pollProfile(t.ctx, (await connectionOf(business.id))!);
  expect({ changed: again.changed, removed: again.removed, calls: again.calls }).toEqual({ changed: 1, removed: 1, calls: 3 });
  // Counts agree again: one call.
  expect((await pollProfile(t.ctx, (await connectionOf(business.id))!)).calls).toBe(1);
  // A removal and a new review in one period: the new one counts on our side, so the counts still disagree.
  ours.reviews.splice(ours.reviews.findIndex((r) => r.author === 'Person 9'), 1);
  google.addReview(ours.id, { rating: 5, comment: 'Lovely', author: 'New 6' });
  const both = await pollProfile(t.ctx, (await connectionOf(business.id))!);
  expect({ changed: both.changed, removed: both.removed, calls: both.calls }).toEqual({ changed: 1, removed: 1, calls: 3 });
  // The daily full read still reads every page.
  await t.ctx.db.update(googleConnections).set({ fullReadAt: new Date(Date.now() - 2 * DAY) }).where(eq(googleConnections.businessId, business.id));
  const full = await pollProfile(t.ctx, (await connectionOf(business.id))!);
  expect({ full: full.full, removed: full.removed, pages: full.pages }).toEqual({ full: true, removed: 0, pages: 3 });
  const rows = await reviewsOf(business.id);
  expect(rows.find((r) => r.author === 'Person 3')).toMatchObject({ text: 'Changed my mind', rating: 2, removedAt: null });
  expect(rows.filter((r) => r.removedAt).map((r) => r.author).sort()).toEqual(['Person 7', 'Person 9']);

  // The alert reached the owner's mailbox, labelled.
  await runPolls(business.id);
  const texts = smtp.received.filter((m) => m.envelope.to[0] === owner.email).map((m) => m.parsed.text ?? '');
  expect(texts.filter((x) => x.includes('1.0 stars on Google (from your Google Business Profile) by New 1'))).toHaveLength(1);
});

it('a connected profile\'s every review makes the dashboard\'s and the paid report\'s review figures; without one they stay as they were', async () => {
  const { analyseBusiness } = await import('../../api/report/analyse.ts');
  const { reportInput } = await import('../../api/report/model/types.ts');
  const { call } = await import('../helpers/context.ts');
  const owner = await createUser(t.ctx, { tier: 'enterprise' });
  const { business } = await seedBusiness(t.ctx, { userId: owner.userId, company: 'Figures Dental', snapshots: [{ daysAgo: 1 }] });
  await t.ctx.db.update(businesses).set({ placeId: 'google:ChIJ-figures', website: '' }).where(eq(businesses.id, business.id));
  const loc = google.addLocation({ id: '1101', account: '1100', title: 'Figures Dental', placeId: 'ChIJ-figures' });
  // Six reviews, known figures: average 20/6 = 3.3; 3 in the last 90 days, 2 in the 90 before.
  for (const [rating, days] of [[5, 2], [4, 20], [1, 60], [5, 100], [3, 150], [2, 400]] as const) google.addReview(loc.id, { rating, comment: `${rating} stars, ${days} days ago`, author: `Figures ${days}`, at: Date.now() - days * DAY });
  const input = { ...reportInput((await t.ctx.db.query.businesses.findFirst({ where: eq(businesses.id, business.id) }))!), website: '' };

  // Not connected: the dashboard's own row is the listing's, and the report reads the provider's reviews.
  const before = (await call(t.app, 'GET', `/api/business/${business.id}`, undefined, owner.cookie)).body;
  expect(before.googleProfile).toMatchObject({ connection: null, reviews: null });
  const plain = await analyseBusiness(t.ctx, input);
  expect(plain.business.place.reviewCount).not.toBe(6);
  expect(plain.notes.join(' ')).not.toContain('Google Business Profile');

  expect((await connect(owner.cookie, business.id)).kind).toBe('connected');
  await runPolls(business.id);
  const dash = (await call(t.app, 'GET', `/api/business/${business.id}`, undefined, owner.cookie)).body;
  expect(dash.self).toEqual(before.self);
  expect(dash.googleProfile.reviews).toMatchObject({ source: 'google_business_profile', label: 'from your Google Business Profile', count: 6, average: 3.3, last90: 3, previous90: 2 });
  expect(dash.googleProfile.reviews.newest.map((r: { author: string }) => r.author)).toEqual(['Figures 2', 'Figures 20', 'Figures 60', 'Figures 100', 'Figures 150']);
  expect(dash.googleProfile.days).toHaveLength(90);

  const report = await analyseBusiness(t.ctx, input);
  expect(report.business.place).toMatchObject({ reviewCount: 6, rating: 3.3 });
  expect(report.business.reviewVelocity).toMatchObject({ last30Days: 2, last90Days: 3 });
  expect(report.business.sentiment).toMatchObject({ reviewsRead: 6, starShare: expect.objectContaining({ 1: expect.any(Number) }) });
  expect(report.notes.find((n) => n.includes('from your Google Business Profile'))).toContain('every one of your 6 reviews');
  expect(report.business.dataPoints.find((p) => p.key === 'reviews.share_1_star')!.how).toContain('every one of the 6 reviews on your Google Business Profile, newest first');
  // The profile's poll alerts on its reviews: the report does not read the listing's for the business.
  expect(report.ownReviews).toEqual([]);
  // The competitors are read as before.
  expect(report.competitors.map((c) => c.place.reviewCount)).toEqual(plain.competitors.map((c) => c.place.reviewCount));

  // A lapsed plan: the report is the listing's again (the profile is an Early Warning feature).
  const { users } = await import('../../db/schema/auth.ts');
  await t.ctx.db.update(users).set({ subscriptionTier: 'free' }).where(eq(users.id, owner.userId));
  expect((await analyseBusiness(t.ctx, input)).business.place.reviewCount).toBe(plain.business.place.reviewCount);
});

it('keeps every token out of the database file in clear', async () => {
  if (ON_SQLD) return;
  const live = google.liveRefreshTokens();
  expect(live.length).toBeGreaterThan(0);
  const { rows } = await t.ctx.db.$client.execute('SELECT refresh_token, access_token FROM google_connections');
  expect(rows.every((r) => String(r.refresh_token).startsWith('t1.'))).toBe(true);
  await t.ctx.db.$client.execute('PRAGMA wal_checkpoint(TRUNCATE)');
  const file = readFileSync(join(t.dataDir, 'app.db')).toString('latin1');
  for (const token of live) expect(file.includes(token)).toBe(false);
  expect(file.includes('ya29.')).toBe(false);
});

it('says what happened for a denied consent, a wrong or foreign state, quota 0, an unverified location and one connected elsewhere', async () => {
  const { owner, business } = await ownerWithBusiness('ChIJ-deny');
  google.addLocation({ id: '3001', account: '3000', title: 'Deny Dental', placeId: 'ChIJ-deny' });
  expect(await connect(owner.cookie, business.id, 'deny')).toMatchObject({ kind: 'failed', reason: 'denied' });

  // The callback in another session (someone else's browser) or with a made-up state is refused.
  const stranger = await createUser(t.ctx, { tier: 'enterprise' });
  expect(await connect(owner.cookie, business.id, 'allow', stranger.cookie)).toMatchObject({ kind: 'failed', reason: 'wrong-state' });
  expect(await finishConnect(t.ctx, owner.cookie, new URLSearchParams({ code: 'x', state: 'made-up' }))).toMatchObject({ kind: 'failed', reason: 'wrong-state' });
  // A state is used once.
  const start = await startConnect(t.ctx, owner.cookie, business.id);
  const back = new URL(await google.consent((start as { to: string }).to, 'allow'));
  expect((await finishConnect(t.ctx, owner.cookie, back.searchParams)).kind).toBe('connected');
  expect(await finishConnect(t.ctx, owner.cookie, back.searchParams)).toMatchObject({ kind: 'failed', reason: 'wrong-state' });

  // The same location for another business: taken.
  const second = await ownerWithBusiness('ChIJ-deny');
  expect(await connect(second.owner.cookie, second.business.id)).toMatchObject({ kind: 'failed', reason: 'taken' });

  const unverified = await ownerWithBusiness('ChIJ-unverified');
  google.addLocation({ id: '3002', account: '3000', title: 'Unverified Smiles', placeId: 'ChIJ-unverified', verified: false });
  expect(await connect(unverified.owner.cookie, unverified.business.id)).toMatchObject({ kind: 'failed', reason: 'unverified' });
  expect(await connectionOf(unverified.business.id)).toBeUndefined();

  const quota = await ownerWithBusiness('ChIJ-quota');
  google.quotaZero = true;
  expect(await connect(quota.owner.cookie, quota.business.id)).toMatchObject({ kind: 'failed', reason: 'quota' });
  expect(await connectionOf(quota.business.id)).toBeUndefined();
});

it('asks which location when several match none, and lets an agency connect its client', async () => {
  const agency = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
  const { owner, business } = await ownerWithBusiness(null, 'enterprise');
  await addClient(t.ctx, agency.viewer.consultant!.id, business.id);
  await t.ctx.db.update(businesses).set({ userId: null }).where(eq(businesses.id, business.id));
  google.addLocation({ id: '4001', account: '4000', title: 'Client A', placeId: 'ChIJ-a' });
  google.addLocation({ id: '4002', account: '4000', title: 'Client B', placeId: 'ChIJ-b' });
  const asked = await connect(agency.cookie, business.id);
  expect(asked.kind).toBe('picker');
  if (asked.kind !== 'picker') return;
  expect(asked.choices.map((c) => c.title)).toEqual(expect.arrayContaining(['Client A', 'Client B']));
  // Someone else cannot finish the agency's pick.
  expect(await pickLocation(t.ctx, owner.cookie, asked.state, 'locations/4002')).toMatchObject({ kind: 'failed', reason: 'wrong-state' });
  expect(await pickLocation(t.ctx, agency.cookie, asked.state, 'locations/9999')).toMatchObject({ kind: 'picker', state: asked.state, fields: { location: 'Choose one of the locations listed' } });
  expect(await pickLocation(t.ctx, agency.cookie, asked.state, 'locations/4002')).toMatchObject({ kind: 'connected', title: 'Client B' });
  expect((await connectionOf(business.id))!.userId).toBe(agency.userId);
});

it('an agency connects from its client\'s page: only its own client, only that client\'s business, and back to that page', async () => {
  const agency = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
  const other = await createUser(t.ctx, { tier: 'agency', role: 'consultant' });
  const { owner, business } = await ownerWithBusiness('ChIJ-client-page', 'enterprise');
  const second = await ownerWithBusiness('ChIJ-client-two', 'enterprise');
  const client = await addClient(t.ctx, agency.viewer.consultant!.id, business.id);
  const secondClient = await addClient(t.ctx, agency.viewer.consultant!.id, second.business.id);
  const othersClient = await addClient(t.ctx, other.viewer.consultant!.id, business.id);
  google.addLocation({ id: '4101', account: '4100', title: 'Client Page Dental', placeId: 'ChIJ-client-page' });

  // Another agency's client id, the agency's other client (not this business), the owner with the agency's client id, a made-up id: 404.
  await expect(startConnect(t.ctx, agency.cookie, business.id, othersClient.id)).rejects.toMatchObject({ code: 'not_found' });
  await expect(startConnect(t.ctx, agency.cookie, business.id, secondClient.id)).rejects.toMatchObject({ code: 'not_found' });
  await expect(startConnect(t.ctx, owner.cookie, business.id, client.id)).rejects.toMatchObject({ code: 'not_found' });
  await expect(startConnect(t.ctx, agency.cookie, business.id, 'made-up')).rejects.toMatchObject({ code: 'not_found' });
  expect(google.calls.filter((c) => c.route === 'consent' && c.url.includes('client-page')).length).toBe(0);

  // A denied consent goes back to the client's page too; then allowed, connected for that client.
  const denied = await startConnect(t.ctx, agency.cookie, business.id, client.id);
  const deniedBack = new URL(await google.consent((denied as { to: string }).to, 'deny'));
  expect(await finishConnect(t.ctx, agency.cookie, deniedBack.searchParams)).toMatchObject({ kind: 'failed', reason: 'denied', clientId: client.id });
  const start = await startConnect(t.ctx, agency.cookie, business.id, client.id);
  expect(start.kind).toBe('redirect');
  const back = new URL(await google.consent((start as { to: string }).to, 'allow'));
  expect(await finishConnect(t.ctx, agency.cookie, back.searchParams)).toMatchObject({ kind: 'connected', businessId: business.id, title: 'Client Page Dental', clientId: client.id });
  expect((await connectionOf(business.id))!.userId).toBe(agency.userId);
});

it('refuses a business the viewer may not see, as the dashboard does', async () => {
  const { business } = await ownerWithBusiness();
  const stranger = await createUser(t.ctx, { tier: 'enterprise' });
  await expect(startConnect(t.ctx, stranger.cookie, business.id)).rejects.toMatchObject({ code: 'not_found' });
  await expect(startConnect(t.ctx, null, business.id)).rejects.toMatchObject({ code: 'unauthenticated' });
  const pro = await createUser(t.ctx, { tier: 'pro' });
  const own = await seedBusiness(t.ctx, { userId: pro.userId });
  await expect(startConnect(t.ctx, pro.cookie, own.business.id)).rejects.toMatchObject({ code: 'plan_required' });
});

it('refreshes an expired access token unnoticed; a revoked grant disconnects with one e-mail and no more calls', async () => {
  const { owner, business } = await ownerWithBusiness('ChIJ-revoke');
  const loc = google.addLocation({ id: '5001', account: '5000', title: 'Revoke Dental', placeId: 'ChIJ-revoke' });
  google.addReview(loc.id, { rating: 5 });
  expect((await connect(owner.cookie, business.id)).kind).toBe('connected');
  await runPolls(business.id);

  // Expired by the clock: refreshed before the call. Refused by Google before then (401): refreshed and tried once more.
  const { pollProfile } = await import('../../api/services/google-profile/poll-job.ts');
  google.expireAccessTokens();
  await t.ctx.db.update(googleConnections).set({ accessExpiresAt: new Date(Date.now() - 1000) }).where(eq(googleConnections.businessId, business.id));
  let refreshesBefore = google.hits.refresh ?? 0;
  expect((await pollProfile(t.ctx, (await connectionOf(business.id))!)).calls).toBe(1);
  expect((google.hits.refresh ?? 0) - refreshesBefore).toBe(1);
  google.expireAccessTokens();
  refreshesBefore = google.hits.refresh ?? 0;
  expect((await pollProfile(t.ctx, (await connectionOf(business.id))!)).calls).toBe(2);
  expect((google.hits.refresh ?? 0) - refreshesBefore).toBe(1);

  google.revokeAll();
  google.expireAccessTokens();
  await t.ctx.db.update(googleConnections).set({ accessExpiresAt: new Date(0) }).where(eq(googleConnections.businessId, business.id));
  const { scheduleProfilePolls } = await import('../../api/services/google-profile/poll-job.ts');
  await t.ctx.db.update(googleConnections).set({ lastPolledAt: new Date(0) }).where(eq(googleConnections.businessId, business.id));
  await scheduleProfilePolls(t.ctx, new Date());
  const mailsBefore = smtp.received.length;
  await runPolls(business.id);
  const row = await connectionOf(business.id);
  expect(row).toMatchObject({ status: 'disconnected', refreshToken: null, accessToken: null });
  const sent = smtp.received.slice(mailsBefore).filter((m) => m.parsed.subject?.includes('disconnected') && m.envelope.to[0] === owner.email);
  expect(sent).toHaveLength(1);
  expect(sent[0]!.envelope.to[0]).toBe(owner.email);
  expect(sent[0]!.parsed.text).toContain(`http://localrank.test/connect/google?businessId=${business.id}`);

  // Later ticks and polls make no call to Google for it, and send nothing more (the other tests'
  // profiles, whose grants revokeAll ended too, are set aside so every call counted would be its).
  await t.ctx.db.delete(googleConnections).where(ne(googleConnections.businessId, business.id));
  const calls = google.calls.length;
  await scheduleProfilePolls(t.ctx, new Date(Date.now() + DAY));
  await t.ctx.db.insert(jobs).values({ type: PROFILE_POLL, payload: { businessId: business.id, period: 'again' } });
  await runPolls(business.id);
  expect(google.calls.length).toBe(calls);
  expect(smtp.received.slice(mailsBefore).filter((m) => m.parsed.subject?.includes('disconnected') && m.envelope.to[0] === owner.email)).toHaveLength(1);
});

it('disconnect revokes the grant at Google and deletes the tokens', async () => {
  const { owner, business } = await ownerWithBusiness('ChIJ-bye');
  google.addLocation({ id: '6001', account: '6000', title: 'Bye Dental', placeId: 'ChIJ-bye' });
  expect((await connect(owner.cookie, business.id)).kind).toBe('connected');
  const revokedBefore = google.revoked.length;
  expect(await disconnectProfile(t.ctx, business.id)).toBe(true);
  expect(google.revoked.length - revokedBefore).toBe(1);
  expect(await connectionOf(business.id)).toBeUndefined();
});

it('with the sample provider and no OAuth settings, "Connect" gives a labelled sample profile', async () => {
  const bare = await createTestContext({});
  try {
    const owner = await createUser(bare.ctx, { tier: 'enterprise' });
    const { business } = await seedBusiness(bare.ctx, { userId: owner.userId });
    expect(await startConnect(bare.ctx, owner.cookie, business.id)).toMatchObject({ kind: 'connected', sample: true });
    const [row] = await bare.ctx.db.select().from(googleConnections).where(eq(googleConnections.businessId, business.id));
    expect(row).toMatchObject({ status: 'sample', locationTitle: SAMPLE_PROFILE_TITLE, refreshToken: null });
    expect((await bare.ctx.db.select().from(profileReviews).where(eq(profileReviews.businessId, business.id))).length).toBeGreaterThan(100);
  } finally {
    await bare.close();
  }
});

it('account closure revokes the grant and deletes the tokens; the export names the profile, never a token', async () => {
  const { closeAccount } = await import('../../api/services/data-rights/account-closure.ts');
  const { ACCOUNT_BUSINESSES, TABLES } = await import('../../api/services/data-rights/registry.ts');
  const { owner, business } = await ownerWithBusiness('ChIJ-close');
  google.addLocation({ id: '7001', account: '7000', title: 'Closing Dental', placeId: 'ChIJ-close' });
  expect((await connect(owner.cookie, business.id)).kind).toBe('connected');
  const exported = await t.ctx.db.$client.execute({ sql: TABLES.google_connections!.exportRows!.sql, args: { userId: owner.userId } });
  expect(exported.rows).toHaveLength(1);
  expect(exported.rows[0]).toMatchObject({ business_id: business.id, status: 'connected', location_title: 'Closing Dental' });
  expect(JSON.stringify(exported.rows)).not.toMatch(/t1\.|ya29\.|1\/\//);
  expect(ACCOUNT_BUSINESSES).toContain(':userId');

  const revokedBefore = google.revoked.length;
  await closeAccount({ ctx: t.ctx, userId: owner.userId, input: { confirmEmail: owner.email, password: owner.password } });
  expect(google.revoked.length - revokedBefore).toBe(1);
  expect(await connectionOf(business.id)).toBeUndefined();
});

it('answers a review from the product: posted to Google, Google\'s reason when refused, 10 edits a minute, per-field 400s', async () => {
  const { call } = await import('../helpers/context.ts');
  const { owner, business } = await ownerWithBusiness('ChIJ-answer');
  const loc = google.addLocation({ id: '8001', account: '8000', title: 'Answer Dental', placeId: 'ChIJ-answer' });
  const bad = google.addReview(loc.id, { rating: 1, comment: 'Rude staff', author: 'Grumpy G.' });
  for (let i = 0; i < 12; i++) google.addReview(loc.id, { rating: 4, author: `Fine ${i}`, at: Date.now() - (i + 1) * DAY });
  expect((await connect(owner.cookie, business.id)).kind).toBe('connected');
  await runPolls(business.id);

  const base = `/api/business/${business.id}/google-profile`;
  const first = await call(t.app, 'GET', `${base}?limit=5`, undefined, owner.cookie);
  expect(first.status).toBe(200);
  expect(first.body).toMatchObject({ label: 'from your Google Business Profile', connection: { status: 'connected', title: 'Answer Dental' }, reviewCount: 13 });
  expect(first.body.reviews).toHaveLength(5);
  expect(first.body.reviews[0]).toMatchObject({ id: bad.reviewId, rating: 1, author: 'Grumpy G.', reply: null });
  expect(JSON.stringify(first.body)).not.toMatch(/t1\.|ya29\.|refresh/i);
  const second = await call(t.app, 'GET', `${base}?limit=5&cursor=${first.body.nextCursor}`, undefined, owner.cookie);
  expect(second.body.reviews.map((r: { id: string }) => r.id)).not.toContain(bad.reviewId);
  expect((await call(t.app, 'GET', `${base}?limit=500`, undefined, owner.cookie)).body).toMatchObject({ code: 'invalid_input', fields: { limit: 'Must be a whole number from 1 to 100' } });

  const reply = `${base}/reviews/${bad.reviewId}/reply`;
  expect((await call(t.app, 'PUT', reply, { text: '   ' }, owner.cookie)).body).toMatchObject({ code: 'invalid_input', fields: { text: 'Write an answer (to remove one, delete it)' } });
  const stranger = await createUser(t.ctx, { tier: 'enterprise' });
  expect((await call(t.app, 'PUT', reply, { text: 'Hi' }, stranger.cookie)).status).toBe(404);

  const posted = await call(t.app, 'PUT', reply, { text: 'Sorry to hear this, please call us.' }, owner.cookie);
  expect(posted.status).toBe(200);
  expect(posted.body).toMatchObject({ id: bad.reviewId, reply: { text: 'Sorry to hear this, please call us.' }, replyError: null });
  expect(bad.reply?.comment).toBe('Sorry to hear this, please call us.');

  // Google refuses (its policy): the reason is said and kept beside the review; Google's copy is unchanged.
  const refused = await call(t.app, 'PUT', reply, { text: 'Visit http://cheap-spam.example now' }, owner.cookie);
  expect(refused.status).toBe(400);
  expect(refused.body.fields.text).toBe('Google refused the answer: The reply violates the review reply policy (links to spam).');
  expect(bad.reply?.comment).toBe('Sorry to hear this, please call us.');

  const removed = await call(t.app, 'DELETE', reply, undefined, owner.cookie);
  expect(removed.body).toMatchObject({ reply: null });
  expect(bad.reply).toBeNull();

  // 10 edits a minute per profile: the 11th is refused here, before Google is asked.
  const puts = () => google.calls.filter((c) => c.route === 'reply').length;
  // Three edits so far (answer, refused answer, delete): seven more pass, the eleventh is refused.
  const statuses = [];
  for (let i = 0; i < 8; i++) statuses.push((await call(t.app, 'PUT', reply, { text: `Edit ${i}` }, owner.cookie)).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 429]);
  const sent = puts();
  expect((await call(t.app, 'PUT', reply, { text: 'Once more' }, owner.cookie)).status).toBe(429);
  expect(puts()).toBe(sent);

  const metrics = await call(t.app, 'GET', `${base}/metrics?days=90`, undefined, owner.cookie);
  expect(metrics.body.days).toHaveLength(90);
  expect((await call(t.app, 'GET', `${base}/metrics?days=91`, undefined, owner.cookie)).status).toBe(400);

  expect((await call(t.app, 'DELETE', base, undefined, owner.cookie)).body).toEqual({ disconnected: true });
  expect(await connectionOf(business.id)).toBeUndefined();
});

it('API v1: reviews newest first with reviews:read, answers with reviews:write, metrics; as the document says', async () => {
  const { call } = await import('../helpers/context.ts');
  const { expectDocumented } = await import('../helpers/openapi.ts');
  const doc = (await call(t.app, 'GET', '/api/v1/openapi.json')).body;
  const { owner, business } = await ownerWithBusiness('ChIJ-api');
  const loc = google.addLocation({ id: '9001', account: '9000', title: 'API Dental', placeId: 'ChIJ-api' });
  for (let i = 0; i < 3; i++) google.addReview(loc.id, { rating: i + 2, comment: `Api ${i}`, author: `Api ${i}`, at: Date.now() - (3 - i) * 3_600_000 });
  expect((await connect(owner.cookie, business.id)).kind).toBe('connected');
  await runPolls(business.id);
  const keyWith = async (scopes: string[]) => (await call(t.app, 'POST', '/api/api-keys', { name: scopes.join(' '), scopes }, owner.cookie)).body.key as string;
  const reader = await keyWith(['reviews:read']);
  const writer = await keyWith(['reviews:read', 'reviews:write']);
  const v1 = async (key: string, method: string, path: string, body?: unknown) => {
    const res = await t.app.request(`/api/v1${path}`, { method, headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    const answer = { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
    expectDocumented(doc, method, `/api/v1${path}`, answer);
    return answer;
  };
  const page = await v1(reader, 'GET', `/businesses/${business.id}/reviews?limit=2`);
  expect(page.status).toBe(200);
  expect(page.body.reviews.map((r: { author: string }) => r.author)).toEqual(['Api 2', 'Api 1']);
  expect(page.body.reviews[0]).toMatchObject({ source: 'google_business_profile', rating: 4, text: 'Api 2', reply: null });
  const rest = await v1(reader, 'GET', `/businesses/${business.id}/reviews?limit=2&cursor=${page.body.nextCursor}`);
  expect(rest.body).toMatchObject({ reviews: [{ author: 'Api 0' }], nextCursor: null });

  const id = page.body.reviews[0].id as string;
  expect((await v1(reader, 'PUT', `/businesses/${business.id}/reviews/${id}/reply`, { text: 'Thanks' })).status).toBe(403);
  const answered = await v1(writer, 'PUT', `/businesses/${business.id}/reviews/${id}/reply`, { text: 'Thanks' });
  expect(answered.body).toMatchObject({ id, reply: { text: 'Thanks' } });
  expect(loc.reviews.find((r) => r.reviewId === id)!.reply?.comment).toBe('Thanks');
  expect((await v1(writer, 'PUT', `/businesses/${business.id}/reviews/${id}/reply`, { text: '' })).status).toBe(400);
  expect((await v1(writer, 'DELETE', `/businesses/${business.id}/reviews/${id}/reply`)).body.reply).toBeNull();
  const metrics = await v1(reader, 'GET', `/businesses/${business.id}/profile-metrics?days=30`);
  expect(metrics.body).toMatchObject({ businessId: business.id, connected: true });
  expect(metrics.body.days.length).toBeGreaterThanOrEqual(29);
});
