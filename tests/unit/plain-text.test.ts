// Free text of characters that show (decision 0211): what is refused, with which message, and the
// real text in other scripts, emoji and combining marks that must keep working.
import { describe, expect, it } from 'vitest';
import { forbiddenCharacter, plainTextError } from '../../common/plain-text.ts';
import { plainText } from '../../common/schemas/plain-text.ts';
import { fieldErrors, z } from '../../common/zod.ts';

const KEPT: Array<[string, string]> = [
  ['Latin with accents', 'Zoë’s Café & Bäckerei'],
  ['combining marks', 'Cafe\u0301 Nin\u0303o'],
  ['Arabic', 'مطعم الشام ٢٤'],
  ['Hebrew with a number', 'קפה נחת 24/7'],
  ['Hebrew with RLM after a number', 'חנות 24/7\u200F בע״מ'],
  ['Arabic with ALM', 'شركة\u061C 10 ذ.م.م'],
  ['Persian ZWNJ', 'می\u200Cخواهم'],
  ['Devanagari ZWJ after virama', 'क्\u200Dष'],
  ['Malayalam chillu (virama + ZWJ)', 'ന്\u200D'],
  ['Bengali ZWNJ', 'র্\u200Cয'],
  ['Hindi', 'मेरी दुकान'],
  ['Thai', 'ร้านกาแฟบ้านสวน'],
  ['Chinese', '东京拉面馆'],
  ['Japanese', '東京ラーメン'],
  ['Korean', '서울 치킨'],
  ['emoji ZWJ sequence', 'Dev Shop 👩🏽\u200D💻'],
  ['family emoji', '👨\u200D👩\u200D👧'],
  ['rainbow flag (VS16 + ZWJ)', '🏳️\u200D🌈 Bar'],
  ['England flag (tag sequence)', 'The 🏴\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F} Pub'],
  ['emoji with skin tone', 'Thumbs 👍🏾'],
];

const REFUSED: Array<[string, string, string, string]> = [
  ['NUL', 'Acme\u0000', 'U+0000', 'control'],
  ['ESC', 'Acme\u001B[31m', 'U+001B', 'control'],
  ['DEL', 'Ac\u007Fme', 'U+007F', 'control'],
  ['C1 NEL', 'Ac\u0085me', 'U+0085', 'control'],
  ['tab in one line', 'Acme\tPlumbing', 'U+0009', 'tab'],
  ['newline in one line', 'Acme\nBcc: x@y.z', 'U+000A', 'line'],
  ['CR in one line', 'Acme\rPlumbing', 'U+000D', 'line'],
  ['line separator', 'Acme\u2028Plumbing', 'U+2028', 'line'],
  ['zero width space', 'Ac\u200Bme', 'U+200B', 'invisible'],
  ['ZWNJ in Latin', 'Auf\u200Clage', 'U+200C', 'invisible'],
  ['ZWJ in Latin', 'Goo\u200Dgle', 'U+200D', 'invisible'],
  ['ZWJ after an emoji, before a letter', '😀\u200Da', 'U+200D', 'invisible'],
  ['ZWJ at the start', '\u200Dक', 'U+200D', 'invisible'],
  ['two ZWNJ in a row', 'می\u200C\u200Cخواهم', 'U+200C', 'invisible'],
  ['word joiner', 'Ac\u2060me', 'U+2060', 'invisible'],
  ['invisible times', 'a\u2062b', 'U+2062', 'invisible'],
  ['byte order mark inside', 'Ac\uFEFFme', 'U+FEFF', 'invisible'],
  ['soft hyphen', 'Plum\u00ADbing', 'U+00AD', 'invisible'],
  ['right-to-left override', 'invoice\u202Efdp.exe', 'U+202E', 'direction'],
  ['left-to-right embedding', '\u202AAcme', 'U+202A', 'direction'],
  ['isolate', 'Acme \u2066x\u2069', 'U+2066', 'direction'],
  ['LRM in text with no RTL letter', 'Acme\u200E', 'U+200E', 'mark'],
  ['RLM in text with no RTL letter', 'Acme\u200F', 'U+200F', 'mark'],
  ['a lone surrogate', 'Acme\uD800', 'U+D800', 'broken'],
  ['tag letters with no flag', 'Acme\u{E0041}', 'U+E0041', 'invisible'],
  ['language tag', '\u{E0001}Acme', 'U+E0001', 'invisible'],
  ['interlinear annotation', 'Acme\uFFF9', 'U+FFF9', 'invisible'],
];

