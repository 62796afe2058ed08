// The Early Warning Monitor island: /early-warning/{businessId}. Loads the alerts once, shows the
// stats, the threshold form, the falls of local visibility and the 10 most recent alerts. The
// server decides access and the plan; a plan without the monitor is known from the session first
// and gets the upgrade card, titled Access Denied as spec section 8 has it (decision 0226).
import { useEffect, useState, type FormEvent } from 'react';
import { ALERT_THRESHOLD, EARLY_WARNING_ALERT_LIMIT, ratingColour, SAMPLE_DATA_LABEL, SAMPLE_DATA_NOTE } from '../../../common/constants.ts';
import { isThreshold, THRESHOLD_MESSAGE, THRESHOLD_TITLE } from '../../../common/schemas/early-warning.ts';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';
import { loginFor } from '../../lib/auth-redirect.ts';
import { lockAfterRefusal, screenAccess, type PlanLock } from '../../lib/plan-access.ts';
import { toast } from '../../lib/toasts.ts';
import { Loading, StateCard } from '../dashboard/dashboard-states.tsx';
import { fmtDate } from '../dashboard/dashboard-data.ts';
import UpgradeCard from '../ui/upgrade-card.tsx';
import { fmtRating, fmtShare, loadErrorOf, PLAN_MESSAGE, platformLabel, reviewLink, type AlertRow, type LoadError, type ReviewAlertsResponse } from './early-warning-data.ts';
import '../dashboard/dashboard.css';
import './early-warning.css';
import { MONITOR_REACH } from '../../../common/review-reach.ts';
import GoogleProfile from './google-profile.tsx';

type State = { status: 'loading' } | { status: 'ready'; data: ReviewAlertsResponse } | { status: 'error'; error: LoadError } | { status: 'locked'; access: PlanLock; message: string };

export default function EarlyWarning({ businessId }: { businessId: string }) {
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    void screenAccess('earlyWarning').then((access) => {
      // Not in the plan: said at once, without asking for alerts the server would refuse.
      if (access.status === 'locked' && access.access.reason === 'plan') return setState({ status: 'locked', access: access.access, message: PLAN_MESSAGE });
      apiRequest<ReviewAlertsResponse>('GET', `/api/business/${encodeURIComponent(businessId)}/review-alerts`)
        .then((data) => setState({ status: 'ready', data }))
        .catch(async (error: unknown) => {
          const loadError = loadErrorOf(error);
          // The plan lapsed since the session was cached: the same card, with the server's words.
          if (loadError.kind === 'denied' && error instanceof ApiError && error.details.code === 'plan_required') {
            return setState({ status: 'locked', access: await lockAfterRefusal('earlyWarning'), message: loadError.message });
          }
          setState({ status: 'error', error: loadError });
        });
    });
  }, [businessId]);

  if (state.status === 'loading') return <Loading />;
  if (state.status === 'locked') return <UpgradeCard feature="earlyWarning" access={state.access} title="Access Denied" text={state.message} />;
  if (state.status === 'error') return <ErrorCard error={state.error} />;
  return <Monitor data={state.data} onThreshold={(threshold) => setState({ status: 'ready', data: { ...state.data, threshold } })} />;
}

function ErrorCard({ error }: { error: LoadError }) {
  const here = typeof window === 'undefined' ? '/' : window.location.pathname + window.location.search;
  const s =
    error.kind === 'login'
      ? { icon: 'lock' as const, title: 'Login Required', text: 'Please log in to view the Early Warning Monitor.', action: 'Go to Login', href: loginFor(here) }
      : error.kind === 'not-found'
        ? { icon: 'search' as const, title: 'Business Not Found', text: "The business you're trying to monitor could not be found or hasn't been set up for monitoring yet.", action: 'Go to Dashboard', href: '/dashboard' }
        : { icon: 'warning' as const, title: 'Access Denied', text: error.message, action: 'See Plans', href: '/#pricing' };
  return <StateCard state={error.kind} {...s} />;
}

