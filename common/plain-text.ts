// Free text that people type and that reaches a search, an e-mail header or a PDF holds only
// characters that show (decision 0211): no control characters (C0, DEL, C1; a multi-line field
// keeps its line breaks and tabs), no invisible ones (zero width space, word joiner, byte order
// mark, soft hyphen, …), no text-direction embeddings, overrides or isolates, no half of a
// surrogate pair. Kept because real text needs them: ZWJ and ZWNJ where they shape a script
// (Arabic, Persian, the Indic scripts, …) or join an emoji sequence, emoji tag sequences (the
// flags of England, Scotland, Wales), and the direction marks LRM, RLM and ALM in text that has
// right-to-left letters. This module imports no zod: the landing page's and the widget's form
// checks run it in the browser (decision 0020); common/schemas/plain-text.ts is its zod form.

export interface PlainTextOptions {
  /** A multi-line field (a message, notes): line breaks and tabs are text there. */
  multiline?: boolean;
}

export type ForbiddenKind = 'line' | 'tab' | 'control' | 'invisible' | 'direction' | 'mark' | 'broken';
export interface ForbiddenCharacter {
  /** The code point, as U+XXXX. */
  code: string;
  name: string | null;
  kind: ForbiddenKind;
}

/** Every character that may be refused; text without one is plain (the common case, one test). */
// eslint-disable-next-line no-control-regex -- finding control characters is this regex's purpose
const SUSPECT = /[\0-\x1F\x7F-\x9F\xAD\u061C\u200B-\u200F\u2028-\u202E\u2060-\u2064\u2066-\u206F\uFEFF\uFFF9-\uFFFB\u{E0001}\u{E0020}-\u{E007F}\p{Cs}]/u;
const scripts = (codes: string) => new RegExp(`[${codes.split(' ').map((s) => `\\p{scx=${s}}`).join('')}]`, 'u');
/** Scripts whose letters join or form conjuncts, where ZWJ and ZWNJ choose a letter's shape. */
const JOINING = scripts('Arab Syrc Nkoo Mong Mand Mani Phlp Adlm Rohg Deva Beng Guru Gujr Orya Taml Telu Knda Mlym Sinh Tibt Mymr Khmr Lana Bali Java Sund');
/** Right-to-left scripts, where LRM, RLM and ALM set the order of numbers and Latin words. */
const RTL = scripts('Hebr Arab Syrc Thaa Nkoo Samr Mand Adlm Rohg Yezi');
const EMOJI = /[\p{Extended_Pictographic}\p{Emoji_Modifier}\uFE0F]/u;
const PICTOGRAPH = /\p{Extended_Pictographic}/u;
const BLACK_FLAG = 0x1f3f4;
const isTag = (cp: number) => cp >= 0xe0020 && cp <= 0xe007f;

const NAMES: Record<number, string> = {
  0x00: 'NULL', 0x1b: 'ESCAPE', 0x7f: 'DELETE', 0xad: 'SOFT HYPHEN', 0x061c: 'ARABIC LETTER MARK',
  0x200b: 'ZERO WIDTH SPACE', 0x200c: 'ZERO WIDTH NON-JOINER', 0x200d: 'ZERO WIDTH JOINER', 0x200e: 'LEFT-TO-RIGHT MARK', 0x200f: 'RIGHT-TO-LEFT MARK',
  0x2028: 'LINE SEPARATOR', 0x2029: 'PARAGRAPH SEPARATOR', 0x202a: 'LEFT-TO-RIGHT EMBEDDING', 0x202b: 'RIGHT-TO-LEFT EMBEDDING', 0x202c: 'POP DIRECTIONAL FORMATTING',
  0x202d: 'LEFT-TO-RIGHT OVERRIDE', 0x202e: 'RIGHT-TO-LEFT OVERRIDE', 0x2060: 'WORD JOINER', 0x2066: 'LEFT-TO-RIGHT ISOLATE', 0x2067: 'RIGHT-TO-LEFT ISOLATE',
  0x2068: 'FIRST STRONG ISOLATE', 0x2069: 'POP DIRECTIONAL ISOLATE', 0xfeff: 'ZERO WIDTH NO-BREAK SPACE (byte order mark)',
};

const found = (cp: number, kind: ForbiddenKind): ForbiddenCharacter => ({ code: `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`, name: NAMES[cp] ?? null, kind });

function kindOf(cp: number, multiline: boolean): ForbiddenKind | null {
  if (cp === 0x0a || cp === 0x0d) return multiline ? null : 'line';
  if (cp === 0x2028 || cp === 0x2029) return multiline ? 'control' : 'line';
  if (cp === 0x09) return multiline ? null : 'tab';
  if (cp <= 0x1f || (cp >= 0x7f && cp <= 0x9f)) return 'control';
  if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) return 'direction';
  if (cp >= 0xd800 && cp <= 0xdfff) return 'broken';
  return 'invisible';
}

/** The first character `text` may not hold, or null when it is plain. */
export function forbiddenCharacter(text: string, options: PlainTextOptions = {}): ForbiddenCharacter | null {
  if (!SUSPECT.test(text)) return null;
  const chars = Array.from(text);
  let rtl: boolean | undefined;
  for (let i = 0; i < chars.length; i++) {
    const char = chars[i]!;
    if (!SUSPECT.test(char)) continue;
    const cp = char.codePointAt(0)!;
    const before = chars[i - 1] ?? '';
    if (cp === 0x200d || cp === 0x200c) {
      // Shapes the letter before it in a joining script; ZWJ also joins two emoji into one.
      if (JOINING.test(before)) continue;
      if (cp === 0x200d && EMOJI.test(before) && PICTOGRAPH.test(chars[i + 1] ?? '')) continue;
      return found(cp, 'invisible');
    }
    if (cp === 0x200e || cp === 0x200f || cp === 0x061c) {
      rtl ??= RTL.test(text);
      if (rtl) continue;
      return found(cp, 'mark');
    }
    // A tag sequence: the black flag, then tag letters (the last one, U+E007F, ends it).
    if (isTag(cp) && (before.codePointAt(0) === BLACK_FLAG || isTag(before.codePointAt(0) ?? 0))) continue;
    const kind = kindOf(cp, options.multiline === true);
    if (kind) return found(cp, kind);
  }
  return null;
}

/** What a field says when its text holds `char`; `label` names the field ("Company name"). */
export function plainTextMessage(label: string, char: ForbiddenCharacter): string {
  const what = `${char.code}${char.name ? ` ${char.name}` : ''}`;
  switch (char.kind) {
    case 'line':
      return `${label} must be on one line.`;
    case 'tab':
      return `${label} cannot contain a tab.`;
    case 'control':
      return `${label} contains a control character (${what}). Remove it, or type the text again instead of pasting it.`;
    case 'direction':
      return `${label} contains a text-direction control (${what}), which changes the order text is shown in. Remove it.`;
    case 'mark':
      return `${label} contains a direction mark (${what}) but no right-to-left text. Type the text again instead of pasting it.`;
    case 'broken':
      return `${label} contains a broken character (${what}). Type the text again.`;
    default:
      return `${label} contains an invisible character (${what}). Type the text again instead of pasting it.`;
  }
}

/** The field's message when `text` is not plain, else undefined (for the zod-free form checks). */
export function plainTextError(label: string, text: string, options: PlainTextOptions = {}): string | undefined {
  const char = forbiddenCharacter(text, options);
  return char ? plainTextMessage(label, char) : undefined;
}
