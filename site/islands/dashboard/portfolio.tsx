// The agency's home: /dashboard for a consultant. Every business it looks after (its own, then
// each active client's) in one table: overall score, change since the snapshot before, rank,
// Early Warning alerts, last and next report. Sortable by any column, searchable; each row opens
// that business's dashboard (which has the switcher). Loads once, like the dashboard.
import { useEffect, useMemo, useState } from 'react';
import { isMarket, NO_MARKET, scoreBand } from '../../../common/constants.ts';
import type { Portfolio, PortfolioRow } from '../../../api/services/portfolio.ts';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { lockAfterRefusal, type PlanLock } from '../../lib/plan-access.ts';
import { fmtChange, fmtDay, unsubscribedText, mailProblemText, scoreText } from '../clients/clients-data.ts';
import { ErrorState, Loading, UpgradeOffer } from './dashboard-states.tsx';
import { errorStateOf } from './dashboard-data.ts';
import './dashboard.css';
import '../clients/clients.css';

type State = { status: 'loading' } | { status: 'ready'; portfolio: Portfolio } | { status: 'error'; error: unknown } | { status: 'upgrade'; access: PlanLock };
type SortKey = 'name' | 'overall' | 'change' | 'rank' | 'alerts' | 'lastReport' | 'nextReport';

const nameOf = (r: PortfolioRow) => r.client?.name ?? r.company;
/** Sort values; null (no figure yet) always sorts last, whichever the direction. */
const SORT_VALUE: Record<SortKey, (r: PortfolioRow) => string | number | null> = {
  name: (r) => nameOf(r).toLowerCase(),
  overall: (r) => r.overall,
  change: (r) => r.change,
  rank: (r) => r.rank,
  alerts: (r) => r.openAlerts,
  lastReport: (r) => r.lastReport,
  nextReport: (r) => r.nextReport,
};
const DIRECTION_WORDS = { text: ['A to Z', 'Z to A'], number: ['lowest first', 'highest first'], date: ['earliest first', 'latest first'] } as const;
const COLUMNS: ReadonlyArray<{ key: SortKey; label: string; num?: true; kind?: 'text' | 'date' }> = [
  { key: 'name', label: 'Business', kind: 'text' },
  { key: 'overall', label: 'Overall', num: true },
  { key: 'change', label: 'Change', num: true },
  { key: 'rank', label: 'Rank', num: true },
  { key: 'alerts', label: 'Alerts', num: true },
  { key: 'lastReport', label: 'Last report', kind: 'date' },
  { key: 'nextReport', label: 'Next report', kind: 'date' },
];

export function sortRows(rows: readonly PortfolioRow[], key: SortKey, ascending: boolean): PortfolioRow[] {
  const value = SORT_VALUE[key];
  return [...rows].sort((a, b) => {
    const x = value(a);
    const y = value(b);
    if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
    const order = x < y ? -1 : x > y ? 1 : 0;
    return ascending ? order : -order;
  });
}