function Monitor({ data, onThreshold }: { data: ReviewAlertsResponse; onThreshold: (t: number) => void }) {
  const { business, stats, alerts } = data;
  return (
    <div className="dash ew container" data-testid="early-warning">
      <header className="dash-head">
        <div>
          <p className="eyebrow">Early Warning Monitor</p>
          <h1>{business.companyName}</h1>
          <p className="muted">{business.city}, {business.state}</p>
        </div>
        <nav className="dash-nav" aria-label="Early Warning">
          <a className="btn btn-secondary" href={`/dashboard/${encodeURIComponent(business.id)}`}>
            <svg width="18" height="18" viewBox="0 0 24 24" aria-hidden="true" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round"><path d="M15 18l-6-6 6-6" /></svg>
            Back to Dashboard
          </a>
        </nav>
      </header>

      {business.sampleData && (
        <p className="sample-banner" role="note" data-testid="sample-note">
          <strong>{SAMPLE_DATA_LABEL}.</strong> {SAMPLE_DATA_NOTE} The reviews and reviewers below are made up.
        </p>
      )}

      <section className="ew-stats" aria-label="Alert statistics">
        <Stat label="Total Alerts" value={String(stats.total)} testId="stat-total" />
        <Stat label="Last 30 Days" value={String(stats.last30Days)} testId="stat-last30" />
        <Stat label="Average Rating" value={stats.averageRating === null ? '–' : `★ ${fmtRating(stats.averageRating)}`} tone={stats.averageRating === null ? undefined : ratingColour(stats.averageRating)} testId="stat-average" />
        <Stat label="Alert Threshold" value={`★ ${fmtRating(data.threshold)}`} testId="stat-threshold" />
      </section>

      <p className="muted small" data-testid="review-reach">{MONITOR_REACH}</p>

      <ThresholdForm businessId={business.id} threshold={data.threshold} onSaved={onThreshold} />

      {data.visibility && <VisibilityFalls visibility={data.visibility} days={data.alertWindowDays ?? 90} businessId={business.id} />}

      <section className="card flush block" aria-labelledby="alerts-title">
        <h2 className="card-title padded" id="alerts-title">
          Recent Alerts <span className="count">{alerts.length}</span>
        </h2>
        {alerts.length === 0 ? (
          <p className="ew-empty" data-testid="alerts-empty">
            No alerts yet. Each analysis of your business reads its latest reviews; any review of the last {data.alertWindowDays ?? 90} days rated at or below your threshold shows up here.
          </p>
        ) : (
          <ul className="ew-alerts" data-testid="alert-list">
            {alerts.slice(0, EARLY_WARNING_ALERT_LIMIT).map((a) => (
              <AlertItem key={a.id} alert={a} />
            ))}
          </ul>
        )}
      </section>

      <GoogleProfile businessId={business.id} />
    </div>
  );
}

function Stat({ label, value, tone, testId }: { label: string; value: string; tone?: string; testId: string }) {
  return (
    <div className="card ew-stat">
      <p className="label">{label}</p>
      <p className={`ew-stat-value${tone ? ` rating-${tone}` : ''}`} data-testid={testId}>{value}</p>
    </div>
  );
}

