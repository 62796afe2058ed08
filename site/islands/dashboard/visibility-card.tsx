// The dashboard's "Local visibility" card: the latest grid (the business's rank at each point of
// the first keyword, coloured by band, its own cell outlined), Share of Local Voice, ARP and ATRP
// per keyword, and the SoLV trend over the analyses of the trend window.
import { cellText, MAX_VISIBILITY_KEYWORDS, RANK_BAND_ORDER, RANK_BANDS, rankBand } from '../../../common/visibility-bands.ts';
import type { VisibilitySummary } from '../../../api/report/render/visibility.ts';
import { useState } from 'react';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';
import { fmtDay } from './dashboard-data.ts';

const CELL = 30;

function Grid({ keyword, ranks, size }: { keyword: string; ranks: Array<number | null>; size: number }) {
  const side = size * CELL;
  const centre = Math.floor((size * size) / 2);
  const alt = `Your rank for "${keyword}" at each of ${ranks.length} grid points, row by row from the north-west: ${ranks.map(cellText).join(', ')}. Your business is the outlined centre cell.`;
  return (
    <svg viewBox={`0 0 ${side} ${side}`} width={side} height={side} role="img" aria-label={alt} className="vis-grid" data-testid="visibility-card-grid">
      {ranks.map((rank, i) => {
        const band = RANK_BANDS[rankBand(rank)];
        const x = (i % size) * CELL;
        const y = Math.floor(i / size) * CELL;
        return (
          <g key={i}>
            <rect x={x + 1.5} y={y + 1.5} width={CELL - 3} height={CELL - 3} rx={4} fill={band.fill} />
            {i === centre && <rect x={x + 0.5} y={y + 0.5} width={CELL - 1} height={CELL - 1} rx={5} fill="none" stroke="#0f172a" strokeWidth={2.5} />}
            <text x={x + CELL / 2} y={y + CELL / 2 + 4} textAnchor="middle" fill={band.ink} fontSize={11} fontWeight={700}>{cellText(rank)}</text>
          </g>
        );
      })}
    </svg>
  );
}