export default function PortfolioView() {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<{ key: SortKey; ascending: boolean }>({ key: 'name', ascending: true });

  useEffect(() => {
    apiRequest<Portfolio>('GET', '/api/portfolio').then(
      (portfolio) => setState({ status: 'ready', portfolio }),
      async (error: unknown) => {
        // The plan lapsed since the session was cached (the dashboard asked it first): the upgrade card.
        if (error instanceof ApiError && error.status === 403 && error.details.code === 'plan_required') return setState({ status: 'upgrade', access: await lockAfterRefusal('dashboard') });
        setState({ status: 'error', error });
      },
    );
  }, []);

  const shown = useMemo(() => {
    if (state.status !== 'ready') return [];
    const q = query.trim().toLowerCase();
    const found = state.portfolio.rows.filter((r) => !q || [r.company, r.city, r.state, r.client?.name ?? ''].some((s) => s.toLowerCase().includes(q)));
    return sortRows(found, sort.key, sort.ascending);
  }, [state, query, sort]);

  if (state.status === 'loading') return <Loading />;
  if (state.status === 'upgrade') return <UpgradeOffer access={state.access} />;
  if (state.status === 'error') return <ErrorState kind={errorStateOf(state.error instanceof Error ? state.error.message : String(state.error))} />;
  const { rows, alertWindowDays } = state.portfolio;
  const clientCount = rows.filter((r) => r.client).length;
  const by = (key: SortKey) => () => setSort((s) => ({ key, ascending: s.key === key ? !s.ascending : key === 'name' || key === 'rank' || key === 'nextReport' }));

  return (
    <div className="dash container clients portfolio" data-testid="portfolio">
      <header className="dash-head">
        <div>
          <p className="eyebrow">Portfolio</p>
          <h1>Your businesses and clients</h1>
          <p className="muted">
            {[rows.length - clientCount > 0 && `${rows.length - clientCount} of your own`, `${clientCount} ${clientCount === 1 ? 'client' : 'clients'}`].filter(Boolean).join(', ')}. Open one for its full dashboard.
          </p>
        </div>
        <nav className="dash-nav" aria-label="Portfolio">
          <a className="btn btn-secondary" href="/clients">Manage Clients</a>
        </nav>
      </header>

      <section className="card flush" aria-labelledby="portfolio-title">
        <div className="clients-bar padded">
          <h2 className="card-title" id="portfolio-title">
            Businesses <span className="count">{shown.length}</span>
          </h2>
          <label className="clients-search">
            <span className="sr-only">Search businesses</span>
            <input className="input" type="search" placeholder="Search by client, business or city" value={query} onChange={(e) => setQuery(e.target.value)} />
          </label>
          {/* Phones hide the table's headings (each row is a card): the order is chosen here. */}
          <label className="sort-select">
            <span>Sort by</span>
            <select className="input" value={`${sort.key}:${sort.ascending ? 'asc' : 'desc'}`} onChange={(e) => { const [key, dir] = e.target.value.split(':'); setSort({ key: key as SortKey, ascending: dir === 'asc' }); }}>
              {COLUMNS.flatMap((c) => [
                <option key={`${c.key}:asc`} value={`${c.key}:asc`}>{c.label}, {DIRECTION_WORDS[c.kind ?? 'number'][0]}</option>,
                <option key={`${c.key}:desc`} value={`${c.key}:desc`}>{c.label}, {DIRECTION_WORDS[c.kind ?? 'number'][1]}</option>,
              ])}
            </select>
          </label>
        </div>
        {rows.length === 0 ? (
          <p className="clients-empty">
            Nothing to show yet. <a href="/clients">Add a client</a> or <a href="/#report-form">analyse a business of your own</a>.
          </p>
        ) : shown.length === 0 ? (
          <p className="clients-empty">No business matches “{query}”.</p>
        ) : (
          <div className="table-wrap" role="region" aria-label="Businesses (table)" tabIndex={0}>
            <table className="table clients-table" data-testid="portfolio-table">
              <thead>
                <tr>
                  {COLUMNS.map((c) => (
                    <th key={c.key} scope="col" className={c.num ? 'num' : undefined} aria-sort={sort.key === c.key ? (sort.ascending ? 'ascending' : 'descending') : undefined}>
                      <button type="button" className="sort" onClick={by(c.key)}>
                        {c.label}
                        <span aria-hidden="true">{sort.key === c.key ? (sort.ascending ? ' ▲' : ' ▼') : ''}</span>
                      </button>
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {shown.map((r) => (
                  <tr key={r.businessId} data-testid="portfolio-row">
                    <th scope="row">
                      <a className="client-name" href={`/dashboard/${encodeURIComponent(r.businessId)}`}>{nameOf(r)}</a>
                      <span className="muted small">
                        {r.client ? `${r.company}, ` : ''}
                        {r.city}, {r.state}
                      </span>
                      {!r.client && <span className="badge">Your business</span>}
                      {r.sampleData && <span className="badge">Example figures</span>}
                    </th>
                    <td className="num" data-label="Overall">
                      {r.latestAt === null ? <span className="muted small">Analysing…</span> : <span className={`badge ${r.overall === null ? '' : `band-bg-${scoreBand(r.overall)}`}`}>{scoreText(r.overall)}</span>}
                    </td>
                    <td className="num" data-label="Change" data-trend={r.change ? (r.change > 0 ? 'up' : 'down') : undefined}>{fmtChange(r.change)}</td>
                    <td className="num" data-label="Rank">{r.rank !== null ? `#${r.rank} of ${r.of}` : r.of !== null && r.overall !== null && !isMarket(r.of - 1) ? NO_MARKET : '–'}</td>
                    <td className="num" data-label="Alerts" title={r.openAlerts === null ? 'Early Warning is not part of your plan' : `Low-rated reviews of the last ${alertWindowDays} days`}>
                      {r.openAlerts === null ? '–' : r.openAlerts > 0 ? <a href={`/early-warning/${encodeURIComponent(r.businessId)}`}>{r.openAlerts}</a> : '0'}
                    </td>
                    <td data-label="Last report">
                      {r.lastReport ? fmtDay(r.lastReport) : 'None yet'}
                      {r.reportProblem && <span className="report-problem" data-status={r.reportProblem.status}>{mailProblemText(r.reportProblem)}</span>}
                    </td>
                    <td data-label="Next report">{r.unsubscribedAt && r.client ? <span className="opt-out-note" data-testid="portfolio-unsubscribed">{unsubscribedText(r.client.name, r.unsubscribedAt)}</span> : r.nextReport ? fmtDay(r.nextReport) : '–'}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>
    </div>
  );
}
