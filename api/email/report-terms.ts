// The abbreviations and units the report e-mail may print, each with what it means (issue 40):
// the e-mail explains those its own text uses, and only those. The online report and the PDF
// explain the same terms beside their grid and tables.
import { GRID_DEPTH, TOP_RANKS } from '../../common/visibility-bands.ts';
import { NOT_FOUND_RANK } from '../report/analysis/visibility.ts';

const TERMS: Array<{ used: RegExp; meaning: string }> = [
  { used: /Share of Local Voice|\bSoLV\b/, meaning: `Share of Local Voice (SoLV): the share of the grid's points where a local search made from that point lists you in the top ${TOP_RANKS}, the local pack.` },
  { used: /\bARP\b/, meaning: `ARP, Average Rank Position: your average position in those searches, over the points where you appear in the top ${GRID_DEPTH}.` },
  { used: /\bATRP\b/, meaning: `ATRP, Average Total Rank Position: your average position over every point, "not in the top ${GRID_DEPTH}" counted as ${NOT_FOUND_RANK}. For both, lower is better.` },
  { used: /score per word/, meaning: 'Average sentiment, in score per word: each word of your reviews is scored from -5 (most negative) to +5 (most positive), most words 0; the total is divided by the number of words, so above 0 leans positive.' },
];

/** What each term that `text` uses means, in the order above. */
export function termsUsed(text: string): string[] {
  return TERMS.filter((t) => t.used.test(text)).map((t) => t.meaning);
}