function Trend({ points }: { points: Array<{ at: number; solv: number }> }) {
  if (points.length < 2) return <p className="chart-empty">The SoLV trend starts with the next analysis.</p>;
  const w = 260;
  const h = 70;
  const max = Math.max(10, ...points.map((p) => p.solv));
  const xy = points.map((p, i) => [(i / (points.length - 1)) * (w - 70) + 35, h - 16 - (p.solv / max) * (h - 28)] as const);
  const last = points.length - 1;
  const alt = `Share of Local Voice at each analysis: ${points.map((p) => `${fmtDay(p.at)} ${p.solv.toFixed(2)}%`).join(', ')}.`;
  return (
    <svg viewBox={`0 0 ${w} ${h}`} width={w} height={h} role="img" aria-label={alt} className="vis-trend">
      <polyline points={xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')} fill="none" stroke="#1d4ed8" strokeWidth={2} />
      {xy.map(([x, y], i) => <circle key={i} cx={x} cy={y} r={3} fill="#1d4ed8" />)}
      {[0, last].map((i) => <text key={i} x={xy[i]![0]} y={xy[i]![1] - 7} textAnchor="middle" fontSize={11} fill="#334155">{points[i]!.solv.toFixed(1)}%</text>)}
      {[0, last].map((i) => <text key={`d${i}`} x={xy[i]![0]} y={h - 2} textAnchor="middle" fontSize={10} fill="#475569">{fmtDay(points[i]!.at)}</text>)}
    </svg>
  );
}

/** The owner's keywords: searched before the category's defaults from the next analysis on. */
function KeywordsForm({ businessId, initial }: { businessId: string; initial: string[] }) {
  const [text, setText] = useState(initial.join(', '));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const keywords = text.split(',').map((k) => k.trim()).filter(Boolean);
    try {
      const res = await apiRequest<{ keywords: string[] }>('PUT', `/api/business/${encodeURIComponent(businessId)}/visibility-keywords`, { keywords });
      setMessage({ ok: true, text: res.keywords.length ? `Saved. The next analysis searches ${res.keywords.map((k) => `"${k}"`).join(', ')} first.` : 'Saved. The next analysis searches your category\'s usual keywords.' });
    } catch (error) {
      const field = error instanceof ApiError ? Object.values(error.details.fields ?? {})[0] : undefined;
      setMessage({ ok: false, text: field ?? messageOf(error, 'The keywords could not be saved. Please try again.') });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="vis-keywords-form" onSubmit={save}>
      <label htmlFor="visibility-keywords">Keywords to search (comma-separated, up to {MAX_VISIBILITY_KEYWORDS}; your plan's grid takes the first ones)</label>
      <div className="vis-keywords-row">
        <input id="visibility-keywords" type="text" value={text} onChange={(e) => setText(e.target.value)} placeholder="e.g. emergency dentist, teeth whitening" maxLength={400} />
        <button type="submit" className="btn btn-secondary" disabled={busy}>Save keywords</button>
      </div>
      {message && <p className={message.ok ? 'muted small' : 'field-error'} role="status">{message.text}</p>}
    </form>
  );
}

export default function VisibilityCard({ visibility, trend, businessId, keywords }: { visibility: VisibilitySummary | null; trend: Array<{ at: number; solv: number }>; businessId: string; keywords: string[] }) {
  return (
    <section className="card visibility-card" aria-labelledby="visibility-title" data-testid="visibility-card">
      <h2 className="card-title" id="visibility-title">Local visibility</h2>
      {!visibility ? (
        <p className="chart-empty">No local visibility grid yet: the next analysis scans one.</p>
      ) : visibility.status !== 'measured' || visibility.solv === null ? (
        <p className="chart-empty">Share of Local Voice: Not measured. {visibility.reason}</p>
      ) : (
        <>
          <p className="vis-solv">
            <strong>Share of Local Voice {visibility.solv.toFixed(2)}%</strong>
            <span className="muted"> · ARP {visibility.arp === null ? '–' : visibility.arp.toFixed(2)} · ATRP {visibility.atrp!.toFixed(2)}</span>
          </p>
          {visibility.sampleData && <p className="muted small">Sample data: searches simulated by the sample provider.</p>}
          <div className="vis-body">
            <Grid keyword={visibility.keywords[0]!.keyword} ranks={visibility.keywords[0]!.ranks} size={visibility.size} />
            <div>
              <table className="vis-keywords">
                <caption className="sr-only">Share of Local Voice by keyword</caption>
                <thead><tr><th scope="col">Keyword</th><th scope="col">SoLV</th><th scope="col">ATRP</th></tr></thead>
                <tbody>{visibility.keywords.map((k) => <tr key={k.keyword}><th scope="row">{k.keyword}</th><td>{k.solv.toFixed(2)}%</td><td>{k.atrp.toFixed(2)}</td></tr>)}</tbody>
              </table>
              <h3 className="vis-sub">SoLV trend</h3>
              <Trend points={trend} />
            </div>
          </div>
          <ul className="vis-legend" aria-label="Colours of the grid">
            {RANK_BAND_ORDER.map((b) => <li key={b}><span className="swatch" style={{ background: RANK_BANDS[b].fill }} />{RANK_BANDS[b].label}</li>)}
            <li><span className="swatch you-swatch" />Your business</li>
          </ul>
          <p className="muted small">{visibility.size}×{visibility.size} grid, {visibility.radiusMiles.toFixed(2)} miles each way, "{visibility.keywords[0]!.keyword}" shown; {visibility.calls} searches made{visibility.cached ? `, ${visibility.cached} from the cache` : ''}.</p>
        </>
      )}
      <KeywordsForm businessId={businessId} initial={keywords} />
    </section>
  );
}
