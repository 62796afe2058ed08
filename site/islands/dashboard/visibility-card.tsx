// The dashboard's "Local visibility" card: the latest grid of each keyword searched (one tab per
// keyword; the business's rank at each point, coloured by band, its own cell outlined), Share of
// Local Voice, ARP and ATRP per keyword with the owner's saved keywords marked, the SoLV trend over
// the analyses of the trend window, and the keywords form, filled with the keywords in use.
import { cellText, MAX_VISIBILITY_KEYWORDS, RANK_BAND_ORDER, RANK_BANDS, rankBand } from '../../../common/visibility-bands.ts';
import type { VisibilitySummary } from '../../../api/report/words/visibility.ts';
import { useId, useRef, useState, type KeyboardEvent } from 'react';
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
            <text x={x + CELL / 2} y={y + CELL / 2 + 4} textAnchor="middle" fill={band.ink} fontSize={12} fontWeight={700}>{cellText(rank)}</text>
          </g>
        );
      })}
    </svg>
  );
}

function Trend({ points }: { points: Array<{ at: number; solv: number }> }) {
  if (points.length < 2) return <p className="chart-empty">The SoLV trend starts with the next analysis.</p>;
  const w = 260;
  // Room above the highest point for its 12 px label, and below the lowest for the dates.
  const h = 80;
  const max = Math.max(10, ...points.map((p) => p.solv));
  const xy = points.map((p, i) => [(i / (points.length - 1)) * (w - 70) + 35, h - 18 - (p.solv / max) * (h - 36)] as const);
  const last = points.length - 1;
  const alt = `Share of Local Voice at each analysis: ${points.map((p) => `${fmtDay(p.at)} ${p.solv.toFixed(2)}%`).join(', ')}.`;
  return (
    <svg viewBox={`0 0 ${w} ${h}`} width={w} height={h} role="img" aria-label={alt} className="vis-trend">
      <polyline points={xy.map(([x, y]) => `${x.toFixed(1)},${y.toFixed(1)}`).join(' ')} fill="none" stroke="#1d4ed8" strokeWidth={2} />
      {xy.map(([x, y], i) => <circle key={i} cx={x} cy={y} r={3} fill="#1d4ed8" />)}
      {[0, last].map((i) => <text key={i} x={xy[i]![0]} y={xy[i]![1] - 7} textAnchor="middle" fontSize={12} fill="#334155">{points[i]!.solv.toFixed(1)}%</text>)}
      {[0, last].map((i) => <text key={`d${i}`} x={xy[i]![0]} y={h - 2} textAnchor="middle" fontSize={12} fill="#475569">{fmtDay(points[i]!.at)}</text>)}
    </svg>
  );
}

/** A saved keyword's mark: a star, read as "(saved)". */
const SavedMark = () => (
  <span className="vis-saved-mark" title="One of your saved keywords"><span aria-hidden="true">★</span><span className="sr-only"> (saved)</span></span>
);

const sameKeyword = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** One tab per keyword searched, the grid of the chosen one below (the WAI-ARIA tabs pattern:
 *  arrow keys, Home and End move between tabs, Tab goes on to the grid). */
function KeywordGrids({ visibility, saved }: { visibility: VisibilitySummary; saved: string[] }) {
  const [chosen, setChosen] = useState(0);
  const id = useId();
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);
  const keywords = visibility.keywords;
  const current = keywords[Math.min(chosen, keywords.length - 1)]!;
  const move = (to: number) => {
    const next = (to + keywords.length) % keywords.length;
    setChosen(next);
    tabs.current[next]?.focus();
  };
  const onKey = (event: KeyboardEvent) => {
    const moves: Record<string, number> = { ArrowRight: chosen + 1, ArrowDown: chosen + 1, ArrowLeft: chosen - 1, ArrowUp: chosen - 1, Home: 0, End: keywords.length - 1 };
    if (!(event.key in moves)) return;
    event.preventDefault();
    move(moves[event.key]!);
  };
  return (
    <div className="vis-grids">
      {keywords.length > 1 && (
        <div className="vis-tabs" role="tablist" aria-label="Grid for keyword" onKeyDown={onKey}>
          {keywords.map((k, i) => (
            <button
              key={k.keyword}
              ref={(el) => { tabs.current[i] = el; }}
              type="button"
              role="tab"
              id={`${id}-tab-${i}`}
              aria-selected={i === chosen}
              aria-controls={`${id}-panel`}
              tabIndex={i === chosen ? 0 : -1}
              className="vis-tab"
              onClick={() => setChosen(i)}
            >
              {k.keyword}
              {saved.some((s) => sameKeyword(s, k.keyword)) && <SavedMark />}
            </button>
          ))}
        </div>
      )}
      <div id={`${id}-panel`} role={keywords.length > 1 ? 'tabpanel' : undefined} aria-labelledby={keywords.length > 1 ? `${id}-tab-${chosen}` : undefined} tabIndex={keywords.length > 1 ? 0 : undefined} className="vis-grid-panel">
        <Grid keyword={current.keyword} ranks={current.ranks} size={visibility.size} />
        <p className="muted small vis-grid-caption" data-testid="visibility-grid-caption">
          "{current.keyword}": SoLV {current.solv.toFixed(2)}% · ARP {current.arp === null ? '–' : current.arp.toFixed(2)} · ATRP {current.atrp.toFixed(2)}
        </p>
      </div>
    </div>
  );
}