function ThresholdForm({ businessId, threshold, onSaved }: { businessId: string; threshold: number; onSaved: (t: number) => void }) {
  const [value, setValue] = useState(threshold.toFixed(1));
  const [pending, setPending] = useState(false);
  const [invalid, setInvalid] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const n = value.trim() === '' ? NaN : Number(value);
    setInvalid(!isThreshold(n));
    if (!isThreshold(n)) {
      toast({ title: THRESHOLD_TITLE, description: THRESHOLD_MESSAGE, variant: 'destructive' });
      return;
    }
    setPending(true);
    try {
      const res = await apiRequest<{ threshold: number }>('PUT', `/api/business/${encodeURIComponent(businessId)}/alert-threshold`, { threshold: n });
      onSaved(res.threshold);
      setValue(res.threshold.toFixed(1));
      toast({ title: 'Threshold Updated', description: 'Alert threshold has been successfully updated.' });
    } catch (error) {
      const field = error instanceof ApiError ? error.details.fields?.threshold : undefined;
      setInvalid(Boolean(field));
      toast({ title: 'Update Failed', description: field ?? messageOf(error, 'Failed to update alert threshold.'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  }

  return (
    <section className="card block ew-threshold" aria-labelledby="threshold-title">
      <h2 className="card-title" id="threshold-title">Alert Threshold</h2>
      <form className="ew-threshold-form" onSubmit={submit} noValidate>
        <div className="field">
          <label htmlFor="alert-threshold">Alert me about reviews rated at or below</label>
          <input
            id="alert-threshold"
            className="input"
            type="number"
            inputMode="decimal"
            min={ALERT_THRESHOLD.min}
            max={ALERT_THRESHOLD.max}
            step={ALERT_THRESHOLD.step}
            value={value}
            aria-invalid={invalid || undefined}
            aria-describedby="alert-threshold-range"
            onChange={(e) => {
              setValue(e.target.value);
              setInvalid(false);
            }}
          />
        </div>
        <button className="btn btn-primary" type="submit" disabled={pending}>
          {pending && <span className="spinner" aria-hidden="true" />}
          {pending ? 'Updating...' : 'Save Threshold'}
        </button>
      </form>
      <p className="muted small" id="alert-threshold-range">
        From {ALERT_THRESHOLD.min.toFixed(1)} to {ALERT_THRESHOLD.max.toFixed(1)} stars, in steps of {ALERT_THRESHOLD.step}. A new threshold applies to the reviews found by the next analysis; alerts already raised stay.
      </p>
    </section>
  );
}

function VisibilityFalls({ visibility, days, businessId }: { visibility: NonNullable<ReviewAlertsResponse['visibility']>; days: number; businessId: string }) {
  const { latest, drops, dropPoints } = visibility;
  return (
    <section className="card flush block" aria-labelledby="visibility-title" data-testid="visibility-falls">
      <h2 className="card-title padded" id="visibility-title">
        Local Visibility <span className="count">{drops.length}</span>
      </h2>
      {latest === null ? (
        <p className="ew-empty">Share of Local Voice has not been measured for this business yet. Each analysis measures it on a grid of local searches around the business; see the <a href={`/dashboard/${encodeURIComponent(businessId)}`}>dashboard</a>.</p>
      ) : (
        <>
          <p className="ew-empty">
            Share of Local Voice: <strong data-testid="visibility-latest">{fmtShare(latest.solv)}</strong> in the scan of {fmtDate(latest.at)}.{' '}
            {drops.length === 0 ? `No fall of ${dropPoints} points or more from the scan a week before in the last ${days} days.` : `Falls of ${dropPoints} points or more from the scan a week before, last ${days} days:`}
          </p>
          {drops.length > 0 && (
            <ul className="ew-alerts">
              {drops.map((d) => (
                <li className="ew-alert ew-alert-top" key={d.at} data-testid="visibility-fall">
                  <span className="rating rating-red">−{(d.previousSolv - d.solv).toFixed(2)} points</span>
                  <span>
                    {fmtShare(d.previousSolv)} → {fmtShare(d.solv)}
                  </span>
                  <span className="ew-date">
                    {fmtDate(d.previousAt)} → {fmtDate(d.at)}
                  </span>
                </li>
              ))}
            </ul>
          )}
        </>
      )}
    </section>
  );
}

function AlertItem({ alert }: { alert: AlertRow }) {
  const link = reviewLink(alert.reviewUrl);
  return (
    <li className="ew-alert" data-testid="alert">
      <div className="ew-alert-top">
        <span className={`rating rating-${ratingColour(alert.reviewRating)}`} aria-label={`Rated ${fmtRating(alert.reviewRating)} stars`}>★ {fmtRating(alert.reviewRating)}</span>
        <span className="ew-platform">{platformLabel(alert.platform)}</span>
        <span className="ew-author">{alert.reviewAuthor ?? 'Anonymous'}</span>
        <span className="ew-date">{fmtDate(alert.reviewDate ?? alert.createdAt)}</span>
      </div>
      {alert.reviewText && <p className="ew-text">{alert.reviewText}</p>}
      {link && (
        <a className="ew-link" href={link} target="_blank" rel="noopener noreferrer nofollow">
          View review
        </a>
      )}
    </li>
  );
}
