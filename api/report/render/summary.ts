// The report's executive summary in plain sentences, shared by the PDF and the online report.
import type { AnalysedPlace, ReportData, ScoreKey } from '../types.ts';
import { breakdownOf, coverageText } from './breakdown.ts';
import { bandLabel, marketOn, marketSize, SCORE_KEYS, SCORE_LABELS } from './labels.ts';
import { fmtSolv, visibilityView } from './visibility.ts';

export function findings(data: ReportData): string[] {
  const b = data.business;
  const o = marketOn(data, 'overall');
  const out: string[] = [];
  out.push(
    o.you === null
      ? `Too little of your business could be measured for an overall score; the sections below say which data is missing.`
      : `You rank #${b.rank} of ${marketSize(data)} with an overall ${o.you.toFixed(2)}. The market median is ${o.median?.toFixed(2) ?? 'not known'}${o.leader && !o.leader.isYou ? `, and the leader, ${o.leader.name}, has ${o.leader.score.toFixed(2)}` : ', and you lead the market'}.`,
  );
  const scored = SCORE_KEYS.map((k) => ({ k, s: b.scores[k] as number | null })).filter((x): x is { k: ScoreKey; s: number } => x.s !== null);
  if (scored.length >= 2) {
    const best = scored.reduce((a, x) => (x.s > a.s ? x : a));
    const worst = scored.reduce((a, x) => (x.s < a.s ? x : a));
    out.push(`Your strongest score is ${SCORE_LABELS[best.k]} (${best.s.toFixed(2)}, ${bandLabel(best.s)}); the most room to grow is in ${SCORE_LABELS[worst.k]} (${worst.s.toFixed(2)}, ${bandLabel(worst.s)}).`);
  }
  const unscored = SCORE_KEYS.filter((k) => b.scores[k] === null);
  if (unscored.length) out.push(`${unscored.map((k) => SCORE_LABELS[k]).join(' and ')}: not enough data to score (${unscored.map((k) => coverageText(breakdownOf(b, k))).join('; ')}).`);
  const first = data.recommendations[0];
  if (first) out.push(`The biggest single gain: ${first.title.replace(/\.$/, '')} (up to +${first.gain.toFixed(2)} on ${SCORE_LABELS[first.score]}).`);
  const behind = SCORE_KEYS.filter((k) => {
    const m = marketOn(data, k);
    return m.you !== null && m.median !== null && m.you < m.median;
  });
  if (behind.length) out.push(`Below the market median on ${behind.map((k) => SCORE_LABELS[k]).join(', ')}; at or above it on the rest.`);
  const visibility = visibilityView(data);
  if (visibility?.overall) {
    const top = visibility.keywords.reduce((n, k) => n + k.cells.filter((c) => c.band === 'top3').length, 0);
    const n = visibility.keywords.length;
    const size = visibility.keywords[0]!.size;
    out.push(`Of ${visibility.overall.points} local searches around you (a ${size}×${size} grid${n > 1 ? ` on ${n} keywords` : ''}), ${top} list you in the top 3: a Share of Local Voice of ${fmtSolv(visibility.overall.solv)}.`);
  }
  return out;
}


/** What a visitor found at a place's website: a listed site that did not answer is not "available". */
export function websiteStatus(place: AnalysedPlace): 'None listed' | 'Works' | 'Did not answer' | 'Listed' {
  if (!place.place.website) return 'None listed';
  const reachable = place.dataPoints.find((p) => p.key === 'site.reachable');
  if (!reachable) return 'Listed';
  return reachable.value === true ? 'Works' : 'Did not answer';
}
