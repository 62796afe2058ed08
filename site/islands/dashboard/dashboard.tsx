// The business dashboard island: /dashboard (for a consultant its portfolio, portfolio.tsx; for
// anyone else the business viewed last, else their own) and /dashboard/{businessId}. Loads once (no refetch, no retry, no polling), then shows the
// scores, ranks, trends, the market radar and the competitors, with a switcher among the viewer's
// businesses and their clients'. The server decides access and the plan; the session's plan is
// asked first, so a plan without the dashboard gets the upgrade card without a refused call
// (decision 0226). While loading, the page's frame (dashboard-skeleton.tsx) holds its place.
import { useEffect, useState } from 'react';
import { BAND_LABELS, SCORE_LABELS } from '../../../common/constants.ts';
import { MIN_MARKET_COMPETITORS, NO_MARKET, NOT_ENOUGH_DATA, progressPercent, ratingColour, SAMPLE_DATA_LABEL, SAMPLE_DATA_NOTE, SEARCH_RADIUS_MILES, scoreBand } from '../../../common/constants.ts';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { lockAfterRefusal, screenAccess, type PlanLock } from '../../lib/plan-access.ts';
import { STORAGE_PREFIX } from '../../lib/session.ts';
import type { DashboardBusiness } from '../../../api/services/dashboard.ts';
import { SITE_STATE_LABELS } from '../../../api/report/words/website-state.ts';
import { buildDashboard, errorStateOf, type Branches, fmtDate, fmtDelta, fmtScore, type CompetitorView, type DashboardError, type DashboardResponse, type DashboardView } from './dashboard-data.ts';
import DashboardSkeleton from './dashboard-skeleton.tsx';
import { ErrorState, UpgradeOffer } from './dashboard-states.tsx';
import PortfolioView from './portfolio.tsx';
import RadarChart from './radar-chart.tsx';
import { TrendHistory } from './trend-chart.tsx';
import VisibilityCard from './visibility-card.tsx';
import ProfileCard from './profile-card.tsx';
import { connectUrl } from '../../../common/google-profile.ts';
import AiAnswersCard from './ai-answers-card.tsx';
import './dashboard.css';

type State = { status: 'loading' } | { status: 'ready'; view: DashboardView; businesses: DashboardBusiness[]; res: DashboardResponse } | { status: 'error'; kind: DashboardError } | { status: 'upgrade'; access: PlanLock } | { status: 'portfolio' };

const TREND_DAYS = 90;
/** The business the viewer looked at last: /dashboard opens it (logout wipes it with the rest). */
const LAST_VIEWED_KEY = `${STORAGE_PREFIX}dashboardBusiness`;

function storage(action: (s: Storage) => string | null | void): string | null {
  try {
    return action(localStorage) ?? null;
  } catch {
    return null; // storage unavailable: /dashboard opens the viewer's own business
  }
}

const businessPath = (id: string | null) => (id ? `/api/business/${encodeURIComponent(id)}` : '/api/my-business');

/** Reads one business's dashboard (null: the one viewed last, else the viewer's own), and with it
 *  the businesses the switcher offers: the page is drawn once, with both (no switcher popping in). */
function loadDashboard(id: string | null, setState: (s: State) => void) {
  const remembered = id ? null : storage((s) => s.getItem(LAST_VIEWED_KEY));
  const businesses = apiRequest<DashboardBusiness[]>('GET', '/api/my-businesses').catch((): DashboardBusiness[] => []);
  apiRequest<DashboardResponse>('GET', businessPath(id ?? remembered))
    .catch((error: unknown) => {
      // The remembered business is gone (deleted, no longer a client): the viewer's own instead.
      if (!remembered || !(error instanceof ApiError) || error.status !== 404) throw error;
      storage((s) => s.removeItem(LAST_VIEWED_KEY));
      return apiRequest<DashboardResponse>('GET', businessPath(null));
    })
    .then(async (res) => {
      const view = buildDashboard(res);
      if (view.analysed) storage((s) => s.setItem(LAST_VIEWED_KEY, view.business.id));
      setState(view.analysed ? { status: 'ready', view, businesses: await businesses, res } : { status: 'error', kind: 'not-found' });
    })
    .catch(async (error: unknown) => {
      if (error instanceof ApiError && error.status === 403 && error.details.code === 'plan_required') return setState({ status: 'upgrade', access: await lockAfterRefusal('dashboard') });
      setState({ status: 'error', kind: errorStateOf(error instanceof Error ? error.message : String(error)) });
    });
}

