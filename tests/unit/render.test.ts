// The PDF (tagged, selectable text in every script a business name may use, nothing printed over
// anything else, the sample label on every page) and the score card (1200×630 PNG).
import PDFDocument from 'pdfkit';
import { extractText, getDocumentProxy, getMeta } from 'unpdf';
import { describe, expect, it, vi } from 'vitest';
import { pdfFileName, reportEmail } from '../../api/email/report-email.ts';
import { loadEnv } from '../../api/env.ts';
import { breakdownOf } from '../../api/report/render/breakdown.ts';
import { fallbacksFor, fontRuns, interFont } from '../../api/report/render/fonts.ts';
import { fmtValue, NOT_RANKED } from '../../api/report/words/labels.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { inlineRenderer, threadRenderer } from '../../api/report/render/renderer.ts';
import { renderScoreCard, scoreCardTree } from '../../api/report/render/score-card.ts';
import type { ReportData, ScoreBreakdown } from '../../api/report/model/types.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';

const LINKS = { methodologyUrl: 'https://localrank.example/methodology' };
const LONG_NAME = 'The Extraordinarily Long Named Family Dental Practice Austin'; // 60 characters
const NAMES = ['Łódź Café', 'Phở Bình', LONG_NAME, 'Ταβέρνα Ωμέγα', 'Кафе Жемчужина'];

/** The fixture with the names every renderer must print: the business and four competitors. */
function namedFixture(options: { sampleData?: boolean } = {}): ReportData {
  const data = reportDataFixture({ company: NAMES[0], sampleData: options.sampleData });
  NAMES.slice(1).forEach((name, i) => (data.competitors[i]!.place.name = name));
  return data;
}

async function pages(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const out = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const content = await (await doc.getPage(i)).getTextContent();
    const items = (content.items as Array<{ str: string; transform: number[]; width: number; height: number }>).filter((t) => t.str.trim());
    out.push({ text: items.map((t) => t.str).join(' '), items });
  }
  return { doc, pages: out };
}

async function pdfText(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text, totalPages } = await extractText(doc, { mergePages: true });
  return { text: text.replace(/\s+/g, ' '), totalPages };
}

