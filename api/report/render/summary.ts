// The report's executive summary in plain sentences, shared by the PDF and the online report.
import { shareBase } from '../analysis/scoring.ts';
import type { AnalysedPlace, ReportData, ScoreKey } from '../model/types.ts';
import { breakdownOf, coverageText } from './breakdown.ts';
import { bandLabel, branchesText, rowName, fmtScore, hasMarket, marketOn, marketSize, NO_MARKET, noMarketText, NOT_ENOUGH_DATA, notFoundText, overallWeightsText, ranked, rankNo, rankOf, SCORE_KEYS, SCORE_LABELS, scoreText } from '../words/labels.ts';
import { fmtSolv, solvCell, visibilityLine, visibilityView } from '../words/visibility.ts';
import { websiteSentence, websiteStatus } from '../words/website-state.ts';

export function findings(data: ReportData): string[] {
  const b = data.business;
  const o = marketOn(data, 'overall');
  const out: string[] = [];
  const notFound = notFoundText(data);
  if (notFound) out.push(notFound);
  const noMarket = noMarketText(data);
  if (noMarket) out.push(noMarket);
  // How the website was met, when not read in full (decision 0217).
  const site = websiteSentence(b);
  if (site) out.push(site);
  out.push(
    o.you === null
      ? `Too little of your business could be measured for an overall score; the sections below say which data is missing.`
      : noMarket
        ? `Your overall score is ${o.you.toFixed(2)}${headToHead(data, o.you)}.`
        : `You rank #${b.rank} of ${marketSize(data)} with an overall ${o.you.toFixed(2)}. The market median is ${o.median?.toFixed(2) ?? 'not known'}${o.leader && !o.leader.isYou ? `, and the leader, ${o.leader.name}, has ${o.leader.score.toFixed(2)}` : ', and you lead the market'}.`,
  );
  const brands = branchesText(data);
  if (brands) out.push(brands);
  const scored = SCORE_KEYS.map((k) => ({ k, s: b.scores[k] as number | null })).filter((x): x is { k: ScoreKey; s: number } => x.s !== null);
  const best = scored.length ? scored.reduce((a, x) => (x.s > a.s ? x : a)) : null;
  const worst = scored.length ? scored.reduce((a, x) => (x.s < a.s ? x : a)) : null;
  if (best && worst && best.s > worst.s) {
    out.push(`Your strongest score is ${SCORE_LABELS[best.k]} (${best.s.toFixed(2)}, ${bandLabel(best.s)}); the most room to grow is in ${SCORE_LABELS[worst.k]} (${worst.s.toFixed(2)}, ${bandLabel(worst.s)}).`);
  }
  const unscored = SCORE_KEYS.filter((k) => b.scores[k] === null && !(k === 'marketShare' && noMarket));
  if (unscored.length) out.push(`${unscored.map((k) => SCORE_LABELS[k]).join(' and ')}: not enough data to score (${unscored.map((k) => coverageText(breakdownOf(b, k))).join('; ')}).`);
  const first = data.recommendations[0];
  if (first) out.push(`The biggest single gain: ${first.title.replace(/\.$/, '')} (up to +${first.gain.toFixed(2)} on ${SCORE_LABELS[first.score]}).`);
  const behind = (noMarket ? [] : SCORE_KEYS).filter((k) => {
    const m = marketOn(data, k);
    return m.you !== null && m.median !== null && m.you < m.median;
  });
  const level = (noMarket ? [] : SCORE_KEYS).filter((k) => !behind.includes(k) && marketOn(data, k).you !== null && marketOn(data, k).median !== null);
  if (behind.length) out.push(`Below the market median on ${behind.map((k) => SCORE_LABELS[k]).join(', ')}${level.length ? `; at or above it on ${level.map((k) => SCORE_LABELS[k]).join(', ')}` : ''}.`);
  out.push(overallWeightsText(data));
  const visibility = visibilityView(data);
  if (visibility?.overall) {
    const top = visibility.keywords.reduce((n, k) => n + k.cells.filter((c) => c.band === 'top3').length, 0);
    const n = visibility.keywords.length;
    const size = visibility.keywords[0]!.size;
    out.push(`Of ${visibility.overall.points} local searches around you (a ${size}×${size} grid${n > 1 ? ` on ${n} keywords` : ''}), ${top} list you in the top 3: a Share of Local Voice of ${fmtSolv(visibility.overall.solv)}.`);
  }
  return out;
}


/** The business against each competitor of a market too thin to rank: ", above X (6.10)"; nothing
 *  without competitors. */
