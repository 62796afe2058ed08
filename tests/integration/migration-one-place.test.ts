// Migration 0019_one_business_one_place on a copy of a real-shaped database: built at the
// migration before it with the duplicates repeated report requests made (several owners, a
// consultant's client, histories overlapping in the same weeks, shared competitors and reviews,
// a queued job), then migrated. Checks the counts, the kept settings, every moved row, and that
// every other row of every table is as it was. Prints the figures. On a file, and on sqld in the
// sqld pass.
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDb, openDb, type Db } from '../../db/client.ts';
import { ON_SQLD } from '../helpers/context.ts';
import { startSqld, type Sqld } from '../helpers/sqld.ts';

const TAG = '0019_one_business_one_place';
const MIGRATIONS = resolve(import.meta.dirname, '../../db/migrations');
const D = 86_400_000;
const T0 = 1_790_000_000_000;

let dir: string;
let sqld: Sqld | null = null;
let db: Db;

/** The migrations folder as it was just before TAG (or just after it): the journal stops short
 *  of it (or at it), so migrations added later change nothing here. */
function migrationsUpTo(including: boolean): string {
  const folder = join(dir, including ? 'migrations-with' : 'migrations-before');
  cpSync(MIGRATIONS, folder, { recursive: true });
  const journalPath = join(folder, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: Array<{ tag: string }> };
  const at = journal.entries.findIndex((e) => e.tag === TAG);
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, including ? at + 1 : at);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}

type Row = Record<string, unknown>;
const run = (sql: string, args: unknown[] = []) => db.$client.execute({ sql, args: args as never });
const rows = async (sql: string, args: unknown[] = []) => (await run(sql, args)).rows.map((r) => ({ ...r }) as Row);
async function insert(table: string, row: Row) {
  const cols = Object.keys(row);
  await run(`INSERT INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, cols.map((c) => row[c]));
}

// --- The database before: who has what. ---
const business = (id: string, userId: string | null, address: string, zip: string, createdDay: number, updatedDay: number, extra: Row = {}) =>
  insert('businesses', {
    id, user_id: userId, full_name: `Owner of ${id}`, email: `${id.toLowerCase()}@example.com`, company: `Company ${id}`, role: 'owner',
    website: `https://${id.toLowerCase()}.example`, address, city: 'Austin', state: 'TX', zip, created_at: T0 + createdDay * D, updated_at: T0 + updatedDay * D, ...extra,
  });
/** One analysis run: the request, its report, the business's snapshot and one per competitor. */
async function runOf(businessId: string, runId: string, day: number, competitorIds: string[] = [], options: { clientId?: string; consultantId?: string } = {}) {
  const at = T0 + day * D;
  await insert('report_requests', { id: `q-${runId}`, business_id: businessId, email: 'x@example.com', fingerprint: `f-${runId}`, payload: '{}', status: 'sent', created_at: at });
  await insert('reports', { id: `r-${runId}`, business_id: businessId, request_id: `q-${runId}`, run_id: runId, report_type: 'free', token: `tok-${runId}`, client_id: options.clientId ?? null, consultant_id: options.consultantId ?? null, created_at: at });
  await insert('business_metrics', { id: `m-${runId}`, business_id: businessId, run_id: runId, is_main_business: 1, overall_score: 5 + day / 10, local_voice_share: 20 + day, reported_at: at });
  for (const c of competitorIds) await insert('business_metrics', { id: `m-${runId}-${c}`, business_id: businessId, competitor_id: c, run_id: runId, is_main_business: 0, overall_score: 6, reported_at: at });
}
const competitor = (id: string, businessId: string, placeId: string, day: number) =>
  insert('competitors', { id, business_id: businessId, name: `Rival ${placeId}`, place_id: placeId, rating: 4.1, review_count: 10, created_at: T0 + day * D });
const alert = (id: string, businessId: string, author: string, reviewDay: number, rating: number, createdDay: number) =>
  insert('review_alerts', { id, business_id: businessId, platform: 'google', review_rating: rating, review_author: author, review_date: T0 + reviewDay * D, alert_triggered: 1, email_sent: 1, alert_threshold: 3, created_at: T0 + createdDay * D });

