// White-label rendering: with an agency's branding (a non-default profile: its own name, logo and
// colours), the PDF's text layer names the agency on every page and never LocalRank, its pages are
// painted in the agency's colour, the score card carries the agency's colour and name, and the
// e-mail is sent under the agency's name with its Reply-To and footer. Sample data stays labelled.
import { inflateSync } from 'node:zlib';
import sharp from 'sharp';
import { getDocumentProxy, getMeta } from 'unpdf';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../api/env.ts';
import { reportEmail } from '../../api/email/report-email.ts';
import type { Branding } from '../../api/report/model/branding.ts';
import { pdfPagePng } from '../../api/report/render/pdf-page.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { renderScoreCard, scoreCardTree } from '../../api/report/render/score-card.ts';
import { OPERATOR } from '../../common/constants.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';

const LINKS = { methodologyUrl: 'https://localrank.example/methodology' };
let branding: Branding;
beforeAll(async () => {
  branding = {
    id: 'profile-b',
    companyName: 'Northstar for Dentists',
    logoPng: await sharp({ create: { width: 300, height: 100, channels: 3, background: '#7c3aed' } }).png().toBuffer(),
    logoUrl: 'https://app.example.com/api/branding/logos/x.png',
    primaryColor: '#0F766E',
    secondaryColor: '#3F1D38',
    accentColor: '#F59E0B',
    contactEmail: 'dentists@northstar.example',
    contactPhone: '(512) 555-0188',
    website: 'https://northstar.example',
    footerText: 'Northstar Marketing LLC · 500 Main St, Austin, TX 78701',
    poweredBy: false,
  };
});

const rgb = (hex: string) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

/** Every fill colour (`/DeviceRGB cs r g b scn`) set in the PDF's page content streams, as 0-255 triples. */
function fillColours(pdf: Buffer): number[][] {
  const raw = pdf.toString('latin1');
  const colours: number[][] = [];
  for (const m of raw.matchAll(/stream\r?\n/g)) {
    const start = m.index + m[0].length;
    const end = raw.indexOf('endstream', start);
    let text: string;
    try {
      text = inflateSync(pdf.subarray(start, end)).toString('latin1');
    } catch {
      continue;
    }
    for (const c of text.matchAll(/([\d.]+) ([\d.]+) ([\d.]+) scn/g)) colours.push([c[1], c[2], c[3]].map((v) => Math.round(Number(v) * 255)));
  }
  return colours;
}

async function pageTexts(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const out: string[] = [];
  for (let i = 1; i <= doc.numPages; i++) out.push(((await (await doc.getPage(i)).getTextContent()).items as Array<{ str: string }>).map((t) => t.str).join(' '));
  return { doc, pages: out };
}

describe('a PDF in a non-default branding profile', () => {
  it("names the agency on every page and never LocalRank, keeps the sample label, and paints the agency's colour", async () => {
    const pdf = await renderPdf(reportDataFixture({ sampleData: true }), LINKS, branding);
    const { doc, pages } = await pageTexts(pdf);
    expect(pages.length).toBeGreaterThan(5);
    for (const [i, text] of pages.entries()) {
      expect(text, `page ${i + 1}`).toContain('Northstar for Dentists');
      expect(text, `page ${i + 1}`).toContain('dentists@northstar.example');
      expect(text, `page ${i + 1}`).toContain('500 Main St, Austin, TX 78701');
      expect(text, `page ${i + 1}`).toContain('Example figures, not your real listings');
      expect(text, `page ${i + 1}`).not.toMatch(/LocalRank/i);
      expect(text, `page ${i + 1}`).not.toContain(OPERATOR.postalAddress);
    }
    const { info } = await getMeta(doc);
    expect(JSON.stringify(info)).not.toMatch(/LocalRank/i);
    expect(info.Author).toBe('Northstar for Dentists');
    const colours = fillColours(pdf);
    expect(colours).toContainEqual(rgb('#0F766E'));
    // Drawn, the top edge of the first page is the agency's colour.
    const page = await sharp(await pdfPagePng(pdf, 0, 1)).raw().toBuffer({ resolveWithObject: true });
    expect([...page.data.subarray(4 * (page.info.width * 2 + 300), 4 * (page.info.width * 2 + 300) + 3)]).toEqual(rgb('#0F766E'));
  });

  it('shows "Powered by LocalRank" only when the profile turns it on', async () => {
    const on = await pageTexts(await renderPdf(reportDataFixture(), LINKS, { ...branding, poweredBy: true }));
    for (const text of on.pages) expect(text).toContain('Powered by LocalRank');
    const off = await pageTexts(await renderPdf(reportDataFixture(), LINKS, branding));
    expect(off.pages.join(' ')).not.toContain('Powered by');
  });

  it('without a branding is ours, as before', async () => {
    const { pages } = await pageTexts(await renderPdf(reportDataFixture(), LINKS));
    for (const text of pages) expect(text).toContain('LocalRank');
    expect(fillColours(await renderPdf(reportDataFixture(), LINKS))).not.toContainEqual(rgb('#0F766E'));
  });
});

