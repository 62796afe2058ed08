// pdfkit draws a whole string in one font and cannot fall back glyph by glyph, so a name in
// Hebrew, Thai, Hangul or any script Inter lacks printed as empty boxes. This makes the document's
// `text` and `widthOfString` cut a string into runs by font (fonts.ts `fontRuns`), draw each run in
// its font (a fallback is registered, and its file read, the first time a run needs it; pdfkit
// embeds the glyphs used) and go back to the font that was set. Strings Inter covers take the
// plain path. fontkit shapes each run with the font's layout tables (Arabic joins and is laid right
// to left, Devanagari's vowel signs move before their consonant, Thai marks stack), and each
// fallback's text layer gives back the text as written (`exactText`).
import type { Font } from 'fontkit';
import { fallbackData, fontRuns, mayNeedFallback, safeLayout, type FallbackName } from './fonts.ts';
import type { Doc } from './pdf-draw.ts';

type FontMetrics = { ascender: number; descender: number; lineGap: number };

interface ShapedGlyph {
  id: number;
  codePoints: number[];
  advanceWidth: number;
}
/** pdfkit's embedded font, as far as `exactText` uses it. */
interface EmbeddedFont {
  scale: number;
  widths: number[];
  unicode: number[][];
  subset: { glyphs: number[]; includeGlyph(id: number): number };
  layout(text: string, features?: unknown): { glyphs: ShapedGlyph[]; positions: unknown[]; direction?: string };
  encode(text: string, features?: unknown): [string[], unknown[]];
}

/**
 * The text each glyph of a shaped run stands for, in the order the glyphs are drawn, so that the
 * glyphs read in order give back the text (reversed, for a right-to-left run: a reader puts it back
 * in logical order, as it does any right-to-left text). Where shaping moved or merged glyphs (a
 * Devanagari vowel sign drawn before its consonant, a lam-alef ligature) the smallest group of
 * glyphs that holds the same characters as the next characters of the text carries them in
 * order, one a glyph. A vowel the shaper split into two glyphs leaves one glyph reading as nothing.
 */
export function glyphTexts(glyphs: Array<{ codePoints: number[] }>, text: string, rtl: boolean): string[] {
  const chars = Array.from(text);
  if (rtl) chars.reverse();
  const out: string[] = glyphs.map(() => '');
  let at = 0;
  let start = 0;
  const pending = new Map<number, number>();
  let count = 0;
  for (let i = 0; i < glyphs.length; i++) {
    for (const c of glyphs[i]!.codePoints) {
      pending.set(c, (pending.get(c) ?? 0) + 1);
      count++;
    }
    if (count === 0) {
      start = i + 1;
      continue;
    }
    if (at + count > chars.length) break;
    const want = new Map<number, number>();
    for (const c of chars.slice(at, at + count)) want.set(c.codePointAt(0)!, (want.get(c.codePointAt(0)!) ?? 0) + 1);
    if (want.size === pending.size && [...want].every(([c, n]) => pending.get(c) === n)) {
      // One character a glyph, in order, the last glyph taking the rest: a glyph that reads as
      // nothing is read by pdf.js as its glyph number instead.
      const group = chars.slice(at, at + count);
      for (let g = start; g <= i; g++) out[g] = g < i ? (group[g - start] ?? '') : group.slice(i - start).join('');
      at += count;
      start = i + 1;
      pending.clear();
      count = 0;
    }
  }
  // Shaping that changed the characters themselves (a split vowel decomposed): what is left goes
  // on the first glyph not yet given text, so the text layer still holds every character.
  if (at < chars.length) {
    const rest = chars.slice(at).join('');
    const first = start < glyphs.length ? start : glyphs.length - 1;
    for (let i = first; i < glyphs.length; i++) out[i] = '';
    if (first >= 0) out[first] = (out[first] ?? '') + rest;
  }
  return out;
}

/**
 * pdfkit maps each glyph of the embedded subset to the characters it was first drawn for. A glyph
 * shared by several characters (Noto Sans Arabic draws ز as the glyph of ر plus a dot, ن's initial
 * form as ب's) then copied as the first one: "ز" read as "ر". Here a glyph drawn for other
 * characters than before is embedded once more under a new number, so every glyph of the subset
 * reads as what it stands for (`glyphTexts`).
 */
function exactText(font: EmbeddedFont) {
  const numbers = new Map<string, number>();
  font.encode = (text, features) => {
    const run = font.layout(text, features);
    const texts = glyphTexts(run.glyphs, text, run.direction === 'rtl');
    const encoded = run.glyphs.map((glyph, i) => {
      const codePoints = Array.from(texts[i]!, (c) => c.codePointAt(0)!);
      const key = `${glyph.id} ${codePoints.join(' ')}`;
      let gid = numbers.get(key);
      if (gid === undefined) {
        gid = font.subset.includeGlyph(glyph.id);
        if (font.unicode[gid] !== undefined && font.unicode[gid]!.join(' ') !== codePoints.join(' ')) {
          font.subset.glyphs.push(glyph.id);
          gid = font.subset.glyphs.length - 1;
        }
        font.unicode[gid] = codePoints;
        font.widths[gid] = glyph.advanceWidth * font.scale;
        numbers.set(key, gid);
      }
      return `0000${gid.toString(16)}`.slice(-4);
    });
    return [encoded, run.positions];
  };
}

export function withFontFallback(doc: Doc): Doc {
  const setFont = doc.font.bind(doc) as (src: unknown, ...rest: unknown[]) => Doc;
  const draw = doc.text.bind(doc) as (text: string, ...rest: unknown[]) => Doc;
  const measure = doc.widthOfString.bind(doc);
  const registered = new Set<FallbackName>();
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
    if (registered.has(name)) return setFont(name);
    // The fallback takes the vertical metrics of the font it stands in for: pdfkit places text by
    // the font's ascender, so Noto's taller ones sat a run off the line's baseline.
    const base = (doc as unknown as { _font: FontMetrics })._font;
    doc.registerFont(name, fallbackData(name));
    registered.add(name);
    setFont(name);
    const embedded = (doc as unknown as { _font: EmbeddedFont & { font: Font } })._font;
    embedded.font = safeLayout(embedded.font, name);
    exactText(embedded);
    Object.assign((doc as unknown as { _font: FontMetrics })._font, { ascender: base.ascender, descender: base.descender, lineGap: base.lineGap });
    return doc;
  };
  // A fallback run is laid out whole (pdfkit lays out word by word unless given `features`), so
  // fontkit orders a right-to-left run's words and keeps its spaces.
  const whole = (font: FallbackName | null) => (font ? { features: [] } : {});
  const runsOf = (text: unknown) => (typeof text === 'string' && mayNeedFallback(text) ? fontRuns(text) : null);

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