export default function Dashboard({ businessId }: { businessId?: string }) {
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    // The session check is cached (and shared with the top bar), so this rarely costs a call.
    void screenAccess('dashboard').then((access) => {
      if (access.status === 'locked' && access.access.reason === 'plan') return setState({ status: 'upgrade', access: access.access });
      // A consultant's /dashboard is its portfolio.
      if (!businessId && access.status === 'open' && access.viewer.user.role === 'consultant') return setState({ status: 'portfolio' });
      // Signed out: the API's 401 says Login Required.
      loadDashboard(businessId ?? null, setState);
    });
  }, [businessId]);

  if (state.status === 'loading') return <DashboardSkeleton />;
  if (state.status === 'portfolio') return <PortfolioView />;
  if (state.status === 'upgrade') return <UpgradeOffer access={state.access} />;
  if (state.status === 'error') return <ErrorState kind={state.kind} />;
  // The rank with or without the brand's other locations is drawn again from the same answer.
  const { res } = state;
  const rankWithBranches = (counted: boolean) => {
    const next = { ...res, business: { ...res.business, rankWithBranches: counted } };
    setState({ ...state, res: next, view: buildDashboard(next) });
  };
  return <DashboardView view={state.view} businesses={state.businesses} onRankWithBranches={rankWithBranches} />;
}

/** The owner's choice: whether the rank counts the competitors that are other locations of their
 *  brand (decision 0235). Saved for the business; the ranks on the screen follow at once, the
 *  reports from the next analysis. */