function headToHead(data: ReportData, you: number): string {
  const others = data.competitors.filter((c) => c.scores.overall !== null);
  if (others.length === 0) return data.competitors.length === 0 ? ', measured on Online Reviews, Digital Presence and Customer Engagement' : '';
  const above = others.filter((c) => c.scores.overall! < you).map((c) => `${c.place.name} (${c.scores.overall!.toFixed(2)})`);
  const below = others.filter((c) => c.scores.overall! > you).map((c) => `${c.place.name} (${c.scores.overall!.toFixed(2)})`);
  const level = others.filter((c) => c.scores.overall === you).map((c) => c.place.name);
  const parts = [above.length ? `above ${above.join(' and ')}` : '', below.length ? `below ${below.join(' and ')}` : '', level.length ? `level with ${level.join(' and ')}` : ''].filter(Boolean);
  return `: ${parts.join(', ')}`;
}

/** What a visitor found at a place's website (words/website-state.ts): none listed, not given by
 *  Yelp, works, did not answer, refuses automated visitors, very large, slow, drawn by JavaScript. */
export { websiteStatus };

/** The report as `npm run report` prints it: the scores, the rank and share, how the overall is
 *  made, the competitors, the recommendations and the notes. */
/** The business's review texts by language (by name), and the sentiment shares read from those
 *  measured, with how many were not: a share is never given from texts that were not measured. */
function reviewLanguagesLine(d: ReportData): string | null {
  const point = (key: string) => d.business.dataPoints.find((p) => p.key === key);
  const languages = point('reviews.languages');
  if (!languages || languages.status !== 'measured' || typeof languages.value !== 'string') return null;
  const [pos, neu, neg] = ['reviews.positive_share', 'reviews.neutral_share', 'reviews.negative_share'].map(point);
  const base = pos ? shareBase(pos) : null;
  const shares = [pos, neu, neg].every((p) => p?.status === 'measured' && typeof p.value === 'number')
    ? `sentiment ${base ? '' : '(all measured)'}: ${pos!.value}% positive, ${neu!.value}% neutral, ${neg!.value}% negative${base ? ` ${base}` : ''}`.replace('sentiment :', 'sentiment:')
    : 'sentiment not measured (no text in a language it is measured in)';
  return `  Review languages       ${languages.value} · ${shares}`;
}

export function reportLines(d: ReportData): string[] {
  const b = d.business;
  const pad = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s.padEnd(n));
  // A long name is cut, never its "(you)" or "(your brand)".
  const named = (p: AnalysedPlace, n: number) => {
    const mark = rowName(p).slice(p.place.name.length);
    return `${pad(p.place.name, n - mark.length).trimEnd()}${mark}`.padEnd(n);
  };
  const independent = b.dataPoints.filter((p) => p.status === 'measured' && !p.derived).length;
  const unknown = b.dataPoints.filter((p) => p.status === 'unknown').length;
  return [
    `${b.place.name} · ${d.category} · ${d.provider}${d.sampleData ? ' (SAMPLE DATA)' : ''}`,
    ...(notFoundText(d) ? [notFoundText(d)!] : []),
    `Overall ${fmtScore(b.scores.overall)} · rank ${rankOf(b, d)} · market share ${!hasMarket(d) ? NO_MARKET : b.scores.marketSharePercent === null ? NOT_ENOUGH_DATA : `${b.scores.marketSharePercent.toFixed(2)}%`}`,
    ...(noMarketText(d) ? [noMarketText(d)!] : []),
    ...(branchesText(d) ? [branchesText(d)!] : []),
    ...SCORE_KEYS.map((k) => `  ${SCORE_LABELS[k].padEnd(22)} ${scoreText(d, k, b.scores[k])}`),
    `  Data points            ${b.dataPoints.length} (${independent} independent measured, ${unknown} unknown)`,
    ...(visibilityLine(d) ? [visibilityLine(d)!] : []),
    ...(reviewLanguagesLine(d) ? [reviewLanguagesLine(d)!] : []),
    overallWeightsText(d),
    '',
    'Rank  Business                          Miles  Website                     SoLV     Overall',
    ...ranked(d).map((p) => `${(rankNo(p, d) ?? '–').padEnd(5)} ${named(p, 33)} ${p.place.distanceMiles.toFixed(2).padStart(5)}  ${websiteStatus(p, d).padEnd(26)} ${solvCell(p).padStart(7)}  ${fmtScore(p.scores.overall)}`),
    '',
    'Recommendations',
    ...d.recommendations.map((r, i) => `  ${i + 1}. ${r.title} (+${r.gain.toFixed(2)} ${SCORE_LABELS[r.score]})`),
    ...d.notes.map((note) => `Note: ${note}`),
  ];
}
