// The PDF without gaps (issue 40), checked on every page of several reports as drawn: the real
// analysis on the sample provider (its sample sites served by the app under test), a market of
// many competitors with long names in several scripts, a market of two, and a white-label one.
// - no page but the last is under a third full (measured on PDFium's rendering);
// - no heading ends a page: every heading has body text under it on its page;
// - no text is cut short with an ellipsis: what does not fit its column wraps ("100.00%" too);
// - a score's breakdown table ends with at least two of its rows above its total row, and its note
//   under it, on one page: neither starts a page alone (issue 47).
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Branding } from '../../api/report/model/branding.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import type { ReportData } from '../../api/report/model/types.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { pdfPages, type PdfPage } from '../helpers/pdf-pages.ts';
import { startSampleAnalysis, type SampleAnalysis } from '../helpers/sample-analysis.ts';

const LINKS = { methodologyUrl: 'https://localrank.example/methodology' };
const LONG = 'Oberhausen-Wetherington Comprehensive Family and Cosmetic Dentistry of Greater Austin';
const NAMES = ['Стоматологическая клиника «Улыбка» на Конгресс-авеню', 'Nha Khoa Gia Đình Sài Gòn Austin và Cộng Sự', 'Saint-Jean-Baptiste Orthodontics & Pediatric Dentistry Associates', 'Οδοντιατρική Κλινική Αυστίν', 'Łódź Café Dental'];
/** A heading: 11 pt or larger (body text is 10 pt or smaller), with letters in it. */
const HEADING = 10.9;

let analysis: SampleAnalysis;
let sample: ReportData;
let branding: Branding;

beforeAll(async () => {
  analysis = await startSampleAnalysis();
  sample = await analysis.analyse();
  branding = {
    id: 'profile-p',
    companyName: 'Northstar Marketing for Dentists and Orthodontists of Central Texas',
    logoPng: await sharp({ create: { width: 300, height: 100, channels: 3, background: '#7c3aed' } }).png().toBuffer(),
    logoUrl: null,
    primaryColor: '#0F766E',
    secondaryColor: '#3F1D38',
    accentColor: '#F59E0B',
    contactEmail: 'dentists@northstar.example',
    contactPhone: '(512) 555-0188',
    website: 'https://northstar.example',
    footerText: 'Northstar Marketing LLC · 500 Main St, Austin, TX 78701',
    poweredBy: true,
  };
}, 60_000);

afterAll(() => analysis?.close());

function many(): ReportData {
  const data = reportDataFixture({ company: LONG });
  data.competitors.forEach((c, i) => (c.place.name = `${NAMES[i % NAMES.length]}${i >= NAMES.length ? ` ${i}` : ''}`));
  return data;
}

function few(): ReportData {
  const data = reportDataFixture({ company: 'Lakeline Dental' });
  data.competitors = data.competitors.slice(0, 2);
  return data;
}

function longSample(): ReportData {
  const data = structuredClone(sample);
  data.business.place.name = LONG;
  data.competitors.forEach((c, i) => (c.place.name = NAMES[i % NAMES.length]!));
  return data;
}

/** The sample analysis with the business first at every point of its grid: SoLV "100.00%". */
function fullVoice(): ReportData {
  const data = structuredClone(sample);
  const solv = data.business.dataPoints.find((d) => d.key === 'visibility.solv');
  if (!solv) throw new Error('the sample analysis has no Share of Local Voice');
  Object.assign(solv, { status: 'measured', value: 100 });
  return data;
}

/** A breakdown's total row ("Score · …") and the rows above it on its page (value cells '+0.12' or '-', one top per row). */
function totalRowProblems(p: PdfPage): string[] {
  const items = [...p.items].sort((a, b) => a.top - b.top);
  const out: string[] = [];
  items.forEach((total, i) => {
    if (!total.str.startsWith('Score ·')) return;
    const rowsAbove = new Set(items.slice(0, i).filter((x) => /^(\+\d+\.\d\d|-)$/.test(x.str.trim())).map((x) => Math.round(x.top)));
    const continued = items[0]?.str.trim() === 'Data point';
    if (continued && rowsAbove.size < 2) out.push(`page ${p.number} starts with a breakdown's total row after ${rowsAbove.size} row(s): "${total.str.slice(0, 40)}"`);
    if (!items.slice(i + 1).some((x) => x.str.startsWith('Normalised: 0 = worst'))) out.push(`page ${p.number}: the breakdown's note is not under its total row`);
  });
  return out;
}

/** What is wrong with the pages: near-empty ones, headings that end one, text cut short, a table's end alone. */
function problems(pages: PdfPage[]): string[] {
  const out: string[] = [];
  pages.forEach((p, i) => {
    const last = i === pages.length - 1;
    if (!last && p.fill < 1 / 3) out.push(`page ${p.number} is ${Math.round(p.fill * 100)}% full: ${p.items.map((x) => x.str).join(' ').slice(0, 80)}`);
    // A grid's rank numbers are set large too; a heading has words.
    for (const h of p.items.filter((x) => x.size >= HEADING && /\p{L}/u.test(x.str))) {
      const below = p.items.filter((x) => x.top >= h.bottom - 1 && x.size < HEADING);
      if (below.length === 0) out.push(`page ${p.number} ends with the heading "${h.str}"`);
    }
    for (const c of p.cut) out.push(`page ${p.number} cuts "${c}"`);
    out.push(...totalRowProblems(p));
  });
  return out;
}

const CASES: Array<[string, () => ReportData, (() => Branding)?]> = [
  ['the sample analysis', () => sample],
  ['the sample analysis with long names in several scripts', longSample],
  ['nine competitors with long names', many],
  ['two competitors', few],
  ['the sample analysis in an agency\'s branding', () => sample, () => branding],
  ['the sample analysis with a Share of Local Voice of 100%', fullVoice],
];

describe('PDF pagination', () => {
  for (const [name, make, brand] of CASES) {
    it(`${name}: no near-empty page, no heading alone at a page's end, no cut text`, async () => {
      const pages = await pdfPages(await renderPdf(make(), LINKS, brand?.() ?? null));
      const fills = pages.map((p) => Math.round(p.fill * 100));
      console.log(`${name}: ${pages.length} pages, fill % ${fills.join(' ')}; least full but the last ${Math.min(...fills.slice(0, -1))}%; cut ${pages.reduce((n, p) => n + p.cut.length, 0)}`);
      expect(problems(pages)).toEqual([]);
    }, 60_000);
  }
});
