// pdfkit draws a whole string in one font and cannot fall back glyph by glyph, so a name in
// Hebrew, Thai, Hangul or any script Inter lacks printed as empty boxes. This makes the document's
// `text` and `widthOfString` cut a string into runs by font (fonts.ts `fontRuns`), draw each run in
// its font (a fallback is registered, and its file read, the first time a run needs it; pdfkit
// embeds the glyphs used) and go back to the font that was set. Strings Inter covers take the
// plain path. fontkit shapes each run with the font's layout tables (Arabic joins and is laid right
// to left, Devanagari's vowel signs move before their consonant, Thai marks stack), and each
// fallback's text layer gives back the text as written (`exactText`).
import type { Font } from 'fontkit';
import { fallbackWeight, fontRuns, interCovers, pdfFont, type FallbackName } from './fonts.ts';
import type { Doc } from './pdf-draw.ts';

type FontMetrics = { ascender: number; descender: number; lineGap: number };

interface ShapedGlyph {
  id: number;
  codePoints: number[];
  advanceWidth: number;
}
interface Position {
  xAdvance: number;
  yAdvance: number;
  xOffset: number;
  yOffset: number;
  advanceWidth: number;
}
/** fontkit's TrueType subset, as far as `exactText` uses it. */
interface Subset {
  glyphs: number[];
  includeGlyph(id: number): number;
  _addGlyph(id: number): number;
  glyf: Uint8Array[];
  offset: number;
  loca: { offsets: number[] };
  hmtx: { metrics: Array<{ advance: number; bearing: number }> };
}
/** pdfkit's embedded font, as far as `exactText` uses it. */
interface EmbeddedFont {
  scale: number;
  widths: number[];
  unicode: number[][];
  subset: Subset & { cff?: unknown };
  font: Font & { getGlyph(id: number): { bbox: { minX: number; minY: number; maxX: number; maxY: number } } };
  layout(text: string, features?: unknown): { glyphs: ShapedGlyph[]; positions: Position[]; direction?: string };
  encode(text: string, features?: unknown): [string[], Position[]];
}

/**
 * A shaped run cut into groups of glyphs, in the order they are drawn, each with the text it stands
 * for, so that the groups read in order give back the text (reversed, for a right-to-left run: a
 * reader puts it back in logical order, as it does any right-to-left text). A group is the smallest
 * run of glyphs holding the same characters as the next characters of the text: one glyph for one
 * letter, more where shaping moved, split or added glyphs (a Devanagari vowel sign drawn before its
 * consonant, a Tamil vowel drawn on both sides of it, an Arabic letter drawn as its skeleton and its
 * dots). Where shaping changed the characters themselves the rest is one group.
 */
export function glyphGroups(glyphs: Array<{ codePoints: number[] }>, text: string, rtl: boolean): Array<{ from: number; to: number; text: string }> {
  const chars = Array.from(text);
  if (rtl) chars.reverse();
  const groups: Array<{ from: number; to: number; text: string }> = [];
  let at = 0;
  let start = 0;
  const pending = new Map<number, number>();
  let count = 0;
  for (let i = 0; i < glyphs.length; i++) {
    for (const c of glyphs[i]!.codePoints) {
      pending.set(c, (pending.get(c) ?? 0) + 1);
      count++;
    }
    if (count === 0 || at + count > chars.length) continue;
    const want = new Map<number, number>();
    for (const c of chars.slice(at, at + count)) want.set(c.codePointAt(0)!, (want.get(c.codePointAt(0)!) ?? 0) + 1);
    if (want.size === pending.size && [...want].every(([c, n]) => pending.get(c) === n)) {
      groups.push({ from: start, to: i, text: chars.slice(at, at + count).join('') });
      at += count;
      start = i + 1;
      pending.clear();
      count = 0;
    }
  }
  if (start < glyphs.length || at < chars.length) {
    if (start < glyphs.length) groups.push({ from: start, to: glyphs.length - 1, text: chars.slice(at).join('') });
    else if (groups.length > 0) groups.at(-1)!.text += chars.slice(at).join('');
  }
  return groups;
}

