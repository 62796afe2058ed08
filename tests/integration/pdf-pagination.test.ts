// The PDF without gaps (issue 40), checked on every page of several reports as drawn: the real
// analysis on the sample provider (its sample sites served by the app under test), a market of
// many competitors with long names in several scripts, a market of two, and a white-label one.
// - no page but the last is under a third full (measured on PDFium's rendering);
// - no heading ends a page: every heading has body text under it on its page;
// - no text is cut short with an ellipsis: what does not fit its column wraps.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analyseBusiness } from '../../api/report/analyse.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import type { ReportData } from '../../api/report/types.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';
import { createTestContext, type TestContext } from '../helpers/context.ts';
import { pdfPages, type PdfPage } from '../helpers/pdf-pages.ts';

const LINKS = { methodologyUrl: 'https://localrank.example/methodology' };
const LONG = 'Oberhausen-Wetherington Comprehensive Family and Cosmetic Dentistry of Greater Austin';
const NAMES = ['Стоматологическая клиника «Улыбка» на Конгресс-авеню', 'Nha Khoa Gia Đình Sài Gòn Austin và Cộng Sự', 'Saint-Jean-Baptiste Orthodontics & Pediatric Dentistry Associates', 'Οδοντιατρική Κλινική Αυστίν', 'Łódź Café Dental'];
/** A heading: 11 pt or larger (body text is 10 pt or smaller). */
const HEADING = 10.9;

let t: TestContext;
let server: Server;
let handler: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => void res.end();
let sample: ReportData;

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  t = await createTestContext({ PUBLIC_BASE_URL: base });
  handler = getRequestListener(t.app.fetch);
  sample = await analyseBusiness(t.ctx, { businessId: 'b-pdf', fullName: 'Dana Example', email: 'dana@example.com', company: 'Barton Springs Dental', website: '', address: '100 Congress Ave', city: 'Austin', state: 'TX', zip: '78701' });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await new Promise((resolve) => server?.close(resolve));
});

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

/** What is wrong with the pages: near-empty ones, headings that end one, text cut short. */
function problems(pages: PdfPage[]): string[] {
  const out: string[] = [];
  pages.forEach((p, i) => {
    const last = i === pages.length - 1;
    if (!last && p.fill < 1 / 3) out.push(`page ${p.number} is ${Math.round(p.fill * 100)}% full: ${p.items.map((x) => x.str).join(' ').slice(0, 80)}`);
    for (const h of p.items.filter((x) => x.size >= HEADING)) {
      const below = p.items.filter((x) => x.top >= h.bottom - 1 && x.size < HEADING);
      if (below.length === 0) out.push(`page ${p.number} ends with the heading "${h.str}"`);
    }
    for (const c of p.cut) out.push(`page ${p.number} cuts "${c}"`);
  });
  return out;
}

const CASES: Array<[string, () => ReportData]> = [
  ['the sample analysis', () => sample],
  ['the sample analysis with long names in several scripts', longSample],
  ['nine competitors with long names', many],
  ['two competitors', few],
];

describe('PDF pagination', () => {
  for (const [name, make] of CASES) {
    it(`${name}: no near-empty page, no heading alone at a page's end, no cut text`, async () => {
      const pages = await pdfPages(await renderPdf(make(), LINKS));
      const fills = pages.map((p) => Math.round(p.fill * 100));
      console.log(`${name}: ${pages.length} pages, fill % ${fills.join(' ')}; least full but the last ${Math.min(...fills.slice(0, -1))}%; cut ${pages.reduce((n, p) => n + p.cut.length, 0)}`);
      expect(problems(pages)).toEqual([]);
    }, 60_000);
  }
});
