import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MIN_DATA_POINTS, marketRank } from '../../common/constants.ts';
import { DATA_POINTS, normalise } from '../../api/report/analysis/data-points.ts';
import { renderMethodology } from '../../api/report/analysis/methodology.ts';
import { formatValue, ranks, recommend, scoreOf, scorePlace, SCORE_KEYS } from '../../api/report/analysis/scoring.ts';
import { createRng } from '../../api/report/analysis/random.ts';
import type { DataPoint } from '../../api/report/types.ts';

function randomPoints(seed: number, missingShare = 0): DataPoint[] {
  const r = createRng(seed);
  return DATA_POINTS.map((d) => {
    const missing = r.chance(missingShare);
    const value = d.unit === 'yes/no' ? r.chance(0.5) : d.unit === 'text' ? 'x' : Math.round((r.next() * 400 - 50) * 100) / 100;
    return { key: d.key, label: d.label, value: missing ? null : value, unit: d.unit, score: d.score, ...(missing ? { missing: true } : {}) };
  });
}

describe('the data-point registry', () => {
  it(`defines at least ${MIN_DATA_POINTS} data points, each key once`, () => {
    expect(DATA_POINTS.length).toBeGreaterThanOrEqual(MIN_DATA_POINTS);
    expect(new Set(DATA_POINTS.map((d) => d.key)).size).toBe(DATA_POINTS.length);
  });

  it('gives every scored point a weight, a normalisation and advice; unscored points none', () => {
    for (const d of DATA_POINTS) {
      if (d.score) {
        expect(d.weight, d.key).toBeGreaterThan(0);
        expect(d.norm, d.key).not.toBeNull();
        expect(d.advice, d.key).not.toBeNull();
      } else {
        expect(d.weight, d.key).toBe(0);
      }
    }
    for (const k of SCORE_KEYS) expect(DATA_POINTS.filter((d) => d.score === k).length, k).toBeGreaterThanOrEqual(5);
  });

  it('normalises into 0-1', () => {
    expect(normalise({ kind: 'bool' }, true)).toBe(1);
    expect(normalise({ kind: 'bool' }, false)).toBe(0);
    expect(normalise({ kind: 'ramp', lo: 0, hi: 10 }, 5)).toBe(0.5);
    expect(normalise({ kind: 'ramp', lo: 0, hi: 10 }, 50)).toBe(1);
    expect(normalise({ kind: 'inverse', lo: 0, hi: 10 }, 2)).toBe(0.8);
    expect(normalise({ kind: 'band', zeroLo: 0, idealLo: 10, idealHi: 20, zeroHi: 40 }, 30)).toBe(0.5);
    expect(normalise({ kind: 'ramp', lo: 0, hi: 10 }, null)).toBe(0);
  });

  it('docs/methodology.md is current (run `npm run docs:methodology`)', () => {
    expect(readFileSync(new URL('../../docs/methodology.md', import.meta.url), 'utf8')).toBe(renderMethodology());
  });
});

describe('scores', () => {
  it('are within 1-10 with two decimals, for any data', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const { scores } = scorePlace(randomPoints(seed, seed % 3 === 0 ? 0.4 : 0));
      for (const k of [...SCORE_KEYS, 'overall'] as const) {
        expect(scores[k]).toBeGreaterThanOrEqual(1);
        expect(scores[k]).toBeLessThanOrEqual(10);
        expect(Math.round(scores[k] * 100) / 100).toBe(scores[k]);
      }
    }
  });

  it('are deterministic', () => {
    const a = scorePlace(randomPoints(42));
    const b = scorePlace(randomPoints(42));
    expect(a).toEqual(b);
  });

  it('reach 10 when every point is at its best and 1 at its worst', () => {
    const best = DATA_POINTS.map((d) => ({ key: d.key, label: d.label, unit: d.unit, score: d.score, value: d.norm?.kind === 'bool' ? true : d.norm?.kind === 'inverse' ? d.norm.lo : d.norm?.kind === 'ramp' ? d.norm.hi : d.norm?.kind === 'band' ? d.norm.idealLo : null }));
    const worst = DATA_POINTS.map((d) => ({ key: d.key, label: d.label, unit: d.unit, score: d.score, value: d.norm?.kind === 'bool' ? false : d.norm?.kind === 'inverse' ? d.norm.hi : d.norm?.kind === 'ramp' ? d.norm.lo : d.norm?.kind === 'band' ? d.norm.zeroHi : null }));
    expect(scorePlace(best).scores.overall).toBe(10);
    expect(scorePlace(worst).scores.overall).toBe(1);
    expect(recommend(best).every((r) => r.gain === 0)).toBe(true);
  });

  it('leave missing points out instead of counting them as zero', () => {
    const points = randomPoints(7);
    const withMissingWeb = points.map((p) => (p.key === 'site.https' ? { ...p, value: null, missing: true } : p));
    const forced = points.map((p) => (p.key === 'site.https' ? { ...p, value: false } : p));
    expect(scoreOf(withMissingWeb, 'digitalPresence')).toBeGreaterThanOrEqual(scoreOf(forced, 'digitalPresence')!);
    const allMissing = points.map((p) => (p.score === 'engagement' ? { ...p, value: null, missing: true } : p));
    expect(scoreOf(allMissing, 'engagement')).toBeNull();
    expect(scorePlace(allMissing).unscored).toEqual(['engagement']);
  });
});

describe('rank', () => {
  it('is the number of rows scoring higher, plus one; ties share a rank', () => {
    expect(ranks([7.5, 8.25, 6, 8.25, 1])).toEqual([3, 1, 4, 1, 5]);
    expect(marketRank(5, [5, 5, 5])).toBe(1);
  });
});

describe('recommendations', () => {
  it('are five, ordered by gain, distinct, and deterministic', () => {
    const recs = recommend(randomPoints(3));
    expect(recs).toHaveLength(5);
    for (let i = 1; i < recs.length; i++) expect(recs[i - 1]!.gain).toBeGreaterThanOrEqual(recs[i]!.gain);
    expect(new Set(recs.map((r) => r.title)).size).toBe(5);
    expect(recommend(randomPoints(3))).toEqual(recs);
  });

  it('quote their evidence as the data-point tables write it: "36.67%", never "36.67 %"', () => {
    const point = (key: string, value: number | boolean) => { const d = DATA_POINTS.find((x) => x.key === key)!; return { key, label: d.label, unit: d.unit, score: d.score, value }; };
    expect(formatValue(point('engagement.response_rate', 36.67))).toBe('36.67%');
    expect(formatValue(point('engagement.response_rate', 0))).toBe('0%');
    expect(formatValue(point('reviews.count', 42))).toBe('42 reviews');
    expect(formatValue(point('market.prominence_position', 4))).toBe('#4');
    expect(formatValue(point('market.review_count_vs_median', 0.5714285))).toBe('0.57 ratio');
    expect(formatValue(point('site.reachable', false))).toBe('no');
    const rest = DATA_POINTS.filter((d) => d.score && d.key !== 'engagement.response_rate').map((d) => ({ key: d.key, label: d.label, unit: d.unit, score: d.score, value: d.unit === 'yes/no' ? true : d.norm?.kind === 'ramp' ? d.norm.lo : d.norm?.kind === 'inverse' ? d.norm.hi : 0 }));
    const recs = recommend([...rest, point('engagement.response_rate', 0)], 200);
    const reply = recs.find((r) => r.title === 'Reply to every review')!;
    expect(reply.detail).toMatch(/\(Owner response rate: 0%\.\)$/);
    for (const r of recs) expect(r.detail).not.toMatch(/\d %/);
  });
});
