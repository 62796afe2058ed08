// Inter as Google Fonts builds it (the @expo-google-fonts/inter package): one static TrueType
// file per weight covering Latin, Latin Extended, Vietnamese, Greek and Cyrillic. pdfkit embeds one
// font file per font name and cannot fall back to another file glyph by glyph, so the split
// subsets of @fontsource (latin, latin-ext, vietnamese…) left "Ł" or "ở" as empty boxes; one file
// per weight covers every name a report prints. Read once per process (or render thread).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { create, type Font } from 'fontkit';

const require = createRequire(import.meta.url);

export type FontWeight = 400 | 600 | 700;

const FILES: Record<FontWeight, string> = {
  400: '400Regular/Inter_400Regular.ttf',
  600: '600SemiBold/Inter_600SemiBold.ttf',
  700: '700Bold/Inter_700Bold.ttf',
};

/** OpenType layout tables (ligatures, kerning). fontkit runs them on every string pdfkit measures
 *  or writes, ~0.8 ms a string with this font: 30 times the cost of the rest. Precomposed letters
 *  (ở, ł, ё) are plain glyphs in the cmap, so text reads the same without them, unkerned. */
const LAYOUT_TABLES = new Set(['GSUB', 'GPOS', 'GDEF']);

/** The same font without the given tables, behind a fresh OpenType table directory. */
export function withoutTables(font: Buffer, drop: Set<string>): Buffer {
  const count = font.readUInt16BE(4);
  const tables = [];
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const tag = font.toString('latin1', at, at + 4);
    if (drop.has(tag)) continue;
    const offset = font.readUInt32BE(at + 8);
    tables.push({ tag, checksum: font.readUInt32BE(at + 4), data: font.subarray(offset, offset + font.readUInt32BE(at + 12)) });
  }
  const entrySelector = Math.floor(Math.log2(tables.length));
  const searchRange = 2 ** entrySelector * 16;
  const header = Buffer.alloc(12 + tables.length * 16);
  header.writeUInt32BE(font.readUInt32BE(0), 0);
  header.writeUInt16BE(tables.length, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(entrySelector, 8);
  header.writeUInt16BE(tables.length * 16 - searchRange, 10);
  const parts: Buffer[] = [header];
  let offset = header.length;
  tables.forEach((t, i) => {
    const at = 12 + i * 16;
    header.write(t.tag, at, 'latin1');
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

/** Inter of one weight; `layout: false` (the PDF) leaves out the OpenType layout tables. */
export function interFont(weight: FontWeight, options: { layout?: boolean } = {}): Buffer {
  const layout = options.layout ?? true;
  const key = `${weight}-${layout}`;
  let data = cache.get(key);
  if (!data) {
    const full = readFileSync(require.resolve(`@expo-google-fonts/inter/${FILES[weight]}`));
    data = layout ? full : withoutTables(full, LAYOUT_TABLES);
    cache.set(key, data);
  }
  return data;
}

/**
 * Scripts Inter does not have, from Google's Noto fonts (the @expo-google-fonts static builds),
 * regular weight: Chinese and Japanese (Noto Sans SC: hanzi/kanji, kana) and Arabic. A name in
 * them printed as empty boxes. Read the first time a text needs one.
 */
const FALLBACK_FILES = {
  'Noto Sans SC': '@expo-google-fonts/noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf',
  'Noto Sans Arabic': '@expo-google-fonts/noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf',
} as const;
export type FallbackName = keyof typeof FALLBACK_FILES;

const faces = new Map<string, { data: Buffer; font: Font }>();
function face(name: FallbackName | 'Inter'): { data: Buffer; font: Font } {
  let f = faces.get(name);
  if (!f) {
    const data = name === 'Inter' ? interFont(400) : readFileSync(require.resolve(FALLBACK_FILES[name]));
    f = { data, font: create(data) };
    faces.set(name, f);
  }
  return f;
}

/** Inter has every character up to Latin Extended-B (U+024F): only a text with a character past
 *  it may need a fallback. */
const BEYOND_LATIN = /[^\t\n\r\u0020-\u024f]/;
export const mayNeedFallback = (text: string): boolean => BEYOND_LATIN.test(text);

/** The font a character is drawn in: null for Inter (or when no font has it: Inter's box is the
 *  honest sign), else the first fallback that has it. */
export function fallbackFor(codePoint: number): FallbackName | null {
  if (codePoint < 0x250 || face('Inter').font.hasGlyphForCodePoint(codePoint)) return null;
  for (const name of Object.keys(FALLBACK_FILES) as FallbackName[]) if (face(name).font.hasGlyphForCodePoint(codePoint)) return name;
  return null;
}

/** A text cut into runs of one font each (null: Inter). */
export function fontRuns(text: string): Array<{ font: FallbackName | null; text: string }> {
  const runs: Array<{ font: FallbackName | null; text: string }> = [];
  for (const char of text) {
    const code = char.codePointAt(0)!;
    // Spaces and marks stay with the run they are in.
    const font = runs.length > 0 && (code === 0x20 || (code >= 0x300 && code < 0x370)) ? runs.at(-1)!.font : fallbackFor(code);
    if (runs.at(-1)?.font === font) runs.at(-1)!.text += char;
    else runs.push({ font, text: char });
  }
  return runs;
}

/** A fallback font's file. */
export const fallbackData = (name: FallbackName): Buffer => face(name).data;

/** The fallback fonts a text needs. */
export const fallbacksFor = (text: string): FallbackName[] => (mayNeedFallback(text) ? [...new Set(fontRuns(text).flatMap((r) => (r.font ? [r.font] : [])))] : []);
