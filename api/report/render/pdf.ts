// The PDF report (pdfkit, US Letter, tagged, Inter embedded so every name is real text):
// 1. executive summary: overall score and rank, what the number means, key findings, the radar,
//    the colour bands; 2. the market: competitor bars and table; 3-6. one section per score: band,
//    meaning, why it matters, against the market median and leader, top fixes, how it is computed
//    and every data point with source, raw and normalised value, weight and contribution;
//    local visibility: the grid of the business's rank at each point, per keyword, with SoLV;
//    AI answers once the business has a scan (paid: each engine's "named in k of n answers" per
//    keyword; free: one line);
//    then all recommendations, notes and the method in short. With sample data every page says so.
// With an agency's branding (white-label) its name, logo, colours, contact details and footer
// replace ours on every page, and nothing names LocalRank unless the profile shows "Powered by".
// Sections follow one another on the page (a new page only when the next one's opening would not
// fit), so no page is left near-empty by a section that ran a few rows over; a heading keeps its
// first lines with it; text wraps rather than being cut (issue 40).
import { AI_INTRO, AI_TITLE, engineLine, freeReportLine, rivalsLine, SAMPLE_AI_LABEL, sourcesLine, uncertainty } from '../../../common/ai-visibility.ts';
import PDFDocument from 'pdfkit';
import { OPERATOR, PRODUCT_NAME, scoreBand } from '../../../common/constants.ts';
import { contactLine, pngSize, POWERED_BY, sampleNote, themeOf, type Branding } from '../model/branding.ts';
import type { ReportData, ScoreBreakdown, ScoreKey } from '../model/types.ts';
import { breakdownOf, coverageText, fmtWeight, SOURCE_LABELS } from './breakdown.ts';
import { findings } from './summary.ts';
import { listingComparison, localSignals, type ComparisonRow } from './listing.ts';
import { metricsText, NOT_MEASURED, RANK_BAND_ORDER, RANK_BANDS, solvCell, VISIBILITY_TITLE, visibilityView, voiceTable, type KeywordView } from '../words/visibility.ts';
import { pdfFont } from './fonts.ts';
import { withFontFallback } from './pdf-fallback.ts';
import {
  BAND_COLOURS,
  BAND_LABELS,
  branchesText,
  rowName,
  BAND_RANGES,
  bandColour,
  bandLabel,
  fmtDate,
  fixesFor,
  fmtScore,
  gainText,
  HOW_COMPUTED,
  legendText,
  comparedWithText,
  hasMarket,
  marketOn,
  marketSize,
  METHODOLOGY_SUMMARY,
  NO_MARKET,
  noMarketText,
  NOT_RANKED,
  ranked,
  rankNo,
  rankOf,
  SAMPLE_DATA_LABEL,
  scaleMeaning,
  shareText,
  SCORE_ABOUT,
  SCORE_KEYS,
  SCORE_LABELS,
} from '../words/labels.ts';
import {
  artifact,
  BAND_TINT,
  barHeights,
  bars,
  clampLines,
  fit,
  CONTENT_WIDTH,
  ensureSpace,
  figure,
  INK,
  INK2,
  INK3,
  line,
  LINE,
  MARGIN,
  MUTED,
  PAGE,
  pill,
  radar,
  SURFACE,
  table,
  tableOpening,
  type Column,
  type Doc,
  type Struct,
} from './pdf-draw.ts';

export interface ReportLinks {
  /** The served methodology page, absolute. */
  methodologyUrl: string;
}

/** What one rendering draws with: the theme's colours and names, the branding (or none), and the
 *  methodology link, which a white-label report leaves out (it is a page of our site). */
interface Look {
  theme: ReturnType<typeof themeOf>;
  branding: Branding | null;
  methodologyUrl: string | null;
}

const TINT_NONE = '#f1f5f9';
const tintOf = (score: number | null) => (score === null ? TINT_NONE : BAND_TINT[scoreBand(score)]);

function para(doc: Doc, parent: Struct, text: string, options: { size?: number; colour?: string; x?: number; width?: number; font?: string; type?: string; gap?: number } = {}) {
  doc.font(options.font ?? 'Regular').fontSize(options.size ?? 9.5).fillColor(options.colour ?? INK2);
  doc.text(text, options.x ?? MARGIN, doc.y, { width: options.width ?? CONTENT_WIDTH, lineGap: 1.5, structParent: parent, structType: options.type ?? 'P' });
  doc.y += options.gap ?? 4;
}

/** A heading kept with at least `keep` points of what follows it. */
function heading(doc: Doc, parent: Struct, text: string, keep: number, level: 'H1' | 'H2' | 'H3' = 'H2') {
  const size = level === 'H1' ? 18 : level === 'H2' ? 14 : 11;
  ensureSpace(doc, size + 14 + keep);
  doc.font('Bold').fontSize(size).fillColor(INK);
  line(doc, parent, text, MARGIN, doc.y, CONTENT_WIDTH, { type: level });
  doc.y += size + 6;
  if (level !== 'H3') {
    const y = doc.y;
    artifact(doc, () => doc.moveTo(MARGIN, y).lineTo(MARGIN + CONTENT_WIDTH, y).lineWidth(0.8).strokeColor(LINE).stroke());
    doc.y = y + 8;
  }
}

/** Where a section begins: on the current page after a gap, when its opening (`keep` points)
 *  fits there; else at the top of the next page. */
function sectionStart(doc: Doc, keep: number) {
  if (doc.y > MARGIN + 1) doc.y += 22;
  ensureSpace(doc, keep);
}

/** Text wrapped to `width` at (x, y), as a structure element of `type`; the position is left
 *  where it was, and the height it took is returned. */
