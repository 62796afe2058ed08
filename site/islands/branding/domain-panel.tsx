// A branding profile's report domain on /branding (decision 0172): add a host of the agency's
// own, the two DNS records to create, "Check DNS", and the state: verified, or what DNS showed.
import { useState, type FormEvent } from 'react';
import type { DomainSetup } from '../../../api/services/report-domains.ts';
import { ApiError, apiRequest, messageOf } from '../../lib/api.ts';
import { toast } from '../../lib/toasts.ts';

export default function DomainPanel({ profileId, domain, onChanged }: { profileId: string; domain: DomainSetup | null; onChanged: () => void }) {
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
      const result = await apiRequest<DomainSetup & { problem: string | null }>('POST', `${path}/verify`);
      setProblem(result.problem ?? '');
      if (result.verified) {
        toast({ title: 'Domain Verified', description: `Reports in this profile now link to ${result.domain}.` });
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

  if (!domain) {
    return (
      <form className="domain-panel" onSubmit={add} noValidate>
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
        Report domain <strong>{domain.domain}</strong>{' '}
        {domain.verified ? <span className="status-pill" data-status="opened">Verified</span> : <span className="status-pill" data-status="failed">Not verified yet</span>}
      </p>
      {!domain.verified && (
        <>
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
