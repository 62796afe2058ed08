// A renderer for the tests whose subject is not rendering: a real, valid one-page PDF and a real
// PNG, made in microseconds instead of the few hundred milliseconds of CPU (and the fonts' load)
// the production renderer takes. The real renderer stays covered by the render tier
// (tests/unit/render*.test.ts, report-scripts, pdf-pagination) and by the browser tests' server;
// a test that reads the PDF's text or the card's pixels passes `inlineRenderer()` instead.
import { deflateSync } from 'node:zlib';
import type { Renderer } from '../../api/report/render/renderer.ts';

/** A PDF of one empty page whose title names the business, with a correct cross-reference table. */
export function tinyPdf(title: string): Buffer {
  const escaped = title.replace(/[^\x20-\x7e]/g, '?').replace(/[()\\]/g, '\\$&');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
    `<< /Title (${escaped}) /Producer (light test renderer) >>`,
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R /Info 4 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes: Buffer) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};
function chunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid PNG of the score card's size (1200×630), one flat colour. */
export function flatPng(width = 1200, height = 630): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB
  const row = Buffer.alloc(1 + width * 3, 0xf4);
  row[0] = 0;
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), chunk('IHDR', header), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

export function lightRenderer(): Renderer {
  const png = flatPng();
  return {
    kind: 'inline',
    async render(data, _links, _branding, options = {}) {
      return { png, pdf: tinyPdf(data.business.place.name), pngMs: 0, pdfMs: 0, ...(options.firstPagePng ? { pagePng: png } : {}) };
    },
    close: async () => {},
  };
}