function block(doc: Doc, parent: Struct, text: string, x: number, y: number, width: number, type = 'P') {
  const [x0, y0] = [doc.x, doc.y];
  const h = doc.heightOfString(text, { width });
  doc.text(text, x, y, { width, structParent: parent, structType: type });
  doc.x = x0;
  doc.y = y0;
  return h;
}

function bullets(doc: Doc, parent: Struct, items: string[], look: Look, width = CONTENT_WIDTH, x = MARGIN) {
  const list = doc.struct('L');
  parent.add(list);
  for (const item of items) {
    doc.font('Regular').fontSize(9.5);
    ensureSpace(doc, doc.heightOfString(item, { width: width - 12 }));
    const y = doc.y;
    const li = doc.struct('LI');
    list.add(li);
    artifact(doc, () => doc.circle(x + 3, y + 5.5, 1.6).fill(look.theme.brand));
    doc.fillColor(INK2).text(item, x + 12, y, { width: width - 12, lineGap: 1.5, structParent: li, structType: 'LBody' });
    li.end();
    doc.y += 3;
  }
  list.end();
  doc.x = MARGIN;
}

// ---- page 1 -------------------------------------------------------------------------------

/** The name at the top of the first page: the agency's logo and name, or our mark and name, in
 *  the width the date (`beside` points) leaves; a long name takes two lines at a smaller size. */
function masthead(doc: Doc, sect: Struct, look: Look, beside: number): number {
  const { theme, branding } = look;
  let x = MARGIN;
  if (branding?.logoPng) {
    const logo = branding.logoPng;
    artifact(doc, () => doc.image(logo, MARGIN, MARGIN - 6, { fit: [120, 28], valign: 'center' }));
    const { width, height } = pngSize(logo);
    x += Math.min(120, (width * 28) / height) + 10;
  } else {
    artifact(doc, () => doc.roundedRect(MARGIN, MARGIN, 16, 16, 4).fill(theme.brand));
    x += 22;
  }
  const width = CONTENT_WIDTH - (x - MARGIN) - beside - 12;
  doc.font('Bold').fontSize(12).fillColor(theme.secondaryInk);
  if (doc.widthOfString(theme.name) <= width) line(doc, sect, theme.name, x, MARGIN + 2, width);
  else {
    doc.fontSize(9.5);
    const [x0, y0] = [doc.x, doc.y];
    doc.text(clampLines(doc, theme.name, width, 2), x, MARGIN - 2, { width, lineGap: 0, structParent: sect, structType: 'P' });
    [doc.x, doc.y] = [x0, y0];
  }
  return x - MARGIN + width;
}

function cover(doc: Doc, root: Struct, data: ReportData, look: Look) {
  const b = data.business;
  const sect = doc.struct('Sect');
  root.add(sect);
  const dated = `Local market report · ${fmtDate(data.generatedAt)}`;
  const used = masthead(doc, sect, look, doc.font('Regular').fontSize(9).widthOfString(dated) + 2);
  doc.font('Regular').fontSize(9).fillColor(INK3);
  line(doc, sect, dated, MARGIN + used + 10, MARGIN + 3, CONTENT_WIDTH - used - 10, { align: 'right' });
  doc.y = MARGIN + 32;
  // A long name takes a smaller size rather than being cut: two lines at 22 pt, else 17 pt.
  doc.font('Bold').fontSize(22);
  if (doc.heightOfString(b.place.name, { width: CONTENT_WIDTH }) > 2 * doc.currentLineHeight(true) + 0.5) doc.fontSize(17);
  doc.fillColor(INK);
  doc.text(clampLines(doc, b.place.name, CONTENT_WIDTH, 3), MARGIN, doc.y, { width: CONTENT_WIDTH, structParent: sect, structType: 'H1' });
  doc.y += 2;
  doc.font('Regular').fontSize(10).fillColor(INK3);
  if (b.place.address) line(doc, sect, b.place.address, MARGIN, doc.y, CONTENT_WIDTH);
  doc.y += b.place.address ? 14 : 0;
  line(doc, sect, `${data.category} · ${comparedWithText(data)}`, MARGIN, doc.y, CONTENT_WIDTH);
  doc.y += 20;
  if (data.sampleData) {
    doc.font('Regular').fontSize(9.5);
    const note = sampleNote(look.branding);
    const h = doc.heightOfString(note, { width: CONTENT_WIDTH - 24 }) + 30;
    const y = doc.y;
    artifact(doc, () => doc.roundedRect(MARGIN, y, CONTENT_WIDTH, h, 6).fillAndStroke('#fffbeb', '#fcd34d'));
    doc.font('Bold').fontSize(10).fillColor('#92400e');
    line(doc, sect, SAMPLE_DATA_LABEL, MARGIN + 12, y + 9, CONTENT_WIDTH - 24, { type: 'H2' });
    doc.font('Regular').fontSize(9.5).fillColor('#92400e').text(note, MARGIN + 12, y + 23, { width: CONTENT_WIDTH - 24, structParent: sect });
    doc.y = y + h + 14;
  }
  overview(doc, sect, data, look);
  sect.end();
}

