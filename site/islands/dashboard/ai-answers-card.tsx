// The dashboard's "AI answers" section (issue 50): for each keyword's latest scan, how many answers
// of each AI engine named the business ("named in 3 of 5 answers", never a bare percentage), its
// average place, failed asks apart, the sites the answers cite, the competitors named most; then
// each keyword's history with its counts. Sample answers are labelled; a scan waiting for the AI
// budget says until when.
import { useEffect, useState } from 'react';
import { ENGINE_LABELS, failedPhrase, namedPhrase, positionCell, rivalsNamed, SAMPLE_AI_LABEL, scanTotals, sourcesCited, uncertainty, type AiScan } from '../../../common/ai-visibility.ts';
import { apiRequest, messageOf } from '../../lib/api.ts';
import { fmtDay } from './dashboard-data.ts';

type Scan = Omit<AiScan, 'cost'>;
interface AiVisibility {
  waitingUntil: string | null;
  scans: Scan[];
}

function latestPerKeyword(scans: Scan[]): Scan[] {
  const seen = new Set<string>();
  return scans.filter((s) => (seen.has(s.keyword) ? false : (seen.add(s.keyword), true)));
}

function KeywordScan({ scan, history }: { scan: Scan; history: Scan[] }) {
  const sources = sourcesCited(scan);
  const rivals = rivalsNamed(scan);
  return (
    <div className="ai-keyword" data-testid="ai-keyword">
      <h3 className="ai-question">“{scan.question}”</h3>
      <p className="ai-meta">Asked {fmtDay(Date.parse(scan.scannedAt))} from {scan.location}</p>
      <div className="table-wrap">
        <table className="table ai-table" data-testid="ai-engine-table">
          <caption className="sr-only">How often each AI engine named your business for “{scan.keyword}”</caption>
          <thead>
            <tr>
              <th scope="col">AI engine</th>
              <th scope="col">Your business</th>
              <th scope="col">Average position</th>
            </tr>
          </thead>
          <tbody>
            {scan.engines.map((e) => (
              <tr key={e.engine}>
                <th scope="row">{ENGINE_LABELS[e.engine]}</th>
                {e.notAsked ? (
                  <td colSpan={2} data-label="Your business">Not asked: {e.notAsked}</td>
                ) : (
                  <>
                    <td data-label="Your business">
                      {namedPhrase(e.named, e.answered)}
                      {failedPhrase(e.failed, e.asked) && <span className="ai-note">{failedPhrase(e.failed, e.asked)}</span>}
                      {uncertainty(e.answered) && <span className="ai-note">{uncertainty(e.answered)}</span>}
                    </td>
                    <td data-label="Average position">{positionCell(e)}</td>
                  </>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {rivals.length > 0 && (
        <p className="ai-rivals">
          <strong>Also named:</strong>{' '}
          {rivals.join(', ')}
        </p>
      )}
      {sources.length > 0 && (
        <p className="ai-sources">
          <strong>Sources the answers cite:</strong> {sources.join(', ')}
        </p>
      )}
      {history.length > 1 && (
        <details className="ai-history">
          <summary>History of “{scan.keyword}” ({history.length} scans)</summary>
          <ul>
            {history.map((h) => {
              const t = scanTotals(h);
              return (
                <li key={h.scannedAt}>
                  {fmtDay(Date.parse(h.scannedAt))}: {namedPhrase(t.named, t.answered)}
                  {h.sample ? ' (sample)' : ''}
                </li>
              );
            })}
          </ul>
        </details>
      )}
    </div>
  );
}

export default function AiAnswersCard({ businessId }: { businessId: string }) {
  const [data, setData] = useState<AiVisibility | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    apiRequest<AiVisibility>('GET', `/api/business/${encodeURIComponent(businessId)}/ai-visibility`).then(setData, (e: unknown) => setError(messageOf(e, 'The AI answers could not be loaded. Try again in a moment.')));
  }, [businessId]);
  const latest = data ? latestPerKeyword(data.scans) : [];
  return (
    <section className="card block" aria-labelledby="ai-answers-title" data-testid="ai-answers">
      <h2 className="card-title" id="ai-answers-title">AI answers</h2>
      <p className="ai-intro">When people ask an AI assistant for a recommendation, is your business named? Each engine is asked the same question several times, because its answers change from one ask to the next.</p>
      {error && <p role="alert">{error}</p>}
      {!data && !error && <p className="chart-empty">Loading AI answers…</p>}
      {data?.waitingUntil && <p className="sample-banner" data-testid="ai-waiting">A scan is waiting for this month's AI answers budget; it runs from {fmtDay(Date.parse(data.waitingUntil))}.</p>}
      {latest.some((s) => s.sample) && <p className="sample-banner" data-testid="ai-sample">{SAMPLE_AI_LABEL}</p>}
      {data && latest.length === 0 && !data.waitingUntil && <p className="chart-empty">No scan yet: the first runs with your business's next report on a paid plan.</p>}
      {latest.map((s) => (
        <KeywordScan key={s.keyword} scan={s} history={data!.scans.filter((h) => h.keyword === s.keyword)} />
      ))}
      {latest.length > 0 && (
        <p className="ai-foot">
          <a href="/methodology#ai-answers">How AI answers are asked and counted</a>
        </p>
      )}
    </section>
  );
}