/** A TrueType composite glyph: the parts, each at its offset (font units), as one glyph. */
function compositeGlyph(parts: Array<{ gid: number; dx: number; dy: number }>, box: [number, number, number, number]): Uint8Array {
  const out = Buffer.alloc(10 + parts.length * 8);
  out.writeInt16BE(-1, 0);
  box.forEach((v, i) => out.writeInt16BE(Math.max(-32768, Math.min(32767, Math.round(v))), 2 + i * 2));
  parts.forEach((p, i) => {
    const at = 10 + i * 8;
    // ARG_1_AND_2_ARE_WORDS | ARGS_ARE_XY_VALUES | MORE_COMPONENTS (all but the last).
    out.writeUInt16BE(0x0001 | 0x0002 | (i < parts.length - 1 ? 0x0020 : 0), at);
    out.writeUInt16BE(p.gid, at + 2);
    out.writeInt16BE(Math.round(p.dx), at + 4);
    out.writeInt16BE(Math.round(p.dy), at + 6);
  });
  return out;
}

/**
 * pdfkit maps each glyph of the embedded subset to the characters it was first drawn for, and a
 * glyph drawn for no character (Noto Sans Arabic's dots, the second half of a split vowel) to none,
 * which pdf.js and PDFium read as a control character. A glyph shared by several characters (Noto
 * Sans Arabic draws ز as the skeleton of ر plus a dot, ن's initial form as ب's) then copied as the
 * first one: "ز" read as "ر". Here each group of glyphs (`glyphGroups`) becomes one glyph of the
 * subset that reads as its text: a single glyph as it is (embedded once more under a new number
 * when it was drawn for other characters before), several as one composite glyph made of them at
 * their places. A font without TrueType outlines gives a group's characters one a glyph instead.
 */
function exactText(font: EmbeddedFont) {
  const numbers = new Map<string, number>();
  const composites = new Map<number, Array<{ id: number; dx: number; dy: number }>>();
  const subset = font.subset;
  const trueType = subset.cff === undefined && typeof subset._addGlyph === 'function';
  if (trueType) {
    const addGlyph = subset._addGlyph.bind(subset);
    subset._addGlyph = (id: number) => {
      const parts = composites.get(id);
      if (!parts) return addGlyph(id);
      let box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      for (const p of parts) {
        const b = font.font.getGlyph(p.id).bbox;
        box = [Math.min(box[0], b.minX + p.dx), Math.min(box[1], b.minY + p.dy), Math.max(box[2], b.maxX + p.dx), Math.max(box[3], b.maxY + p.dy)];
      }
      if (!Number.isFinite(box[0])) box = [0, 0, 0, 0];
      const glyf = compositeGlyph(parts.map((p) => ({ gid: subset.includeGlyph(p.id), dx: p.dx, dy: p.dy })), box);
      const advance = Math.round(font.widths[subset.glyf.length]! / font.scale);
      subset.glyf.push(glyf);
      subset.loca.offsets.push(subset.offset);
      subset.hmtx.metrics.push({ advance, bearing: box[0] });
      subset.offset += glyf.length;
      return subset.glyf.length - 1;
    };
  }
  /** The subset's number for a glyph (or composite `key`) reading as `text`. */
  const number = (key: string, id: number, text: string, width: number, parts?: Array<{ id: number; dx: number; dy: number }>) => {
    const codePoints = Array.from(text, (c) => c.codePointAt(0)!);
    const full = `${key} ${codePoints.join(' ')}`;
    let gid = numbers.get(full);
    if (gid === undefined) {
      if (parts) {
        // A number no glyph of the font has: the subset's encoder builds the composite for it.
        const marker = 0x10000 + composites.size;
        composites.set(marker, parts);
        subset.glyphs.push(marker);
        gid = subset.glyphs.length - 1;
      } else {
        gid = subset.includeGlyph(id);
        if (font.unicode[gid] !== undefined && font.unicode[gid]!.join(' ') !== codePoints.join(' ')) {
          subset.glyphs.push(id);
          gid = subset.glyphs.length - 1;
        }
      }
      font.unicode[gid] = codePoints;
      font.widths[gid] = width;
      numbers.set(full, gid);
    }
    return `0000${gid.toString(16)}`.slice(-4);
  };
  font.encode = (text, features) => {
    const run = font.layout(text, features);
    const encoded: string[] = [];
    const positions: Position[] = [];
    for (const group of glyphGroups(run.glyphs, text, run.direction === 'rtl')) {
      const glyphs = run.glyphs.slice(group.from, group.to + 1);
      const places = run.positions.slice(group.from, group.to + 1);
      if (glyphs.length === 1) {
        encoded.push(number(String(glyphs[0]!.id), glyphs[0]!.id, group.text, glyphs[0]!.advanceWidth * font.scale));
        positions.push(places[0]!);
      } else if (trueType && glyphs.length <= 32) {
        let x = 0;
        const parts = glyphs.map((g, i) => {
          const part = { id: g.id, dx: (x + places[i]!.xOffset) / font.scale, dy: places[i]!.yOffset / font.scale };
          x += places[i]!.xAdvance;
          return part;
        });
        const key = parts.map((p) => `${p.id}@${Math.round(p.dx)},${Math.round(p.dy)}`).join('+');
        encoded.push(number(key, -1, group.text, x, parts));
        positions.push({ xAdvance: x, yAdvance: 0, xOffset: 0, yOffset: 0, advanceWidth: x });
      } else {
        const chars = Array.from(group.text);
        glyphs.forEach((g, i) => {
          encoded.push(number(String(g.id), g.id, i < glyphs.length - 1 ? (chars[i] ?? '') : chars.slice(i).join(''), g.advanceWidth * font.scale));
          positions.push(places[i]!);
        });
      }
    }
    return [encoded, positions];
  };
}

