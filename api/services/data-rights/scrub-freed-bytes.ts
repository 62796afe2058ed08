// secure_delete after the fact, for a libSQL server. sqld refuses `PRAGMA secure_delete = …` (and
// the pragma's table-valued form takes no argument), so there a deleted row stays readable in the
// free space of its page, in free pages, and in every page image the server keeps of them. This
// overwrites, through the `sqlite_dbpage` table libSQL is built with, the bytes SQLite's file format
// marks as free, and only those: the unallocated gap and the freeblocks of a b-tree page that still
// holds one of the erased strings, a free-list trunk's unused tail, and every free-list leaf page.
// The scan for those strings runs without a lock; the rewrite runs in write transactions that read
// each page again first, so a page another writer changed meanwhile is scrubbed as it is now.
// Decision 0209.
import type { Client, Transaction } from '@libsql/client';

export interface ScrubResult {
  /** B-tree pages whose free space was overwritten. */
  pages: number;
  /** Free-list pages overwritten. */
  freePages: number;
  /** Why nothing was scrubbed, when nothing could be. */
  skipped?: string;
}

/** Strings shorter than this name no one and would match everywhere. */
const MIN_NEEDLE = 6;
/** Strings searched in one statement, and pages per statement per string: a statement reads about
 *  a second's worth of pages on a slow server, far inside the call deadline. */
const NEEDLES_PER_SCAN = 16;
const PAGE_BUDGET_PER_SCAN = 200_000;
/** Pages rewritten per write transaction, so no transaction holds the server's write lock long. */
const PAGES_PER_TRANSACTION = 200;
/** Free-list pages are recognised by walking the list; past 2^24 pages an overflow page's first
 *  byte could read as a b-tree page type, and this refuses to guess. */
const MAX_PAGES = 2 ** 24;

const u16 = (b: Uint8Array, at: number) => (b[at]! << 8) | b[at + 1]!;
const u32 = (b: Uint8Array, at: number) => b[at]! * 2 ** 24 + (b[at + 1]! << 16) + (b[at + 2]! << 8) + b[at + 3]!;
const bytes = (value: unknown) => new Uint8Array(value as ArrayBuffer);

function zero(page: Uint8Array, from: number, to: number): boolean {
  let changed = false;
  for (let i = from; i < to; i++) {
    if (page[i] !== 0) {
      page[i] = 0;
      changed = true;
    }
  }
  return changed;
}

/**
 * Zeroes the free space of a b-tree page in place (as secure_delete would have): the gap between
 * the cell pointers and the cell content, and each freeblock past its 4-byte link. Returns whether
 * a byte changed; a page that is not a well-formed b-tree page is left as it is.
 */
export function zeroFreeSpace(page: Uint8Array, pgno: number, usable: number): boolean {
  const at = pgno === 1 ? 100 : 0;
  const type = page[at];
  if (type !== 2 && type !== 5 && type !== 10 && type !== 13) return false;
  const cellPointers = at + (type === 2 || type === 5 ? 12 : 8);
  const cells = u16(page, at + 3);
  const content = u16(page, at + 5) || 65_536;
  const gapStart = cellPointers + 2 * cells;
  if (gapStart > content || content > usable) return false;
  for (let i = 0; i < cells; i++) {
    const cell = u16(page, cellPointers + 2 * i);
    if (cell < content || cell >= usable) return false;
  }
  const blocks: [number, number][] = [];
  for (let block = u16(page, at + 1); block !== 0; ) {
    const size = u16(page, block + 2);
    const next = u16(page, block);
    if (block < content || size < 4 || block + size > usable || (next !== 0 && next <= block + size)) return false;
    blocks.push([block + 4, block + size]);
    block = next;
  }
  let changed = zero(page, gapStart, content);
  for (const [from, to] of blocks) changed = zero(page, from, to) || changed;
  return changed;
}

async function page(tx: Transaction, pgno: number): Promise<Uint8Array | null> {
  const row = (await tx.execute({ sql: 'SELECT data FROM sqlite_dbpage WHERE pgno = ?', args: [pgno] })).rows[0];
  return row ? bytes(row[0]) : null;
}

/** The free list's trunk pages (with their leaf counts) and leaf pages, as page 1 says now. */
async function freeList(tx: Transaction): Promise<{ trunks: Map<number, Uint8Array>; leaves: number[] }> {
  const first = (await page(tx, 1))!;
  const trunks = new Map<number, Uint8Array>();
  const leaves: number[] = [];
  for (let trunk = u32(first, 32); trunk !== 0 && !trunks.has(trunk); ) {
    const data = await page(tx, trunk);
    if (!data) break;
    trunks.set(trunk, data);
    const count = u32(data, 4);
    for (let i = 0; i < count && 8 + 4 * i + 4 <= data.length; i++) leaves.push(u32(data, 8 + 4 * i));
    trunk = u32(data, 0);
  }
  return { trunks, leaves };
}

