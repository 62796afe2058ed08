// What the dashboard shows while its data is on the way: the page's own frame (heading, the two
// summary cards, the four score cards, the two charts) with grey blocks where the figures go, each
// the size of what replaces it, so the page does not jump when they arrive (issue 40: CLS).
import { SCORE_LABELS } from '../../../common/constants.ts';
import './dashboard-skeleton.css';

const Block = ({ className }: { className: string }) => <span className={`sk ${className}`} aria-hidden="true" />;

export default function DashboardSkeleton() {
  return (
    <div className="dash container dash-skeleton" role="status" aria-busy="true" data-testid="dashboard-skeleton">
      <span className="sr-only">Loading...</span>
      <header className="dash-head" aria-hidden="true">
        <div>
          <p className="eyebrow">Business dashboard</p>
          <h1><Block className="sk-title" /></h1>
          <p className="muted"><Block className="sk-line sk-w40" /></p>
        </div>
      </header>
      <section className="kpis" aria-hidden="true">
        <div className="card kpi">
          <p className="label">Overall Score</p>
          <p className="kpi-value"><Block className="sk-kpi" /></p>
          <Block className="sk-badge" />
          <div className="bar" />
          <p className="delta"><Block className="sk-line sk-w60" /></p>
        </div>
        <div className="card kpi">
          <p className="label">Market Rank</p>
          <p className="kpi-value"><Block className="sk-kpi" /></p>
          <p className="muted small"><Block className="sk-line sk-w80" /></p>
          <p className="muted small"><Block className="sk-line sk-w60" /></p>
        </div>
      </section>
      <section className="metric-grid" aria-hidden="true">
        {Object.values(SCORE_LABELS).map((label) => (
          <div className="card metric" key={label}>
            <div className="metric-top">
              <h2>{label}</h2>
            </div>
            <p className="metric-score"><Block className="sk-score" /></p>
            <div className="bar" />
            <p className="delta"><Block className="sk-line sk-w60" /></p>
          </div>
        ))}
      </section>
      <section className="chart-grid" aria-hidden="true">
        <div className="card">
          <h2 className="card-title">90-Day Trend</h2>
          <Block className="sk-chart sk-trend" />
        </div>
        <div className="card">
          <h2 className="card-title">Market Position</h2>
          <Block className="sk-chart sk-radar" />
        </div>
      </section>
    </div>
  );
}
