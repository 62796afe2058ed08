// /clients/{clientId}: one client's scores and history (the dashboard's charts), the reports sent
// with their status, its Early Warning alerts where the plan has them, the branding used, and the
// actions: send the report now, send a test to me, edit, archive, delete. On Early Warning plans,
// the client's Google Business Profile: its reviews and figures, or "Connect" for the agency.
import { useEffect, useState } from 'react';
import { isMarket, NO_MARKET, ratingColour, scoreBand } from '../../../common/constants.ts';
import { apiRequest, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';
import { buildDashboard, type DashboardResponse, type DashboardView } from '../dashboard/dashboard-data.ts';
import { Loading } from '../dashboard/dashboard-states.tsx';
import RadarChart from '../dashboard/radar-chart.tsx';
import { TrendHistory } from '../dashboard/trend-chart.tsx';
import ClientForm from './client-form.tsx';
import { AccessError, loadProfiles } from './clients-page.tsx';
import { FREQUENCY_LABELS, fmtChange, fmtDay, unsubscribedText, mailProblemText, scoreText, STATUS_LABELS, type ClientDetail, type ProfileOption } from './clients-data.ts';
import { platformLabel } from '../early-warning/early-warning-data.ts';
import '../dashboard/dashboard.css';
import VisibilityCard from '../dashboard/visibility-card.tsx';
import ProfileCard from '../dashboard/profile-card.tsx';
import { connectUrl } from '../../../common/google-profile.ts';
import '../early-warning/early-warning.css';
import './clients.css';

type State = { status: 'loading' } | { status: 'ready'; detail: ClientDetail; view: DashboardView | null; profiles: ProfileOption[] | null } | { status: 'error'; error: unknown };

async function load(clientId: string) {
  const [detail, profiles] = await Promise.all([apiRequest<ClientDetail>('GET', `/api/clients/${encodeURIComponent(clientId)}`), loadProfiles()]);
  const businessId = detail.client.business?.id;
  let view: DashboardView | null = null;
  if (businessId && detail.client.latest) {
    const res = await apiRequest<DashboardResponse>('GET', `/api/business/${encodeURIComponent(businessId)}`).catch(() => null);
    view = res ? buildDashboard(res) : null;
  }
  return { detail, view, profiles };
}

export default function ClientPage({ clientId }: { clientId: string }) {
  const [state, setState] = useState<State>({ status: 'loading' });
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState<string | null>(null);
  const reload = () =>
    load(clientId).then(
      (r) => (setState({ status: 'ready', ...r }), r.detail.reports.length),
      (error: unknown) => (setState({ status: 'error', error }), null),
    );
  /** After "Send", the report row appears once the worker has made it: look again every 2 s, for up to 30 s. */
  const reloadUntilMore = async (before: number, tries = 15) => {
    const now = await reload();
    if (now !== null && now <= before && tries > 1) setTimeout(() => void reloadUntilMore(before, tries - 1), 2000);
  };

  useEffect(() => {
    void reload();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [clientId]);

  if (state.status === 'loading') return <Loading />;
  if (state.status === 'error') return <AccessError error={state.error} />;
  const { detail, view, profiles } = state;
  const { client } = detail;

  async function send(to: 'client' | 'me') {
    setBusy(to);
    try {
      const res = await apiRequest<{ queued: boolean; to: string }>('POST', `/api/clients/${client.id}/send`, { to });
      toast({ title: res.queued ? 'Report on Its Way' : 'Already Sending', description: res.queued ? `The report is being prepared for ${res.to}.` : `A report for ${res.to} was asked for a moment ago.` });
      void reloadUntilMore(detail.reports.length);
    } catch (error) {
      toast({ title: 'Could Not Send', description: messageOf(error, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  async function archive(archived: boolean) {
    setBusy('archive');
    try {
      await apiRequest('PATCH', `/api/clients/${client.id}`, { archived });
      toast({ title: archived ? 'Client Archived' : 'Client Restored', description: archived ? 'No scheduled reports go out while archived; the history stays.' : 'Scheduled reports start again.' });
      void reload();
    } catch (error) {
      toast({ title: 'Update Failed', description: messageOf(error, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    setBusy('delete');
    try {
      const preview = await apiRequest<{ clientName: string; reports: number; businessRemoved: boolean }>('GET', `/api/clients/${client.id}/deletion`);
      const what = [
        `the client ${preview.clientName}`,
        `${preview.reports} report${preview.reports === 1 ? '' : 's'} sent for them (their links stop working)`,
        preview.businessRemoved ? `the business ${client.business?.company ?? ''} with its score history, competitors and review alerts` : null,
      ].filter(Boolean);
      if (!window.confirm(`Delete for good:\n• ${what.join('\n• ')}\n\nThis cannot be undone. Archive the client instead to keep the history.`)) return;
      await apiRequest('DELETE', `/api/clients/${client.id}`);
      window.location.assign('/clients');
    } catch (error) {
      toast({ title: 'Delete Failed', description: messageOf(error, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(null);
    }
  }

  const business = client.business;
  const latest = client.latest;
  return (
    <div className="dash container clients" data-testid="client-page">
      <header className="dash-head">
        <div>
          <p className="eyebrow"><a href="/clients">Clients</a> / {client.clientName}</p>
          <h1>{business?.company ?? client.clientName}</h1>
          <p className="muted">
            {business && <>{business.city}, {business.state} · </>}
            <span className="breakable">{client.clientEmail}</span>
            {client.archived && <span className="badge">Archived</span>}
          </p>
        </div>
        <nav className="dash-nav" aria-label="Client actions">
          <button type="button" className="btn btn-primary" onClick={() => void send('client')} disabled={busy !== null || !business || client.unsubscribedAt !== null} aria-describedby={client.unsubscribedAt ? 'client-unsubscribed' : undefined}>{busy === 'client' ? 'Sending...' : 'Send report now'}</button>
          <button type="button" className="btn btn-secondary" onClick={() => void send('me')} disabled={busy !== null || !business}>{busy === 'me' ? 'Sending...' : 'Send a test to me'}</button>
        </nav>
      </header>

      {client.unsubscribedAt && (
        <p className="opt-out-banner" id="client-unsubscribed" role="note" data-testid="client-unsubscribed">
          <strong>{unsubscribedText(client.clientName, client.unsubscribedAt)}</strong> They used the unsubscribe link of a report e-mail, so no report goes to <span className="breakable">{client.clientEmail}</span>, scheduled or sent now, until they ask for a report again with the consent box ticked. Your own copies and tests are not affected.
        </p>
      )}

      {editing && <ClientForm client={client} profiles={profiles} onCancel={() => setEditing(false)} onSaved={() => { setEditing(false); void reload(); }} />}

      <section className="client-facts" aria-label="Client summary">
        <div className="card ew-stat">
          <p className="label">Overall score</p>
          <p className={`ew-stat-value ${latest?.overall ? `band-${scoreBand(latest.overall)}` : ''}`}>{latest ? scoreText(latest.overall) : 'Analysing…'}</p>
        </div>
        <div className="card ew-stat">
          <p className="label">Market rank</p>
          <p className="ew-stat-value">{latest?.rank ? `#${latest.rank} of ${latest.of}` : latest && latest.overall !== null && !isMarket(latest.of - 1) ? NO_MARKET : '–'}</p>
        </div>
        <div className="card ew-stat">
          <p className="label">Change since last report</p>
          <p className="ew-stat-value">{fmtChange(latest?.change ?? null)}</p>
        </div>
        <div className="card ew-stat">
          <p className="label">Next report</p>
          <p className="ew-stat-value small-value">{client.nextReport ? fmtDay(client.nextReport) : client.archived || client.unsubscribedAt ? 'Paused' : '–'}</p>
          <p className="muted small">{client.unsubscribedAt ? 'Unsubscribed' : FREQUENCY_LABELS[client.reportFrequency]}</p>
        </div>
      </section>

      {view && view.analysed && (
        <div className="chart-grid">
          <section className="card" aria-labelledby="client-trend">
            <h2 className="card-title" id="client-trend">90-day trend</h2>
            <TrendHistory points={view.trend} days={90} reanalysisDays={view.reanalysisDays} company={view.business.company} />
          </section>
          <section className="card" aria-labelledby="client-radar">
            <h2 className="card-title" id="client-radar">Market position</h2>
            <RadarChart business={view.scores} market={view.marketAverage ?? view.scores} name={business?.company ?? ''} />
          </section>
        </div>
      )}
      {view && view.analysed && <VisibilityCard visibility={view.visibility} trend={view.solvTrend} businessId={view.business.id} keywords={view.business.visibilityKeywords ?? []} />}
      {/* The agency connects its client's profile here: the same flow, checked against this client (decision 0321). */}
      {view && view.profile && <ProfileCard profile={view.profile} businessId={view.business.id} connectHref={connectUrl(view.business.id, client.id)} />}
      {business && latest && <p className="client-links"><a href={`/dashboard/${business.id}`}>Open the full dashboard</a>{detail.access.earlyWarning && <> · <a href={`/early-warning/${business.id}`}>Early Warning Monitor</a></>}</p>}

      <section className="card flush block" aria-labelledby="reports-title">
        <h2 className="card-title padded" id="reports-title">Reports sent <span className="count">{detail.reports.length}</span></h2>
        {detail.reports.length === 0 ? (
          <p className="clients-empty">No report yet: the first one is being prepared.</p>
        ) : (
          <div className="table-wrap" role="region" aria-label="Reports (table)" tabIndex={0}>
            <table className="table clients-table">
              <thead>
                <tr><th scope="col">Date</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Report</th></tr>
              </thead>
              <tbody>
                {detail.reports.map((r) => (
                  <tr key={r.id} data-testid="report-row">
                    <td>{fmtDay(r.sentAt ?? r.createdAt)}{r.type === 'client-test' && <span className="badge">Test</span>}</td>
                    <td className="breakable">{r.to}{r.cc && <span className="muted small">cc {r.cc}</span>}{r.copy && <span className="muted small" data-testid="report-copy">Your copy: {STATUS_LABELS[r.copy.status].toLowerCase()}</span>}</td>
                    <td>
                      <span className="status-pill" data-status={r.status}>{STATUS_LABELS[r.status]}</span>
                      {r.openedAt && <span className="muted small">{fmtDay(r.openedAt)}</span>}
                      {(r.status === 'waiting' || r.status === 'failed') && <span className="report-problem" data-status={r.status}>{mailProblemText({ status: r.status, since: r.waitingSince, problem: r.problem })}</span>}
                    </td>
                    <td>{r.link ? <a href={r.link}>View</a> : <span className="muted small">Expired</span>}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </section>

      {detail.alerts && (
        <section className="card flush block" aria-labelledby="alerts-title">
          <h2 className="card-title padded" id="alerts-title">Early Warning alerts <span className="count">{detail.alerts.length}</span></h2>
          {detail.alerts.length === 0 ? (
            <p className="clients-empty">No low-rated reviews in the last 90 days.</p>
          ) : (
            <ul className="ew-alerts">
              {detail.alerts.map((a) => (
                <li key={a.id} className="ew-alert">
                  <div className="ew-alert-top">
                    <span className="ew-platform">{platformLabel(a.platform)}</span>
                    <span className="rating" data-colour={ratingColour(a.rating)}>★ {a.rating.toFixed(1)}</span>
                    <span className="ew-author">{a.author ?? 'Anonymous'}</span>
                    <span className="ew-date">{fmtDay(a.date)}</span>
                  </div>
                  {a.text && <p className="ew-text">{a.text}</p>}
                </li>
              ))}
            </ul>
          )}
        </section>
      )}

      <section className="card block client-settings" aria-labelledby="settings-title">
        <h2 className="card-title" id="settings-title">Settings</h2>
        <dl className="client-dl">
          <dt>Branding</dt>
          <dd>{detail.branding ? <>{detail.branding.companyName}{detail.branding.fromDefault && ' (agency default)'} · <a href="/branding">Branding Settings</a></> : detail.access.whiteLabel ? <>LocalRank's own · <a href="/branding">Create a branding profile</a></> : "LocalRank's own (white-label is part of the Agency plan)"}</dd>
          <dt>Notes</dt>
          <dd>{client.notes || '–'}</dd>
          <dt>Client since</dt>
          <dd>{fmtDay(client.createdAt)}</dd>
        </dl>
        <div className="cf-actions">
          <button type="button" className="btn btn-secondary" onClick={() => setEditing(true)} disabled={editing}>Edit</button>
          <button type="button" className="btn btn-secondary" onClick={() => void archive(!client.archived)} disabled={busy !== null}>{client.archived ? 'Restore' : 'Archive'}</button>
          <button type="button" className="btn btn-danger" onClick={() => void remove()} disabled={busy !== null}>Delete…</button>
        </div>
      </section>
    </div>
  );
}