async function inTransaction<T>(client: Client, work: (tx: Transaction) => Promise<T>): Promise<T> {
  const tx = await client.transaction('write');
  try {
    const result = await work(tx);
    await tx.commit();
    return result;
  } finally {
    tx.close();
  }
}

/** Overwrites every free-list page (a trunk past its list of leaves) that still holds a non-zero byte. */
async function scrubFreeList(client: Client, pageSize: number): Promise<number> {
  let scrubbed = 0;
  for (;;) {
    const done = await inTransaction(client, async (tx) => {
      const { trunks, leaves } = await freeList(tx);
      let n = 0;
      for (const [pgno, data] of trunks) {
        if (zero(data, 8 + 4 * u32(data, 4), data.length)) {
          await tx.execute({ sql: 'UPDATE sqlite_dbpage SET data = ? WHERE pgno = ?', args: [data, pgno] });
          n++;
        }
      }
      const dirty: number[] = [];
      for (let i = 0; i < leaves.length && dirty.length < PAGES_PER_TRANSACTION * 5; i += 1000) {
        const part = JSON.stringify(leaves.slice(i, i + 1000));
        const rows = await tx.execute({ sql: 'SELECT pgno FROM sqlite_dbpage WHERE pgno IN (SELECT value FROM json_each(?)) AND data <> zeroblob(?)', args: [part, pageSize] });
        dirty.push(...rows.rows.map((r) => Number(r[0])));
      }
      if (dirty.length) {
        await tx.execute({ sql: 'UPDATE sqlite_dbpage SET data = zeroblob(?) WHERE pgno IN (SELECT value FROM json_each(?))', args: [pageSize, JSON.stringify(dirty)] });
      }
      scrubbed += n + dirty.length;
      return dirty.length < PAGES_PER_TRANSACTION * 5;
    });
    if (done) return scrubbed;
  }
}

/** The pages whose bytes hold any of the strings (any case), found without taking a lock. */
async function pagesHolding(client: Client, needles: string[], pageCount: number): Promise<number[]> {
  const found = new Set<number>();
  for (let i = 0; i < needles.length; i += NEEDLES_PER_SCAN) {
    const group = needles.slice(i, i + NEEDLES_PER_SCAN);
    const span = Math.max(256, Math.floor(PAGE_BUDGET_PER_SCAN / group.length));
    const test = group.map(() => 'instr(lower(CAST(d.data AS TEXT)), ?) > 0').join(' OR ');
    for (let from = 1; from <= pageCount; from += span) {
      const { rows } = await client.execute({
        sql: `SELECT d.pgno FROM generate_series(?, ?) s JOIN sqlite_dbpage d ON d.pgno = s.value WHERE ${test}`,
        args: [from, Math.min(pageCount, from + span - 1), ...group],
      });
      for (const r of rows) found.add(Number(r[0]));
    }
  }
  return [...found].sort((a, b) => a - b);
}

/**
 * Overwrites with zeros the free bytes that may still hold what was erased: the free space of every
 * b-tree page holding one of `strings` (any case) and every free-list page. Run after the rows are
 * deleted; only for a libSQL server (a file has secure_delete on, db/client.ts).
 */
export async function scrubFreedBytes(client: Client, strings: string[]): Promise<ScrubResult> {
  const needles = [...new Set(strings.map((s) => s.trim().toLowerCase()).filter((s) => s.length >= MIN_NEEDLE))];
  const number = async (sql: string) => Number((await client.execute(sql)).rows[0]![0]);
  // ptrmap pages (auto_vacuum) have no mark of their own, and could read as b-tree pages.
  if ((await number('PRAGMA auto_vacuum')) !== 0) return { pages: 0, freePages: 0, skipped: 'auto_vacuum is on' };
  const pageCount = await number('PRAGMA page_count');
  if (pageCount >= MAX_PAGES) return { pages: 0, freePages: 0, skipped: `the database has ${pageCount} pages` };
  const pageSize = await number('PRAGMA page_size');

  const freePages = await scrubFreeList(client, pageSize);
  const candidates = needles.length ? await pagesHolding(client, needles, pageCount) : [];
  let pages = 0;
  for (let i = 0; i < candidates.length; i += PAGES_PER_TRANSACTION) {
    pages += await inTransaction(client, async (tx) => {
      const usable = pageSize - ((await page(tx, 1))![20] ?? 0);
      const { trunks, leaves } = await freeList(tx);
      const free = new Set([...trunks.keys(), ...leaves]);
      let n = 0;
      for (const pgno of candidates.slice(i, i + PAGES_PER_TRANSACTION)) {
        if (free.has(pgno)) continue;
        const data = await page(tx, pgno);
        if (data && zeroFreeSpace(data, pgno, usable)) {
          await tx.execute({ sql: 'UPDATE sqlite_dbpage SET data = ? WHERE pgno = ?', args: [data, pgno] });
          n++;
        }
      }
      return n;
    });
  }
  return { pages, freePages };
}