async function seed() {
  for (const u of ['uA', 'uB', 'uC', 'uK', 'uK2']) await insert('users', { id: u, email: `${u}@example.com`, role: u.startsWith('uK') ? 'consultant' : 'client', subscription_tier: 'enterprise', created_at: T0, updated_at: T0 });
  await insert('consultants', { id: 'cK', user_id: 'uK', company_name: 'K Agency', subscription_tier: 'agency', created_at: T0, updated_at: T0 });
  await insert('consultants', { id: 'cK2', user_id: 'uK2', company_name: 'K2 Agency', subscription_tier: 'agency', created_at: T0, updated_at: T0 });

  // Owner A: one place asked about four times (written three ways; A5 only by its listing id),
  // its threshold set on the first, keywords on the second; and another place, A4.
  await business('A1', 'uA', '100 Congress Ave', '78701', 0, 2, { place_id: 'google:P1', alert_threshold: 4.5, latitude: 30.1, longitude: -97.1, category: 'dentist' });
  await business('A5', 'uA', '100 Congress Avenue', '78701', 3, 3, { place_id: 'google:P1', latitude: 30.2, longitude: -97.2, category: 'dentist' });
  await business('A2', 'uA', '100 congress ave.', '78701-1234', 7, 15, { place_id: 'google:P1', visibility_keywords: '["emergency dentist"]', latitude: 30.3, longitude: -97.3, category: 'dental clinic' });
  await business('A3', 'uA', '100  Congress Ave', '78701', 20, 20);
  await business('A4', 'uA', '500 Lamar Blvd', '78703', 1, 1, { place_id: 'google:P4', alert_threshold: 2 });
  // Owner B: the same place as A (another owner: another business), twice; its sample ids are no
  // identity (B3 shares one at another address and stays apart).
  await business('B1', 'uB', '100 Congress Ave', '78701', 1, 1, { place_id: 'sample-b-1', alert_threshold: 4 });
  await business('B2', 'uB', '100 CONGRESS AVE', '78701', 8, 9, { place_id: 'sample-b-1', alert_threshold: 3.5 });
  await business('B3', 'uB', '9 Elm St', '78701', 2, 2, { place_id: 'sample-b-1' });
  await business('C1', 'uC', '1 Oak Rd', '78702', 0, 0);
  // Consultant K: client X's business and two businesses the API made for X at its place (K1, K2),
  // a third there for K's own report (K3, stays); client Y has one business.
  await business('CX', null, '1 Main St', '78701', 0, 0, { place_id: 'google:PX' });
  await business('K1', 'uK', '1 Main St.', '78701', 10, 10, { place_id: 'google:PX' });
  await business('K2', 'uK', '1 main st', '78701', 17, 17);
  await business('K3', 'uK', '1 Main St', '78701', 18, 18);
  await business('CY', null, '77 Pine St', '78705', 0, 0);
  // Visitors without an account: left as they are.
  await business('V1', null, '100 Congress Ave', '78701', 4, 4);
  await business('V2', null, '100 Congress Ave', '78701', 5, 5);
  await insert('clients', { id: 'clX', consultant_id: 'cK', business_id: 'CX', client_name: 'X', client_email: 'x@example.com', created_at: T0, updated_at: T0 });
  await insert('clients', { id: 'clY', consultant_id: 'cK', business_id: 'CY', client_name: 'Y', client_email: 'y@example.com', created_at: T0, updated_at: T0 });
  // K2's client Z is A2 (saved to owner A's account, and a client of K2's).
  await insert('clients', { id: 'clZ', consultant_id: 'cK2', business_id: 'A2', client_name: 'Z', client_email: 'z@example.com', created_at: T0, updated_at: T0 });

  // Competitors: A1 and A2 both know rival C1; A2 and A5 both know C3.
  await competitor('cA1-1', 'A1', 'google:C1', 0);
  await competitor('cA1-2', 'A1', 'google:C2', 0);
  await competitor('cA2-1', 'A2', 'google:C1', 7);
  await competitor('cA2-3', 'A2', 'google:C3', 7);
  await competitor('cA5-3', 'A5', 'google:C3', 3);
  await competitor('cA4-1', 'A4', 'google:C1', 1);
  await competitor('cCX-1', 'CX', 'google:CX1', 0);
  await competitor('cK1-1', 'K1', 'google:CX1', 10);
  // Histories overlapping in the same weeks (days 7-8, 14-15).
  await runOf('A1', 'a1-1', 0, ['cA1-1', 'cA1-2']);
  await runOf('A1', 'a1-2', 14, ['cA1-1', 'cA1-2']);
  await runOf('A5', 'a5-1', 3, ['cA5-3']);
  await runOf('A2', 'a2-1', 8, ['cA2-1', 'cA2-3']);
  await runOf('A2', 'a2-2', 15, ['cA2-1', 'cA2-3']);
  await runOf('A4', 'a4-1', 1, ['cA4-1']);
  await runOf('B1', 'b1-1', 1);
  await runOf('B2', 'b2-1', 8);
  await runOf('B3', 'b3-1', 2);
  await runOf('CX', 'cx-1', 0, ['cCX-1'], { clientId: 'clX', consultantId: 'cK' });
  await runOf('K1', 'k1-1', 10, ['cK1-1'], { clientId: 'clX', consultantId: 'cK' });
  await runOf('K2', 'k2-1', 17, [], { clientId: 'clX', consultantId: 'cK' });
  await runOf('K3', 'k3-1', 18);
  await runOf('V1', 'v1-1', 4);
  await runOf('V2', 'v2-1', 5);
  // A3's request is still queued, its job too; a finished job of A2's stays as it ran.
  await insert('report_requests', { id: 'q-a3', business_id: 'A3', email: 'a3@example.com', fingerprint: 'f-a3', payload: '{}', status: 'queued', created_at: T0 + 20 * D });
  await insert('jobs', { id: 'j-a3', type: 'report.generate', key: 'report.generate:q-a3', payload: JSON.stringify({ requestId: 'q-a3', businessId: 'A3' }), status: 'queued', run_at: T0, created_at: T0, updated_at: T0 });
  await insert('jobs', { id: 'j-a2', type: 'report.generate', key: 'report.generate:q-a2-1', payload: JSON.stringify({ requestId: 'q-a2-1', businessId: 'A2' }), status: 'done', run_at: T0, created_at: T0, updated_at: T0 });
  await insert('consent_records', { id: 'cr-a2', request_id: 'q-a2-1', email: 'a2@example.com', text_version: 'v1', consented_at: T0 + 8 * D });
  await insert('widget_leads', { id: 'wl-k1', consultant_id: 'cK', full_name: 'Lead', email: 'lead@example.com', company: 'X', payload: '{}', source_hostname: 'k.example', status: 'requested', request_id: 'q-k1-1', client_id: 'clX', created_at: T0 + 10 * D });
  // Review alerts: A1 and A2 saw Sam's review; A5 and A2 saw Lee's (A5 first).
  await alert('al-A1-sam', 'A1', 'Sam', -2, 2, 0);
  await alert('al-A2-sam', 'A2', 'Sam', -2, 2, 8);
  await alert('al-A5-lee', 'A5', 'Lee', 2, 1, 3);
  await alert('al-A2-lee', 'A2', 'Lee', 2, 1, 8);
  await alert('al-A2-kim', 'A2', 'Kim', 9, 1, 15);
  await alert('al-B2-ann', 'B2', 'Ann', 7, 2, 8);
}