function overview(doc: Doc, sect: Struct, data: ReportData, look: Look) {
  const BRAND = look.theme.brand;
  const b = data.business;
  const overall = b.scores.overall as number | null;
  const top = doc.y;
  // The overall score card.
  const cardW = 176;
  const cardH = 196;
  artifact(doc, () => doc.roundedRect(MARGIN, top, cardW, cardH, 10).fillAndStroke(SURFACE, LINE));
  doc.font('Semibold').fontSize(10).fillColor(INK3);
  line(doc, sect, 'Overall score', MARGIN, top + 16, cardW, { align: 'center' });
  doc.font('Bold').fontSize(overall === null ? 16 : 40).fillColor(bandColour(overall));
  line(doc, sect, fmtScore(overall), MARGIN + 8, top + (overall === null ? 48 : 34), cardW - 16, { align: 'center' });
  doc.font('Regular').fontSize(9.5).fillColor(INK3);
  line(doc, sect, overall === null ? 'too little was measured' : 'out of 10', MARGIN, top + 82, cardW, { align: 'center' });
  doc.font('Semibold').fontSize(9);
  const label = bandLabel(overall);
  const pw = doc.widthOfString(label) + 16;
  pill(doc, sect, label, MARGIN + (cardW - pw) / 2, top + 102, bandColour(overall), tintOf(overall), 9);
  doc.font('Bold').fontSize(15).fillColor(INK);
  line(doc, sect, rankNo(b, data) ? `Rank ${rankOf(b, data)}` : hasMarket(data) ? NOT_RANKED : `${NO_MARKET} to rank in`, MARGIN, top + 132, cardW, { align: 'center' });
  doc.font('Regular').fontSize(8.5).fillColor(INK3);
  doc.text(shareText(b.scores.marketSharePercent, data), MARGIN + 14, top + 156, { width: cardW - 28, align: 'center', structParent: sect });

  // The radar: the business against the market median on the four scores.
  const medians = SCORE_KEYS.map((k) => marketOn(data, k).median);
  const yours = SCORE_KEYS.map((k) => b.scores[k] as number | null);
  const rx = MARGIN + cardW + 20;
  const rw = CONTENT_WIDTH - cardW - 20;
  figure(doc, sect, `Radar chart of the four scores out of 10. ${SCORE_KEYS.map((k, i) => `${SCORE_LABELS[k]}: you ${fmtScore(yours[i]!)}, market median ${fmtScore(medians[i] ?? null)}`).join('; ')}.`, () => {
    radar(
      doc,
      SCORE_KEYS.map((k, i) => `${SCORE_LABELS[k]} ${yours[i] === null ? '(not enough data)' : yours[i]!.toFixed(1)}`),
      [
        { name: 'Market median', values: medians, stroke: '#94a3b8', fill: '#94a3b8', dash: true },
        { name: 'You', values: yours, stroke: BRAND, fill: BRAND },
      ],
      rx + rw / 2,
      top + 98,
      72,
    );
    // Its legend, in the top right corner.
    const lx = rx + rw - 84;
    doc.circle(lx + 4, top + 8, 3.5).fill(BRAND);
    doc.font('Regular').fontSize(8).fillColor(INK2).text('You', lx + 14, top + 4, { lineBreak: false });
    doc.moveTo(lx, top + 22).lineTo(lx + 9, top + 22).dash(2, { space: 1.5 }).lineWidth(1.4).strokeColor('#94a3b8').stroke().undash();
    doc.text('Market median', lx + 14, top + 18, { lineBreak: false });
  });
  doc.y = top + cardH + 18;
  doc.x = MARGIN;

  heading(doc, sect, 'Executive summary', 60);
  bullets(doc, sect, findings(data), look);
  doc.y += 6;
  legend(doc, sect, overall);
}

function legend(doc: Doc, parent: Struct, overall: number | null) {
  ensureSpace(doc, 96);
  const top = doc.y;
  const h = 88;
  artifact(doc, () => doc.roundedRect(MARGIN, top, CONTENT_WIDTH, h, 8).fillAndStroke('#ffffff', LINE));
  doc.font('Bold').fontSize(10).fillColor(INK);
  line(doc, parent, 'How to read the scores', MARGIN + 12, top + 10, 300, { type: 'H3' });
  doc.font('Regular').fontSize(8.5).fillColor(INK3);
  doc.text(legendText(overall), MARGIN + 12, top + 26, { width: CONTENT_WIDTH - 24, structParent: parent });
  const colW = (CONTENT_WIDTH - 24) / BAND_RANGES.length;
  BAND_RANGES.forEach((r, i) => {
    const x = MARGIN + 12 + i * colW;
    artifact(doc, () => doc.roundedRect(x, top + 52, 10, 10, 2).fill(BAND_COLOURS[r.band]));
    doc.font('Semibold').fontSize(8.5).fillColor(INK);
    line(doc, parent, `${BAND_LABELS[r.band]} ${r.range}`, x + 15, top + 52, colW - 18);
    doc.font('Regular').fontSize(7.5).fillColor(INK3);
    line(doc, parent, r.meaning, x + 15, top + 65, colW - 18);
  });
  doc.y = top + h + 10;
}

// ---- the market ---------------------------------------------------------------------------

