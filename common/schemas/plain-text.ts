// The zod form of common/plain-text.ts (decision 0211): one refinement for every free-text field
// of the API's schemas, so a control, invisible or text-direction character is refused (400) with
// the field's own message, on the server and in the forms that parse with the same schema.
import { forbiddenCharacter, plainTextMessage, type PlainTextOptions } from '../plain-text.ts';
import { z } from '../zod.ts';

/** A check for `z.string()….check(plainText('Company name'))`; `label` starts the field's message. */
export const plainText = (label: string, options: PlainTextOptions = {}) =>
  z.refine<string>((value) => forbiddenCharacter(value, options) === null, {
    error: (issue) => plainTextMessage(label, forbiddenCharacter(String(issue.input), options)!),
  });

// For the API document (JSON Schema `pattern`): trimmed text with none of the characters the
// check may refuse, written for readers with and without the `u` flag alike. A subset of what
// the check takes: it also keeps ZWJ, ZWNJ and direction marks where a script needs them, and,
// read without `u`, characters past U+FFFF; tag characters (only writable with `u`) are left to it.
const REFUSABLE = '\\u0000-\\u001F\\u007F-\\u009F\\u00AD\\u061C\\u200B-\\u200F\\u2028-\\u202E\\u2060-\\u2064\\u2066-\\u206F\\uFEFF\\uFFF9-\\uFFFB\\uD800-\\uDFFF';
/** The same, less the line breaks and tabs a multi-line field keeps. */
const REFUSABLE_IN_LINES = REFUSABLE.replace('\\u0000-\\u001F', '\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F');
/** JavaScript's \s spelled out: other readers' \s is another set (Python's adds U+001C-U+001F and U+0085, not U+FEFF). */
export const WHITESPACE = '\\u0009-\\u000D\\u0020\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000\\uFEFF';
const trimmed = (inside: string) => `[^${WHITESPACE}${REFUSABLE}](?:[^${inside}]*[^${WHITESPACE}${REFUSABLE}])?`;
/** One line of text that shows, no surrounding spaces. */
export const PLAIN_LINE_PATTERN = `^${trimmed(REFUSABLE)}$`;
/** Lines of text that show, no surrounding spaces, or nothing (an optional field). */
export const PLAIN_LINES_PATTERN = `^(?:${trimmed(REFUSABLE_IN_LINES)})?$`;
/** One line of text that shows, or nothing (an optional field). */
export const OPTIONAL_PLAIN_LINE_PATTERN = `^(?:${trimmed(REFUSABLE)})?$`;
