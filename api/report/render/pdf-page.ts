// A PDF page as a PNG, drawn by PDFium (WebAssembly, no native build): the branding preview
// shows the first page of the real PDF the production renderer made, not an imitation of it.
import { PDFiumLibrary } from '@hyzyla/pdfium';
import sharp from 'sharp';

let library: Promise<PDFiumLibrary> | undefined;

export async function pdfPagePng(pdf: Buffer, pageIndex = 0, scale = 1.5): Promise<Buffer> {
  const lib = await (library ??= PDFiumLibrary.init());
  const doc = await lib.loadDocument(new Uint8Array(pdf));
  try {
    const image = await doc.getPage(pageIndex).render({ scale, render: 'bitmap' });
    return await sharp(Buffer.from(image.data), { raw: { width: image.width, height: image.height, channels: 4 } })
      .png({ compressionLevel: 6 })
      .toBuffer();
  } finally {
    doc.destroy();
  }
}
