// pdfkit draws a whole string in one font and cannot fall back glyph by glyph, so a name in
// Chinese, Japanese or Arabic printed as empty boxes in Inter. This makes the document's `text`
// and `widthOfString` cut a string into runs by font (fonts.ts `fontRuns`), draw each run in its
// font (a fallback is registered the first time a run needs it) and go back to the font that was
// set. Strings Inter covers take the plain path. fontkit shapes each run (Arabic joins, and is laid
// right to left within its run).
import { fallbackData, fontRuns, mayNeedFallback, type FallbackName } from './fonts.ts';
import type { Doc } from './pdf-draw.ts';

type FontMetrics = { ascender: number; descender: number; lineGap: number };

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
