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
 * The fonts the PDF is drawn in, parsed once per process (or render thread) and shared by every
 * document: pdfkit takes a parsed fontkit font as readily as a file, and parsed from a file it
 * parsed Inter's three weights (and each fallback) again for every report, with their glyphs, at
 * the cost of about a quarter of a PDF's CPU and most of its garbage. A document's embedded subset
 * stays its own (pdfkit copies the glyphs it embeds).
 */
const pdfFonts = new Map<string, Font>();
export function pdfFont(name: 'Inter' | FallbackName, weight: FontWeight): Font {
  const key = `${name} ${weight}`;
  let font = pdfFonts.get(key);
  if (!font) {
    if (name === 'Inter') font = create(interFont(weight, { layout: false })) as Font;
    else {
      const fallback = weight === 700 ? 700 : 400;
      font = fallback === 400 ? face(name).font : safeLayout(create(fallbackData(name, 700)) as Font, name, 700);
    }
    pdfFonts.set(key, font);
  }
  return font;
}

/**
 * Scripts Inter does not have, from Google's Noto fonts (the @expo-google-fonts static builds),
 * regular weight, each with the Unicode blocks it is the font for. A character is looked up only in
 * the fonts whose blocks hold it, so a font file is read the first time a text has a character of
 * its script (Noto Sans SC is 10 MB, KR 6 MB): a Latin-only report reads none of them. A character
 * outside every block (a symbol) is looked up in the symbol fonts, then the CJK ones (their
 * punctuation and signs).
 */
