// /clients: a consultant's clients with their latest overall score, rank, change since the last
// report and next scheduled report; search; add a client (its first report goes out at once). A
// row still being analysed fills in by itself. A consultant whose plan lacks client management
// (or a business owner) is told so from the session, before any call (decision 0226).
import { useEffect, useMemo, useState } from 'react';
import { scoreBand } from '../../../common/constants.ts';
import { ApiError, apiRequest } from '../../lib/api.ts';
import { loginFor } from '../../lib/auth-redirect.ts';
import { accessOf, planLockNow, screenAccess } from '../../lib/plan-access.ts';
import { checkSession } from '../../lib/session.ts';
import { Loading, StateCard } from '../dashboard/dashboard-states.tsx';
import { LockedScreen, refusalLock, type ConsultantFeature, type Lock } from '../ui/locked-screen.tsx';
import ClientForm from './client-form.tsx';
import { fmtChange, fmtDay, scoreText, type ClientSummary, type ProfileOption } from './clients-data.ts';
import '../dashboard/dashboard.css';
import './clients.css';

const ANALYSING_POLL_MS = 4000;
/** About 20 minutes: past that a first report has failed or waits on a provider; a reload reads it. */
const ANALYSING_POLLS = 300;

type State = { status: 'loading' } | { status: 'ready'; clients: ClientSummary[]; profiles: ProfileOption[] | null } | { status: 'error'; error: unknown } | { status: 'locked'; lock: Lock };

/** The agency's branding profiles, or null on a plan without branding (not asked for, then). */
export async function loadProfiles(): Promise<ProfileOption[] | null> {
  const session = await checkSession();
  if (session.status === 'signed-in' && !accessOf(session, 'whiteLabel').open) return null;
  try {
    return (await apiRequest<{ profiles: ProfileOption[] }>('GET', '/api/branding-profiles')).profiles;
  } catch (error) {
    if (error instanceof ApiError && error.status === 403) return null;
    throw error;
  }
}

/** Why a consultant screen cannot be shown; `title` names the screen (the clients', by default),
 *  `feature` what it needs. A refusal is the locked screen: the upgrade card, or a business
 *  owner's note. */
export function AccessError({ error, title = 'Client Management', feature = 'clientManagement' }: { error: unknown; title?: string; feature?: ConsultantFeature }) {
  const here = typeof window === 'undefined' ? '/clients' : window.location.pathname;
  if (error instanceof ApiError && error.status === 401)
    return <StateCard state="login" icon="lock" title="Login Required" text="Please log in to manage your clients." action="Go to Login" href={loginFor(here)} />;
  if (error instanceof ApiError && error.status === 403) {
    const lock: Lock = error.details.code === 'plan_required' ? planLockNow(feature) : { open: false, reason: 'role' };
    return <LockedScreen feature={feature} lock={lock} title={title} text={error.details.message} />;
  }
  if (error instanceof ApiError && error.status === 404)
    return <StateCard state="not-found" icon="search" title="Client Not Found" text="This client could not be found. It may have been deleted." action="All Clients" href="/clients" />;
  return <StateCard state="error" icon="warning" title="Something Went Wrong" text="Your clients could not be loaded. Please try again." action="Try Again" href={here} />;
}

