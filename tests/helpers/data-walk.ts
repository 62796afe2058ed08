// Walks every table of the database and every file under DATA_DIR for strings that name someone
// (an e-mail, a business name, an id): where each one still appears. The erasure tests assert
// that nothing is left.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { AppContext } from '../../api/context.ts';

export async function findMentions(ctx: AppContext, dataDir: string, needles: string[]): Promise<string[]> {
  const wanted = needles.map((n) => n.toLowerCase());
  const found: string[] = [];
  const tables = (await ctx.db.$client.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '__drizzle%'")).rows.map((r) => String(r.name));
  for (const table of tables) {
    for (const row of (await ctx.db.$client.execute(`SELECT * FROM "${table}"`)).rows) {
      for (const [column, value] of Object.entries(row)) {
        if (typeof value !== 'string') continue;
        const text = value.toLowerCase();
        for (const n of wanted) if (text.includes(n)) found.push(`${table}.${column} names ${n}`);
      }
    }
  }
  const walk = (dir: string) => {
    if (!existsSync(dir)) return;
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) {
        walk(path);
        continue;
      }
      // The database files are walked above, table by table (a freed page may still hold old bytes).
      if (/\.db(-wal|-shm)?$/.test(name)) continue;
      const text = `${relative(dataDir, path)}\n${readFileSync(path, 'latin1')}`.toLowerCase();
      for (const n of wanted) if (text.includes(n)) found.push(`file ${relative(dataDir, path)} names ${n}`);
    }
  };
  walk(dataDir);
  return found;
}
