// Integrity the data-rights services rely on: foreign keys enforced on every connection, deletion
// cascades declared in the schema, and every table of the migrated schema named in the data-rights
// registry (a table added without an entry fails here, so export and erasure never miss one).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { FILE_KINDS, TABLES } from '../../api/services/data-rights/registry.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const tableNames = async () =>
  (await t.ctx.db.$client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%' ORDER BY name")).rows.map((r) => String(r.name));

describe('data integrity', () => {
  it('enforces foreign keys on the main connection and on the prepared-read connection', async () => {
    expect(Number((await t.ctx.db.$client.execute('PRAGMA foreign_keys')).rows[0]![0])).toBe(1);
    expect(Number(Object.values((await t.ctx.db.$read('PRAGMA foreign_keys', []))[0]!)[0])).toBe(1);
    await expect(
      t.ctx.db.$client.execute({ sql: "INSERT INTO competitors (id, business_id, name, place_id, created_at) VALUES ('c1', 'no-such-business', 'X', 'p', 0)", args: [] }),
    ).rejects.toThrow(/FOREIGN KEY/);
  });

  it('cascades a business to its rows, and keeps consent records when their request goes', async () => {
    const x = t.ctx.db.$client;
    await x.execute("INSERT INTO businesses (id, full_name, email, company, role, website, address, city, state, zip, created_at, updated_at) VALUES ('b1', 'Ann', 'ann@example.com', 'Ann Co', 'Owner', 'https://a.example', '1 Main', 'Austin', 'TX', '78701', 0, 0)");
    await x.execute("INSERT INTO competitors (id, business_id, name, place_id, created_at) VALUES ('c1', 'b1', 'Rival', 'p1', 0)");
    await x.execute("INSERT INTO report_requests (id, business_id, email, fingerprint, payload, created_at) VALUES ('r1', 'b1', 'ann@example.com', 'f', '{}', 0)");
    await x.execute("INSERT INTO consent_records (id, request_id, email, text_version, consented_at) VALUES ('k1', 'r1', 'ann@example.com', 'v1', 0)");
    await x.execute("INSERT INTO reports (id, business_id, request_id, report_type, created_at) VALUES ('rep1', 'b1', 'r1', 'free', 0)");
    await x.execute("DELETE FROM businesses WHERE id = 'b1'");
    for (const table of ['competitors', 'report_requests', 'reports']) {
      expect(Number((await x.execute(`SELECT count(*) FROM ${table}`)).rows[0]![0]), table).toBe(0);
    }
    expect((await x.execute("SELECT request_id FROM consent_records WHERE id = 'k1'")).rows[0]!.request_id).toBeNull();
  });

  it('names every table of the schema in the data-rights registry, and no table that is not there', async () => {
    const names = await tableNames();
    expect(names.length).toBeGreaterThan(15);
    expect(names.filter((n) => !(n in TABLES)), 'tables without a data-rights registry entry').toEqual([]);
    expect(Object.keys(TABLES).filter((n) => !names.includes(n)), 'registry entries without a table').toEqual([]);
  });

  it('documents every table and file kind in docs/privacy-data.md, as the registry has them', () => {
    const doc = readFileSync('docs/privacy-data.md', 'utf8');
    for (const [name, rule] of Object.entries(TABLES)) expect(doc, name).toContain(`| \`${name}\` | ${rule.holds.replace(/\|/g, '\\|')} |`);
    for (const [name, rule] of Object.entries(FILE_KINDS)) expect(doc, name).toContain(`| ${name} | \`DATA_DIR/${rule.path}\` |`);
  });
});