function market(doc: Doc, root: Struct, data: ReportData) {
  sectionStart(doc, 240);
  const sect = doc.struct('Sect');
  root.add(sect);
  heading(doc, sect, 'How you compare', 240, 'H1');
  para(doc, sect, hasMarket(data) ? `Overall scores of the ${marketSize(data)} businesses compared, in rank order. Your row is outlined.` : `${noMarketText(data)} Your row is outlined.`, { colour: INK3 });
  const rows = ranked(data);
  const brands = branchesText(data);
  if (brands) para(doc, sect, brands, { colour: INK3 });
  const items = rows.map((p) => ({ label: `${rankNo(p, data) ?? '–'}  ${rowName(p)}`, score: p.scores.overall as number | null, strong: p.isMainBusiness }));
  ensureSpace(doc, barHeights(doc, items, 190, 18).reduce((a, b) => a + b, 0) + 4);
  const top = doc.y + 4;
  let bottom = top;
  figure(doc, sect, `Bar chart of overall scores: ${rows.map((p) => `${rankNo(p, data) ?? (p.brand ? '' : hasMarket(data) ? NOT_RANKED : '')} ${rowName(p)} ${fmtScore(p.scores.overall)}`).join('; ')}.`, () => {
    bottom = bars(doc, items, MARGIN, top, CONTENT_WIDTH, 190, 18);
  });
  doc.y = bottom + 16;
  doc.x = MARGIN;
  const cell = (s: number | null) => (s === null ? 'No data' : s.toFixed(2));
  const columns: Column[] = [
    { title: 'Rank', width: 32 },
    { title: 'Business', width: 98 },
    { title: 'Miles', width: 36, align: 'right' },
    { title: 'Stars', width: 34, align: 'right' },
    { title: 'Count', width: 44, align: 'right' },
    // "100.00%" in bold (the business's own row) fits on one line.
    { title: 'SoLV', width: 54, align: 'right' },
    { title: 'Reviews', width: 42, align: 'right' },
    { title: 'Digital', width: 42, align: 'right' },
    { title: 'Engage.', width: 44, align: 'right' },
    { title: 'Share', width: 40, align: 'right' },
    { title: 'Overall', width: 46, align: 'right' },
  ];
  const tableRows = rows.map((p) => ({
    bold: p.isMainBusiness,
    cells: [
      rankNo(p, data) ?? '–',
      rowName(p),
      p.isMainBusiness ? '-' : p.place.distanceMiles.toFixed(2),
      p.place.rating === null ? 'n/a' : p.place.rating.toFixed(1),
      p.place.reviewCount === null ? 'n/a' : String(p.place.reviewCount),
      solvCell(p),
      ...SCORE_KEYS.map((k) => (k === 'marketShare' && !hasMarket(data) ? '–' : cell(p.scores[k] as number | null))),
      cell(p.scores.overall as number | null),
    ],
    muted: [6, 7, 8, 9, 10].filter((i) => (i < 10 ? p.scores[SCORE_KEYS[i - 6]!] : p.scores.overall) === null),
  }));
  heading(doc, sect, 'Every score, side by side', tableOpening(doc, columns, tableRows), 'H2');
  table(doc, sect, columns, tableRows);
  doc.y += 6;
  para(
    doc,
    sect,
    'Stars and Count are the listing\'s star rating and number of reviews; SoLV is the Share of Local Voice (the share of the visibility grid\'s points where a local search lists the business in the top 3). The next five columns are scores from 1 to 10: Online Reviews, Digital Presence, Customer Engagement, Market Share and Overall. "No data" means not enough data to give that score a number.',
    { size: 8, colour: MUTED },
  );
  sect.end();
}

// ---- AI answers (issue 50) ---------------------------------------------------------------------

/** The paid report's section: per keyword, each engine's "named in k of n answers"; a free report
 *  gets one line. Absent before the business's first scan. */
function aiAnswersPage(doc: Doc, root: Struct, data: ReportData) {
  const ai = data.aiAnswers;
  if (!ai?.scans.length) return;
  const sect = doc.struct('Sect');
  root.add(sect);
  if (!ai.paid) {
    para(doc, sect, freeReportLine(ai.scans[0]!), { size: 9.5, colour: INK3 });
    sect.end();
    return;
  }
  sectionStart(doc, 220);
  heading(doc, sect, AI_TITLE, 160, 'H1');
  para(doc, sect, AI_INTRO, { colour: INK3 });
  if (ai.scans.some((s) => s.sample)) para(doc, sect, SAMPLE_AI_LABEL, { size: 8.5, colour: '#92400e' });
  for (const scan of ai.scans) {
    ensureSpace(doc, 90);
    para(doc, sect, `"${scan.question}" (asked ${fmtDate(scan.scannedAt)} from ${scan.location})`, { size: 11, font: 'Semibold', gap: 2 });
    for (const e of scan.engines) {
      para(doc, sect, engineLine(e), { size: 9.5, gap: 1 });
      const unsure = !e.notAsked && uncertainty(e.answered);
      if (unsure) para(doc, sect, unsure, { size: 8.5, colour: '#92400e', gap: 1 });
    }
    const rivals = rivalsLine(scan);
    if (rivals) para(doc, sect, rivals, { size: 8.5, colour: INK3, gap: 1 });
    const sources = sourcesLine(scan);
    if (sources) para(doc, sect, sources, { size: 8.5, colour: INK3 });
  }
  sect.end();
}

// ---- local visibility ------------------------------------------------------------------------

/** One keyword's grid: the rank in each cell, coloured by band, the business's cell outlined. */
function gridFigure(doc: Doc, sect: Struct, k: KeywordView, x: number, y: number, cell: number) {
  const alt = `Your rank for "${k.keyword}" at each of ${k.cells.length} grid points, row by row from the north-west: ${k.cells.map((c) => c.text).join(', ')}. Your business is the outlined centre cell. ${metricsText(k.metrics)}.`;
  figure(doc, sect, alt, () => {
    k.cells.forEach((c, i) => {
      const cx = x + (i % k.size) * cell;
      const cy = y + Math.floor(i / k.size) * cell;
      const style = RANK_BANDS[c.band];
      doc.roundedRect(cx + 1.5, cy + 1.5, cell - 3, cell - 3, 3).fill(style.fill);
      if (c.centre) doc.roundedRect(cx + 0.5, cy + 0.5, cell - 1, cell - 1, 4).lineWidth(2.5).strokeColor(INK).stroke();
      doc.font('Bold').fontSize(Math.min(11, cell * 0.38)).fillColor(style.ink);
      doc.text(c.text, cx, cy + cell / 2 - Math.min(11, cell * 0.38) * 0.6, { width: cell, align: 'center', lineBreak: false });
    });
  });
}

