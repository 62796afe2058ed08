// The score card: overall score, rank and the four scores, in the agency's colours. Used for the
// lead's own result (after the form) and for a client's scores the agency publishes.
import { NOT_ENOUGH_DATA, SAMPLE_DATA_LABEL } from '../../common/constants.ts';
import type { ScoreCardData } from './types.ts';

const LABELS = { reviews: 'Reviews', digitalPresence: 'Digital presence', engagement: 'Engagement', marketShare: 'Market share' } as const;
// A score without a number says why: "No market" for Market Share without one (decision 0216).
const show = (n: number | null, none = NOT_ENOUGH_DATA) => (n === null ? none : n.toFixed(1));

export function ScoreCardView({ data, agency, website }: { data: ScoreCardData; agency: string; website: string | null }) {
  return (
    <div className="k">
      <p className="m">{data.company}</p>
      <p>
        <span className="b">{show(data.overall)}</span> / 10 overall · {data.rankText}
      </p>
      <ul>
        {(Object.keys(LABELS) as Array<keyof typeof LABELS>).map((key) => (
          <li key={key}>
            {LABELS[key]}
            <b>{show(data.scores[key], data.empty?.[key])}</b>
            <i style={{ width: `${(data.scores[key] ?? 0) * 10}%` }} />
          </li>
        ))}
      </ul>
      {data.sampleData && <p className="m">{`${SAMPLE_DATA_LABEL}.`}</p>}
      {website && /^https?:\/\//i.test(website) && (
        <a href={website} target="_blank" rel="noopener">{`More from ${agency}`}</a>
      )}
    </div>
  );
}