const FALLBACKS = {
  'Noto Sans Arabic': ['noto-sans-arabic/400Regular/NotoSansArabic_400Regular.ttf', [[0x600, 0x6ff], [0x750, 0x77f], [0x870, 0x8ff], [0xfb50, 0xfdff], [0xfe70, 0xfeff]]],
  'Noto Sans Hebrew': ['noto-sans-hebrew/400Regular/NotoSansHebrew_400Regular.ttf', [[0x590, 0x5ff], [0xfb1d, 0xfb4f]]],
  'Noto Sans Armenian': ['noto-sans-armenian/400Regular/NotoSansArmenian_400Regular.ttf', [[0x530, 0x58f], [0xfb13, 0xfb17]]],
  'Noto Sans Syriac': ['noto-sans-syriac/400Regular/NotoSansSyriac_400Regular.ttf', [[0x700, 0x74f], [0x860, 0x86f]]],
  'Noto Sans Thaana': ['noto-sans-thaana/400Regular/NotoSansThaana_400Regular.ttf', [[0x780, 0x7bf]]],
  'Noto Sans Devanagari': ['noto-sans-devanagari/400Regular/NotoSansDevanagari_400Regular.ttf', [[0x900, 0x97f], [0x1cd0, 0x1cff], [0xa8e0, 0xa8ff]]],
  'Noto Sans Bengali': ['noto-sans-bengali/400Regular/NotoSansBengali_400Regular.ttf', [[0x980, 0x9ff]]],
  'Noto Sans Gurmukhi': ['noto-sans-gurmukhi/400Regular/NotoSansGurmukhi_400Regular.ttf', [[0xa00, 0xa7f]]],
  'Noto Sans Gujarati': ['noto-sans-gujarati/400Regular/NotoSansGujarati_400Regular.ttf', [[0xa80, 0xaff]]],
  'Noto Sans Oriya': ['noto-sans-oriya/400Regular/NotoSansOriya_400Regular.ttf', [[0xb00, 0xb7f]]],
  'Noto Sans Tamil': ['noto-sans-tamil/400Regular/NotoSansTamil_400Regular.ttf', [[0xb80, 0xbff], [0x11fc0, 0x11fff]]],
  'Noto Sans Telugu': ['noto-sans-telugu/400Regular/NotoSansTelugu_400Regular.ttf', [[0xc00, 0xc7f]]],
  'Noto Sans Kannada': ['noto-sans-kannada/400Regular/NotoSansKannada_400Regular.ttf', [[0xc80, 0xcff]]],
  'Noto Sans Malayalam': ['noto-sans-malayalam/400Regular/NotoSansMalayalam_400Regular.ttf', [[0xd00, 0xd7f]]],
  'Noto Sans Sinhala': ['noto-sans-sinhala/400Regular/NotoSansSinhala_400Regular.ttf', [[0xd80, 0xdff], [0x111e0, 0x111ff]]],
  'Noto Sans Thai': ['noto-sans-thai/400Regular/NotoSansThai_400Regular.ttf', [[0xe00, 0xe7f]]],
  'Noto Sans Lao': ['noto-sans-lao/400Regular/NotoSansLao_400Regular.ttf', [[0xe80, 0xeff]]],
  'Noto Serif Tibetan': ['noto-serif-tibetan/400Regular/NotoSerifTibetan_400Regular.ttf', [[0xf00, 0xfff]]],
  'Noto Sans Myanmar': ['noto-sans-myanmar/400Regular/NotoSansMyanmar_400Regular.ttf', [[0x1000, 0x109f], [0xa9e0, 0xa9ff], [0xaa60, 0xaa7f]]],
  'Noto Sans Georgian': ['noto-sans-georgian/400Regular/NotoSansGeorgian_400Regular.ttf', [[0x10a0, 0x10ff], [0x1c90, 0x1cbf], [0x2d00, 0x2d2f]]],
  'Noto Sans Ethiopic': ['noto-sans-ethiopic/400Regular/NotoSansEthiopic_400Regular.ttf', [[0x1200, 0x139f], [0x2d80, 0x2ddf], [0xab00, 0xab2f], [0x1e7e0, 0x1e7ff]]],
  'Noto Sans Khmer': ['noto-sans-khmer/400Regular/NotoSansKhmer_400Regular.ttf', [[0x1780, 0x17ff], [0x19e0, 0x19ff]]],
  'Noto Sans Mongolian': ['noto-sans-mongolian/400Regular/NotoSansMongolian_400Regular.ttf', [[0x1800, 0x18af], [0x11660, 0x1167f]]],
  // Han, kana and CJK punctuation; then Hangul (Noto Sans KR also has Han, for a character SC lacks).
  'Noto Sans SC': ['noto-sans-sc/400Regular/NotoSansSC_400Regular.ttf', [[0x2e80, 0x2fdf], [0x3000, 0x312f], [0x3190, 0x31ff], [0x3200, 0x4dbf], [0x4e00, 0x9fff], [0xf900, 0xfaff], [0xfe30, 0xfe4f], [0xff00, 0xffef], [0x1b000, 0x1b16f], [0x20000, 0x3134f]]],
  'Noto Sans KR': ['noto-sans-kr/400Regular/NotoSansKR_400Regular.ttf', [[0x1100, 0x11ff], [0x3000, 0x303f], [0x3130, 0x318f], [0x3200, 0x32ff], [0x4e00, 0x9fff], [0xa960, 0xa97f], [0xac00, 0xd7ff], [0xf900, 0xfaff], [0xff00, 0xffef]]],
  // Emoji in one colour (pdfkit draws outlines, not colour bitmaps), then the symbol fonts.
  'Noto Emoji': ['noto-emoji/400Regular/NotoEmoji_400Regular.ttf', [[0x203c, 0x2049], [0x2122, 0x2139], [0x2194, 0x21aa], [0x231a, 0x23ff], [0x24c2, 0x24c2], [0x25aa, 0x25fe], [0x2600, 0x27bf], [0x2934, 0x2935], [0x2b05, 0x2b55], [0x3030, 0x303d], [0x3297, 0x3299], [0x1f000, 0x1faff]]],
  'Noto Sans Symbols': ['noto-sans-symbols/400Regular/NotoSansSymbols_400Regular.ttf', []],
  'Noto Sans Symbols 2': ['noto-sans-symbols-2/400Regular/NotoSansSymbols2_400Regular.ttf', []],
} as const satisfies Record<string, readonly [string, ReadonlyArray<readonly [number, number]>]>;
export type FallbackName = keyof typeof FALLBACKS;
export const FALLBACK_NAMES = Object.keys(FALLBACKS) as FallbackName[];

/** Where a character with no block of its own is looked for, in this order. */
const SYMBOL_FONTS: FallbackName[] = ['Noto Emoji', 'Noto Sans Symbols', 'Noto Sans Symbols 2', 'Noto Sans SC', 'Noto Sans KR'];

/** fontkit's layout, as far as this code uses it (its type declarations leave it out). */
export interface Shaper {
  layout(text: string, features?: string[] | Record<string, boolean>): { glyphs: Array<{ id: number; codePoints: number[]; advanceWidth: number }>; positions: unknown[]; direction?: string };
}

/**
 * Noto Emoji's space is as wide as an emoji (1.27 em); a space next to an emoji, which satori and
 * a run of emoji take from it, left a gap of a word. This gives the space Inter's width (0.28 em)
 * in a copy of the file.
 */
