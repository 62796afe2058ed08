// The market-position radar: the business's four scores against the average of its competitors
// in the same analysis, on a 0-10 scale, hand-drawn in SVG.
import { SCORE_LABELS } from '../../../common/constants.ts';
import type { ScoreKey } from '../../../api/report/model/types.ts';
import { fmtScore, SCORE_KEYS } from './dashboard-data.ts';

const W = 440;
const H = 300;
const CX = W / 2;
const CY = H / 2;
const R = 100;

function point(i: number, value: number): [number, number] {
  const angle = -Math.PI / 2 + (i * 2 * Math.PI) / SCORE_KEYS.length;
  const r = (Math.min(10, Math.max(0, value)) / 10) * R;
  return [CX + r * Math.cos(angle), CY + r * Math.sin(angle)];
}
// The side labels go on two lines: on one they run past the chart on a phone, where they are drawn larger.
const labelLines = (label: string) => {
  const space = label.indexOf(' ');
  return space < 0 ? [label] : [label.slice(0, space), label.slice(space + 1)];
};
const polygon = (values: number[]) => values.map((v, i) => point(i, v).map((n) => n.toFixed(1)).join(',')).join(' ');

/** A score with "Not enough data" sits at the centre (no vertex is drawn for it); the summary says so. */
export default function RadarChart({ business, market, name }: { business: Record<ScoreKey, number | null>; market: Record<ScoreKey, number | null>; name: string }) {
  const own = SCORE_KEYS.map((k) => business[k] ?? 0);
  const avg = SCORE_KEYS.map((k) => market[k] ?? 0);
  const summary = SCORE_KEYS.map((k) => `${SCORE_LABELS[k]} ${fmtScore(business[k])} against a market average of ${fmtScore(market[k])}`).join('; ');
  return (
    <figure className="chart radar">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-label={summary} className="chart-svg radar-svg" data-testid="radar-chart">
        {[2, 4, 6, 8, 10].map((ring) => (
          <polygon key={ring} points={polygon(SCORE_KEYS.map(() => ring))} className="grid" fill="none" />
        ))}
        {SCORE_KEYS.map((k, i) => {
          const [x, y] = point(i, 10);
          const [lx, ly] = point(i, 11.6);
          const side = i === 1 || i === 3;
          return (
            <g key={k}>
              <line x1={CX} y1={CY} x2={x} y2={y} className="grid" />
              <text x={lx} y={ly + 4} textAnchor={i === 1 ? 'start' : i === 3 ? 'end' : 'middle'} className="axis radar-label">
                {side ? labelLines(SCORE_LABELS[k]).map((line, n) => <tspan key={n} x={lx} dy={n === 0 ? '-0.6em' : '1.2em'}>{line}</tspan>) : SCORE_LABELS[k]}
              </text>
            </g>
          );
        })}
        <polygon points={polygon(avg)} fill="rgb(100 116 139 / 0.12)" stroke="#64748b" strokeWidth={2} strokeDasharray="5 4" data-series="market" />
        <polygon points={polygon(own)} fill="rgb(37 99 235 / 0.22)" stroke="#2563eb" strokeWidth={2.5} data-series="business" />
        {own.map((v, i) => {
          if (business[SCORE_KEYS[i]!] === null) return null;
          const [x, y] = point(i, v);
          return <circle key={i} cx={x} cy={y} r={4} fill="#2563eb" stroke="#fff" strokeWidth={1.5} />;
        })}
      </svg>
      <figcaption className="legend">
        <span className="legend-item static"><span className="swatch" style={{ background: '#2563eb' }} aria-hidden="true" />{name}</span>
        <span className="legend-item static"><span className="swatch dashed" aria-hidden="true" />Market average</span>
      </figcaption>
    </figure>
  );
}
