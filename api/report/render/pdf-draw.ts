// Drawing helpers of the PDF report: text that fits its box (words wrap onto more lines; an
// ellipsis only where one line is all there is, never overprint), tagged structure (every text
// belongs to a structure element, decoration is an artifact), tables whose rows grow to their
// wrapped text and repeat their header across pages, and the vector charts (bars and the radar).
import type { ScoreBand } from '../../../common/constants.ts';
import { scoreBand } from '../../../common/constants.ts';
import { NO_SCORE_COLOUR } from '../words/labels.ts';

export type Doc = PDFKit.PDFDocument;
export type Struct = PDFKit.PDFStructureElement;

export const PAGE = { width: 612, height: 792 } as const;
export const MARGIN = 50;
export const CONTENT_WIDTH = PAGE.width - 2 * MARGIN;
/** Lowest y content may reach; the footer sits below it. */
export const CONTENT_BOTTOM = PAGE.height - MARGIN - 8;

export const INK = '#0f172a';
export const INK2 = '#334155';
export const INK3 = '#475569';
export const MUTED = '#64748b';
export const LINE = '#e2e8f0';
export const SURFACE = '#f8fafc';
export const BRAND = '#3B82F6';

/** Bars and chart fills: the band's hue, softened (the lowest band is orange, not alarm red). */
export const BAND_FILL: Record<ScoreBand, string> = { excellent: '#10b981', good: '#3b82f6', fair: '#f59e0b', poor: '#f97316' };
export const BAND_TINT: Record<ScoreBand, string> = { excellent: '#ecfdf5', good: '#eff6ff', fair: '#fffbeb', poor: '#fff7ed' };
export const bandFill = (score: number | null) => (score === null ? '#cbd5e1' : BAND_FILL[scoreBand(score)]);

/** Draws decoration outside the structure tree (screen readers skip it). */
export function artifact(doc: Doc, draw: () => void) {
  doc.markContent('Artifact');
  draw();
  doc.endMarkedContent();
}

/** A chart: one Figure element with its alternative text; its drawing and labels are inside. */
export function figure(doc: Doc, parent: Struct, alt: string, draw: () => void) {
  parent.add(doc.struct('Figure', { alt }, draw));
}

const chars = (s: string) => Array.from(s.normalize('NFC'));

/** The text cut with an ellipsis to fit one line of `width` in the current font and size. */
export function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  const c = chars(text);
  let lo = 0;
  let hi = c.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (doc.widthOfString(`${c.slice(0, mid).join('').trimEnd()}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${c.slice(0, lo).join('').trimEnd()}…`;
}

/** The text cut with an ellipsis so that, wrapped at `width`, it takes at most `lines` lines. */
export function clampLines(doc: Doc, text: string, width: number, lines: number): string {
  const max = lines * doc.currentLineHeight(true) + 0.5;
  if (doc.heightOfString(text, { width }) <= max) return text;
  const c = chars(text);
  let lo = 0;
  let hi = c.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (doc.heightOfString(`${c.slice(0, mid).join('').trimEnd()}…`, { width }) <= max) lo = mid;
    else hi = mid - 1;
  }
  return `${c.slice(0, lo).join('').trimEnd()}…`;
}

/** One line at (x, y), cut to `width`, as a structure element of `type` under `parent`. The
 *  text position is left where it was: callers place lines explicitly. */
export function line(doc: Doc, parent: Struct | null, text: string, x: number, y: number, width: number, options: { align?: 'left' | 'right' | 'center'; type?: string; link?: string } = {}) {
  const [x0, y0] = [doc.x, doc.y];
  doc.text(fit(doc, text, width), x, y, {
    width,
    align: options.align ?? 'left',
    lineBreak: false,
    ...(options.link ? { link: options.link } : {}),
    ...(parent ? { structParent: parent, structType: options.type ?? 'P' } : {}),
  });
  doc.x = x0;
  doc.y = y0;
}

/** Moves to a new page unless `needed` points fit below the current position: a heading never
 *  sits at the foot of a page without the content that follows it. */
export function ensureSpace(doc: Doc, needed: number) {
  if (doc.y + needed > CONTENT_BOTTOM) {
    doc.addPage();
    doc.y = MARGIN;
  }
}

/** A rounded label (a band's name); returns its width. */
export function pill(doc: Doc, parent: Struct, text: string, x: number, y: number, colour: string, tint: string, size = 8.5) {
  doc.font('Semibold').fontSize(size);
  const w = doc.widthOfString(text) + 16;
  artifact(doc, () => doc.roundedRect(x, y, w, size + 9, (size + 9) / 2).fill(tint));
  doc.font('Semibold').fontSize(size).fillColor(colour);
  line(doc, parent, text, x + 8, y + 4.5, w - 14, { type: 'Span' });
  return w;
}

