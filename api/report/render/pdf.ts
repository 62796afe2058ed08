// The PDF report (pdfkit, US Letter, Inter embedded so the text is selectable and searchable):
// scores, rank, competitor table, recommendations, every data point, notes, the method in short,
// and the sample-data notice when the sample provider made it.
import PDFDocument from 'pdfkit';
import { OPERATOR, PRODUCT_NAME } from '../../../common/constants.ts';
import type { AnalysedPlace, ReportData } from '../types.ts';
import { interFont } from './fonts.ts';
import { bandColour, fmtDate, fmtScore, fmtValue, marketSize, METHODOLOGY_SUMMARY, ranked, SAMPLE_DATA_NOTICE, SCORE_KEYS, SCORE_LABELS } from './labels.ts';

const INK = '#0f172a';
const INK3 = '#475569';
const LINE = '#e2e8f0';
const BRAND = '#3B82F6';
const MARGIN = 50;

type Doc = PDFKit.PDFDocument;

function heading(doc: Doc, text: string) {
  if (doc.y > doc.page.height - 140) doc.addPage();
  doc.moveDown(0.8).font('Bold').fontSize(15).fillColor(INK).text(text, MARGIN);
  const y = doc.y + 3;
  doc.moveTo(MARGIN, y).lineTo(doc.page.width - MARGIN, y).lineWidth(1).strokeColor(LINE).stroke();
  doc.y = y + 8;
}

function sampleBanner(doc: Doc) {
  const width = doc.page.width - MARGIN * 2;
  const y = doc.y;
  doc.roundedRect(MARGIN, y, width, 34, 6).fillAndStroke('#fffbeb', '#fcd34d');
  doc.font('Semibold').fontSize(10).fillColor('#92400e').text(SAMPLE_DATA_NOTICE, MARGIN + 12, y + 11, { width: width - 24 });
  doc.y = y + 46;
}

function scoreBars(doc: Doc, place: AnalysedPlace, x: number, y: number, width: number) {
  let top = y;
  for (const key of SCORE_KEYS) {
    const score = place.scores[key];
    doc.font('Regular').fontSize(10).fillColor(INK3).text(SCORE_LABELS[key], x, top, { width: width - 50 });
    doc.font('Bold').fontSize(10).fillColor(INK).text(fmtScore(score), x + width - 50, top, { width: 50, align: 'right' });
    doc.roundedRect(x, top + 15, width, 6, 3).fill(LINE);
    if (score !== null) doc.roundedRect(x, top + 15, Math.max(6, (width * Math.min(100, score * 10)) / 100), 6, 3).fill(bandColour(score));
    top += 34;
  }
  doc.font('Regular').fontSize(9).fillColor(INK3).text(`Market share: ${place.scores.marketSharePercent.toFixed(2)}% of local reviews`, x, top);
}

function summary(doc: Doc, data: ReportData) {
  const b = data.business;
  const y = doc.y + 4;
  doc.roundedRect(MARGIN, y, 160, 150, 10).fillAndStroke('#f8fafc', LINE);
  doc.font('Regular').fontSize(10).fillColor(INK3).text('Overall score', MARGIN, y + 18, { width: 160, align: 'center' });
  doc.font('Bold').fontSize(40).fillColor(bandColour(b.scores.overall)).text(fmtScore(b.scores.overall), MARGIN, y + 36, { width: 160, align: 'center' });
  doc.font('Regular').fontSize(10).fillColor(INK3).text('out of 10', MARGIN, y + 86, { width: 160, align: 'center' });
  doc.font('Bold').fontSize(14).fillColor(INK).text(`Rank #${b.rank} of ${marketSize(data)}`, MARGIN, y + 110, { width: 160, align: 'center' });
  scoreBars(doc, b, MARGIN + 190, y + 6, doc.page.width - MARGIN * 2 - 190);
  doc.y = y + 168;
  doc.x = MARGIN;
}

function table(doc: Doc, columns: Array<{ title: string; width: number; align?: 'left' | 'right' }>, rows: Array<{ cells: string[]; bold?: boolean }>) {
  const rowHeight = 18;
  const header = () => {
    let x = MARGIN;
    const y = doc.y;
    doc.rect(MARGIN, y, doc.page.width - MARGIN * 2, rowHeight).fill('#f1f5f9');
    doc.font('Semibold').fontSize(8.5).fillColor(INK3);
    for (const c of columns) {
      doc.text(c.title, x + 4, y + 5, { width: c.width - 8, align: c.align ?? 'left', lineBreak: false, ellipsis: true });
      x += c.width;
    }
    doc.y = y + rowHeight;
  };
  header();
  for (const row of rows) {
    if (doc.y + rowHeight > doc.page.height - MARGIN - 30) {
      doc.addPage();
      header();
    }
    let x = MARGIN;
    const y = doc.y;
    if (row.bold) doc.rect(MARGIN, y, doc.page.width - MARGIN * 2, rowHeight).fill('#eff6ff');
    doc.font(row.bold ? 'Bold' : 'Regular').fontSize(8.5).fillColor(INK);
    row.cells.forEach((cell, i) => {
      const c = columns[i]!;
      doc.text(cell, x + 4, y + 5, { width: c.width - 8, align: c.align ?? 'left', lineBreak: false, ellipsis: true });
      x += c.width;
    });
    doc.moveTo(MARGIN, y + rowHeight).lineTo(doc.page.width - MARGIN, y + rowHeight).lineWidth(0.5).strokeColor(LINE).stroke();
    doc.y = y + rowHeight;
  }
  doc.x = MARGIN;
}