export function withFontFallback(doc: Doc): Doc {
  const setFont = doc.font.bind(doc) as (src: unknown, ...rest: unknown[]) => Doc;
  const draw = doc.text.bind(doc) as (text: string, ...rest: unknown[]) => Doc;
  const measure = doc.widthOfString.bind(doc);
  const registered = new Set<string>();
  // The font last set with doc.font (pdfkit starts in Helvetica), and the fallback in use instead
  // of it, if any. pdfkit measures words through widthOfString while it wraps a run, so a measure
  // puts back the font that was in use, not the one last set.
  let current = 'Helvetica';
  let active: FallbackName | null = null;
  doc.font = ((src: unknown, ...rest: unknown[]) => {
    if (typeof src === 'string') current = src;
    active = null;
    return setFont(src, ...rest);
  }) as Doc['font'];
  const use = (name: FallbackName | null) => {
    active = name;
    if (!name) return setFont(current);
    // Bold and semibold text takes the fallback's bold file where there is one.
    const weight = fallbackWeight(name, current === 'Bold' || current === 'Semibold' ? 700 : 400);
    const key = `${name} ${weight}`;
    if (registered.has(key)) return setFont(key);
    // The fallback takes the vertical metrics of the font it stands in for: pdfkit places text by
    // the font's ascender, so Noto's taller ones sat a run off the line's baseline.
    const base = (doc as unknown as { _font: FontMetrics })._font;
    doc.registerFont(key, pdfFont(name, weight) as unknown as Buffer);
    registered.add(key);
    setFont(key);
    exactText((doc as unknown as { _font: EmbeddedFont })._font);
    Object.assign((doc as unknown as { _font: FontMetrics })._font, { ascender: base.ascender, descender: base.descender, lineGap: base.lineGap });
    return doc;
  };
  // A fallback run is laid out whole (pdfkit lays out word by word unless given `features`), so
  // fontkit orders a right-to-left run's words and keeps its spaces.
  const whole = (font: FallbackName | null) => (font ? { features: [] } : {});
  const runsOf = (text: unknown) => (typeof text === 'string' && !interCovers(text) ? fontRuns(text) : null);

  doc.text = ((text: string, x?: unknown, y?: unknown, options?: Record<string, unknown>) => {
    const runs = runsOf(text);
    if (!runs || runs.every((r) => r.font === null)) return draw(text, x, y, options);
    const opts = (typeof x === 'object' && x !== null ? x : options ?? {}) as Record<string, unknown>;
    const at = typeof x === 'number' ? [x, y] : [];
    runs.forEach((run, i) => {
      use(run.font);
      const continued = i < runs.length - 1 ? true : (opts.continued ?? false);
      const runOpts = { ...opts, ...whole(run.font), continued };
      if (i === 0 && at.length) draw(run.text, ...at, runOpts);
      else draw(run.text, runOpts);
    });
    use(null);
    return doc;
  }) as Doc['text'];

  doc.widthOfString = ((text: string, options?: PDFKit.Mixins.TextOptions) => {
    const runs = runsOf(text);
    if (!runs || runs.every((r) => r.font === null)) return measure(text, options);
    const was = active;
    let width = 0;
    for (const run of runs) {
      use(run.font);
      width += measure(run.text, { ...options, ...whole(run.font) });
    }
    use(was);
    return width;
  }) as Doc['widthOfString'];
  return doc;
}
