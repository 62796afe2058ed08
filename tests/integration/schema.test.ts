// The migrated database itself: every foreign key is indexed, so deletes and joins by it stay cheap.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../helpers/context.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => t.close());

const rows = async (sql: string) => (await t.ctx.db.$client.execute(sql)).rows as unknown as Array<Record<string, string | number>>;

describe('database schema', () => {
  it('has an index led by every foreign key column', async () => {
    const tables = await rows("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like '__drizzle%'");
    const unindexed: string[] = [];
    let foreignKeys = 0;
    for (const { name } of tables) {
      const leading = new Set<string>();
      for (const index of await rows(`pragma index_list('${name}')`)) {
        const [first] = await rows(`pragma index_info('${index.name}')`);
        if (first) leading.add(String(first.name));
      }
      for (const fk of await rows(`pragma foreign_key_list('${name}')`)) {
        foreignKeys++;
        if (!leading.has(String(fk.from))) unindexed.push(`${name}.${fk.from}`);
      }
    }
    expect(foreignKeys).toBeGreaterThan(10);
    expect(unindexed).toEqual([]);
  });
});
