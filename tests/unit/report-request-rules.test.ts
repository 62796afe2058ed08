// The browser's zod-free check and the API's zod schema must agree: same fields flagged, same
// message per field, over valid and invalid values of every field.
import { describe, expect, it } from 'vitest';
import { checkReportRequest, CONSENT_TEXT, STATE_CODES, US_STATES } from '../../common/schemas/report-request-rules.ts';
import { reportRequestSchema, TEXT_LABELS } from '../../common/schemas/report-request.ts';
import { plainTextError } from '../../common/plain-text.ts';
import { fieldErrors } from '../../common/zod.ts';

const base = {
  fullName: 'Maria Lopez',
  email: 'maria@lopezplumbing.com',
  company: 'Lopez Plumbing',
  role: 'owner',
  website: 'https://lopezplumbing.com',
  address: '1200 Barton Springs Rd',
  city: 'Austin',
  state: 'TX',
  zip: '78704',
};

const variants: Record<keyof typeof base, string[]> = {
  fullName: ['', ' ', 'M', 'Mo', ' M ', 'x'.repeat(100), 'x'.repeat(101), 'Maria\u0000', 'Ma\u200Bria', 'M\u0000', `${'x'.repeat(101)}\u0000`, 'محمد\u200C علي', 'Maria\tLopez'],
  email: ['', 'maria', 'maria@', '@x.com', 'maria@x', 'maria@x.c', 'maria@x.co', 'Maria.Lopez+tag@Sub.Example.ORG', 'a..b@x.com', 'maria@-x.com', ' maria@x.com ', `${'a'.repeat(250)}@x.com`],
  company: ['', 'L', 'LP', 'x'.repeat(151), 'Lopez\u2060Plumbing', '👩🏽\u200D🔧 Lopez', 'Lopez\u200D Plumbing'],
  role: ['', 'owner', 'director', 'gm', 'marketing', 'other', 'Owner', 'ceo'],
  website: ['https://lopez.com/\u0000', 'https://lopez.com/a\tb', 'https://lopez\u200B.com', 'lopez.com\u0000', '', 'lopez.com', 'http://lopez.com', 'https://www.lopez.com/path?q=1', 'ftp://lopez.com', 'https://localhost', 'javascript:alert(1)', 'https://', 'http://lopez', ' https://lopez.com '],
  address: ['', '12 A', '12 Ab', 'x'.repeat(201), '1200 Barton\nSprings Rd', '1200 \u202EBarton'],
  city: ['', 'A', 'Al', 'Aus\u0085tin', 'תל אביב\u200E'],
  state: ['', 'TX', 'tx', 'DC', 'Texas', ...STATE_CODES],
  zip: ['', '7870', '78704', '78704-1234', '78704-12', '787041', 'abcde', ' 78704 '],
};

/** The browser's errors plus the check of the characters, which the forms leave to the API (its
 *  400 shows under the field, decision 0211): each text field that passed its own rules. */
function withCharacters(input: Record<string, unknown>, errors: Partial<Record<string, string>>) {
  for (const [key, label] of Object.entries(TEXT_LABELS)) {
    const message = errors[key] ? undefined : plainTextError(label, String(input[key]).trim());
    if (message) errors[key] = message;
  }
  return errors;
}

function zodErrors(input: Record<string, unknown>) {
  const result = reportRequestSchema.safeParse(input);
  return result.success ? {} : fieldErrors(result.error);
}

describe('checkReportRequest matches the API schema', () => {
  for (const [field, values] of Object.entries(variants)) {
    it.each(values)(`${field} = %j`, (value) => {
      const input = { ...base, [field]: value };
      expect(withCharacters(input, checkReportRequest(input))).toEqual(zodErrors(input));
    });
  }

  it('agrees when every field is missing', () => {
    expect(withCharacters({}, checkReportRequest({}))).toEqual(zodErrors({}));
  });

  it('requires consent only in the form', () => {
    expect(checkReportRequest(base, { requireConsent: true })).toEqual({ consent: 'Please agree to receive your report' });
    expect(checkReportRequest({ ...base, consent: true }, { requireConsent: true })).toEqual({});
    expect(reportRequestSchema.safeParse(base).success).toBe(true);
  });
});

describe('form constants', () => {
  it('lists the 50 states as unique two-letter codes', () => {
    expect(US_STATES).toHaveLength(50);
    expect(new Set(STATE_CODES).size).toBe(50);
    for (const code of STATE_CODES) expect(code).toMatch(/^[A-Z]{2}$/);
    expect(STATE_CODES).not.toContain('DC');
  });

  it('says what the consent covers and that one can unsubscribe', () => {
    expect(CONSENT_TEXT).toMatch(/report/);
    expect(CONSENT_TEXT).toMatch(/marketing communications/);
    expect(CONSENT_TEXT).toMatch(/unsubscribe at any time/);
  });
});