export interface Column {
  title: string;
  width: number;
  align?: 'left' | 'right';
}
export interface Row {
  cells: string[];
  bold?: boolean;
  /** Columns whose text is muted (e.g. "Not measured"). */
  muted?: number[];
}

const ROW = 17;
const PAD = 5;

/** A text cell wraps between words (a row grows to its tallest cell); a figure (a right-aligned
 *  column) stays on one line. */
const wraps = (c: Column) => c.align !== 'right';

/** The height of a row: its tallest wrapped cell, at least one line's row. */
function rowHeight(doc: Doc, columns: Column[], row: Row, fontSize: number) {
  doc.font(row.bold ? 'Bold' : 'Regular').fontSize(fontSize);
  let h = ROW;
  row.cells.forEach((cell, i) => {
    const c = columns[i]!;
    if (wraps(c) && cell) h = Math.max(h, doc.heightOfString(cell, { width: c.width - 2 * PAD }) + 2 * PAD - 1);
  });
  return Math.ceil(h);
}

/** The height a table needs where it starts: its header with the first rows, all of a short table
 *  (and `tail`, what follows it), else at least three rows. A heading above it keeps this much. */
export function tableOpening(doc: Doc, columns: Column[], rows: Row[], fontSize = 8, tail = 0) {
  const heights = rows.map((r) => rowHeight(doc, columns, r, fontSize));
  return ROW + (rows.length <= 4 ? heights.reduce((a, b) => a + b, 0) + tail : heights.slice(0, 3).reduce((a, b) => a + b, 0));
}

/** Rows a table keeps together at its end, with what follows it (`tail`). */
const LAST_ROWS = 3;

/** A table with a repeated header on each page. Its header and first rows start together (no
 *  header alone at a page's foot), its last rows end together with `tail` points of what follows
 *  it (a total row and its note never start a page alone), a row is never split across pages, and
 *  text cells wrap. */
export function table(doc: Doc, parent: Struct, columns: Column[], rows: Row[], fontSize = 8, tail = 0) {
  const heights = rows.map((r) => rowHeight(doc, columns, r, fontSize));
  const sum = (from: number, to = rows.length) => heights.slice(from, to).reduce((a, b) => a + b, 0);
  ensureSpace(doc, tableOpening(doc, columns, rows, fontSize, tail));
  const lastGroup = Math.max(1, rows.length - LAST_ROWS);
  const t = doc.struct('Table');
  parent.add(t);
  const header = () => {
    const y = doc.y;
    artifact(doc, () => doc.rect(MARGIN, y, CONTENT_WIDTH, ROW).fill('#f1f5f9'));
    const tr = doc.struct('TR');
    t.add(tr);
    doc.font('Semibold').fontSize(fontSize - 0.5).fillColor(INK3);
    let x = MARGIN;
    for (const c of columns) {
      line(doc, tr, c.title, x + 5, y + 5, c.width - 10, { align: c.align, type: 'TH' });
      x += c.width;
    }
    tr.end();
    doc.y = y + ROW;
  };
  header();
  rows.forEach((row, r) => {
    const h = heights[r]!;
    // The last rows go to the next page together when they and the tail do not fit on this one.
    const keepEnd = r === lastGroup && doc.y + sum(r) + tail > CONTENT_BOTTOM && MARGIN + ROW + sum(r) + tail <= CONTENT_BOTTOM;
    if (keepEnd || doc.y + h > CONTENT_BOTTOM) {
      doc.addPage();
      doc.y = MARGIN;
      header();
    }
    const y = doc.y;
    artifact(doc, () => {
      if (row.bold) doc.rect(MARGIN, y, CONTENT_WIDTH, h).fill('#eff6ff');
      doc.moveTo(MARGIN, y + h).lineTo(MARGIN + CONTENT_WIDTH, y + h).lineWidth(0.5).strokeColor(LINE).stroke();
    });
    const tr = doc.struct('TR');
    t.add(tr);
    let x = MARGIN;
    row.cells.forEach((cell, i) => {
      const c = columns[i]!;
      doc.font(row.bold ? 'Bold' : 'Regular').fontSize(fontSize).fillColor(row.muted?.includes(i) ? MUTED : INK);
      if (wraps(c) && cell) {
        doc.text(cell, x + PAD, y + PAD, { width: c.width - 2 * PAD, structParent: tr, structType: 'TD' });
        doc.x = MARGIN;
      } else line(doc, tr, cell, x + PAD, y + PAD, c.width - 2 * PAD, { align: c.align, type: 'TD' });
      x += c.width;
    });
    tr.end();
    doc.y = y + h;
  });
  t.end();
  doc.x = MARGIN;
}

export interface Bar {
  label: string;
  score: number | null;
  strong?: boolean;
}