/** Which keywords the grids searched, and whether they are the owner's or the category's. */
function KeywordsInUse({ searched, saved }: { searched: string[]; saved: string[] }) {
  const ownSearched = searched.filter((k) => saved.some((s) => sameKeyword(s, k)));
  const notYet = saved.filter((s) => !searched.some((k) => sameKeyword(s, k)));
  return (
    <p className="muted small" data-testid="visibility-keywords-in-use">
      {saved.length === 0
        ? 'No keywords saved: the grids search your category\'s usual keywords.'
        : `Saved keywords: ${saved.map((k) => `"${k}"`).join(', ')}${ownSearched.length ? ` (★ in the grids${ownSearched.length < searched.length ? '; the others are your category\'s usual keywords' : ''})` : ''}.`}
      {notYet.length > 0 && ` ${notYet.map((k) => `"${k}"`).join(', ')} ${notYet.length === 1 ? 'is' : 'are'} searched from the next analysis, as many as your plan's grid takes.`}
    </p>
  );
}

/** The owner's keywords: searched before the category's defaults from the next analysis on. The
 *  field starts with the saved keywords, or with the ones the latest grid searched when none are
 *  saved, so it never reads empty while keywords are in use. */
function KeywordsForm({ businessId, initial, onSaved }: { businessId: string; initial: string[]; onSaved: (keywords: string[]) => void }) {
  const [text, setText] = useState(initial.join(', '));
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const keywords = text.split(',').map((k) => k.trim()).filter(Boolean);
    try {
      const res = await apiRequest<{ keywords: string[] }>('PUT', `/api/business/${encodeURIComponent(businessId)}/visibility-keywords`, { keywords });
      onSaved(res.keywords);
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
  const [saved, setSaved] = useState(keywords);
  const searched = visibility?.keywords.map((k) => k.keyword) ?? [];
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
            <KeywordGrids visibility={visibility} saved={saved} />
            <div>
              <table className="vis-keywords">
                <caption className="sr-only">Share of Local Voice by keyword</caption>
                <thead><tr><th scope="col">Keyword</th><th scope="col">SoLV</th><th scope="col">ATRP</th></tr></thead>
                <tbody>{visibility.keywords.map((k) => <tr key={k.keyword}><th scope="row">{k.keyword}{saved.some((s) => sameKeyword(s, k.keyword)) && <SavedMark />}</th><td>{k.solv.toFixed(2)}%</td><td>{k.atrp.toFixed(2)}</td></tr>)}</tbody>
              </table>
              <KeywordsInUse searched={searched} saved={saved} />
              <h3 className="vis-sub">SoLV trend</h3>
              <Trend points={trend} />
            </div>
          </div>
          <ul className="vis-legend" aria-label="Colours of the grid">
            {RANK_BAND_ORDER.map((b) => <li key={b}><span className="swatch" style={{ background: RANK_BANDS[b].fill }} />{RANK_BANDS[b].label}</li>)}
            <li><span className="swatch you-swatch" />Your business</li>
          </ul>
          <p className="muted small">{visibility.size}×{visibility.size} grid, {visibility.radiusMiles.toFixed(2)} miles each way, {searched.length === 1 ? '1 keyword' : `${searched.length} keywords`}; {visibility.calls} searches made{visibility.cached ? `, ${visibility.cached} from the cache` : ''}.</p>
        </>
      )}
      <KeywordsForm businessId={businessId} initial={keywords.length ? keywords : searched} onSaved={setSaved} />
    </section>
  );
}