const pngSize = (png: Buffer) => ({ signature: png.subarray(1, 4).toString(), width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

describe('PDF report', () => {
  it('keeps Polish, Vietnamese, Greek and Cyrillic names and a 60-character name in the text layer', async () => {
    const { text } = await pdfText(await renderPdf(namedFixture(), LINKS));
    // The business's full name heads page 1; every name appears, whole or cut with an ellipsis.
    expect(text).toContain('Łódź Café');
    expect(text).toContain(LONG_NAME);
    for (const name of NAMES) expect(text).toContain(name.slice(0, 8));
    expect(text).toContain('Phở Bình');
    expect(text).toContain('Ταβέρνα Ωμέγα');
    expect(text).toContain('Кафе Жемчужина');
  });

  it('prints Chinese, Japanese and Arabic names in a font that has them, the Arabic right to left', async () => {
    const data = reportDataFixture({ company: '北京烤鸭店 Peking Duck' });
    data.competitors[0]!.place.name = 'مطعم الشام';
    data.competitors[1]!.place.name = 'すし匠 Sushi';
    const pdf = await renderPdf(data, LINKS);
    // Inter has none of these letters: each run is drawn in a Noto font, embedded as a subset; the
    // business's name heads page 1 in bold, in Noto Sans SC's bold.
    const fonts = new Set(pdf.toString('latin1').match(/BaseFont \/[A-Z]{6}\+[\w-]+/g)!.map((f) => f.replace(/^BaseFont \/[A-Z]{6}\+/, '')));
    expect([...fonts].sort()).toEqual(['Inter-Bold', 'Inter-Regular', 'Inter-SemiBold', 'NotoSansArabic-Regular', 'NotoSansSC-Bold', 'NotoSansSC-Regular']);
    const { text } = await pdfText(pdf);
    expect(text).toContain('北京烤鸭店 Peking Duck');
    expect(text).toContain('すし匠 Sushi');
    // The Arabic words keep their space (pdfkit lays out word by word unless a run is laid out whole).
    // (pdf.js's text extraction may put a space of its own inside the second word.)
    expect(text).toMatch(/مطعم الش/);
  });

  it('never prints one text over another (long names wrap, never cut with an ellipsis)', async () => {
    const { pages: all } = await pages(await renderPdf(namedFixture(), LINKS));
    const overlaps: string[] = [];
    all.forEach((page, p) => {
      const boxes = page.items.map((t) => ({ s: t.str, x0: t.transform[4]!, x1: t.transform[4]! + t.width, y0: t.transform[5]!, y1: t.transform[5]! + t.height }));
      for (let i = 0; i < boxes.length; i++)
        for (let j = i + 1; j < boxes.length; j++) {
          const [a, b] = [boxes[i]!, boxes[j]!];
          const dx = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0);
          const dy = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
          if (dx > 1 && dy > 1) overlaps.push(`page ${p + 1}: "${a.s}" / "${b.s}"`);
        }
    });
    expect(overlaps).toEqual([]);
    const text = all.map((p) => p.text).join(' ');
    expect(text).toContain(LONG_NAME);
    expect(text).not.toContain('…');
  });

  it('is a tagged PDF with a title, a subject and a language', async () => {
    const pdf = await renderPdf(namedFixture(), LINKS);
    const raw = pdf.toString('latin1');
    expect(raw).toMatch(/\/Marked true/);
    expect(raw).toMatch(/\/StructTreeRoot/);
    expect(raw).toMatch(/\/DisplayDocTitle true/);
    expect(raw).toMatch(/\/Lang \(en-US\)/);
    const { info } = await getMeta(new Uint8Array(pdf));
    expect(info.Title).toBe('LocalRank report: Łódź Café (example figures, not your real listings)');
    expect(info.Subject).toMatch(/^Łódź Café against the top 9 dentist competitors within 20 miles/);
    const { doc } = await pages(pdf);
    const tree = await (await doc.getPage(1)).getStructTree();
    expect(JSON.stringify(tree)).toContain('"role":"H1"');
  });

  it('labels every page as example figures when made from sample data, and none otherwise', async () => {
    const sample = await pages(await renderPdf(namedFixture(), LINKS));
    expect(sample.pages.length).toBeGreaterThanOrEqual(6);
    for (const page of sample.pages) expect(page.text).toContain('Example figures, not your real listings');
    const live = await pages(await renderPdf(namedFixture({ sampleData: false }), LINKS));
    for (const page of live.pages) expect(page.text).not.toContain('Example figures');
  });

  it('has the executive summary, the band legend, one section per score with its breakdown, and the methodology link', async () => {
    const data = namedFixture({ sampleData: false });
    const breakdown: ScoreBreakdown = {
      score: 7.1,
      measuredWeight: 18,
      totalWeight: 24,
      coverage: 0.75,
      parts: [
        { key: 'reviews.rating', label: 'Average rating', source: 'listing', raw: '4.6 stars', normalised: 0.8, weight: 10, contribution: 4, status: 'measured' },
        { key: 'reviews.count', label: 'Review count', source: 'listing', raw: '120 reviews', normalised: 0.26, weight: 8, contribution: 1.04, status: 'measured' },
        { key: 'reviews.owner_replies', label: 'Owner reply rate', source: 'reviews', raw: 'Unknown', normalised: null, weight: 6, contribution: null, status: 'unknown' },
      ],
    };
    Object.assign(data.business, { breakdown: { reviews: breakdown } });
    data.business.scores.reviews = 7.1;
    expect(breakdownOf(data.business, 'reviews')).toBe(breakdown);
    const { text } = await pdfText(await renderPdf(data, LINKS));
    for (const s of ['Executive summary', 'How to read the scores', 'Excellent 8.5-10', 'Needs work below 7.0', 'How you compare', 'What to do first']) expect(text).toContain(s);
    for (const s of ['Online Reviews', 'Digital Presence', 'Customer Engagement', 'Market Share']) expect(text).toContain(s);
    expect(text).toContain('7.10 of 10 means you reach about 68% of the best value');
    expect(text).toContain('18 of 24 weight measured (75%)');
    expect(text).toMatch(/Average rating Listing 4\.6 stars 0\.80 10 \+4\.00/);
    expect(text).toMatch(/Owner reply rate Reviews Unknown - 6 -/);
    expect(text).toContain('1 + 6.10 = 7.10');
    expect(text).toContain('Market median');
    expect(text).toContain('How this score is computed');
    expect(text).toContain('https://localrank.example/methodology');
    for (const r of data.recommendations) expect(text).toContain(r.title);
    expect(text).toContain('600 Congress Avenue, Suite 1400, Austin, TX 78701');
  });

  it('writes "Not enough data" with the coverage where a score has no number', async () => {
    const data = namedFixture({ sampleData: false });
    Object.assign(data.business.scores, { engagement: null });
    Object.assign(data.business, {
      breakdown: { engagement: { score: null, measuredWeight: 6, totalWeight: 24, coverage: 0.25, parts: [{ key: 'site.contact_form', label: 'Contact form', source: 'website', raw: 'Yes', normalised: 1, weight: 6, contribution: 9, status: 'measured' }] } },
    });
    const { text } = await pdfText(await renderPdf(data, LINKS));
    expect(text).toContain('Customer Engagement Not enough data');
    expect(text).toContain('6 of 24 weight measured (25%)');
  });

  it('gives no rank to a place without an overall score: "Not ranked", never "#1 of 10" for everyone', async () => {
    const data = namedFixture({ sampleData: false });
    // Too little measured for anyone: no overall, so no place is ranked (they used to share #1).
    for (const p of [data.business, ...data.competitors]) Object.assign(p, { rank: 1, scores: { ...p.scores, overall: null } });
    const { text } = await pdfText(await renderPdf(data, LINKS));
    expect(text).toContain(NOT_RANKED);
    expect(text).not.toMatch(/#1 of 10|Rank #1/);
    const ctx = { env: loadEnv({ NODE_ENV: 'test', PUBLIC_BASE_URL: 'https://app.example.com' }) } as Parameters<typeof reportEmail>[0];
    const mail = reportEmail(ctx, { data, to: 'owner@example.com', fullName: 'Dana Lee', token: 't', reportUrl: 'https://app.example.com/report/t', expiresAt: new Date('2026-12-24T00:00:00Z'), messageId: '<m@app.example.com>', scoreCard: Buffer.alloc(0), pdf: Buffer.alloc(0) });
    expect(mail.subject).toMatch(/ is not ranked$/);
    expect(mail.text).toContain(`Market rank: ${NOT_RANKED}`);
    expect(JSON.stringify(scoreCardTree(data))).toContain(NOT_RANKED);
  });
});

describe('score card', () => {
  it('is a 1200×630 PNG', async () => {
    expect(pngSize(await renderScoreCard(namedFixture()))).toEqual({ signature: 'PNG', width: 1200, height: 630 });
  });

  it('draws every letter of the names from the font (no empty boxes)', () => {
    for (const weight of [400, 600, 700] as const) {
      // The font as pdfkit opens it (fontkit underneath), with its character map.
      const doc = new PDFDocument().font(interFont(weight));
      const font = (doc as unknown as { _font: { font: { hasGlyphForCodePoint: (c: number) => boolean } } })._font.font;
      for (const name of NAMES) expect([...name].filter((c) => !font.hasGlyphForCodePoint(c.codePointAt(0)!)), `${name} at ${weight}`).toEqual([]);
    }
  });

  it('takes the letters Inter lacks from Noto (Chinese and Japanese, Arabic, Korean), and only when a text has them', async () => {
    expect(fallbacksFor(NAMES.join(' '))).toEqual([]);
    expect(fallbacksFor('北京烤鸭店 すし匠')).toEqual(['Noto Sans SC']);
    expect(fallbacksFor('مطعم الشام · 北京')).toEqual(['Noto Sans Arabic', 'Noto Sans SC']);
    expect(fallbacksFor('한식당')).toEqual(['Noto Sans KR']);
    // The space after a fallback run is Inter's (a right-to-left run would lay it out on its left).
    expect(fontRuns('#8  مطعم الشام (you)')).toEqual([
      { font: null, text: '#8  ' },
      { font: 'Noto Sans Arabic', text: 'مطعم الشام' },
      { font: null, text: ' (you)' },
    ]);
    expect(pngSize(await renderScoreCard(reportDataFixture({ company: '北京烤鸭店 مطعم' })))).toEqual({ signature: 'PNG', width: 1200, height: 630 });
  });

  it('labels example figures when the sample provider made the report, and not otherwise', () => {
    const texts = (node: unknown): string[] => {
      if (typeof node === 'string') return [node];
      const children = (node as { props?: { children?: unknown } } | null)?.props?.children;
      return Array.isArray(children) ? children.flatMap(texts) : children === undefined ? [] : texts(children);
    };
    const sample = texts(scoreCardTree(namedFixture()));
    expect(sample).toContain('Example figures, not your real listings');
    expect(sample).toContain('Łódź Café');
    expect(texts(scoreCardTree(namedFixture({ sampleData: false }))).join(' ')).not.toContain('Example figures');
  });
});

describe('renderers', () => {
  it('render the same files inline and in a worker thread; a thread that waits for work ends (a burst\'s memory given back), and the next render starts one', async () => {
    const data = reportDataFixture({ seed: 9 });
    const threads = threadRenderer(1, { idleMs: 0 });
    try {
      const [a, b] = await Promise.all([inlineRenderer().render(data, LINKS), threads.render(data, LINKS)]);
      expect(pngSize(b.png)).toEqual(pngSize(a.png));
      expect((await pdfText(b.pdf)).text).toBe((await pdfText(a.pdf)).text);
      expect(b.pdfMs).toBeGreaterThan(0);
      await vi.waitFor(() => expect(threads.threads()).toBe(0), { timeout: 60_000, interval: 20 });
      const again = threads.render(data, LINKS);
      expect(threads.threads()).toBe(1);
      expect((await again).pdf.equals(b.pdf)).toBe(true);
    } finally {
      await threads.close();
    }
  }, 180_000);
});

describe('file names and values', () => {
  it('names the PDF in ASCII, and says example figures in the name of a sample report', () => {
    expect(pdfFileName('Łódź Café', true)).toBe('lodz-cafe-localrank-report-example-figures.pdf');
    expect(pdfFileName('Phở Bình', false)).toBe('pho-binh-localrank-report.pdf');
    expect(pdfFileName('Кафе', false)).toBe('business-localrank-report.pdf');
  });

  it('formats data point values with their unit, and missing ones as such', () => {
    const base = { key: 'k', label: 'L', score: null, status: 'measured' as const };
    expect(fmtValue({ ...base, value: true, unit: 'yes/no' })).toBe('Yes');
    expect(fmtValue({ ...base, value: 42.5, unit: '%' })).toBe('42.50%');
    expect(fmtValue({ ...base, value: 12, unit: 'reviews' })).toBe('12 reviews');
    expect(fmtValue({ ...base, value: null, unit: 'reviews', status: 'unknown' })).toBe('Unknown');
    expect(fmtValue({ ...base, value: null, unit: 'reviews', status: 'not_applicable' })).toBe('Not applicable');
    expect(fmtValue({ ...base, value: null, unit: 'ms' })).toBe('None');
  });
});
