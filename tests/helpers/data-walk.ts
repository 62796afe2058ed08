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
  for (const path of filesUnder(dataDir)) {
    // The database files are walked above, table by table; findBytes reads them byte for byte.
    if (/\.db(-wal|-shm)?$/.test(path)) continue;
    const text = `${relative(dataDir, path)}\n${readFileSync(path, 'latin1')}`.toLowerCase();
    for (const n of wanted) if (text.includes(n)) found.push(`file ${relative(dataDir, path)} names ${n}`);
  }
  return found;
}

/**
 * Byte for byte: every file under DATA_DIR, the database and its write-ahead log included (where a
 * freed page or an old page image may still hold erased rows), searched for each string as it
 * would be stored (UTF-8, any case). Returns how many times each one occurs in each file.
 */
export function findBytes(dataDir: string, needles: string[]): Record<string, Record<string, number>> {
  const found: Record<string, Record<string, number>> = {};
  for (const path of filesUnder(dataDir)) {
    const text = readFileSync(path).toString('latin1').toLowerCase();
    for (const needle of needles) {
      const bytes = Buffer.from(needle.toLowerCase(), 'utf8').toString('latin1');
      const count = text.split(bytes).length - 1;
      if (count) (found[relative(dataDir, path)] ??= {})[needle] = count;
    }
  }
  return found;
}

/** Every file under a folder, at any depth. */
function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}
