// Missing is never a number: a report where nothing could be measured renders on every surface
// (PDF text, e-mail text and HTML, score card, `npm run report` lines) with no score figure, no
// rank, no share; an unlisted business says so on page 1 and in the e-mail; a Yelp market says
// which scores its overall compares, with their weights.
import { extractText, getDocumentProxy } from 'unpdf';
import { describe, expect, it } from 'vitest';
import { reportEmail } from '../../api/email/report-email.ts';
import { loadEnv } from '../../api/env.ts';
import { NOT_ENOUGH_DATA } from '../../api/report/words/labels.ts';
import { renderPdf } from '../../api/report/render/pdf.ts';
import { scoreCardTree } from '../../api/report/render/score-card.ts';
import { findings, reportLines } from '../../api/report/render/summary.ts';
import type { ReportData, ScoreKey } from '../../api/report/model/types.ts';
import { reportDataFixture } from '../fixtures/report-data.ts';

const LINKS = { methodologyUrl: 'https://localrank.example/methodology' };
const KEYS: ScoreKey[] = ['reviews', 'digitalPresence', 'engagement', 'marketShare'];

/** Nothing measured, for the business and every competitor. */
function allMissing(): ReportData {
  const data = reportDataFixture({ sampleData: false });
  for (const p of [data.business, ...data.competitors]) {
    p.scores = { reviews: null, digitalPresence: null, engagement: null, marketShare: null, overall: null, marketSharePercent: null };
    p.rank = 1 + data.competitors.length;
    for (const d of p.dataPoints) Object.assign(d, { value: null, status: 'unknown' });
    for (const k of KEYS) p.breakdown[k] = { score: null, measuredWeight: 0, totalWeight: p.breakdown[k].totalWeight, coverage: 0, parts: p.breakdown[k].parts.map((part) => ({ ...part, raw: 'Unknown', normalised: null, contribution: null, status: 'unknown' as const })) };
    p.place.rating = null;
    p.place.reviewCount = null;
  }
  data.recommendations = [];
  data.notes = ['Too little could be measured for most businesses to give an overall score or a rank.'];
  return data;
}

const email = (data: ReportData) => {
  const ctx = { env: loadEnv({ NODE_ENV: 'test', PUBLIC_BASE_URL: 'https://app.example.com' }) } as Parameters<typeof reportEmail>[0];
  return reportEmail(ctx, { data, to: 'owner@example.com', fullName: 'Dana Lee', token: 't', reportUrl: 'https://app.example.com/report/t', expiresAt: new Date('2026-12-24T00:00:00Z'), messageId: '<m@app.example.com>', scoreCard: Buffer.alloc(0), pdf: Buffer.alloc(0) });
};
const pdfText = async (data: ReportData, pages?: number) => {
  const doc = await getDocumentProxy(new Uint8Array(await renderPdf(data, LINKS)));
  const { text } = await extractText(doc, { mergePages: false });
  return (pages ? text.slice(0, pages) : text).join(' ').replace(/\s+/g, ' ');
};
const treeText = (node: unknown): string => {
  if (typeof node === 'string') return node;
  if (!node || typeof node !== 'object') return '';
  const children = (node as { props?: { children?: unknown } }).props?.children;
  return Array.isArray(children) ? children.map(treeText).join(' ') : treeText(children);
};

/** A score, a rank or a share written as a number. */
const INVENTED = [/\d+\.\d{2}/, /#\d+ of/, /\d+(\.\d+)?% of the reviews/, /Rank #/, /6\.10/];

describe('an all-missing report', () => {
  const data = allMissing();
  it.each([
    ['PDF text', () => pdfText(data)],
    ['e-mail text', async () => String(email(data).text)],
    ['e-mail HTML', async () => String(email(data).html).replace(/<[^>]+>/g, ' ')],
    ['score card', async () => treeText(scoreCardTree(data))],
    ['npm run report', async () => reportLines(data).join('\n')],
  ])('%s shows no score figure, rank or share', async (_, render) => {
    const text = String(await render());
    // What is a number and may be: the bands' ranges ("7.5-8.49"), distances (the Miles column,
    // before the rating "n/a", or with their unit), dates.
    const rest = text
      .replace(/\d+(\.\d+)?-\d+(\.\d+)?/g, '')
      .replace(/\d+\.\d{2}(?= (n\/a|N\/A|mi\b|miles\b))/g, '')
      .replace(/\d+\.\d{2}(?= +(Not given|None listed|Works|Did not answer|Listed))/g, '');
    for (const pattern of INVENTED) expect(rest.match(new RegExp(`.{0,60}${pattern.source}.{0,30}`, 'g')) ?? [], String(pattern)).toEqual([]);
    expect(text).toContain(NOT_ENOUGH_DATA);
  });
});

describe('page 1 and the e-mail', () => {
  it('say an unlisted business was not found, and put "Create or claim your listing" first', async () => {
    const data = reportDataFixture({ sampleData: false });
    data.provider = 'google';
    const found = data.business.dataPoints.find((p) => p.key === 'listing.found') ?? (data.business.dataPoints.push({ key: 'listing.found', label: 'Business found on the listing source', value: false, unit: 'yes/no', score: 'digitalPresence', status: 'measured' }), data.business.dataPoints.at(-1)!);
    Object.assign(found, { value: false, status: 'measured' });
    data.recommendations.unshift({ lever: 'listing.claim', title: 'Create or claim your listing', detail: 'Your business was not found on Google Places.', score: 'digitalPresence', gain: 1.2, evidence: ['listing.found'] });
    const page1 = await pdfText(data, 1);
    expect(page1).toMatch(/was not found on Google Places/);
    const mail = email(data);
    expect(mail.text).toMatch(/was not found on Google Places/);
    expect(mail.html).toMatch(/was not found on Google Places/);
    expect(mail.text).toMatch(/Where to start:\n1\. Create or claim your listing/);
  });

  it('state the overall\'s weights, and in a Yelp market which two scores it compares', async () => {
    const data = reportDataFixture({ sampleData: false });
    data.provider = 'google';
    expect(findings(data).join(' ')).toContain('The overall score weighs Online Reviews 30%, Digital Presence 25%, Customer Engagement 20%, Market Share 25%.');
    data.provider = 'yelp';
    for (const c of data.competitors) Object.assign(c.scores, { digitalPresence: null, engagement: null });
    const line = 'The overall score compares Online Reviews (54.55%) and Market Share (45.45%) only: Digital Presence and Customer Engagement could not be measured for most businesses because Yelp does not give the businesses\' websites';
    expect(await pdfText(data, 1)).toContain(line);
    expect(email(data).text).toContain(line);
    expect(reportLines(data).join('\n')).toContain(line);
  });
});
