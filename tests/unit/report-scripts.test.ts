// Names in every script print (issue 38): each character of a name is drawn from a font that has
// it (no .notdef box) in the PDF and on the score card, the PDF's text layer gives the name back
// as written (Arabic letters that share a glyph skeleton included), and a Latin-only report reads
// no fallback font and does not grow.
import { create } from 'fontkit';
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { fallbackFont, fallbacksFor, fallbacksRead, fontRuns, interFont, type Shaper } from '../../api/report/render/fonts.ts';
import { glyphGroups } from '../../api/report/render/pdf-fallback.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { renderScoreCard, scoreCardTree, visualWordOrder } from '../../api/report/render/score-card.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';

const LINKS = { methodologyUrl: 'https://localrank.example/methodology' };

const NAMES = {
  hebrew: 'מסעדת השף',
  thai: 'ร้านอาหารไทย',
  devanagari: 'किराना भोजनालय',
  hangul: '한식당 서울',
  arabic: 'مطعم الزيتون',
  // ب and ن, ر and ز share a skeleton in Noto Sans Arabic: the second of each copied as the first.
  arabic2: 'مخبز البركة',
  emoji: 'Pizza 🍕 Bar ☕',
  mixed: 'Café שלום 北京 한 नमस्ते 🍕',
} as const;

/** More scripts, checked for a glyph for every character. */
const MORE = ['বাংলা খাবার', 'தமிழ் உணவகம்', 'ગુજરાતી', 'ਪੰਜਾਬੀ', 'తెలుగు', 'ಕನ್ನಡ', 'മലയാളം', 'සිංහල', 'ଓଡ଼ିଆ', 'ລາວ', 'ខ្មែរ', 'မြန်မာ', 'ምግብ ቤት', 'Ռեստորան', 'რესტორანი', 'བོད་', 'ދިވެހި', 'すし匠', '❤️ 👍🏽 🇮🇹 1️⃣ 👨‍👩‍👧', 'Кафе Ωμέγα Łódź Phở'];

/** A fixture whose business and competitors carry the given names. */
function fixture(names: string[]) {
  const data = reportDataFixture({ company: names[0]!, sampleData: false });
  names.slice(1).forEach((name, i) => (data.competitors[i]!.place.name = name));
  return data;
}

async function pdfText(pdf: Buffer) {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf)), { mergePages: true });
  return text.replace(/\s+/g, ' ');
}

const inter = create(interFont(400, { layout: false })) as unknown as Shaper;

/** The glyphs the renderers draw for a text, shaped as fontkit shapes them for pdfkit: one list per run. */
function shaped(text: string) {
  return fontRuns(text).map((run) => ({ font: run.font ?? 'Inter', text: run.text, glyphs: (run.font ? (fallbackFont(run.font) as unknown as Shaper) : inter).layout(run.text, []).glyphs }));
}