/** The rows' heights of `bars`: a label wraps between its words, its row grows with it. */
export function barHeights(doc: Doc, items: Bar[], labelWidth: number, rowHeight = 16) {
  return items.map((item) => Math.max(rowHeight, Math.ceil(doc.font(item.strong ? 'Bold' : 'Regular').fontSize(8.5).heightOfString(item.label, { width: labelWidth })) + 5));
}

/** Horizontal 1-10 bars, one per row: label (wrapped), bar coloured by band, value. Returns the y
 *  under the last row. */
export function bars(doc: Doc, items: Bar[], x: number, y: number, width: number, labelWidth: number, rowHeight = 16) {
  const valueWidth = 70;
  const barX = x + labelWidth + 8;
  const barW = width - labelWidth - 8 - valueWidth;
  const heights = barHeights(doc, items, labelWidth, rowHeight);
  let top = y;
  items.forEach((item, i) => {
    if (i > 0) top += heights[i - 1]!;
    doc.font(item.strong ? 'Bold' : 'Regular').fontSize(8.5).fillColor(item.strong ? INK : INK2);
    doc.text(item.label, x, top + 2, { width: labelWidth });
    doc.roundedRect(barX, top + 3, barW, rowHeight - 7, 2).fill('#f1f5f9');
    for (const g of [2, 4, 6, 8]) doc.moveTo(barX + (barW * g) / 10, top + 2).lineTo(barX + (barW * g) / 10, top + rowHeight - 3).lineWidth(0.4).strokeColor('#e2e8f0').stroke();
    if (item.score !== null) doc.roundedRect(barX, top + 3, Math.max(3, (barW * item.score) / 10), rowHeight - 7, 2).fill(bandFill(item.score));
    if (item.strong) doc.roundedRect(barX - 1, top + 2, barW + 2, rowHeight - 5, 2).lineWidth(0.8).strokeColor(INK).stroke();
    doc.font(item.score === null ? 'Regular' : 'Bold').fontSize(item.score === null ? 7.5 : 8.5).fillColor(item.score === null ? NO_SCORE_COLOUR : INK);
    doc.text(item.score === null ? 'Not enough data' : item.score.toFixed(2), barX + barW + 6, top + 2, { width: valueWidth - 6, lineBreak: false });
  });
  doc.x = x;
  return y + heights.reduce((a, b) => a + b, 0);
}

export interface RadarSeries {
  name: string;
  values: Array<number | null>;
  stroke: string;
  fill: string;
  dash?: boolean;
}

/** The four-score radar: axes at top, right, bottom and left, rings at 2, 4, 6, 8 and 10. */
export function radar(doc: Doc, axes: string[], series: RadarSeries[], cx: number, cy: number, r: number) {
  const n = axes.length;
  const point = (i: number, v: number) => {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
    return [cx + Math.cos(a) * r * (v / 10), cy + Math.sin(a) * r * (v / 10)] as const;
  };
  const polygon = (values: number[]) => {
    values.forEach((v, i) => {
      const [px, py] = point(i, v);
      if (i === 0) doc.moveTo(px, py);
      else doc.lineTo(px, py);
    });
    doc.closePath();
  };
  for (const ring of [2, 4, 6, 8, 10]) {
    polygon(axes.map(() => ring));
    doc.lineWidth(ring === 10 ? 0.8 : 0.4).strokeColor(ring === 10 ? '#cbd5e1' : LINE).stroke();
  }
  axes.forEach((_, i) => {
    const [px, py] = point(i, 10);
    doc.moveTo(cx, cy).lineTo(px, py).lineWidth(0.4).strokeColor('#cbd5e1').stroke();
  });
  for (const s of series) {
    // A shape only through values that exist: an axis without a number is not drawn at 0.
    if (s.values.every((v) => v !== null)) {
      polygon(s.values.map((v) => v!));
      doc.fillOpacity(0.18).fill(s.fill).fillOpacity(1);
      polygon(s.values.map((v) => v!));
      if (s.dash) doc.dash(3, { space: 2 });
      doc.lineWidth(1.4).strokeColor(s.stroke).stroke();
      doc.undash();
    }
    s.values.forEach((v, i) => {
      if (v === null) return;
      const [px, py] = point(i, v);
      doc.circle(px, py, 2).fill(s.stroke);
    });
  }
  doc.font('Semibold').fontSize(8).fillColor(INK2);
  axes.forEach((label, i) => {
    const [px, py] = point(i, 10);
    const w = 96;
    if (i === 0) doc.text(label, px - w / 2, py - 12, { width: w, align: 'center', lineBreak: false });
    else if (i === n / 2) doc.text(label, px - w / 2, py + 4, { width: w, align: 'center', lineBreak: false });
    else if (px > cx) doc.text(label, px + 5, py - 4, { width: w / 1.6, lineBreak: true });
    else doc.text(label, px - 5 - w / 1.6, py - 4, { width: w / 1.6, align: 'right', lineBreak: true });
  });
}