function narrowSpace(data: Buffer): Buffer {
  const tables = new Map<string, number>();
  for (let i = 0; i < data.readUInt16BE(4); i++) tables.set(data.toString('latin1', 12 + i * 16, 16 + i * 16), data.readUInt32BE(12 + i * 16 + 8));
  const [head, hhea, hmtx] = [tables.get('head'), tables.get('hhea'), tables.get('hmtx')];
  const space = (create(data) as unknown as { glyphForCodePoint(c: number): { id: number } }).glyphForCodePoint(0x20).id;
  if (head === undefined || hhea === undefined || hmtx === undefined || space >= data.readUInt16BE(hhea + 34)) return data;
  const copy = Buffer.from(data);
  copy.writeUInt16BE(Math.round(data.readUInt16BE(head + 18) * 0.28), hmtx + space * 4);
  return copy;
}
const fileData = (name: FallbackName, file: string): Buffer => {
  const data = readFileSync(require.resolve(`@expo-google-fonts/${file}`));
  return name === 'Noto Emoji' ? narrowSpace(data) : data;
};

const faces = new Map<string, { data: Buffer; font: Font }>();
function face(name: FallbackName | 'Inter'): { data: Buffer; font: Font } {
  let f = faces.get(name);
  if (!f) {
    const data = name === 'Inter' ? interFont(400) : fileData(name, FALLBACKS[name][0]);
    f = { data, font: name === 'Inter' ? (create(data) as Font) : safeLayout(create(data) as Font, name) };
    faces.set(name, f);
  }
  return f;
}

/**
 * The font with a layout that does not throw: fontkit 2.0.4 fails on some mark-positioning tables
 * (Noto Sans Gurmukhi's ਪੰ: "Cannot read properties of null (reading 'xCoordinate')"). Such a text
 * is laid out again by the font without its positioning table (GPOS): the letters are all there,
 * a mark may sit less well.
 */
export function safeLayout(font: Font, name: FallbackName, weight: FallbackWeight = 400): Font {
  const shaper = font as unknown as Shaper;
  const layout = shaper.layout.bind(font);
  let plain: Shaper | undefined;
  shaper.layout = (text, features) => {
    try {
      return layout(text, features);
    } catch {
      plain ??= create(withoutTables(fallbackData(name, weight), new Set(['GPOS']))) as unknown as Shaper;
      return plain.layout(text, features);
    }
  };
  return font;
}

/** The fonts whose blocks hold a character, in order; the symbol fonts when none does. */
function candidates(codePoint: number): FallbackName[] {
  const found = FALLBACK_NAMES.filter((name) => FALLBACKS[name][1].some(([from, to]) => codePoint >= from && codePoint <= to));
  return found.length > 0 ? [...found, ...SYMBOL_FONTS.filter((n) => !found.includes(n))] : SYMBOL_FONTS;
}

/** Inter has every character up to Latin Extended-B (U+024F): only a text with a character past
 *  it may need a fallback. */
const BEYOND_LATIN = /[^\t\n\r\u0020-\u024f]/;
export const mayNeedFallback = (text: string): boolean => BEYOND_LATIN.test(text);

/** Characters drawn with the one before them, never on their own: marks, joiners, variation
 *  selectors, emoji modifiers and tags (a font may have no glyph of its own for them). */
const MARK = /^\p{M}$/u;
const joins = (c: number) => c === 0x200c || c === 0x200d || (c >= 0xfe00 && c <= 0xfe0f) || (c >= 0xe0020 && c <= 0xe007f) || (c >= 0xe0100 && c <= 0xe01ef) || (c >= 0x1f3fb && c <= 0x1f3ff) || MARK.test(String.fromCodePoint(c));
/** An emoji shown as a picture: emoji presentation, or a text symbol asked for as emoji. */
const EMOJI = /\p{Emoji_Presentation}|\ufe0f|\u20e3/u;

const has = (name: FallbackName | 'Inter', codePoint: number) => face(name).font.hasGlyphForCodePoint(codePoint);

/** The font a character (with the marks and joiners drawn with it) is drawn in: null for Inter
 *  (or when no font has it: Inter's box is the honest sign), else the first fallback that has it. */