// --- What the migration is expected to do. ---
const MERGED: Record<string, string> = { A2: 'A1', A3: 'A1', A5: 'A1', B2: 'B1', K1: 'CX', K2: 'CX' };
const COMPETITOR_MOVED: Record<string, string> = { 'cA2-1': 'cA1-1', 'cA5-3': 'cA2-3', 'cK1-1': 'cCX-1' };
const ALERTS_DROPPED = new Set(['al-A2-sam', 'al-A2-lee']);
const SURVIVORS = new Set(['A1', 'B1', 'CX']);

async function snapshot() {
  const tables = (await rows(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '\\_\\_%' ESCAPE '\\' AND name NOT LIKE '\\_place%' ESCAPE '\\' ORDER BY name`)).map((r) => String(r.name));
  const all: Record<string, Row[]> = {};
  for (const table of tables) all[table] = await rows(`SELECT * FROM "${table}" ORDER BY rowid`);
  return all;
}

/** A row as it should read after the migration, or null when it should be gone. */
function expected(table: string, row: Row): Row | null {
  const to = (id: unknown) => (typeof id === 'string' && MERGED[id]) || id;
  switch (table) {
    case 'businesses':
      return MERGED[String(row.id)] ? null : row;
    case 'competitors':
      return COMPETITOR_MOVED[String(row.id)] ? null : { ...row, business_id: to(row.business_id) };
    case 'business_metrics':
      return { ...row, business_id: to(row.business_id), competitor_id: COMPETITOR_MOVED[String(row.competitor_id)] ?? row.competitor_id };
    case 'review_alerts':
      return ALERTS_DROPPED.has(String(row.id)) ? null : { ...row, business_id: to(row.business_id) };
    case 'reports':
    case 'report_requests':
    case 'clients':
      return { ...row, business_id: to(row.business_id) };
    case 'jobs': {
      const payload = JSON.parse(String(row.payload)) as { businessId?: string };
      return row.status === 'queued' && payload.businessId && MERGED[payload.businessId] ? { ...row, payload: JSON.stringify({ ...payload, businessId: MERGED[payload.businessId] }) } : row;
    }
    default:
      return row;
  }
}

let before: Record<string, Row[]>;
let after: Record<string, Row[]>;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'localrank-migration-'));
  sqld = ON_SQLD ? await startSqld() : null;
  db = await openDb(sqld ? sqld.url : `file:${join(dir, 'copy.db')}`);
  await migrateDb(db, migrationsUpTo(false));
  await seed();
  before = await snapshot();
  await migrateDb(db, migrationsUpTo(true));
  after = await snapshot();
  // And every migration after it still applies.
  await migrateDb(db);
}, 120_000);

afterAll(async () => {
  db?.$client.close();
  await sqld?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe(`migration ${TAG}`, () => {
  it('merges each owner\'s businesses of one place, and a client\'s, and prints the figures', () => {
    const ids = (t: string) => after[t]!.map((r) => String(r.id)).sort();
    expect(ids('businesses')).toEqual(['A1', 'A4', 'B1', 'B3', 'C1', 'CX', 'CY', 'K3', 'V1', 'V2']);
    // Measured: rows that are still there and name another business than before.
    const moved = (table: string) => {
      const was = new Map(before[table]!.map((r) => [r.id, r.business_id]));
      return after[table]!.filter((r) => was.has(r.id) && was.get(r.id) !== r.business_id).length;
    };
    const figures = {
      'businesses before': before.businesses!.length,
      'businesses after': after.businesses!.length,
      'places merged (survivors)': SURVIVORS.size,
      'business_metrics moved': moved('business_metrics'),
      'reports moved': moved('reports'),
      'report_requests moved': moved('report_requests'),
      'competitors moved': moved('competitors'),
      'competitors folded into the survivor\'s': before.competitors!.length - after.competitors!.length,
      'review_alerts moved': moved('review_alerts'),
      'review_alerts already on the survivor (dropped)': before.review_alerts!.length - after.review_alerts!.length,
      'clients repointed': moved('clients'),
      'queued jobs repointed': after.jobs!.filter((j, i) => j.payload !== before.jobs![i]!.payload).length,
    };
    console.log(`${TAG} on ${ON_SQLD ? 'sqld' : 'a file'}:\n${Object.entries(figures).map(([k, v]) => `  ${k}: ${v}`).join('\n')}`);
    expect(figures).toMatchObject({ 'businesses before': 16, 'businesses after': 10, 'business_metrics moved': 12, 'reports moved': 6, 'report_requests moved': 7, 'clients repointed': 1, 'queued jobs repointed': 1 });
  });

  it('keeps the newest details and, per setting, the newest one set', () => {
    const get = (id: string) => after.businesses!.find((b) => b.id === id)!;
    // A: details of A3 (the latest request); A1's threshold (no later one set), A2's keywords;
    // the listing, point and category of the latest analysed (A2); the first creation, the last update.
    expect(get('A1')).toMatchObject({ company: 'Company A3', email: 'a3@example.com', address: '100  Congress Ave', user_id: 'uA', alert_threshold: 4.5, visibility_keywords: '["emergency dentist"]', place_id: 'google:P1', latitude: 30.3, category: 'dental clinic', created_at: T0, updated_at: T0 + 20 * D });
    // B: B2's threshold, set later than B1's.
    expect(get('B1')).toMatchObject({ company: 'Company B2', alert_threshold: 3.5, created_at: T0 + D });
    // The client's business keeps its id and owner (none), with the latest details.
    expect(get('CX')).toMatchObject({ user_id: null, company: 'Company K2', created_at: T0 });
  });

  it('moves the history: snapshots, competitors, alerts, reports, requests, clients and queued jobs', () => {
    const of = (table: string, businessId: string) => after[table]!.filter((r) => r.business_id === businessId);
    expect(of('business_metrics', 'A1').filter((m) => m.is_main_business === 1).map((m) => m.run_id).sort()).toEqual(['a1-1', 'a1-2', 'a2-1', 'a2-2', 'a5-1']);
    expect(of('competitors', 'A1').map((c) => c.place_id).sort()).toEqual(['google:C1', 'google:C2', 'google:C3']);
    expect(of('review_alerts', 'A1').map((a) => a.id).sort()).toEqual(['al-A1-sam', 'al-A2-kim', 'al-A5-lee']);
    expect(of('report_requests', 'A1').map((r) => r.id).sort()).toEqual(['q-a1-1', 'q-a1-2', 'q-a2-1', 'q-a2-2', 'q-a3', 'q-a5-1']);
    expect(of('business_metrics', 'CX').map((m) => m.run_id).sort()).toEqual(['cx-1', 'cx-1', 'k1-1', 'k1-1', 'k2-1']);
    expect(after.clients!.find((c) => c.id === 'clZ')!.business_id).toBe('A1');
    expect(JSON.parse(String(after.jobs!.find((j) => j.id === 'j-a3')!.payload))).toEqual({ requestId: 'q-a3', businessId: 'A1' });
    expect(JSON.parse(String(after.jobs!.find((j) => j.id === 'j-a2')!.payload)).businessId).toBe('A2');
  });

  it('changes nothing else: every other row of every table is as it was, and no row names a business that is gone', async () => {
    expect(Object.keys(after).sort()).toEqual(Object.keys(before).sort());
    for (const table of Object.keys(before)) {
      const want = before[table]!.map((r) => expected(table, r)).filter((r): r is Row => r !== null && !(table === 'businesses' && SURVIVORS.has(String(r.id))));
      const got = after[table]!.filter((r) => !(table === 'businesses' && SURVIVORS.has(String(r.id))));
      expect(got, table).toEqual(want);
    }
    const orphans = await rows(`
      SELECT 'competitors' AS t, count(*) AS n FROM competitors WHERE business_id NOT IN (SELECT id FROM businesses)
      UNION ALL SELECT 'business_metrics', count(*) FROM business_metrics WHERE business_id NOT IN (SELECT id FROM businesses) OR (competitor_id IS NOT NULL AND competitor_id NOT IN (SELECT id FROM competitors))
      UNION ALL SELECT 'review_alerts', count(*) FROM review_alerts WHERE business_id NOT IN (SELECT id FROM businesses)
      UNION ALL SELECT 'reports', count(*) FROM reports WHERE business_id NOT IN (SELECT id FROM businesses)
      UNION ALL SELECT 'report_requests', count(*) FROM report_requests WHERE business_id NOT IN (SELECT id FROM businesses)
      UNION ALL SELECT 'clients', count(*) FROM clients WHERE business_id IS NOT NULL AND business_id NOT IN (SELECT id FROM businesses)`);
    expect(orphans.filter((o) => Number(o.n) > 0)).toEqual([]);
  });

  it('is a no-op on a database with nothing to merge (a fresh one)', async () => {
    const fresh = await openDb(`file:${join(dir, 'fresh.db')}`);
    try {
      await migrateDb(fresh);
      const [{ n }] = (await fresh.$client.execute("SELECT count(*) AS n FROM sqlite_master WHERE name LIKE '\\_place%' ESCAPE '\\'")).rows as unknown as [{ n: number }];
      expect(Number(n)).toBe(0);
    } finally {
      fresh.$client.close();
    }
  });
});
