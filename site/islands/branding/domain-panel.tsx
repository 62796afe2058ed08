// A branding profile's report domain on /branding (decisions 0172, 0213): add a host of the
// agency's own, the two DNS records to create, "Check DNS", and the state: verified; a claim not
// verified yet (which holds nothing: the first account to verify gets the domain, and it ends on
// its date); or a note that a claim was released (another account verified first, or 7 days).
import { useState, type FormEvent } from 'react';
import type { DomainSetup } from '../../../api/services/report-domains.ts';
import type { ReleasedDomain } from '../../../db/schema/consultants.ts';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';

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
          <p className="muted small">Add these two records at your DNS host, then check:</p>
          <dl className="dns-records">
            {domain.records.map((r) => (
              <div key={r.type}>
                <dt>{r.type}</dt>
                <dd>
                  <code className="breakable">{r.name}</code> → <code className="breakable" data-testid={`dns-${r.type}`}>{r.value}</code>
                </dd>
              </div>
            ))}
          </dl>
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
