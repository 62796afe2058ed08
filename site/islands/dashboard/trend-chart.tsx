// The 90-day trend line: the overall score and the four scores of every snapshot, hand-drawn in
// SVG (no chart library: the island stays small). Legend buttons hide and show a series.
// `TrendHistory` is what a screen draws: the chart from two snapshots on, else why there is none.
import { useEffect, useRef, useState } from 'react';
import { SCORE_LABELS } from '../../../common/constants.ts';
import type { ScoreKey } from '../../../api/report/model/types.ts';
import { everyInterval, fmtDate, fmtDay, fmtScore, type TrendPoint } from './dashboard-data.ts';

type Series = 'overall' | ScoreKey;
export const SERIES: Array<{ key: Series; label: string; colour: string }> = [
  { key: 'overall', label: 'Overall', colour: '#2563eb' },
  { key: 'reviews', label: SCORE_LABELS.reviews, colour: '#f59e0b' },
  { key: 'digitalPresence', label: SCORE_LABELS.digitalPresence, colour: '#8b5cf6' },
  { key: 'engagement', label: SCORE_LABELS.engagement, colour: '#059669' },
  { key: 'marketShare', label: SCORE_LABELS.marketShare, colour: '#ec4899' },
];

const PAD = { top: 16, right: 16, bottom: 30, left: 34 };
const DAY = 24 * 60 * 60 * 1000;

export default function TrendChart({ points, days }: { points: TrendPoint[]; days: number }) {
  const [hidden, setHidden] = useState<Set<Series>>(new Set());
  // Drawn at the figure's real width, so labels keep their size on a phone.
  const box = useRef<HTMLElement>(null);
  const [W, setW] = useState(640);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const observer = new ResizeObserver(([entry]) => entry && setW(Math.max(280, Math.round(entry.contentRect.width))));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const H = W < 480 ? 220 : 260;
  const end = points.at(-1)!.at;
  const start = Math.min(points[0]!.at, end - days * DAY);
  const x = (t: number) => PAD.left + ((t - start) / Math.max(1, end - start)) * (W - PAD.left - PAD.right);
  const y = (v: number) => PAD.top + (1 - Math.min(10, Math.max(0, v)) / 10) * (H - PAD.top - PAD.bottom);
  const tickCount = W < 480 ? 3 : 4;
  const ticks = Array.from({ length: tickCount }, (_, i) => start + ((end - start) * i) / (tickCount - 1));
  const first = points[0]!;
  const last = points.at(-1)!;
  const summary = `Overall score from ${fmtScore(first.overall)} on ${fmtDate(first.at)} to ${fmtScore(last.overall)} on ${fmtDate(last.at)}, ${points.length} snapshots.`;

  const toggle = (key: Series) =>
    setHidden((prev) => {
      const next = new Set(prev);
      if (next.has(key)) next.delete(key);
      else next.add(key);
      return next;
    });

  return (
    <figure className="chart" ref={box}>
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} className="chart-svg" data-testid="trend-chart">
        {[0, 2, 4, 6, 8, 10].map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={W - PAD.right} y1={y(v)} y2={y(v)} className="grid" />
            <text x={PAD.left - 8} y={y(v) + 4} textAnchor="end" className="axis">{v}</text>
          </g>
        ))}
        {ticks.map((t, i) => (
          <text key={i} x={x(t)} y={H - 8} textAnchor={i === 0 ? 'start' : i === tickCount - 1 ? 'end' : 'middle'} className="axis">{fmtDay(t)}</text>
        ))}
        {SERIES.filter((s) => !hidden.has(s.key)).map((s) => (
          <g key={s.key} data-series={s.key}>
            <polyline
              points={points.filter((p) => p[s.key] !== null).map((p) => `${x(p.at).toFixed(1)},${y(p[s.key]!).toFixed(1)}`).join(' ')}
              fill="none"
              stroke={s.colour}
              strokeWidth={s.key === 'overall' ? 3 : 1.75}
              strokeLinejoin="round"
              strokeLinecap="round"
              opacity={s.key === 'overall' ? 1 : 0.85}
            />
            {points.filter((p) => p[s.key] !== null).map((p) => (
              <circle key={p.at} cx={x(p.at)} cy={y(p[s.key]!)} r={s.key === 'overall' ? 4 : 2.75} fill="#fff" stroke={s.colour} strokeWidth={2}>
                <title>{`${s.label}: ${fmtScore(p[s.key])} on ${fmtDate(p.at)}`}</title>
              </circle>
            ))}
          </g>
        ))}
      </svg>
      <figcaption className="legend">
        {SERIES.map((s) => (
          <button key={s.key} type="button" className="legend-item" aria-pressed={!hidden.has(s.key)} onClick={() => toggle(s.key)}>
            <span className="swatch" style={{ background: s.colour }} aria-hidden="true" />
            {s.label}
          </button>
        ))}
      </figcaption>
    </figure>
  );
}

/**
 * A business's trend as every screen shows it (the dashboard, a consultant's client page): the
 * chart once there are two snapshots in the window (one point is no line), else "Not enough
 * history yet" with how many there are and when the next comes. `company` is given when the
 * viewer is not the owner (a consultant), so the note names the business instead of "you".
 */
export function TrendHistory({ points, days, reanalysisDays, company }: { points: TrendPoint[]; days: number; reanalysisDays: number; company?: string }) {
  if (points.length >= 2) return <TrendChart points={points} days={days} />;
  const some = points.length === 1 ? (company ? 'there is one so far' : 'you have one so far') : 'none are recorded yet';
  return (
    <p className="chart-empty" data-testid="trend-empty">
      Not enough history yet. The trend line needs at least two analyses in the last {days} days; {some}. {company ?? 'Your business'} is re-analysed {everyInterval(reanalysisDays)}, so the line starts with the next analysis.
    </p>
  );
}
