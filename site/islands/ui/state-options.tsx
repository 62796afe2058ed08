// The US states as a select's options, after a disabled "State" placeholder: the report form and
// the client form (the widget has its own, in its smaller runtime).
import { US_STATES } from '../../../common/schemas/report-request-rules.ts';

export function StateOptions() {
  return (
    <>
      <option value="" disabled>State</option>
      {US_STATES.map(([code, name]) => <option key={code} value={code}>{`${code} - ${name}`}</option>)}
    </>
  );
}
