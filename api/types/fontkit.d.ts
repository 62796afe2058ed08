// The part of fontkit (pdfkit's font engine, which ships no types) that the report's font
// fallback uses: whether a font has a glyph for a code point.
declare module 'fontkit' {
  export interface Font {
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
