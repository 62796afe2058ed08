// CPU and memory per report (issue 47): the PDF's fonts are parsed once per thread and shared by
// every document, and a text Inter draws whole is not cut into grapheme clusters. Both were done
// per report (Inter's three weights parsed again for each PDF; every text with a "·" or "—" cut
// into clusters), which made a report cost more CPU and garbage than before decision 0224.
import { create } from 'fontkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fontRuns, interFont } from '../../api/report/render/fonts.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { renderScoreCard } from '../../api/report/render/score-card.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';

const LINKS = { methodologyUrl: 'https://localrank.example/methodology' };

/** fontkit decodes a font's table the first time it is asked for, once per parsed font: counted
 *  on the class every parsed TrueType font shares. */
function countTableDecodes() {
  const proto = Object.getPrototypeOf(create(interFont(400))) as { _decodeTable(table: { tag: string }): unknown };
  const spy = vi.spyOn(proto, '_decodeTable');
  return () => spy.mock.calls.filter(([table]) => table.tag === 'cmap' || table.tag === 'hmtx').length;
}

afterEach(() => vi.restoreAllMocks());

describe('fonts shared between reports', () => {
  it('parses no font again for a second PDF, with names in other scripts as well', async () => {
    const data = reportDataFixture({ company: 'Café שלום 北京', sampleData: true });
    data.competitors[0]!.place.name = 'مطعم الزيتون 🍕';
    const first = await renderPdf(data, LINKS);
    const decodes = countTableDecodes();
    const second = await renderPdf(data, LINKS);
    expect(decodes()).toBe(0);
    expect(second.equals(first)).toBe(true);
  });

  it('cuts no text Inter draws whole into grapheme clusters, in the PDF or on the score card', async () => {
    const data = reportDataFixture({ company: 'Łódź Café · Phở “Bình” — Ωμέγα', sampleData: true });
    await renderPdf(data, LINKS);
    await renderScoreCard(data);
    const segment = vi.spyOn(Intl.Segmenter.prototype, 'segment');
    await renderPdf(data, LINKS);
    await renderScoreCard(data);
    expect(segment).not.toHaveBeenCalled();
    // A text with a character Inter lacks is still cut, and its runs are as before.
    expect(fontRuns('Café · שלום')).toEqual([
      { font: null, text: 'Café · ' },
      { font: 'Noto Sans Hebrew', text: 'שלום' },
    ]);
    expect(segment).toHaveBeenCalled();
  });
});
