// The US states as a select's options, after a hidden "State" placeholder.
// A select's placeholder is its first option, hidden rather than disabled, and the select has no
// defaultValue: the browser selects the first option that is not disabled, in the server's HTML and
// after a form reset alike, and nothing in the islands' runtime touches a choice made before it
// loaded (preact/compat's defaultValue sets each option's selected, decision 0330): the report form and
// the client form (the widget has its own, in its smaller runtime).
import { US_STATES } from '../../../common/schemas/report-request-rules.ts';

export function StateOptions() {
  return (
    <>
      <option value="" hidden>State</option>
      {US_STATES.map(([code, name]) => <option key={code} value={code}>{`${code} - ${name}`}</option>)}
    </>
  );
}