function competitorTable(doc: Doc, data: ReportData) {
  table(
    doc,
    [
      { title: 'Rank', width: 34 },
      { title: 'Business', width: 140 },
      { title: 'Miles', width: 38, align: 'right' },
      { title: 'Rating', width: 40, align: 'right' },
      { title: 'Count', width: 44, align: 'right' },
      { title: 'Reviews', width: 50, align: 'right' },
      { title: 'Digital', width: 40, align: 'right' },
      { title: 'Engage', width: 42, align: 'right' },
      { title: 'Share', width: 40, align: 'right' },
      { title: 'Overall', width: 40, align: 'right' },
    ],
    ranked(data).map((p) => ({
      bold: p.isMainBusiness,
      cells: [
        `#${p.rank}`,
        p.isMainBusiness ? `${p.place.name} (you)` : p.place.name,
        p.isMainBusiness ? '0.00' : p.place.distanceMiles.toFixed(2),
        p.place.rating === null ? 'n/a' : p.place.rating.toFixed(1),
        p.place.reviewCount === null ? 'n/a' : String(p.place.reviewCount),
        fmtScore(p.scores.reviews),
        fmtScore(p.scores.digitalPresence),
        fmtScore(p.scores.engagement),
        fmtScore(p.scores.marketShare),
        fmtScore(p.scores.overall),
      ],
    })),
  );
  doc.moveDown(0.4).font('Regular').fontSize(8).fillColor(INK3).text('Score columns: Online Reviews, Digital Presence, Customer Engagement, Market Share, Overall (each 1-10). Rating and Count are the listing’s star rating and number of reviews.', MARGIN);
}

function recommendations(doc: Doc, data: ReportData) {
  data.recommendations.forEach((r, i) => {
    if (doc.y > doc.page.height - 110) doc.addPage();
    doc.font('Bold').fontSize(11).fillColor(INK).text(`${i + 1}. ${r.title}`, MARGIN);
    doc.font('Regular').fontSize(9.5).fillColor(INK3).text(`${r.detail} Could add ${r.gain.toFixed(2)} points to ${SCORE_LABELS[r.score]}.`, MARGIN + 14);
    doc.moveDown(0.5);
  });
}

function dataPoints(doc: Doc, place: AnalysedPlace) {
  table(
    doc,
    [
      { title: '#', width: 28 },
      { title: 'Data point', width: 230 },
      { title: 'Value', width: 130, align: 'right' },
      { title: 'Feeds', width: 124 },
    ],
    place.dataPoints.map((p, i) => ({ cells: [String(i + 1), p.label, fmtValue(p), p.score ? SCORE_LABELS[p.score] : 'Shown, not scored'] })),
  );
}

function footers(doc: Doc) {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - 36;
    doc.font('Regular').fontSize(7.5).fillColor('#64748b');
    doc.text(`${OPERATOR.legalName} · ${OPERATOR.postalAddress}`, MARGIN, y, { width: 400, lineBreak: false, height: 10 });
    doc.text(`Page ${i + 1} of ${range.count}`, doc.page.width - MARGIN - 100, y, { width: 100, align: 'right', lineBreak: false, height: 10 });
  }
}

export async function renderPdf(data: ReportData): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'LETTER',
    margins: { top: MARGIN, bottom: MARGIN, left: MARGIN, right: MARGIN },
    bufferPages: true,
    info: { Title: `${PRODUCT_NAME} report: ${data.business.place.name}`, Author: PRODUCT_NAME, CreationDate: new Date(data.generatedAt) },
  });
  doc.registerFont('Regular', interFont(400));
  doc.registerFont('Semibold', interFont(600));
  doc.registerFont('Bold', interFont(700));
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const b = data.business;
  doc.rect(MARGIN, MARGIN, 18, 18).fill(BRAND);
  doc.font('Bold').fontSize(13).fillColor('#1F2937').text(PRODUCT_NAME, MARGIN + 26, MARGIN + 2);
  doc.font('Regular').fontSize(9).fillColor(INK3).text(`Report of ${fmtDate(data.generatedAt)}`, MARGIN, MARGIN + 4, { align: 'right' });
  doc.y = MARGIN + 36;
  doc.font('Bold').fontSize(22).fillColor(INK).text(b.place.name, MARGIN);
  doc.font('Regular').fontSize(10).fillColor(INK3).text([b.place.address, `${data.category} · ranked against the top ${data.competitors.length} competitors within ${data.radiusMiles} miles`].filter(Boolean).join('\n'));
  doc.moveDown(0.8);
  if (data.sampleData) sampleBanner(doc);
  summary(doc, data);

  heading(doc, 'Competitor comparison');
  competitorTable(doc, data);
  heading(doc, 'Recommendations');
  recommendations(doc, data);
  heading(doc, `Every data point for ${b.place.name} (${b.dataPoints.length})`);
  dataPoints(doc, b);
  if (data.notes.length > 0) {
    heading(doc, 'Notes on the data');
    // Bullets with a hanging indent: a wrapped note's lines start under its text, not under the bullet.
    for (const note of data.notes) {
      const y = doc.y;
      doc.font('Regular').fontSize(9.5).fillColor(INK3).text('•', MARGIN, y);
      doc.text(note, MARGIN + 10, y, { width: doc.page.width - 2 * MARGIN - 10 });
    }
  }
  heading(doc, 'How we score, in short');
  for (const line of METHODOLOGY_SUMMARY) doc.font('Regular').fontSize(9.5).fillColor(INK3).text(line, MARGIN).moveDown(0.3);
  doc.font('Regular').fontSize(9.5).fillColor(INK3).text(`Data source: ${data.sampleData ? 'sample provider (offline, generated)' : data.provider}. Location from ${data.location.source === 'zip' ? 'the ZIP code' : data.location.source === 'city' ? 'the city (the ZIP code was not found)' : 'an online geocoder'}.`, MARGIN);
  footers(doc);
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
