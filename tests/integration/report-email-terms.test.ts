// The report e-mail explains the abbreviations and units it prints (issue 40): where its text or
// HTML says ARP, ATRP or SoLV, or a value in "score per word", it also says what each one is; an
// e-mail that prints none of them has no such list. Made from the real analysis on the sample
// provider, whose reports have the visibility grid.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportEmail } from '../../api/email/report-email.ts';
import type { ReportData } from '../../api/report/model/types.ts';
import { startSampleAnalysis, type SampleAnalysis } from '../helpers/sample-analysis.ts';

let analysis: SampleAnalysis;
let data: ReportData;

beforeAll(async () => {
  analysis = await startSampleAnalysis();
  data = await analysis.analyse();
}, 60_000);

afterAll(() => analysis?.close());

const mail = (d: ReportData) => reportEmail(analysis.t.ctx, { data: d, to: 'owner@example.com', fullName: 'Dana Lee', token: 't', reportUrl: 'https://app.example.com/report/t', expiresAt: new Date('2026-12-24T00:00:00Z'), messageId: '<m@app.example.com>', scoreCard: Buffer.alloc(0), pdf: Buffer.alloc(0) });
const plain = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&').replace(/\s+/g, ' ');

describe('the report e-mail', () => {
  it('says what ARP, ATRP and the Share of Local Voice are where it prints them', () => {
    const m = mail(data);
    for (const body of [String(m.text), plain(String(m.html))]) {
      expect(body).toMatch(/\bARP \d/);
      expect(body).toContain('ARP, Average Rank Position: your average position in those searches, over the points where you appear in the top 20.');
      expect(body).toContain('ATRP, Average Total Rank Position: your average position over every point, "not in the top 20" counted as 21.');
      expect(body).toContain('Share of Local Voice (SoLV): the share of the grid\'s points where a local search made from that point lists you in the top 3');
    }
  });

  it('says what "score per word" is when a recommendation quotes it', () => {
    const d = structuredClone(data);
    d.recommendations.unshift({ title: 'Improve what customers write about', detail: 'The tone of your reviews is cooler than the market. (Average sentiment: 0.34 score per word.)', score: 'reviews', gain: 2, lever: 'reviews.sentiment', evidence: ['reviews.sentiment_average'] });
    const m = mail(d);
    for (const body of [String(m.text), plain(String(m.html))]) {
      expect(body).toContain('0.34 score per word');
      expect(body).toContain('Average sentiment, in score per word: each word of your reviews is scored from -5 (most negative) to +5 (most positive)');
    }
  });

  it('has no list of abbreviations when it prints none', () => {
    const d = structuredClone(data);
    delete d.visibility;
    d.recommendations = d.recommendations.filter((r) => !/Share of Local Voice|SoLV|ARP|score per word/.test(`${r.title} ${r.detail}`));
    const m = mail(d);
    expect(String(m.text)).not.toMatch(/\bARP\b/);
    expect(String(m.text)).not.toContain('What the abbreviations mean');
    expect(String(m.html)).not.toContain('What the abbreviations mean');
  });
});