describe('fonts for every script', () => {
  it('reads no fallback font for a Latin-only report, and only the script\'s font for a name in one script', async () => {
    const pdf = await renderPdf(fixture(['Łódź Café', 'Phở Bình', 'Ταβέρνα Ωμέγα', 'Кафе Жемчужина']), LINKS);
    expect(fallbacksRead()).toEqual([]);
    const fonts = new Set(pdf.toString('latin1').match(/BaseFont \/[A-Z]{6}\+[\w-]+/g)!.map((f) => f.replace(/^BaseFont \/[A-Z]{6}\+/, '')));
    expect([...fonts].sort()).toEqual(['Inter-Bold', 'Inter-Regular', 'Inter-SemiBold']);
    expect(fallbacksFor(NAMES.hebrew)).toEqual(['Noto Sans Hebrew']);
    expect(fallbacksRead()).toEqual(['Noto Sans Hebrew']);
  });

  it('draws no .notdef glyph for names in Hebrew, Thai, Devanagari, Hangul, Arabic, emoji and a mix, nor in 20 more scripts', () => {
    for (const name of [...Object.values(NAMES), ...MORE]) {
      const missing = shaped(name).flatMap((run) => run.glyphs.filter((g) => g.id === 0).map(() => `${run.text} in ${run.font}`));
      expect(missing, name).toEqual([]);
      // Every character belongs to a run: nothing is dropped on the way.
      expect(fontRuns(name).map((r) => r.text).join(''), name).toBe(name);
    }
    // The score card's fonts are Inter and the fallbacks its text needs: satori has a font for every glyph.
    const card = JSON.stringify(scoreCardTree(fixture([NAMES.mixed])));
    expect(fallbacksFor(card)).toEqual(expect.arrayContaining(['Noto Sans Hebrew', 'Noto Sans SC', 'Noto Sans KR', 'Noto Sans Devanagari', 'Noto Emoji']));
  });

  it('picks the script\'s font per character, and the emoji font for emoji', () => {
    expect(fontRuns(NAMES.emoji)).toEqual([
      { font: null, text: 'Pizza ' },
      { font: 'Noto Emoji', text: '🍕' },
      { font: null, text: ' Bar ' },
      { font: 'Noto Emoji', text: '☕' },
    ]);
    expect(fontRuns('१२ ร้าน 🍕')).toEqual([
      { font: 'Noto Sans Devanagari', text: '१२' },
      { font: null, text: ' ' },
      { font: 'Noto Sans Thai', text: 'ร้าน' },
      { font: null, text: ' ' },
      { font: 'Noto Emoji', text: '🍕' },
    ]);
    // A space inside a run of emoji is as wide as Inter's, not as an emoji (Noto Emoji's is 1.27 em).
    const emoji = fallbackFont('Noto Emoji') as unknown as { unitsPerEm: number; glyphForCodePoint(c: number): { advanceWidth: number } };
    expect(emoji.glyphForCodePoint(0x20).advanceWidth / emoji.unitsPerEm).toBeLessThan(0.3);
    // A right-to-left run ends before the space that follows it, so "(you)" keeps its space.
    expect(fontRuns(`${NAMES.hebrew} (you)`)).toEqual([
      { font: 'Noto Sans Hebrew', text: NAMES.hebrew },
      { font: null, text: ' (you)' },
    ]);
  });
});

describe('the score card', () => {
  it('shows the words of a right-to-left name in the order they are read (satori lays words out left to right)', async () => {
    expect(visualWordOrder('מסעדת השף')).toBe('השף מסעדת');
    expect(visualWordOrder('مطعم Pizza')).toBe('Pizza مطعم');
    expect(visualWordOrder('Café שלום עולם')).toBe('Café עולם שלום');
    expect(visualWordOrder('שלום 12 עולם')).toBe('עולם 12 שלום');
    expect(visualWordOrder('Pizza 🍕 Bar')).toBe('Pizza 🍕 Bar');
    // Every script renders (Gurmukhi's mark positioning made fontkit throw).
    for (const name of [NAMES.mixed, NAMES.arabic, 'ਪੰਜਾਬੀ ਢਾਬਾ']) expect((await renderScoreCard(fixture([name]))).subarray(1, 4).toString()).toBe('PNG');
  });
});

describe('the PDF text layer', () => {
  it('gives back every name as written', async () => {
    const names = [...Object.values(NAMES), 'ਪੰਜਾਬੀ ਢਾਬਾ'];
    const text = await pdfText(await renderPdf(fixture(names), LINKS));
    for (const name of names) expect(text, name).toContain(name);
  });

  it('maps shaped glyphs back to the text in logical order', () => {
    // Devanagari: the vowel sign ि is drawn before the consonant it follows: one group, read as written.
    expect(glyphGroups([{ codePoints: [0x93f] }, { codePoints: [0x915] }, { codePoints: [0x930] }], 'किर', false)).toEqual([
      { from: 0, to: 1, text: 'कि' },
      { from: 2, to: 2, text: 'र' },
    ]);
    // Arabic, drawn right to left: a lam-alef ligature, and ز drawn as a dot then the skeleton of ر.
    expect(glyphGroups([{ codePoints: [0x627, 0x644] }, { codePoints: [] }, { codePoints: [0x632] }], 'زلا', true)).toEqual([
      { from: 0, to: 0, text: 'ال' },
      { from: 1, to: 2, text: 'ز' },
    ]);
  });
});

describe('a Latin-only report', () => {
  it('is no larger than before the fallback fonts', async () => {
    // 139,202 bytes when measured (issue 38), Inter subsets only; 2% margin.
    const pdf = await renderPdf(fixture(['Łódź Café', 'Phở Bình', 'Ταβέρνα Ωμέγα', 'Кафе Жемчужина']), LINKS);
    expect(pdf.length).toBeLessThan(142_000);
  });
});
