// Inter, from the @fontsource/inter package. The package ships WOFF; it is unpacked once per
// process into a plain OpenType (sfnt) font, because the PDF and PNG renderers otherwise inflate
// the WOFF tables in pure JavaScript on every document (most of a PDF's render time).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';

const require = createRequire(import.meta.url);

export type FontWeight = 400 | 600 | 700;

/** WOFF 1.0 → sfnt: the same tables, uncompressed, behind a standard OpenType table directory. */
export function woffToSfnt(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') throw new Error('not a WOFF font');
  const flavor = woff.readUInt32BE(4);
  const numTables = woff.readUInt16BE(12);
  const tables = Array.from({ length: numTables }, (_, i) => {
    const at = 44 + i * 20;
    const offset = woff.readUInt32BE(at + 4);
    const compLength = woff.readUInt32BE(at + 8);
    const origLength = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + compLength);
    return { tag: woff.readUInt32BE(at), checksum: woff.readUInt32BE(at + 16), data: compLength < origLength ? inflateSync(raw) : raw };
  });
  const entrySelector = Math.floor(Math.log2(numTables));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + numTables * 16);
  header.writeUInt32BE(flavor, 0);
  header.writeUInt16BE(numTables, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(numTables * 16 - searchRange, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    header.writeUInt32BE(t.tag, at);
    header.writeUInt32BE(t.checksum, at + 4);
    header.writeUInt32BE(offset, at + 8);
    header.writeUInt32BE(t.data.length, at + 12);
    const padded = Buffer.alloc((t.data.length + 3) & ~3);
    t.data.copy(padded);
    parts.push(padded);
    offset += padded.length;
  });
  return Buffer.concat(parts);
}

const cache = new Map<string, Buffer>();

export function interFont(weight: FontWeight, subset: 'latin' | 'latin-ext' = 'latin'): Buffer {
  const key = `${subset}-${weight}`;
  let data = cache.get(key);
  if (!data) {
    data = woffToSfnt(readFileSync(require.resolve(`@fontsource/inter/files/inter-${subset}-${weight}-normal.woff`)));
    cache.set(key, data);
  }
  return data;
}
