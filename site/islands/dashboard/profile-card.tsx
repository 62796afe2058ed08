// The connected Google Business Profile on the dashboard and an agency's client page (issue 48):
// every review's count and average, the last 90 days against the 90 before, the newest reviews,
// and calls, website clicks, direction requests and impressions per day for the last 90 days.
// Drawn from the dashboard answer with the rest of the page (decision 0322), so nothing below it
// moves when it arrives. Without a profile: "Connect" where the server can connect one.
import { ratingColour } from '../../../common/constants.ts';
import type { DashboardProfile } from '../../../common/google-profile.ts';

const FIGURES = [
  { key: 'calls', label: 'Calls' },
  { key: 'websiteClicks', label: 'Website Clicks' },
  { key: 'directionRequests', label: 'Direction Requests' },
  { key: 'impressions', label: 'Impressions' },
] as const;

const fmtDay = (iso: string) => new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric', timeZone: 'UTC' });

function Spark({ values, label }: { values: number[]; label: string }) {
  const max = Math.max(1, ...values);
  const w = 180;
  const h = 36;
  const points = values.map((v, i) => `${((i / Math.max(1, values.length - 1)) * w).toFixed(1)},${(h - (v / max) * h).toFixed(1)}`).join(' ');
  return (
    <svg className="gp-spark" viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" role="img" aria-label={`${label} per day, last ${values.length} days`}>
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" vectorEffect="non-scaling-stroke" />
    </svg>
  );
}

/** "12 in the last 90 days, 4 more than the 90 days before". */
export function trendText(last90: number, previous90: number): string {
  const diff = last90 - previous90;
  const change = diff === 0 ? 'as many as' : `${Math.abs(diff)} ${diff > 0 ? 'more' : 'fewer'} than`;
  return `${last90} in the last 90 days, ${change} the 90 days before`;
}

function Reviews({ reviews, sample, earlyWarningHref }: { reviews: NonNullable<DashboardProfile['reviews']>; sample: boolean; earlyWarningHref: string }) {
  return (
    <div className="gp-reviews-summary" data-testid="gp-dash-reviews">
      <p className="muted small" data-testid="gp-dash-source">{sample ? 'Sample Business Profile: example reviews, not your real profile. ' : ''}Every review, {reviews.label}.</p>
      <div className="gp-figures">
        <div>
          <p className="label">Reviews</p>
          <p className="gp-metric-value" data-testid="gp-dash-count">{reviews.count.toLocaleString('en-US')}</p>
        </div>
        <div>
          <p className="label">Average Rating</p>
          <p className="gp-metric-value" data-testid="gp-dash-average">{reviews.average === null ? '–' : `★ ${reviews.average.toFixed(1)}`}</p>
        </div>
        <div>
          <p className="label">Trend</p>
          <p className="gp-trend" data-testid="gp-dash-trend">{trendText(reviews.last90, reviews.previous90)}</p>
        </div>
      </div>
      {reviews.newest.length > 0 && (
        <>
          <h3 className="gp-subtitle">Newest Reviews</h3>
          <ul className="gp-newest">
            {reviews.newest.map((r) => (
              <li key={r.id} data-testid="gp-dash-review">
                <span className={`rating rating-${ratingColour(r.rating)}`}>★ {r.rating.toFixed(1)}</span>
                <span className="gp-newest-author">{r.author ?? 'A Google user'}</span>
                <span className="muted small">{fmtDay(r.createdAt)}{r.answered ? ' · Answered' : ''}</span>
                {r.text && <p className="gp-newest-text">{r.text}</p>}
              </li>
            ))}
          </ul>
        </>
      )}
      <p className="small"><a href={earlyWarningHref}>Every review and your answers on Early Warning</a></p>
    </div>
  );
}

export default function ProfileCard({ profile, businessId, connectHref }: { profile: DashboardProfile; businessId: string; connectHref: string }) {
  const c = profile.connection;
  if (!c || c.status === 'disconnected') {
    if (!profile.connectable) return null;
    return (
      <section className="card block" aria-labelledby="gp-metrics-title" data-testid="gp-connect-dashboard">
        <h2 className="card-title" id="gp-metrics-title">Google Business Profile</h2>
        <p className="muted">
          {c ? 'Google no longer accepts our access to this profile: connect it again to read its reviews. ' : ''}
          Connect your Google Business Profile to count every Google review here (not only the 5 Google shares publicly), see calls, website clicks and direction requests per day, and answer reviews on Early Warning.
        </p>
        <a className="btn btn-primary" href={connectHref}>Connect Google Business Profile</a>
      </section>
    );
  }
  const sample = c.status === 'sample';
  return (
    <section className="card block" aria-labelledby="gp-metrics-title" data-testid="gp-metrics">
      <h2 className="card-title" id="gp-metrics-title">Google Business Profile</h2>
      {profile.reviews && <Reviews reviews={profile.reviews} sample={sample} earlyWarningHref={`/early-warning/${encodeURIComponent(businessId)}`} />}
      <h3 className="gp-subtitle">Last 90 Days</h3>
      <p className="muted small">{sample ? 'Sample Business Profile: example figures, not your real profile. ' : ''}Per day, from your Google Business Profile.</p>
      <div className="gp-metrics">
        {FIGURES.map((f) => {
          const values = profile.days.map((d) => d[f.key]);
          return (
            <div className="gp-metric" key={f.key}>
              <p className="label">{f.label}</p>
              <p className="gp-metric-value" data-testid={`gp-${f.key}`}>{values.reduce((n, v) => n + v, 0).toLocaleString('en-US')}</p>
              <Spark values={values} label={f.label} />
            </div>
          );
        })}
      </div>
    </section>
  );
}