function visibilityPage(doc: Doc, root: Struct, data: ReportData) {
  const view = visibilityView(data);
  if (!view) return;
  sectionStart(doc, 300);
  const sect = doc.struct('Sect');
  root.add(sect);
  heading(doc, sect, VISIBILITY_TITLE, 240, 'H1');
  para(doc, sect, 'When someone near you searches for what you sell, do they find you? Each cell is one point on a grid around your business; the number is your position in a local search made from that point.', { colour: INK3 });
  if (view.sampleData) para(doc, sect, `${SAMPLE_DATA_LABEL}: the searches are simulated by the sample data provider, not made on a real search engine.`, { size: 8.5, colour: '#92400e' });
  para(doc, sect, view.about, { size: 8.5, colour: MUTED });
  if (!view.overall) {
    para(doc, sect, `Share of Local Voice: ${NOT_MEASURED}. ${view.reason ?? ''}`, { size: 11, font: 'Semibold' });
    sect.end();
    return;
  }
  para(doc, sect, metricsText(view.overall), { size: 12, font: 'Bold', gap: 2 });
  para(doc, sect, 'Share of Local Voice (SoLV): the share of points where you are in the top 3, the local pack. ARP: your average position where you appear. ATRP: your average position over every point, "not in the top 20" counted as 21.', { size: 8.5, colour: INK3 });
  if (view.reason) para(doc, sect, view.reason, { size: 8.5, colour: MUTED });
  // The legend.
  const ly = doc.y + 2;
  let lx = MARGIN;
  artifact(doc, () => {
    for (const b of RANK_BAND_ORDER) {
      doc.roundedRect(lx, ly, 10, 10, 2).fill(RANK_BANDS[b].fill);
      doc.font('Regular').fontSize(8).fillColor(INK3);
      doc.text(RANK_BANDS[b].label, lx + 14, ly + 1, { lineBreak: false });
      lx += 14 + doc.widthOfString(RANK_BANDS[b].label) + 16;
    }
    doc.roundedRect(lx, ly - 1, 12, 12, 3).lineWidth(2).strokeColor(INK).stroke();
    doc.text('Your business', lx + 16, ly + 1, { lineBreak: false });
  });
  doc.y = ly + 22;
  // Two grids a row.
  const colW = CONTENT_WIDTH / 2;
  const size = view.keywords[0]!.size;
  const cell = Math.min(view.keywords.length === 1 ? 44 : 34, Math.floor((colW - 30) / size));
  const blockH = 34 + size * cell + 14;
  view.keywords.forEach((k, i) => {
    if (i % 2 === 0) ensureSpace(doc, blockH);
    const top = i % 2 === 0 ? doc.y : doc.y - blockH;
    const x = MARGIN + (i % 2) * colW;
    doc.font('Semibold').fontSize(10).fillColor(INK);
    line(doc, sect, `"${k.keyword}"`, x, top, colW - 20, { type: 'H3' });
    doc.font('Regular').fontSize(8).fillColor(INK3);
    line(doc, sect, metricsText(k.metrics), x, top + 14, colW - 20);
    gridFigure(doc, sect, k, x, top + 30, cell);
    doc.y = top + blockH;
  });
  doc.x = MARGIN;
  const voiceColumns: Column[] = [
    { title: 'Business', width: 272 },
    { title: 'SoLV', width: 80, align: 'right' },
    { title: 'ARP', width: 80, align: 'right' },
    { title: 'ATRP', width: 80, align: 'right' },
  ];
  const voiceRows = voiceTable(data).map((r) => ({ bold: r.place.isMainBusiness, cells: [r.place.isMainBusiness ? `${r.place.place.name} (you)` : r.place.place.name, r.solv, r.arp, r.atrp] }));
  // The heading keeps the table's opening rows, however long the names they wrap.
  heading(doc, sect, 'Share of Local Voice, business by business', tableOpening(doc, voiceColumns, voiceRows), 'H2');
  table(doc, sect, voiceColumns, voiceRows);
  doc.y += 6;
  para(doc, sect, 'One set of searches ranks every business, so each competitor\'s figures come from the same grid. "–": not in the top 20 at any point.', { size: 8, colour: MUTED });
  sect.end();
}

// ---- listing and homepage against the market -------------------------------------------------

function listingPage(doc: Doc, root: Struct, data: ReportData) {
  const listing = listingComparison(data);
  const signals = localSignals(data);
  if (listing.length === 0 && signals.length === 0) return;
  sectionStart(doc, 200);
  const sect = doc.struct('Sect');
  root.add(sect);
  heading(doc, sect, 'Your listing against the market', 200, 'H1');
  para(doc, sect, data.competitors.length === 0 ? 'What your listing and homepage show; no competitor was found to compare them with.' : `What your listing and homepage show, against the ${data.competitors.length} competitors' (the count of those measured that have it). Where you lack what the market has, the last column says what to do.`, { colour: INK3 });
  const columns = [
    { title: 'Field', width: 150 },
    { title: 'You', width: 56, align: 'right' as const },
    { title: 'Competitors', width: 76, align: 'right' as const },
    { title: 'What to do', width: 230 },
  ];
  const asRows = (list: ComparisonRow[]) => list.map((r) => ({ cells: [r.label, r.yours, r.market, r.fix ?? '–'], bold: r.gap }));
  if (listing.length) table(doc, sect, columns, asRows(listing));
  doc.y += 10;
  if (signals.length) {
    heading(doc, sect, 'Local signals on your homepage', 80, 'H2');
    para(doc, sect, 'Search engines match a site to local searches by the city and the category it names in its title, main heading and meta description.', { size: 8.5, colour: INK3 });
    table(doc, sect, columns, asRows(signals));
  }
  doc.y += 6;
  para(doc, sect, 'Rows in bold are gaps.', { size: 8, colour: MUTED });
  sect.end();
}