describe('forbiddenCharacter', () => {
  it.each(KEPT)('keeps %s', (_what, text) => {
    expect(forbiddenCharacter(text)).toBeNull();
  });

  it.each(REFUSED)('refuses %s', (_what, text, code, kind) => {
    expect(forbiddenCharacter(text)).toMatchObject({ code, kind });
  });

  it('keeps line breaks and tabs in a multi-line field, and nothing else', () => {
    expect(forbiddenCharacter('Hello,\r\n\tthe report\nis late.', { multiline: true })).toBeNull();
    expect(forbiddenCharacter('Hello\u0000', { multiline: true })).toMatchObject({ code: 'U+0000', kind: 'control' });
    expect(forbiddenCharacter('Hello\u2028there', { multiline: true })).toMatchObject({ code: 'U+2028', kind: 'control' });
    expect(forbiddenCharacter('Hello \u202Ethere', { multiline: true })).toMatchObject({ kind: 'direction' });
  });

  it('names the first such character', () => {
    expect(forbiddenCharacter('a\u200Bb\u0000')).toMatchObject({ code: 'U+200B', name: 'ZERO WIDTH SPACE' });
  });
});

describe('plainTextError', () => {
  it('says, per field, what was found and what to do', () => {
    expect(plainTextError('Company name', 'Acme\u0000')).toBe('Company name contains a control character (U+0000 NULL). Remove it, or type the text again instead of pasting it.');
    expect(plainTextError('A keyword', 'den\u200Btist')).toBe('A keyword contains an invisible character (U+200B ZERO WIDTH SPACE). Type the text again instead of pasting it.');
    expect(plainTextError('Footer text', 'x\u202Ey')).toBe('Footer text contains a text-direction control (U+202E RIGHT-TO-LEFT OVERRIDE), which changes the order text is shown in. Remove it.');
    expect(plainTextError('Company name', 'Acme\u200E')).toBe('Company name contains a direction mark (U+200E LEFT-TO-RIGHT MARK) but no right-to-left text. Type the text again instead of pasting it.');
    expect(plainTextError('Company name', 'Acme\nInc')).toBe('Company name must be on one line.');
    expect(plainTextError('Company name', 'Acme\tInc')).toBe('Company name cannot contain a tab.');
    expect(plainTextError('Company name', 'Acme\uDC00')).toBe('Company name contains a broken character (U+DC00). Type the text again.');
    expect(plainTextError('Company name', 'Acme Plumbing')).toBeUndefined();
  });
});

describe('plainText (zod)', () => {
  const schema = z.strictObject({ name: z.string().trim().min(2).max(40).check(plainText('Name')), notes: z.string().check(plainText('Notes', { multiline: true })).optional() });

  it('refuses with the field message under the field, after the length rules', () => {
    const parsed = schema.safeParse({ name: 'Ac\u200Bme', notes: 'one\ntwo' });
    expect(parsed.success).toBe(false);
    expect(fieldErrors(parsed.error!)).toEqual({ name: 'Name contains an invisible character (U+200B ZERO WIDTH SPACE). Type the text again instead of pasting it.' });
    expect(fieldErrors(schema.safeParse({ name: `${'x'.repeat(41)}\u0000` }).error!)).toEqual({ name: 'String must contain at most 40 character(s)' });
  });

  it('takes text in any script, trimmed first (a leading byte order mark is trimmed away)', () => {
    expect(schema.parse({ name: ' 東京ラーメン 👩🏽\u200D🍳 ', notes: 'Line\r\n\tIndented' })).toEqual({ name: '東京ラーメン 👩🏽\u200D🍳', notes: 'Line\r\n\tIndented' });
    expect(schema.parse({ name: '\uFEFFAcme' })).toEqual({ name: 'Acme' });
  });
});
