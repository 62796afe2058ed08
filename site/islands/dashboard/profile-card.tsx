// Calls, website clicks, direction requests and impressions per day for the last 90 days, from the
// connected Google Business Profile's Performance API (issue 48). Shown only when a profile is
// connected (on Early Warning plans); a sample profile says its figures are made up.
import { useEffect, useState } from 'react';
import { apiRequest } from '../../lib/api.ts';

interface Day {
  day: string;
  calls: number;
  websiteClicks: number;
  directionRequests: number;
  impressions: number;
}
interface Metrics {
  connected: boolean;
  connectable: boolean;
  sample: boolean;
  days: Day[];
}

const FIGURES = [
  { key: 'calls', label: 'Calls' },
  { key: 'websiteClicks', label: 'Website Clicks' },
  { key: 'directionRequests', label: 'Direction Requests' },
  { key: 'impressions', label: 'Impressions' },
] as const;

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

export default function ProfileCard({ businessId }: { businessId: string }) {
  const [metrics, setMetrics] = useState<Metrics | null>(null);
  useEffect(() => {
    apiRequest<Metrics>('GET', `/api/business/${encodeURIComponent(businessId)}/google-profile/metrics?days=90`)
      .then(setMetrics)
      .catch(() => setMetrics(null));
  }, [businessId]);
  if (!metrics) return null;
  if (!metrics.connected) {
    if (!metrics.connectable) return null;
    return (
      <section className="card block" aria-labelledby="gp-metrics-title" data-testid="gp-connect-dashboard">
        <h2 className="card-title" id="gp-metrics-title">Google Business Profile</h2>
        <p className="muted">Connect your Google Business Profile to see calls, website clicks and direction requests per day here, and every Google review on Early Warning.</p>
        <a className="btn btn-primary" href={`/connect/google?businessId=${encodeURIComponent(businessId)}`}>Connect Google Business Profile</a>
      </section>
    );
  }
  return (
    <section className="card block" aria-labelledby="gp-metrics-title" data-testid="gp-metrics">
      <h2 className="card-title" id="gp-metrics-title">Google Business Profile, Last 90 Days</h2>
      <p className="muted small">{metrics.sample ? 'Sample Business Profile: example figures, not your real profile. ' : ''}Per day, from your Google Business Profile.</p>
      <div className="gp-metrics">
        {FIGURES.map((f) => {
          const values = metrics.days.map((d) => d[f.key]);
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