// ---- one section per score ------------------------------------------------------------------

function scoreSection(doc: Doc, root: Struct, data: ReportData, key: ScoreKey, look: Look) {
  // The title row, band, meaning and what it measures stay together, with the bars against the market.
  sectionStart(doc, 300);
  const b = data.business;
  const breakdown = breakdownOf(b, key);
  const score = b.scores[key] as number | null;
  // Market Share without a market: no score, and why (decision 0216).
  const noMarket = key === 'marketShare' && score === null ? noMarketText(data) : null;
  const sect = doc.struct('Sect');
  root.add(sect);
  // Title row: name, score, band.
  const top = doc.y;
  doc.font('Bold').fontSize(18).fillColor(INK);
  line(doc, sect, SCORE_LABELS[key], MARGIN, top, 300, { type: 'H1' });
  doc.font('Bold').fontSize(score === null ? 13 : 20).fillColor(bandColour(score));
  line(doc, sect, score === null ? (noMarket ? NO_MARKET : 'Not enough data') : `${score.toFixed(2)} / 10`, MARGIN + 300, top + (score === null ? 4 : -2), CONTENT_WIDTH - 300, { align: 'right' });
  doc.y = top + 28;
  const label = noMarket ? NO_MARKET : bandLabel(score);
  const pw = pill(doc, sect, label, MARGIN, doc.y, bandColour(score), tintOf(score), 8.5);
  doc.font('Regular').fontSize(8.5).fillColor(INK3);
  if (breakdown.totalWeight > 0) line(doc, sect, `${coverageText(breakdown)} (${Math.round(breakdown.coverage * 100)}%)`, MARGIN + pw + 10, doc.y + 4.5, CONTENT_WIDTH - pw - 10);
  doc.y += 28;
  para(doc, sect, noMarket ?? scaleMeaning(score), { colour: INK2, gap: 10 });

  // What it means / why it matters, side by side.
  const colW = (CONTENT_WIDTH - 20) / 2;
  const about = SCORE_ABOUT[key];
  const y0 = doc.y;
  doc.font('Bold').fontSize(10).fillColor(INK);
  line(doc, sect, 'What it measures', MARGIN, y0, colW, { type: 'H3' });
  line(doc, sect, 'Why it matters', MARGIN + colW + 20, y0, colW, { type: 'H3' });
  doc.font('Regular').fontSize(9).fillColor(INK2);
  doc.text(about.means, MARGIN, y0 + 15, { width: colW, lineGap: 1.5, structParent: sect });
  const y1 = doc.y;
  doc.text(about.matters, MARGIN + colW + 20, y0 + 15, { width: colW, lineGap: 1.5, structParent: sect });
  doc.y = Math.max(y1, doc.y) + 12;
  doc.x = MARGIN;

  // Against the market.
  const m = marketOn(data, key);
  heading(doc, sect, 'You against the market', 70, 'H3');
  const items = [
    { label: 'You', score: m.you, strong: true },
    { label: 'Market median', score: m.median },
    { label: m.leader ? `Leader: ${m.leader.name}${m.leader.isYou ? ' (you)' : ''}` : 'Leader', score: m.leader?.score ?? null },
  ];
  ensureSpace(doc, barHeights(doc, items, 190, 18).reduce((a, b) => a + b, 0) + 24);
  const by = doc.y;
  let bottom = by;
  figure(doc, sect, `${SCORE_LABELS[key]}: you ${fmtScore(m.you)}, market median ${fmtScore(m.median)}, leader ${m.leader ? `${m.leader.name} ${m.leader.score.toFixed(2)}` : 'none'}.`, () => {
    bottom = bars(doc, items, MARGIN, by, CONTENT_WIDTH, 190, 18);
  });
  doc.y = bottom + 4;
  doc.font('Regular').fontSize(8.5).fillColor(MUTED);
  line(doc, sect, m.position === null ? (hasMarket(data) ? `Not ranked on this score: not enough data.` : `Not ranked on this score: too few competitors for a rank.`) : `#${m.position} of ${m.scoredCount} businesses with this score.`, MARGIN, doc.y, CONTENT_WIDTH);
  doc.y += 20;

  // Top fixes.
  const fixes = fixesFor(data, key);
  heading(doc, sect, 'Top fixes', 40, 'H3');
  if (fixes.length === 0) para(doc, sect, 'None of the report\'s largest gains is in this score. The table below shows which data points hold it back.', { colour: INK3 });
  for (const r of fixes) {
    // The gain on the right, as wide as it is; the title wraps in what is left.
    const gain = gainText(r, key);
    const gainW = Math.min(CONTENT_WIDTH / 2, doc.font('Bold').fontSize(9.5).widthOfString(gain) + 2);
    const titleH = doc.heightOfString(r.title, { width: CONTENT_WIDTH - gainW - 12 });
    doc.font('Regular').fontSize(9);
    ensureSpace(doc, doc.heightOfString(r.detail, { width: CONTENT_WIDTH - 80 }) + titleH + 4);
    const y = doc.y;
    doc.font('Bold').fontSize(9.5).fillColor(INK);
    block(doc, sect, r.title, MARGIN, y, CONTENT_WIDTH - gainW - 12, 'H4');
    doc.font('Bold').fontSize(9.5).fillColor('#047857');
    line(doc, sect, gain, MARGIN + CONTENT_WIDTH - gainW, y, gainW, { align: 'right' });
    doc.font('Regular').fontSize(9).fillColor(INK3).text(r.detail, MARGIN, y + titleH + 1, { width: CONTENT_WIDTH - 80, lineGap: 1, structParent: sect });
    doc.y += 8;
  }
  doc.y += 4;

  // How it is computed, and every data point.
  heading(doc, sect, 'How this score is computed', 80, 'H3');
  para(doc, sect, HOW_COMPUTED, { size: 8.5, colour: INK3 });
  if (look.methodologyUrl) {
    doc.font('Regular').fontSize(8.5).fillColor(look.theme.brandInk);
    line(doc, sect, `Full method and every weight: ${look.methodologyUrl}`, MARGIN, doc.y, CONTENT_WIDTH, { type: 'Link', link: look.methodologyUrl });
    doc.y += 18;
  } else doc.y += 6;
  breakdownTable(doc, sect, breakdown, score);
  sect.end();
}

