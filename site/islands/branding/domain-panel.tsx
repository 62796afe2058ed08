// A branding profile's report domain on /branding (decisions 0172, 0213): add a host of the
// agency's own, the DNS records to create (each value with a copy button), "Check DNS", and the state: verified; a claim not
// verified yet (which holds nothing: the first account to verify gets the domain, and it ends on
// its date); or a note that a claim was released (another account verified first, or 7 days).
import { useState, type FormEvent } from 'react';
import type { DnsRecord } from '../../../api/services/report-domains/records.ts';
import type { DomainSetup } from '../../../api/services/report-domains/domains.ts';
import type { ReleasedDomain } from '../../../db/schema/consultants.ts';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';
import CopyButton from '../ui/copy-button.tsx';

const day = (iso: string) => new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

function ReleasedNote({ released, onDismiss }: { released: ReleasedDomain; onDismiss: () => void }) {
  return (
    <div className="domain-released" role="status" data-testid="domain-released">
      <p>
        <strong>{released.domain}</strong> is no longer claimed by this profile (since {day(released.at)}):{' '}
        {released.reason === 'taken'
          ? 'another account proved it controls the domain with its DNS TXT record first, so it is theirs now. If the domain is yours, check who can change its DNS records, then add it again.'
          : 'its TXT record was not found within 7 days. Add it again once the DNS records are in place.'}
      </p>
      <button type="button" className="btn-link" onClick={onDismiss}>Dismiss</button>
    </div>
  );
}

const POINTS_AT: Record<DnsRecord['type'], string | null> = {
  CNAME: null,
  A: 'This service is reached at an IPv4 address, so the domain points at it with an A record (a CNAME can only name a host name).',
  AAAA: 'This service is reached at an IPv6 address, so the domain points at it with an AAAA record (a CNAME can only name a host name).',
  TXT: null,
};

/** Parts up to this long are kept on one line (18 characters fit beside the copy button on a
 *  320 px screen); longer ones wrap where the browser can (after a hyphen, else anywhere). */
const KEEP_WHOLE = 18;

/** A host name or record value that wraps, when it must, after a dot or an "=": never inside a
 *  DNS label ("_report-/domain") that fits on a line. */
function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[.=])/);
  return <>{parts.map((part, i) => <span key={i} className={part.length <= KEEP_WHOLE ? 'dns-part' : undefined}>{i > 0 && <wbr />}{part}</span>)}</>;
}

/** One record: its type, name and value on rows of their own, each value with a copy button. */
function DnsRecordView({ record, id }: { record: DnsRecord; id: string }) {
  const hint = POINTS_AT[record.type];
  return (
    <section className="dns-record" aria-label={`${record.type} record`} data-testid={`dns-record-${record.type}`}>
      <dl>
        <div className="dns-row">
          <dt>Type</dt>
          <dd><code className="dns-type">{record.type}</code></dd>
        </div>
        <div className="dns-row">
          <dt>Name</dt>
          <dd>
            <code className="dns-value" id={`${id}-name`} data-testid={`dns-${record.type}-name`}><Breakable text={record.name} /></code>
            <CopyButton text={record.name} what={`the ${record.type} record's name`} targetId={`${id}-name`} />
          </dd>
        </div>
        <div className="dns-row">
          <dt>Value</dt>
          <dd>
            <code className="dns-value" id={`${id}-value`} data-testid={`dns-${record.type}`}><Breakable text={record.value} /></code>
            <CopyButton text={record.value} what={`the ${record.type} record's value`} targetId={`${id}-value`} />
          </dd>
        </div>
      </dl>
      {hint && <p className="muted small dns-hint">{hint}</p>}
    </section>
  );
}

export default function DomainPanel({ profileId, domain, released, onChanged }: { profileId: string; domain: DomainSetup | null; released: ReleasedDomain | null; onChanged: () => void }) {
  const [error, setError] = useState('');
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);
  const path = `/api/branding-profiles/${encodeURIComponent(profileId)}/domain`;

  async function add(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      await apiRequest('PUT', path, { domain: String(new FormData(event.currentTarget).get('domain') ?? '') });
      setError('');
      onChanged();
    } catch (e) {
      setError(e instanceof ApiError && e.details.fields?.domain ? e.details.fields.domain : messageOf(e, 'Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  async function verify() {
    setBusy(true);
    try {
      const result = await apiRequest<DomainSetup & { problem: string | null; released?: boolean }>('POST', `${path}/verify`);
      setProblem(result.problem ?? '');
      if (result.verified) {
        toast({ title: 'Domain Verified', description: `Reports in this profile now link to ${result.domain}.` });
        onChanged();
      } else if (result.released) {
        toast({ title: 'Domain Taken', description: result.problem ?? '' });
        setProblem('');
        onChanged();
      }
    } catch (e) {
      setProblem(messageOf(e, 'Please try again.'));
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (!window.confirm(`Stop using ${domain?.domain}? Links in new e-mails go to our address again.`)) return;
    await apiRequest('DELETE', path);
    onChanged();
  }

  async function dismiss() {
    await apiRequest('DELETE', path);
    onChanged();
  }

  if (!domain) {
    return (
      <form className="domain-panel" onSubmit={add} noValidate>
        {released && <ReleasedNote released={released} onDismiss={() => void dismiss()} />}
        <label htmlFor={`domain-${profileId}`}>Report domain (optional)</label>
        <div className="domain-row">
          <input id={`domain-${profileId}`} name="domain" className="input" placeholder="reports.youragency.com" aria-invalid={error ? true : undefined} aria-describedby={error ? `domain-${profileId}-error` : undefined} />
          <button type="submit" className="btn btn-secondary" disabled={busy}>Add</button>
        </div>
        {error && <p className="field-error" id={`domain-${profileId}-error`}>{error}</p>}
      </form>
    );
  }
  return (
    <div className="domain-panel" data-testid="domain-panel">
      <p>
        Report domain <strong className="breakable">{domain.domain}</strong>{' '}
        {domain.verified ? <span className="status-pill" data-status="opened">Verified</span> : <span className="status-pill" data-status="claimed">Not verified yet</span>}
      </p>
      {!domain.verified && (
        <>
          <p className="muted small" data-testid="domain-claim">
            Until it is verified this claim holds nothing: whoever verifies the domain first gets it.
            {domain.claimExpiresAt && ` Unverified, it ends on ${day(domain.claimExpiresAt)}.`}
          </p>
          {domain.targetProblem && <p className="domain-target-problem" role="note" data-testid="domain-target-problem">{domain.targetProblem}</p>}
          <p className="muted small">Add {domain.records.length === 1 ? 'this record' : `these ${domain.records.length} records`} at your DNS host, then check:</p>
          <div className="dns-records">
            {domain.records.map((r) => (
              <DnsRecordView key={r.type} record={r} id={`${profileId}-${r.type}`} />
            ))}
          </div>
        </>
      )}
      {problem && <p className="field-error" role="alert">{problem}</p>}
      <div className="cf-actions">
        {!domain.verified && <button type="button" className="btn btn-secondary btn-sm" onClick={() => void verify()} disabled={busy}>{busy ? 'Checking...' : 'Check DNS'}</button>}
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void remove()}>Remove domain</button>
      </div>
    </div>
  );
}
