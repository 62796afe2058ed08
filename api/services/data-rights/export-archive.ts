// An export's ZIP lives in the database (decision 0208), so the link a worker e-mails downloads
// from any web process, and the daily purge removes it everywhere. It is stored in pieces of
// EXPORT_CHUNK_BYTES: a libSQL server refuses a value of a few MB and an answer of more than
// 10 MB, and the download streams one piece at a time. Each run of the export job writes its
// pieces under an attempt id of its own and then claims the export row for it in one UPDATE, so
// two runs of one job (a lost lease) can never mix their pieces; the loser deletes its own.
import { randomUUID } from 'node:crypto';
import { and, count, eq, isNull, ne } from 'drizzle-orm';
import { dataExports } from '../../../db/schema/data-rights.ts';
import { dataExportChunks } from '../../../db/schema/files.ts';
import type { AppContext } from '../../context.ts';

export const EXPORT_CHUNK_BYTES = 1024 * 1024;
/** The largest ZIP an export may be (256 pieces): beyond it the job fails with the reason. The ZIP
 *  is built in the worker's memory, and kept in the database for EXPORT_LINK_DAYS. */
export const EXPORT_MAX_BYTES = 256 * EXPORT_CHUNK_BYTES;

const piecesOf = (bytes: number) => Math.ceil(bytes / EXPORT_CHUNK_BYTES);

/**
 * Stores the ZIP as the export's archive and marks the export ready with `readyAt`/`expiresAt`.
 * False (and nothing stored) when another run stored one first.
 */
export async function storeArchive(ctx: AppContext, exportId: string, zip: Uint8Array, times: { readyAt: Date; expiresAt: Date }, signal?: AbortSignal): Promise<boolean> {
  const attempt = randomUUID();
  const bytes = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let seq = 0; seq < piecesOf(bytes.byteLength); seq++) {
    signal?.throwIfAborted();
    const piece = bytes.subarray(seq * EXPORT_CHUNK_BYTES, (seq + 1) * EXPORT_CHUNK_BYTES);
    await ctx.db.insert(dataExportChunks).values({ exportId, attempt, seq, bytes: piece });
  }
  const claimed = await ctx.db
    .update(dataExports)
    .set({ status: 'ready', bytes: bytes.byteLength, archive: attempt, readyAt: times.readyAt, expiresAt: times.expiresAt })
    .where(and(eq(dataExports.id, exportId), isNull(dataExports.archive)))
    .returning({ id: dataExports.id });
  // Pieces of another attempt (this one's when it lost; an interrupted run's when it won).
  await ctx.db.delete(dataExportChunks).where(and(eq(dataExportChunks.exportId, exportId), claimed.length ? ne(dataExportChunks.attempt, attempt) : eq(dataExportChunks.attempt, attempt)));
  return claimed.length > 0;
}

/** The archive's pieces, read one at a time as the stream is consumed; null when they are gone. */
export async function openArchive(ctx: AppContext, row: { id: string; archive: string | null; bytes: number | null }): Promise<ReadableStream<Uint8Array> | null> {
  if (!row.archive || row.bytes === null) return null;
  const { archive } = row;
  const pieces = piecesOf(row.bytes);
  const [stored] = await ctx.db
    .select({ n: count() })
    .from(dataExportChunks)
    .where(and(eq(dataExportChunks.exportId, row.id), eq(dataExportChunks.attempt, archive)));
  if (stored?.n !== pieces) return null;
  let seq = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (seq >= pieces) return controller.close();
      const [piece] = await ctx.db
        .select({ bytes: dataExportChunks.bytes })
        .from(dataExportChunks)
        .where(and(eq(dataExportChunks.exportId, row.id), eq(dataExportChunks.attempt, archive), eq(dataExportChunks.seq, seq)));
      if (!piece) return controller.error(new Error(`export ${row.id}: piece ${seq} is gone`));
      controller.enqueue(new Uint8Array(piece.bytes));
      seq++;
    },
  });
}

/** The daily purge's part: the archives of exports whose link has expired, and the pieces of
 *  exports that failed. Returns how many archives went. */
export async function purgeExpiredArchives(ctx: AppContext, now: Date): Promise<number> {
  const args = { now: now.getTime() };
  const [pieces, archives] = await ctx.db.$client.batch(
    [
      { sql: "DELETE FROM data_export_chunks WHERE export_id IN (SELECT id FROM data_exports WHERE expires_at < :now OR status = 'failed')", args },
      { sql: 'UPDATE data_exports SET archive = NULL WHERE archive IS NOT NULL AND expires_at < :now', args },
    ],
    'write',
  );
  if (pieces!.rowsAffected) ctx.log.info('expired export archives purged', { archives: archives!.rowsAffected, pieces: pieces!.rowsAffected });
  return archives!.rowsAffected;
}
