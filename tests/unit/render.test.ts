// The PDF has selectable text with every part of the report; the score card is a 1200×630 PNG.
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { interFont, woffToSfnt } from '../../api/report/render/fonts.ts';
import { fmtValue } from '../../api/report/render/labels.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { inlineRenderer, threadRenderer } from '../../api/report/render/renderer.ts';
import { renderScoreCard, scoreCardTree } from '../../api/report/render/score-card.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';

async function pdfText(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { text, totalPages } = await extractText(doc, { mergePages: true });
  return { text: text.replace(/\s+/g, ' '), totalPages };
}

const pngSize = (png: Buffer) => ({ signature: png.subarray(1, 4).toString(), width: png.readUInt32BE(16), height: png.readUInt32BE(20) });

describe('PDF report', () => {
  it('carries scores, rank, every competitor, recommendations, every data point, the method and the operator address as text', async () => {
    const data = reportDataFixture();
    const { text, totalPages } = await pdfText(await renderPdf(data));
    expect(totalPages).toBeGreaterThanOrEqual(3);
    expect(text).toContain(data.business.place.name);
    expect(text).toContain(`Rank #${data.business.rank} of 10`);
    expect(text).toContain(data.business.scores.overall!.toFixed(2));
    for (const c of data.competitors) expect(text).toContain(c.place.name);
    for (const r of data.recommendations) expect(text).toContain(r.title);
    expect(text).toContain(`Every data point for ${data.business.place.name} (92)`);
    for (const p of data.business.dataPoints) expect(text).toContain(p.label);
    expect(text).toContain('How we score, in short');
    expect(text).toContain('600 Congress Avenue, Suite 1400, Austin, TX 78701');
    expect(text).toContain('Sample data: this report was made by the offline sample provider');
  });

  it('leaves out the sample-data notice for live data and lists the notes', async () => {
    const data = reportDataFixture({ sampleData: false });
    data.provider = 'google';
    data.notes = ['The ZIP code 99999 was not found; the report uses the city of Austin.'];
    const { text } = await pdfText(await renderPdf(data));
    expect(text).not.toContain('Sample data');
    expect(text).toContain('The ZIP code 99999 was not found');
  });
});

describe('score card', () => {
  it('is a 1200×630 PNG', async () => {
    expect(pngSize(await renderScoreCard(reportDataFixture()))).toEqual({ signature: 'PNG', width: 1200, height: 630 });
  });

  it('says Sample data when the sample provider made it, and not otherwise', () => {
    const texts = (node: unknown): string[] => {
      if (typeof node === 'string') return [node];
      const children = (node as { props?: { children?: unknown } } | null)?.props?.children;
      return Array.isArray(children) ? children.flatMap(texts) : children === undefined ? [] : texts(children);
    };
    const sample = texts(scoreCardTree(reportDataFixture()));
    expect(sample).toContain('Sample data');
    expect(sample.join(' ')).toContain(reportDataFixture().business.place.name);
    expect(texts(scoreCardTree(reportDataFixture({ sampleData: false })))).not.toContain('Sample data');
  });
});

describe('renderers', () => {
  it('render the same files inline and in a worker thread', async () => {
    const data = reportDataFixture({ seed: 9 });
    const threads = threadRenderer(1);
    try {
      const [a, b] = await Promise.all([inlineRenderer().render(data), threads.render(data)]);
      expect(pngSize(b.png)).toEqual(pngSize(a.png));
      expect((await pdfText(b.pdf)).text).toBe((await pdfText(a.pdf)).text);
      expect(b.pdfMs).toBeGreaterThan(0);
    } finally {
      await threads.close();
    }
  });
});

describe('fonts', () => {
  it('unpacks the WOFF into an sfnt with the same tables', () => {
    const sfnt = interFont(400);
    expect(sfnt.readUInt32BE(0)).toBe(0x00010000);
    expect(sfnt.readUInt16BE(4)).toBeGreaterThan(5);
    expect(() => woffToSfnt(Buffer.from('not a font at all, really'))).toThrow('not a WOFF font');
  });
});

describe('values', () => {
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