export default function ClientsPage() {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [query, setQuery] = useState('');
  const [adding, setAdding] = useState(false);
  const [showArchived, setShowArchived] = useState(false);

  useEffect(() => {
    void screenAccess('clientManagement').then((access) => {
      if (access.status === 'locked') return setState({ status: 'locked', lock: access.access });
      Promise.all([apiRequest<{ clients: ClientSummary[] }>('GET', '/api/clients'), loadProfiles()])
        .then(([{ clients }, profiles]) => setState({ status: 'ready', clients, profiles }))
        .catch(async (error: unknown) => {
          const lock = await refusalLock(error, 'clientManagement');
          setState(lock ? { status: 'locked', lock } : { status: 'error', error });
        });
    });
  }, []);

  // A client still being analysed: the list is read again every few seconds until its first
  // snapshot is there, so the row fills in without a reload (a first report takes seconds to minutes).
  const analysing = state.status === 'ready' && state.clients.some((c) => !c.archived && c.business && !c.latest);
  useEffect(() => {
    if (!analysing) return;
    let polls = 0;
    const timer = setInterval(() => {
      if (++polls > ANALYSING_POLLS) return clearInterval(timer);
      apiRequest<{ clients: ClientSummary[] }>('GET', '/api/clients').then(
        ({ clients }) => setState((s) => (s.status === 'ready' ? { ...s, clients } : s)),
        () => undefined, // a failed poll is retried by the next one
      );
    }, ANALYSING_POLL_MS);
    return () => clearInterval(timer);
  }, [analysing]);

  const shown = useMemo(() => {
    if (state.status !== 'ready') return [];
    const q = query.trim().toLowerCase();
    return state.clients
      .filter((c) => showArchived || !c.archived)
      .filter((c) => !q || [c.clientName, c.clientEmail, c.business?.company ?? '', c.business?.city ?? '', c.notes ?? ''].some((s) => s.toLowerCase().includes(q)));
  }, [state, query, showArchived]);

  if (state.status === 'loading') return <Loading />;
  if (state.status === 'locked') return <LockedScreen feature="clientManagement" lock={state.lock} title="Client Management" />;
  if (state.status === 'error') return <AccessError error={state.error} />;
  const archivedCount = state.clients.filter((c) => c.archived).length;

  return (
    <div className="dash container clients" data-testid="clients">
      <header className="dash-head">
        <div>
          <p className="eyebrow">Client management</p>
          <h1>Your clients</h1>
          <p className="muted">Each client gets a report on the schedule you choose, with you in copy.{state.profiles !== null && ' Reports go out in your branding.'}</p>
        </div>
        <nav className="dash-nav" aria-label="Clients">
          {state.profiles !== null && <a className="btn btn-secondary" href="/branding">Branding Settings</a>}
          <button type="button" className="btn btn-primary" onClick={() => setAdding(true)} disabled={adding}>Add Client</button>
        </nav>
      </header>

      {adding && (
        <ClientForm
          profiles={state.profiles}
          onCancel={() => setAdding(false)}
          onSaved={(c) => {
            setAdding(false);
            setState({ ...state, clients: [...state.clients, c].sort((a, b) => a.clientName.localeCompare(b.clientName)) });
          }}
        />
      )}

      <section className="card flush" aria-labelledby="clients-title">
        <div className="clients-bar padded">
          <h2 className="card-title" id="clients-title">
            Clients <span className="count">{shown.length}</span>
          </h2>
          <label className="clients-search">
            <span className="sr-only">Search clients</span>
            <input className="input" type="search" placeholder="Search by name, e-mail, business or city" value={query} onChange={(e) => setQuery(e.target.value)} />
          </label>
          {archivedCount > 0 && (
            <label className="checkbox">
              <input type="checkbox" checked={showArchived} onChange={(e) => setShowArchived(e.target.checked)} /> Show archived ({archivedCount})
            </label>
          )}
        </div>
        {state.clients.length === 0 ? (
          <p className="clients-empty">No clients yet. Add your first client: we analyse their business against its top local competitors and e-mail them the report, with you in copy.</p>
        ) : shown.length === 0 ? (
          <p className="clients-empty">No client matches “{query}”.</p>
        ) : (
          <div className="table-wrap" role="region" aria-label="Clients (table)" tabIndex={0}>
            <table className="table clients-table">
              <thead>
                <tr>
                  <th scope="col">Client</th>
                  <th scope="col">Business</th>
                  <th scope="col" className="num">Overall</th>
                  <th scope="col" className="num">Rank</th>
                  <th scope="col" className="num">Change</th>
                  <th scope="col">Next report</th>
                </tr>
              </thead>
              <tbody>
                {shown.map((c) => (
                  <tr key={c.id} data-testid="client-row">
                    <th scope="row">
                      <a className="client-name" href={`/clients/${c.id}`}>{c.clientName}</a>
                      <span className="muted small breakable">{c.clientEmail}</span>
                      {c.archived && <span className="badge">Archived</span>}
                    </th>
                    <td data-label="Business">{c.business ? <>{c.business.company}<span className="muted small">{c.business.city}, {c.business.state}</span></> : '–'}</td>
                    <td className="num" data-label="Overall" data-testid="client-overall">
                      {c.latest ? <span className={`badge ${c.latest.overall === null ? '' : `band-bg-${scoreBand(c.latest.overall)}`}`}>{scoreText(c.latest.overall)}</span> : <span className="muted small">Analysing…</span>}
                    </td>
                    <td className="num" data-label="Rank">{c.latest?.rank ? `#${c.latest.rank} of ${c.latest.of}` : '–'}</td>
                    <td className="num" data-label="Change" data-trend={c.latest?.change ? (c.latest.change > 0 ? 'up' : 'down') : undefined}>{fmtChange(c.latest?.change ?? null)}</td>
                    <td data-label="Next report">{c.nextReport ? fmtDay(c.nextReport) : c.archived ? 'Paused' : '–'}</td>
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
