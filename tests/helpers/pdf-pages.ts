// What each page of a PDF holds, measured on the page as drawn (issue 40): how full it is (the
// lowest inked row of PDFium's rendering, between the top margin and the footer), its text items
// with their size and position (pdf.js), and the text cut short with an ellipsis.
import { PDFiumLibrary } from '@hyzyla/pdfium';
import { getDocumentProxy } from 'unpdf';
import { CONTENT_BOTTOM, MARGIN, PAGE } from '../../api/report/render/pdf-draw.ts';

export interface PdfPage {
  number: number;
  /** The share of the content area, top margin to footer, that the page uses down to its lowest ink. */
  fill: number;
  items: Array<{ str: string; size: number; top: number; bottom: number }>;
  /** Text items anywhere on the page (its footer too) that end in an ellipsis. */
  cut: string[];
}

let library: Promise<PDFiumLibrary> | undefined;

export async function pdfPages(pdf: Buffer): Promise<PdfPage[]> {
  const lib = await (library ??= PDFiumLibrary.init());
  const raster = await lib.loadDocument(new Uint8Array(pdf));
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const out: PdfPage[] = [];
  try {
    for (let i = 0; i < doc.numPages; i++) {
      const image = await raster.getPage(i).render({ scale: 1, render: 'bitmap' });
      const { width, height, data } = image;
      const scale = height / PAGE.height;
      // The lowest row with ink above the footer (the footer's rule sits below CONTENT_BOTTOM).
      let lowest = MARGIN;
      for (let y = Math.floor((CONTENT_BOTTOM + 2) * scale); y >= MARGIN * scale; y--) {
        let ink = false;
        for (let x = 0; x < width && !ink; x++) {
          const o = (y * width + x) * 4;
          if (data[o]! < 235 || data[o + 1]! < 235 || data[o + 2]! < 235) ink = true;
        }
        if (ink) {
          lowest = y / scale;
          break;
        }
      }
      const content = await (await doc.getPage(i + 1)).getTextContent();
      const all = (content.items as Array<{ str: string; transform: number[]; height: number }>)
        .filter((t) => t.str.trim())
        .map((t) => ({ str: t.str, size: t.height, bottom: PAGE.height - t.transform[5]!, top: PAGE.height - t.transform[5]! - t.height }));
      // The page's content, without the header's label and the footer; cut text anywhere on it.
      const items = all.filter((t) => t.top >= MARGIN - 4 && t.bottom <= CONTENT_BOTTOM + 4);
      out.push({ number: i + 1, fill: Math.min(1, Math.max(0, (lowest - MARGIN) / (CONTENT_BOTTOM - MARGIN))), items, cut: all.filter((t) => /…\s*$/.test(t.str)).map((t) => t.str) });
    }
  } finally {
    raster.destroy();
  }
  return out;
}