function BranchesToggle({ businessId, branches, onSaved }: { businessId: string; branches: Branches; onSaved: (counted: boolean) => void }) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const save = async (counted: boolean) => {
    setBusy(true);
    try {
      const res = await apiRequest<{ rankWithBranches: boolean }>('PUT', `/api/business/${encodeURIComponent(businessId)}/rank-settings`, { rankWithBranches: counted });
      onSaved(res.rankWithBranches);
      setMessage({ ok: true, text: res.rankWithBranches ? 'Saved: your brand\'s locations count in your rank.' : 'Saved: you rank against independent competitors first.' });
    } catch (error) {
      setMessage({ ok: false, text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="branches-toggle">
      <label>
        <input type="checkbox" data-testid="rank-with-branches" checked={branches.why === 'chosen'} disabled={busy} onChange={(e) => void save(e.target.checked)} />
        Count my brand's other locations in the rank
      </label>
      {message && <p className={message.ok ? 'muted small' : 'field-error'} role="status">{message.text}</p>}
    </div>
  );
}

const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : 'The setting could not be saved. Please try again.');

/** The Market Rank card's sentence on the brand's other locations among the competitors. */
function branchesNote(view: DashboardView): string {
  const b = view.branches!;
  const n = b.count;
  const these = `${n} of your competitors ${n === 1 ? 'is another location' : 'are other locations'} of your brand, marked "your brand"`;
  if (b.why === 'chosen') return `${these}: ${n === 1 ? 'it counts' : 'they count'} in your rank, as you chose.`;
  if (b.why === 'too_few') return `${these}: ${n === 1 ? 'it counts' : 'they count'} in your rank, since without them fewer than ${MIN_MARKET_COMPETITORS} competitors are left.`;
  return `${these}: listed without a rank, so you rank against independent competitors first.`;
}

/** A native select (works with the keyboard and screen readers as is), shown when the viewer has
 *  more than one business to look at; choosing one opens its dashboard. */
function BusinessSwitcher({ current, list }: { current: string; list: DashboardBusiness[] }) {
  if (list.length < 2) return null;
  const own = list.filter((b) => b.clientName === null);
  const clients = list.filter((b) => b.clientName !== null);
  // A consultant's /dashboard is the portfolio of all of them.
  const portfolio = clients.length > 0 && <a className="btn btn-ghost" href="/dashboard">All businesses</a>;
  const option = (b: DashboardBusiness) => (
    <option key={b.id} value={b.id}>
      {b.clientName ? `${b.clientName} · ${b.company}` : b.company} ({b.city}, {b.state})
    </option>
  );
  return (
    <>
      {portfolio}
      <label className="switcher">
        <span>Business</span>
        <select data-testid="business-switcher" value={list.some((b) => b.id === current) ? current : ''} onChange={(e) => e.target.value && window.location.assign(`/dashboard/${encodeURIComponent(e.target.value)}`)}>
          {!list.some((b) => b.id === current) && <option value="">Choose a business</option>}
          {own.length > 0 && clients.length > 0 ? <optgroup label="Your businesses">{own.map(option)}</optgroup> : own.map(option)}
          {clients.length > 0 && <optgroup label="Clients">{clients.map(option)}</optgroup>}
        </select>
      </label>
    </>
  );
}

function Delta({ value, since, short = false }: { value: number | null; since: number | null; short?: boolean }) {
  if (value === null || since === null) return <p className="delta none">{short ? 'First snapshot' : 'First snapshot: change shows after the next analysis'}</p>;
  const dir = value > 0 ? 'up' : value < 0 ? 'down' : 'flat';
  return (
    <p className={`delta ${dir}`}>
      <span className="delta-value">{dir === 'up' ? '▲' : dir === 'down' ? '▼' : '■'} {fmtDelta(value)}</span> since {fmtDate(since)}
    </p>
  );
}

function Bar({ percent, band }: { percent: number; band: string }) {
  return (
    <div className="bar" role="presentation">
      <span className={`band-bg-solid-${band}`} style={{ width: `${percent}%` }} />
    </div>
  );
}

/** The mean of the scores that have a number. */
function fmtAverage(values: ReadonlyArray<number | null>): string {
  const known = values.filter((v): v is number => v !== null);
  return fmtScore(known.length ? known.reduce((s, v) => s + v, 0) / known.length : null);
}

function ScoreBadge({ score }: { score: number | null }) {
  if (score === null) return <span className="score-badge">{NOT_ENOUGH_DATA}</span>;
  const band = scoreBand(score);
  return <span className={`score-badge band-bg-${band}`} title={BAND_LABELS[band]}>{fmtScore(score)}</span>;
}

function DashboardView({ view, businesses, onRankWithBranches }: { view: DashboardView; businesses: DashboardBusiness[]; onRankWithBranches: (counted: boolean) => void }) {
  const { business, scores } = view;
  const band = scoreBand(scores.overall);
  return (
    <div className="dash container" data-testid="dashboard">
      <header className="dash-head">
        <div>
          <p className="eyebrow">Business dashboard</p>
          <h1>{business.company}</h1>
          <p className="muted">
            {business.city}, {business.state}
            {view.latestAt !== null && <> · Last analysed {fmtDate(view.latestAt)}</>}
          </p>
        </div>
        <nav className="dash-nav" aria-label="Dashboard">
          <BusinessSwitcher current={business.id} list={businesses} />
          {view.earlyWarning && <span className="badge enterprise-badge">Enterprise+</span>}
          {view.earlyWarning && (
            <a className="btn btn-secondary" href={`/early-warning/${encodeURIComponent(business.id)}`}>
              <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round"><path d="M12 3 2 20h20L12 3zm0 7v4m0 3v.5" /></svg>
              Early Warning
            </a>
          )}
        </nav>
      </header>

      {business.sampleData && (
        <p className="sample-banner" role="note">
          <strong>{SAMPLE_DATA_LABEL}.</strong> {SAMPLE_DATA_NOTE}
        </p>
      )}

      <section className="kpis" aria-label="Summary">
        <div className="card kpi">
          <p className="label">Overall Score</p>
          {scores.overall === null ? (
            <p className="kpi-value" data-testid="overall-score">{NOT_ENOUGH_DATA}</p>
          ) : (
            <>
              <p className={`kpi-value band-${band}`} data-testid="overall-score">{fmtScore(scores.overall)}<span>/10</span></p>
              <span className={`badge band-bg-${band}`}>{BAND_LABELS[band]}</span>
              <Bar percent={progressPercent(scores.overall)} band={band} />
            </>
          )}
          <Delta value={view.overallDelta} since={view.previousAt} />
        </div>
        <div className="card kpi">
          <p className="label">Market Rank</p>
          <p className="kpi-value" data-testid="market-rank">{!view.hasMarket ? NO_MARKET : view.overallRank === null ? NOT_ENOUGH_DATA : <>#{view.overallRank}<span> of {view.total}</span></>}</p>
          <p className="muted small" data-testid="market-rank-note">
            {view.hasMarket
              ? `Among your business and ${view.total - 1} ${view.branches && !view.branches.counted ? 'independent ' : ''}local competitors, by overall score.`
              : view.total - 1 === 0
                ? `No competitor was found within ${SEARCH_RADIUS_MILES} miles: no rank and no share of the market. Your scores below are your own findings.`
                : `Only ${view.total - 1} competitor${view.total - 1 === 1 ? '' : 's'} within ${SEARCH_RADIUS_MILES} miles: a rank needs at least ${MIN_MARKET_COMPETITORS}.`}
          </p>
          {view.branches && (
            <>
              <p className="muted small" data-testid="branches-note">{branchesNote(view)}</p>
              <BranchesToggle businessId={view.business.id} branches={view.branches} onSaved={onRankWithBranches} />
            </>
          )}
          {view.marketAverage && (
            <p className="muted small">
              Market average {fmtAverage((['reviews', 'digitalPresence', 'engagement', 'marketShare'] as const).map((k) => view.marketAverage![k]))} on the four scores.
            </p>
          )}
        </div>
      </section>

      <section className="metric-grid" aria-label="Scores">
        {view.cards.map((card) => {
          const b = scoreBand(card.score);
          // Every score, Market Share included, is 1-10 and drawn as such; the review share is a percent, written as one.
          const percent = progressPercent(card.score);
          return (
            <div className="card metric" key={card.key} data-testid={`metric-${card.key}`}>
              <div className="metric-top">
                <h2>{SCORE_LABELS[card.key]}</h2>
                {card.rank !== null && <span className="rank-chip">Rank #{card.rank}</span>}
              </div>
              {card.score === null ? <p className="metric-score">{card.key === 'marketShare' && !view.hasMarket ? NO_MARKET : NOT_ENOUGH_DATA}</p> : <p className={`metric-score band-${b}`}>{fmtScore(card.score)}<span>/10</span></p>}
              {card.score !== null && <Bar percent={percent} band={b} />}
              {card.key === 'marketShare' && card.percent !== null && <p className="muted small" data-testid="review-share">Review share: {card.percent.toFixed(2)}% of local reviews</p>}
              <Delta value={card.delta} since={view.previousAt} short />
            </div>
          );
        })}
      </section>

      <section className="chart-grid">
        <div className="card">
          <h2 className="card-title">90-Day Trend</h2>
          {!view.trendsIncluded ? (
            <p className="chart-empty">Trends are not part of your plan.</p>
          ) : (
            <TrendHistory points={view.trend} days={TREND_DAYS} reanalysisDays={view.reanalysisDays} />
          )}
        </div>
        <div className="card">
          <h2 className="card-title">Market Position</h2>
          {view.marketAverage ? (
            <RadarChart business={scores} market={view.marketAverage} name={business.company} />
          ) : (
            <p className="chart-empty" data-testid="radar-empty">No competitors were found in the latest analysis, so there is no market average to compare with yet.</p>
          )}
        </div>
      </section>

      <VisibilityCard visibility={view.visibility} trend={view.solvTrend} businessId={view.business.id} keywords={view.business.visibilityKeywords ?? []} />

      <AiAnswersCard businessId={view.business.id} />

      {view.profile && <ProfileCard profile={view.profile} businessId={view.business.id} connectHref={connectUrl(view.business.id)} />}

      <section className="card flush block" aria-labelledby="competitors-title">
        <h2 className="card-title padded" id="competitors-title">Competitors <span className="count">{view.competitors.length}</span></h2>
        <div className="table-wrap">
          <table className="table" data-testid="competitor-table">
            <thead>
              <tr>
                <th scope="col" className="num">Rank</th>
                <th scope="col">Business</th>
                <th scope="col" className="num">Rating</th>
                <th scope="col" className="num">Reviews</th>
                <th scope="col">Website</th>
                <th scope="col" className="num">Distance</th>
                <th scope="col" className="num">Overall</th>
              </tr>
            </thead>
            <tbody>
              {view.table.map((c) => (
                <CompetitorRowView key={c.id} c={c} />
              ))}
            </tbody>
          </table>
        </div>
      </section>

      {view.details.length > 0 && (
        <section className="block" aria-labelledby="details-title">
          <h2 id="details-title" className="section-title">Detailed Competitor Metrics</h2>
          <div className="detail-grid">
            {view.details.map((c) => (
              <div className="card detail" key={c.id} data-testid="competitor-detail">
                <div className="metric-top">
                  <h3>{c.name}</h3>
                  <ScoreBadge score={c.scores!.overall} />
                </div>
                {(['reviews', 'digitalPresence', 'engagement', 'marketShare'] as const).map((k) => {
                  const value = c.scores![k];
                  const b = scoreBand(value);
                  const percent = progressPercent(value);
                  return (
                    <div className="detail-row" key={k}>
                      <div className="detail-label">
                        <span>{SCORE_LABELS[k]}</span>
                        <strong>{fmtScore(value)}{value !== null && <span className="muted">/10</span>}</strong>
                      </div>
                      {value !== null && <Bar percent={percent} band={b} />}
                      {k === 'marketShare' && c.scores!.marketSharePercent !== null && <p className="muted small">Review share: {c.scores!.marketSharePercent.toFixed(2)}%</p>}
                    </div>
                  );
                })}
              </div>
            ))}
          </div>
        </section>
      )}
    </div>
  );
}

/** The states of a website that works for a visitor (the rest are not a site of its own yet, or warn). */
const WORKS = new Set(['read', 'slow', 'too_large', 'script_rendered']);

/** Competitors: whether their listing names a website (spec: only Available or N/A). The business
 *  itself: how its website was met (decision 0217: works, slowly, very large, drawn by JavaScript,
 *  refuses automated visitors, did not answer; decision 0230: a social, link-in-bio or marketplace
 *  page, parked, a placeholder, password protected, a certificate warning, an error page); on
 *  older snapshots, whether it answered. */
function websiteCell(c: CompetitorView) {
  if (c.isYou && c.siteState) return <span className={WORKS.has(c.siteState) ? 'site yes' : c.siteState === 'refused' ? 'muted' : 'site no'}>{SITE_STATE_LABELS[c.siteState]}</span>;
  if (c.isYou && c.siteReachable === false) return <span className="site no">Did not answer</span>;
  if (c.isYou && c.siteReachable === null) return <span className="muted">Not checked</span>;
  return c.website ? <span className="site yes">Available</span> : <span className="site no">N/A</span>;
}

function CompetitorRowView({ c }: { c: CompetitorView }) {
  return (
    <tr className={c.isYou ? 'you' : undefined} data-testid={c.isYou ? 'own-row' : undefined}>
      <td className="num" data-label="Rank">{c.rank === null ? '–' : `#${c.rank}`}</td>
      <th scope="row">
        {c.name}
        {c.isYou && <span className="you-tag"> (you)</span>}
        {c.yourBrand && <span className="brand-tag">your brand</span>}
        {c.address && <span className="addr">{c.address}</span>}
      </th>
      <td className="num" data-label="Rating">
        {c.rating === null ? <span className="muted">–</span> : <span className={`rating rating-${ratingColour(c.rating)}`}>★ {c.rating.toFixed(1)}</span>}
      </td>
      <td className="num" data-label="Reviews">{c.reviewCount ?? '–'}{c.fromProfile && <span className="muted small from-profile" data-testid="own-reviews-source">from your Google Business Profile</span>}</td>
      <td data-label="Website">{websiteCell(c)}</td>
      <td className="num" data-label="Distance">{c.distance === null ? '–' : `${c.distance.toFixed(2)} mi`}</td>
      <td className="num" data-label="Overall">{c.scores ? <ScoreBadge score={c.scores.overall} /> : '–'}</td>
    </tr>
  );
}
