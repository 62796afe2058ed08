// One contrast-safe palette from an agency's colours (themeOf): a pale primary (#F5F5A0) is
// darkened until shapes show on white and text reads, the "you" row's tint keeps its muted text
// readable, a colour that already reads is left alone, /branding's warning says what moves, and
// the PDF's first page actually draws the radar, legend and bullets in the darkened colour.
import { writeFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { MUTED_INK, paletteChanges, themeOf, type Branding } from '../../api/report/model/branding.ts';
import { pdfPagePng } from '../../api/report/render/pdf-page.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { contrastRatio, MIN_CONTRAST, MIN_GRAPHIC_CONTRAST } from '../../common/colour.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';

const pale: Branding = {
  id: 'pale',
  companyName: 'Sunny Side Marketing',
  logoPng: null,
  logoUrl: null,
  primaryColor: '#F5F5A0',
  secondaryColor: '#FFF7D6',
  accentColor: '#FDE68A',
  contactEmail: 'hello@sunnyside.example',
  contactPhone: null,
  website: null,
  footerText: 'Sunny Side Marketing · 1 Light St, Austin, TX 78701',
  poweredBy: false,
};

describe('the report palette', () => {
  it('darkens a pale brand until every use of it reads on white, and leaves a strong one alone', () => {
    const theme = themeOf(pale);
    expect(contrastRatio(theme.brand, '#FFFFFF')).toBeGreaterThanOrEqual(MIN_GRAPHIC_CONTRAST);
    expect(contrastRatio(theme.accent, '#FFFFFF')).toBeGreaterThanOrEqual(MIN_GRAPHIC_CONTRAST);
    expect(contrastRatio(theme.brandInk, '#FFFFFF')).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(contrastRatio(theme.onBrand, theme.brand)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(contrastRatio(MUTED_INK, theme.brandSoft)).toBeGreaterThanOrEqual(MIN_CONTRAST);
    expect(contrastRatio(theme.secondaryInk, '#FFFFFF')).toBeGreaterThanOrEqual(MIN_CONTRAST);

    const strong = themeOf({ ...pale, primaryColor: '#0F766E', accentColor: '#047857' });
    expect(strong.brand).toBe('#0F766E');
    expect(strong.accent).toBe('#047857');
    expect(paletteChanges({ primaryColor: '#0F766E', accentColor: '#047857' })).toEqual([]);
    const changes = paletteChanges({ primaryColor: '#F5F5A0', accentColor: '#FDE68A' });
    expect(changes).toHaveLength(3);
    expect(changes[0]).toContain(`charts, legends, bullets and buttons use the darker ${themeOf(pale).brand}`);
  });

  it("draws the PDF's radar, legend and bullets in the darkened colour", async () => {
    const pdf = await renderPdf(reportDataFixture({ sampleData: true }), { methodologyUrl: 'https://x.example/m' }, pale);
    const png = await pdfPagePng(pdf, 0, 1.5);
    if (process.env.PALETTE_PAGE_PNG) writeFileSync(process.env.PALETTE_PAGE_PNG, png);
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(themeOf(pale).brand.slice(i, i + 2), 16));
    let near = 0;
    for (let i = 0; i < data.length; i += info.channels) if (Math.abs(data[i]! - r!) + Math.abs(data[i + 1]! - g!) + Math.abs(data[i + 2]! - b!) < 30) near++;
    // The radar's outline and points, the legend key and the bullets: hundreds of pixels, not a trace.
    expect(near).toBeGreaterThan(300);
  });
});