const fmtNorm = (n: number | null) => (n === null ? '-' : n.toFixed(2));
const fmtContribution = (n: number | null) => (n === null ? '-' : `+${n.toFixed(2)}`);

function breakdownTable(doc: Doc, sect: Struct, breakdown: ScoreBreakdown, score: number | null) {
  ensureSpace(doc, 17 * 4);
  if (breakdown.parts.length === 0) {
    para(doc, sect, 'This report has no breakdown of the score by data point.', { colour: INK3 });
    return;
  }
  // Points that do not apply are named under the table, not given a row each: they add nothing
  // and, as rows, push a short table's end onto a page of its own.
  const parts = [...breakdown.parts].filter((p) => p.status !== 'not_applicable').sort((a, b) => (b.contribution ?? -1) - (a.contribution ?? -1) || b.weight - a.weight);
  const left = breakdown.parts.filter((p) => p.status === 'not_applicable').map((p) => p.label);
  const note = `Normalised: 0 = worst, 1 = best. Contribution: the points the data point adds to the score above 1. "Unknown": the source could not give it, so it is left out of the score rather than counted as the worst value.${left.length ? ` Not applicable here, and left out too: ${left.join(', ')}.` : ''}`;
  // The note goes with the table's last rows and its total (para's size and line gap).
  const noteHeight = 4 + doc.font('Regular').fontSize(7.5).heightOfString(note, { width: CONTENT_WIDTH, lineGap: 1.5 });
  table(
    doc,
    sect,
    [
      { title: 'Data point', width: 180 },
      { title: 'Source', width: 50 },
      { title: 'Raw value', width: 92 },
      { title: 'Normalised', width: 52, align: 'right' },
      { title: 'Weight', width: 62, align: 'right' },
      { title: 'Contribution', width: 76, align: 'right' },
    ],
    [
      ...parts.map((p) => ({
        cells: [p.note ? `${p.label} (${p.note})` : p.label, SOURCE_LABELS[p.source], p.raw, fmtNorm(p.normalised), fmtWeight(p.weight), fmtContribution(p.contribution)],
        muted: p.status === 'measured' ? [] : [0, 1, 2, 3, 4, 5],
      })),
      {
        bold: true,
        cells: [`Score · ${coverageText(breakdown)}`, '', '', '', `${fmtWeight(breakdown.measuredWeight)}/${fmtWeight(breakdown.totalWeight)}`, score === null ? 'Not enough data' : `1 + ${(score - 1).toFixed(2)} = ${score.toFixed(2)}`],
      },
    ],
    7.5,
    noteHeight,
  );
  doc.y += 4;
  para(doc, sect, note, { size: 7.5, colour: MUTED });
}

// ---- the end -------------------------------------------------------------------------------

function closing(doc: Doc, root: Struct, data: ReportData, look: Look) {
  sectionStart(doc, 160);
  const sect = doc.struct('Sect');
  root.add(sect);
  heading(doc, sect, 'What to do first', 60, 'H1');
  para(doc, sect, 'The changes that would raise your scores the most, largest gain first.', { colour: INK3 });
  data.recommendations.forEach((r, i) => {
    const gain = `+${r.gain.toFixed(2)} ${SCORE_LABELS[r.score]}`;
    const gainW = doc.font('Semibold').fontSize(8.5).widthOfString(gain) + 2;
    const titleH = doc.font('Bold').fontSize(10).heightOfString(r.title, { width: CONTENT_WIDTH - 24 - gainW - 12 });
    doc.font('Regular').fontSize(9);
    ensureSpace(doc, doc.heightOfString(r.detail, { width: CONTENT_WIDTH - 24 }) + titleH + 8);
    const y = doc.y;
    artifact(doc, () => doc.circle(MARGIN + 8, y + 6, 8).fill(look.theme.brand));
    doc.font('Bold').fontSize(8.5).fillColor(look.theme.onBrand);
    line(doc, null, String(i + 1), MARGIN, y + 2, 16, { align: 'center' });
    doc.font('Bold').fontSize(10).fillColor(INK);
    block(doc, sect, r.title, MARGIN + 24, y, CONTENT_WIDTH - 24 - gainW - 12, 'H2');
    doc.font('Semibold').fontSize(8.5).fillColor('#047857');
    line(doc, sect, gain, MARGIN + CONTENT_WIDTH - gainW, y + 1, gainW, { align: 'right' });
    doc.font('Regular').fontSize(9).fillColor(INK3).text(r.detail, MARGIN + 24, y + Math.max(15, titleH + 2), { width: CONTENT_WIDTH - 24, lineGap: 1, structParent: sect });
    doc.y += 10;
  });
  if (data.notes.length > 0) {
    doc.y += 6;
    heading(doc, sect, 'Notes on the data', 40, 'H2');
    bullets(doc, sect, data.notes, look);
  }
  doc.y += 6;
  heading(doc, sect, 'How we score, in short', 60, 'H2');
  bullets(doc, sect, [
    ...METHODOLOGY_SUMMARY,
    `Data source: ${data.sampleData ? (look.branding ? 'example figures, not live listings' : 'example figures generated by LocalRank, not live listings') : data.provider === 'google' ? 'Google Places' : 'Yelp'}. Location from ${data.location.source === 'zip' ? 'the ZIP code' : data.location.source === 'city' ? 'the city (the ZIP code was not found)' : 'an online geocoder'}.`,
  ], look);
  if (look.methodologyUrl) {
    doc.font('Regular').fontSize(9).fillColor(look.theme.brandInk);
    ensureSpace(doc, 14);
    line(doc, sect, `The full method, every data point and its weight: ${look.methodologyUrl}`, MARGIN, doc.y + 2, CONTENT_WIDTH, { type: 'Link', link: look.methodologyUrl });
  }
  sect.end();
}

