// The document's patterns mean the same to every JSON Schema reader (issue 39): no \d, \w, \s or
// \b, whose sets differ between JavaScript and other dialects (Python's re, .NET: \d is any
// Unicode digit there), and the server accepts exactly what they say: ASCII digits for a ZIP code,
// JavaScript's own whitespace where text may not start or end with it.
import { describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../api/routes/v1/document.ts';
import { WHITESPACE, PLAIN_LINE_PATTERN } from '../../common/schemas/plain-text.ts';
import { reportRequestSchema } from '../../common/schemas/report-request.ts';
import { ZIP_PATTERN } from '../../common/schemas/report-request-rules.ts';

const FORM = { fullName: 'Dana Whitfield', email: 'dana@whitfield.example', company: 'Whitfield Dental', role: 'owner', website: 'https://whitfield-dental.example', address: '100 Congress Ave', city: 'Austin', state: 'TX' };

describe('the API document', () => {
  it('has no pattern with a class escape whose meaning depends on the reader', async () => {
    const doc = await buildOpenApiDocument();
    const patterns = new Set<string>();
    JSON.stringify(doc, (k, v: unknown) => {
      if (k === 'pattern' && typeof v === 'string') patterns.add(v);
      return v;
    });
    expect(patterns.size).toBeGreaterThan(5);
    expect([...patterns].filter((p) => /(?<!\\)(?:\\\\)*\\[dDwWsSbB]/.test(p))).toEqual([]);
  }, 60_000);
});

describe('ZIP codes', () => {
  const server = (zip: string) => reportRequestSchema.safeParse({ ...FORM, zip }).success;
  const pattern = (zip: string) => new RegExp(ZIP_PATTERN, 'u').test(zip);
  it.each(['78701', '78701-1234', '00501'])('accepts %s, as the pattern does', (zip) => {
    expect(server(zip)).toBe(true);
    expect(pattern(zip)).toBe(true);
  });
  // Arabic-Indic, full-width and Devanagari digits: what \d would let in outside JavaScript.
  it.each(['٧٨٧٠١', '７８７０１', '७८७०१', '78701-١٢٣٤', '7870', '787011'])('refuses %s, as the pattern does', (zip) => {
    expect(server(zip)).toBe(false);
    expect(pattern(zip)).toBe(false);
  });
});

describe('whitespace in the plain-text patterns', () => {
  it("is JavaScript's \\s, code point for code point", () => {
    const spelled = new RegExp(`^[${WHITESPACE}]$`, 'u');
    const differ: string[] = [];
    for (let cp = 0; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const c = String.fromCodePoint(cp);
      if (spelled.test(c) !== /^\s$/u.test(c)) differ.push(cp.toString(16));
    }
    expect(differ).toEqual([]);
  });

  it('keeps a line from starting or ending with any of it', () => {
    const line = new RegExp(PLAIN_LINE_PATTERN, 'u');
    expect(line.test('Whitfield Dental')).toBe(true);
    for (const space of [' ', '\u00a0', '\u3000', '\u2003', '\u1680']) {
      expect(line.test(`${space}Whitfield`)).toBe(false);
      expect(line.test(`Whitfield${space}`)).toBe(false);
    }
  });
});