export function fallbackFor(codePoint: number, cluster: string = String.fromCodePoint(codePoint)): FallbackName | null {
  const emoji = EMOJI.test(cluster) && (codePoint >= 0x80 || cluster.length > 1);
  if (!emoji && (codePoint < 0x250 || has('Inter', codePoint))) return null;
  const fonts = emoji ? ['Noto Emoji' as const, ...candidates(codePoint).filter((n) => n !== 'Noto Emoji')] : candidates(codePoint);
  // The first font with every character of the cluster (a base and its marks), else with its base.
  const needed = [...cluster].map((c) => c.codePointAt(0)!).filter((c) => c === codePoint || !joins(c));
  for (const name of fonts) if (needed.every((c) => has(name, c))) return name;
  for (const name of fonts) if (has(name, codePoint)) return name;
  return null;
}

const graphemes = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** Whether a character is drawn in Inter whatever stands around it: Inter has it and it asks for
 *  no emoji. Known per character after the first ask. */
const plainChars = new Map<number, boolean>();
const EMOJI_CHAR = /\p{Emoji_Presentation}|\ufe0f|\u20e3/u;
function plain(codePoint: number): boolean {
  let known = plainChars.get(codePoint);
  if (known === undefined) {
    known = !EMOJI_CHAR.test(String.fromCodePoint(codePoint)) && has('Inter', codePoint);
    plainChars.set(codePoint, known);
  }
  return known;
}

/** Whether Inter draws the whole text: most texts of a report ("Dentist · 5-mile market",
 *  "Rank 2 of 9 — top third") have a character past Latin that Inter has, and need no cutting
 *  into grapheme clusters (which costs as much as drawing them). */
export function interCovers(text: string): boolean {
  if (!mayNeedFallback(text)) return true;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    if (code > 0xffff) return false;
    if (code >= 0x250 && !plain(code)) return false;
  }
  return true;
}

/** A text cut into runs of one font each (null: Inter), by grapheme cluster (a letter with its
 *  marks, an emoji sequence); spaces stay in the run they are in. */
export function fontRuns(text: string): Array<{ font: FallbackName | null; text: string }> {
  if (interCovers(text)) return text === '' ? [] : [{ font: null, text }];
  const runs: Array<{ font: FallbackName | null; text: string }> = [];
  for (const { segment } of graphemes.segment(text)) {
    const code = segment.codePointAt(0)!;
    const font = runs.length > 0 && (code === 0x20 || joins(code)) ? runs.at(-1)!.font : fallbackFor(code, segment);
    if (runs.at(-1)?.font === font) runs.at(-1)!.text += segment;
    else runs.push({ font, text: segment });
  }
  // Spaces after a fallback run are Inter's, with the next run or on their own: a right-to-left
  // run would lay its trailing space out on its left ("השף(you)"), and an emoji font's space is
  // twice as wide as Inter's.
  for (let i = 0; i < runs.length - 1; i++) {
    const [run, next] = [runs[i]!, runs[i + 1]!];
    const spaces = run.font ? /\s+$/.exec(run.text)?.[0] : undefined;
    if (spaces && spaces.length < run.text.length) {
      run.text = run.text.slice(0, -spaces.length);
      if (next.font === null) next.text = spaces + next.text;
      else runs.splice(i + 1, 0, { font: null, text: spaces });
    }
  }
  return runs;
}

/** The fallback fonts read so far in this process (or thread). */
export const fallbacksRead = (): FallbackName[] => [...faces.keys()].filter((name): name is FallbackName => name !== 'Inter');

export type FallbackWeight = 400 | 700;

/** The bold files, read when a bold text needs one (null: the package has none). */
const bold = new Map<FallbackName, Buffer | null>();
function boldData(name: FallbackName): Buffer | null {
  if (!bold.has(name)) {
    let data: Buffer | null;
    try {
      data = fileData(name, FALLBACKS[name][0].replaceAll('400Regular', '700Bold'));
    } catch {
      data = null; // Noto Sans Mongolian and Symbols 2 come in one weight
    }
    bold.set(name, data);
  }
  return bold.get(name)!;
}

/** The weight a fallback draws a text of `weight` in: bold where the font has a bold file. */
export const fallbackWeight = (name: FallbackName, weight: number): FallbackWeight => (weight >= 600 && boldData(name) ? 700 : 400);

/** A fallback font's file, regular or bold. */
export const fallbackData = (name: FallbackName, weight: FallbackWeight = 400): Buffer => (weight === 700 ? (boldData(name) ?? face(name).data) : face(name).data);

/** A fallback font as fontkit reads it (its character map). */
export const fallbackFont = (name: FallbackName): Font => face(name).font;

/** The fallback fonts a text needs. */
export const fallbacksFor = (text: string): FallbackName[] => (interCovers(text) ? [] : [...new Set(fontRuns(text).flatMap((r) => (r.font ? [r.font] : [])))]);