/** Every page: the sample label at the top (when sample data) and the footer, as pagination artifacts. */
function pageFurniture(doc: Doc, data: ReportData, look: Look) {
  const { branding, theme } = look;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const bottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.markContent('Artifact', { type: 'Pagination' });
    // A white-label page carries the agency's colour along its top edge.
    if (branding) doc.rect(0, 0, PAGE.width, 6).fill(theme.brand);
    if (data.sampleData) {
      doc.font('Semibold').fontSize(8);
      const text = `${SAMPLE_DATA_LABEL}`;
      const w = doc.widthOfString(text) + 20;
      const x = PAGE.width - MARGIN - w;
      doc.roundedRect(x, 18, w, 17, 8.5).fillAndStroke('#fffbeb', '#fcd34d');
      doc.fillColor('#92400e').text(text, x + 10, 22.5, { width: w - 20, lineBreak: false });
    }
    const y = PAGE.height - (branding ? 38 : 34);
    doc.moveTo(MARGIN, y - 6).lineTo(PAGE.width - MARGIN, y - 6).lineWidth(0.5).strokeColor(LINE).stroke();
    doc.font('Regular').fontSize(7.5).fillColor(MUTED);
    if (branding) {
      // The agency's name and contact details, then its footer text (and "Powered by" if chosen).
      // Name and contact share the first line when they fit in it, else the contact takes the next.
      const contact = contactLine(branding);
      const firstW = CONTENT_WIDTH - 104;
      doc.font('Semibold').fillColor(theme.secondaryInk).text(fit(doc, branding.companyName, firstW), MARGIN, y, { width: firstW, lineBreak: false, continued: false });
      const nameW = Math.min(firstW, doc.widthOfString(branding.companyName)) + 3;
      doc.font('Regular').fillColor(MUTED);
      const together = Boolean(contact) && doc.widthOfString(`· ${contact}`) <= firstW - nameW;
      if (contact && together) doc.text(`· ${contact}`, MARGIN + nameW, y, { width: firstW - nameW, lineBreak: false });
      const second = [contact && !together ? contact : null, branding.footerText, branding.poweredBy ? POWERED_BY : null].filter(Boolean).join(' · ');
      if (second) doc.text(clampLines(doc, second, CONTENT_WIDTH, 2), MARGIN, y + 10, { width: CONTENT_WIDTH, lineGap: 0 });
    } else {
      doc.text(`${PRODUCT_NAME} · ${OPERATOR.legalName} · ${OPERATOR.postalAddress}`, MARGIN, y, { width: 400, lineBreak: false });
    }
    doc.font('Regular').fillColor(MUTED).text(`Page ${i + 1} of ${range.count}`, PAGE.width - MARGIN - 100, y, { width: 100, align: 'right', lineBreak: false });
    doc.endMarkedContent();
    doc.page.margins.bottom = bottom;
  }
}

export async function renderPdf(data: ReportData, links: ReportLinks, branding: Branding | null = null): Promise<Buffer> {
  const name = data.business.place.name;
  const look: Look = { theme: themeOf(branding), branding, methodologyUrl: branding ? null : links.methodologyUrl };
  const author = look.theme.name;
  const doc = new PDFDocument({
    size: 'LETTER',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    tagged: true,
    lang: 'en-US',
    displayTitle: true,
    pdfVersion: '1.7',
    info: {
      Title: `${author} report: ${name}${data.sampleData ? ` (${SAMPLE_DATA_LABEL.toLowerCase()})` : ''}`,
      Subject: hasMarket(data) ? `${name} against the top ${data.competitors.length} ${data.category.toLowerCase()} competitors within ${data.radiusMiles} miles: scores, rank, data points and recommendations` : `${name}, ${data.category.toLowerCase()}: ${comparedWithText(data)}; scores, data points and recommendations`,
      Author: author,
      Creator: author,
      CreationDate: new Date(data.generatedAt),
    },
  });
  // Parsed once per thread and shared by every document (fonts.ts pdfFont); pdfkit's types name
  // only files, its code takes a parsed font too.
  doc.registerFont('Regular', pdfFont('Inter', 400) as unknown as Buffer);
  doc.registerFont('Semibold', pdfFont('Inter', 600) as unknown as Buffer);
  doc.registerFont('Bold', pdfFont('Inter', 700) as unknown as Buffer);
  withFontFallback(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const root = doc.struct('Document');
  doc.addStructure(root);
  cover(doc, root, data, look);
  market(doc, root, data);
  visibilityPage(doc, root, data);
  aiAnswersPage(doc, root, data);
  listingPage(doc, root, data);
  for (const key of SCORE_KEYS) scoreSection(doc, root, data, key, look);
  closing(doc, root, data, look);
  root.end();
  pageFurniture(doc, data, look);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