describe('a score card in a non-default branding profile', () => {
  it("carries the agency's name, logo and colour, not LocalRank", async () => {
    const data = reportDataFixture({ sampleData: true });
    const tree = JSON.stringify(scoreCardTree(data, branding));
    expect(tree).toContain('Northstar for Dentists');
    expect(tree).toContain('Example figures, not your real listings');
    expect(tree).not.toMatch(/LocalRank/i);
    expect(tree).toContain('data:image/png;base64,');
    const { data: pixels, info } = await sharp(await renderScoreCard(data, branding)).raw().toBuffer({ resolveWithObject: true });
    const at = (x: number, y: number) => [...pixels.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3)];
    expect(at(600, 4)).toEqual(rgb('#0F766E')); // the top band
    expect(at(100, 80)).toEqual(rgb('#7C3AED')); // inside the logo
  });
});

describe('the report e-mail in a branding profile', () => {
  it("is sent under the agency's name with its Reply-To and footer, and names LocalRank nowhere", async () => {
    const env = loadEnv({ NODE_ENV: 'test', PUBLIC_BASE_URL: 'https://app.example.com', MAIL_FROM: 'LocalRank <reports@localrank.app>' });
    const ctx = { env } as Parameters<typeof reportEmail>[0];
    const input = {
      to: 'dana@client.example',
      fullName: 'Dana Whitfield',
      data: reportDataFixture({ sampleData: true }),
      token: 'tok',
      reportUrl: 'https://app.example.com/report/tok',
      expiresAt: new Date('2026-12-24T00:00:00Z'),
      messageId: '<m@app.example.com>',
      scoreCard: Buffer.alloc(0),
      pdf: Buffer.alloc(0),
      kind: 'client' as const,
      replyTo: 'owner@agency.example',
      consultantName: 'Northstar Marketing',
    };
    const mail = reportEmail(ctx, { ...input, branding });
    expect(mail.from).toBe('"Northstar for Dentists" <reports@localrank.app>');
    expect(mail.replyTo).toBe('dentists@northstar.example');
    expect(mail.subject).toBe('Your report from Northstar for Dentists (example figures, not your real listings): Austin Family Dental ranks #9 of 10');
    for (const body of [String(mail.text), String(mail.html)]) {
      expect(body).toContain('Northstar Marketing LLC · 500 Main St, Austin, TX 78701');
      expect(body.toLowerCase()).toContain('example figures, not your real listings');
      expect(body).not.toContain(OPERATOR.postalAddress);
      expect(body).not.toMatch(/LocalRank/);
    }
    expect(String(mail.html)).toContain('border-top:6px solid #0F766E');
    expect(String(mail.html)).toContain('src="https://app.example.com/api/branding/logos/x.png"');
    expect((mail.attachments as Array<{ filename?: string }>)[1]!.filename).toBe('austin-family-dental-report-example-figures.pdf');
    // Without a contact address on the profile, replies reach the consultant.
    expect(reportEmail(ctx, { ...input, branding: { ...branding, contactEmail: null } }).replyTo).toBe('owner@agency.example');
    // Not white-label: our sender and postal address, the consultant named in the wording.
    const plain = reportEmail(ctx, { ...input, branding: null });
    expect(plain.from).toBe('LocalRank <reports@localrank.app>');
    expect(String(plain.text)).toContain(OPERATOR.postalAddress);
    expect(String(plain.text)).toContain('Northstar Marketing has prepared your report');
  });
});
